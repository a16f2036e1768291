"""GET /api/games and an Arcanum board kind's entries, and creating an Arcanum table through
the API."""

from __future__ import annotations

import re
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


def test_games_list_their_options_and_what_must_be_asked(
    real: tuple[TestClient, dict[str, str]],
) -> None:
    client, _ = real
    games = {g["id"]: g for g in client.get("/api/games").json()}
    assert {"angels-and-demons", "arcanum"} <= set(games)
    arcanum = games["arcanum"]
    assert (arcanum["min_seats"], arcanum["max_seats"]) == (3, 5)
    options = {o["name"]: o for o in arcanum["options"]}
    assert options["board"]["ask"] is True and options["length"]["ask"] is False
    variant = options["variant"]
    assert [c["value"] for c in variant["choices"]] == ["full", "first_game", "simplest"]
    assert [c["label"] for c in variant["choices"]] == ["Full game", "First game", "Simplest game"]
    assert [c["default"] for c in variant["choices"]] == [True, False, False]
    assert variant["default"] == "full" and variant["label"] == "Variant"
    assert options["start_seat"]["choices"] is None  # a free value


@pytest.mark.parametrize("game_id", ["angels-and-demons", "arcanum"])
def test_every_option_is_described_in_words_with_labelled_choices(
    real: tuple[TestClient, dict[str, str]], game_id: str
) -> None:
    """Each option has a label and help in words; each choice a label (never its raw value,
    a rule id or snake_case) and a one-line explanation; exactly one choice is the default."""
    client, _ = real
    game = next(g for g in client.get("/api/games").json() if g["id"] == game_id)
    for option in game["options"]:
        assert set(option) == {"name", "label", "help", "default", "ask", "choices"}
        words = [option["label"], option["help"]]
        if option["choices"] is not None:
            assert [c["default"] for c in option["choices"]].count(True) == 1
            for choice in option["choices"]:
                assert set(choice) == {"value", "label", "help", "default"}
                assert choice["label"] != str(choice["value"]) and choice["help"]
                assert (choice["value"] == option["default"]) is choice["default"]
                words += [choice["label"], choice["help"]]
        for text in words:
            assert text and not re.search(r"\b[A-Z]+-[A-Z]*-?\d+\b|\b[a-z]+_[a-z0-9_]+\b", text), (
                option["name"],
                text,
            )


def test_boards_are_listed_whole_with_what_is_missing(
    real: tuple[TestClient, dict[str, str]],
) -> None:
    client, _ = real
    boards = {b["name"]: b for b in client.get("/api/data/arcanum/board").json()}
    assert boards["sample"]["sample"] is True and boards["sample"]["complete"] is True
    assert boards["known"]["complete"] is False
    assert any("Cathedral" in p for p in boards["known"]["problems"])


def test_an_arcanum_table_is_refused_without_a_board_and_made_with_one(
    real: tuple[TestClient, dict[str, str]],
) -> None:
    client, org = real
    r = client.post("/api/tables", json={"game": "arcanum", "seats": 3}, headers=org)
    assert r.status_code == 422 and "board" in r.json()["error"]
    r = client.post(
        "/api/tables",
        json={
            "game": "arcanum",
            "seats": ["Ann", "Bea", "Cid"],
            "options": {"board": "sample"},
            "start": True,
        },
        headers=org,
    )
    assert r.status_code == 201, r.text
    view = client.get(f"/api/tables/{r.json()['id']}").json()
    assert view["state"]["board"] == {"name": "sample", "sample": True}
    assert view["state"]["phase"] == "setup"
