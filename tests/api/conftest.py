"""Fixtures for the API tests: a hub on a temporary SQLite file, its app and organiser token."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.api import create_app
from scorekeeper.service import Hub
from tests.api.games import find_test_game

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "var" / "scorekeeper.db"


@pytest.fixture
def hub(db: Path) -> Iterator[Hub]:
    h = Hub.open(db, find_game=find_test_game)
    yield h
    h.close()


@pytest.fixture
def organiser_token(hub: Hub) -> str:
    token = hub.tokens.ensure_organiser_token(hub.token_file)
    assert token is not None
    return token


@pytest.fixture
def org(organiser_token: str) -> dict[str, str]:
    """The organiser's Authorization header."""
    return {"Authorization": f"Bearer {organiser_token}"}


@pytest.fixture
def client(hub: Hub) -> Iterator[TestClient]:
    with TestClient(create_app(hub)) as c:
        yield c


@pytest.fixture
def real(tmp_path: Path) -> Iterator[tuple[TestClient, dict[str, str]]]:
    """The app on a hub with the real games (not the test game), and the organiser's header."""
    real_hub = Hub.open(tmp_path / "sk.db")
    token = real_hub.tokens.ensure_organiser_token(real_hub.token_file)
    with TestClient(create_app(real_hub)) as c:
        yield c, {"Authorization": f"Bearer {token}"}
    real_hub.close()


@pytest.fixture
def new_table(client: TestClient, org: dict[str, str]) -> Callable[..., str]:
    """Create a table as the organiser (started by default); returns its id."""

    def make(game: str = "fake", seats: Any = 2, start: bool = True, **extra: Any) -> str:
        body = {"game": game, "seats": seats, "start": start, **extra}
        r = client.post("/api/tables", json=body, headers=org)
        assert r.status_code == 201, r.text
        return str(r.json()["id"])

    return make
