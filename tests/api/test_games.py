"""GET /api/games and /api/boards, and creating an Arcanum table through the API."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from scorekeeper.api import create_app
from scorekeeper.service import Hub

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


@pytest.fixture
def real(tmp_path: Path) -> Iterator[tuple[TestClient, dict[str, str]]]:
    hub = Hub.open(tmp_path / "sk.db")
    token = hub.tokens.ensure_organiser_token(hub.token_file)
    with TestClient(create_app(hub)) as client:
        yield client, {"Authorization": f"Bearer {token}"}
    hub.close()


def test_games_list_their_options_and_what_must_be_asked(
        real: tuple[TestClient, dict[str, str]]) -> None:
    client, _ = real
    games = {g["id"]: g for g in client.get("/api/games").json()}
    assert {"angels-and-demons", "arcanum"} <= set(games)
    arcanum = games["arcanum"]
    assert (arcanum["min_seats"], arcanum["max_seats"]) == (3, 5)
    options = {o["name"]: o for o in arcanum["options"]}
    assert options["board"]["ask"] is True and options["length"]["ask"] is False
    assert options["variant"]["choices"] == ["full", "first_game", "simplest"]


def test_boards_are_listed_whole_with_what_is_missing(
        real: tuple[TestClient, dict[str, str]]) -> None:
    client, _ = real
    boards = {b["name"]: b for b in client.get("/api/boards").json()}
    assert boards["sample"]["sample"] is True and boards["sample"]["complete"] is True
    assert boards["known"]["complete"] is False
    assert any("Cathedral" in p for p in boards["known"]["problems"])


def test_an_arcanum_table_is_refused_without_a_board_and_made_with_one(
        real: tuple[TestClient, dict[str, str]]) -> None:
    client, org = real
    r = client.post("/api/tables", json={"game": "arcanum", "seats": 3}, headers=org)
    assert r.status_code == 422 and "board" in r.json()["error"]
    r = client.post("/api/tables", json={"game": "arcanum", "seats": ["Ann", "Bea", "Cid"],
                                         "options": {"board": "sample"}, "start": True},
                    headers=org)
    assert r.status_code == 201, r.text
    view = client.get(f"/api/tables/{r.json()['id']}").json()
    assert view["state"]["board"] == {"name": "sample", "sample": True}
    assert view["state"]["phase"] == "setup"
