"""``POST /api/tables/{id}/spectator-delay``: the public audience (the public view, the table
list, public WebSocket watchers) sees the table as it was N seconds ago; seats and the organiser
see it live. An injected clock wherever possible; the WebSocket path uses a short real delay."""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.api import create_app
from scorekeeper.service import Hub
from tests.api.games import find_test_game
from tests.service.test_delay import Clock

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def slow_hub(db: Path, clock: Clock) -> Iterator[Hub]:
    h = Hub.open(db, find_game=find_test_game, clock=clock)
    yield h
    h.close()


@pytest.fixture
def api(slow_hub: Hub) -> Iterator[TestClient]:
    with TestClient(create_app(slow_hub)) as c:
        yield c


@pytest.fixture
def org_header(slow_hub: Hub) -> dict[str, str]:
    token = slow_hub.tokens.ensure_organiser_token(slow_hub.token_file)
    assert token is not None
    return {"Authorization": f"Bearer {token}"}


def make_table(api: TestClient, org: dict[str, str]) -> str:
    r = api.post("/api/tables", json={"game": "fake", "seats": 2, "start": True}, headers=org)
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def seat_token(api: TestClient, org: dict[str, str], tid: str, seat: int) -> str:
    code = api.post(f"/api/tables/{tid}/seats/{seat}/pair", headers=org).json()["code"]
    return str(api.post("/api/pair", json={"code": code}).json()["token"])


def feed(api: TestClient, org: dict[str, str], tid: str, line: str) -> None:
    r = api.post(f"/api/tables/{tid}/inputs", json={"input": line}, headers=org)
    assert r.status_code == 200 and r.json()["accepted"], r.text


def delay(api: TestClient, tid: str, seconds: Any, headers: dict[str, str]) -> Any:
    return api.post(
        f"/api/tables/{tid}/spectator-delay", json={"seconds": seconds}, headers=headers
    )


def test_only_the_organiser_sets_it_within_0_to_600_seconds(
    api: TestClient, org_header: dict[str, str]
) -> None:
    tid = make_table(api, org_header)
    assert delay(api, tid, 30, {}).status_code == 401
    seat = {"Authorization": f"Bearer {seat_token(api, org_header, tid, 0)}"}
    assert delay(api, tid, 30, seat).status_code == 403
    for bad in (-1, 601, "soon", None):
        r = delay(api, tid, bad, org_header)
        assert r.status_code == 422 and "seconds" in r.json()["error"], (bad, r.text)
    assert delay(api, "t999", 30, org_header).status_code == 404
    r = delay(api, tid, 30, org_header)
    assert r.status_code == 200 and r.json() == {"table": tid, "spectator_delay": 30}
    assert delay(api, tid, 600, org_header).json()["spectator_delay"] == 600
    assert delay(api, tid, 0, org_header).json()["spectator_delay"] == 0


def test_spectators_see_the_table_as_it_was_seats_and_organiser_live(
    api: TestClient, org_header: dict[str, str], clock: Clock
) -> None:
    tid = make_table(api, org_header)
    feed(api, org_header, tid, "+play C1")
    seat0 = {"Authorization": f"Bearer {seat_token(api, org_header, tid, 0)}"}
    delay(api, tid, 30, org_header)
    view = api.get(f"/api/tables/{tid}").json()
    assert view["spectator_delay"] == 30 and view["state"]["play"] == ["C1"]
    clock.advance(1)
    feed(api, org_header, tid, "+play C2")
    feed(api, org_header, tid, "+hand C3")
    public = api.get(f"/api/tables/{tid}").json()
    assert public["state"]["play"] == ["C1"] and public["inputs"] == 1
    listed = api.get("/api/tables").json()[0]
    assert listed["scores"] == [1, 0] and listed["spectator_delay"] == 30
    as_organiser = api.get("/api/tables", headers=org_header).json()[0]
    assert as_organiser["scores"] == [2, 0] and "spectator_delay" not in as_organiser
    unknown = api.get("/api/tables", headers={"Authorization": "Bearer nope"}).json()[0]
    assert unknown["scores"] == [1, 0]  # an unknown token is just the public
    organiser = api.get(f"/api/tables/{tid}/organiser", headers=org_header).json()
    assert organiser["state"]["play"] == ["C1", "C2"] and organiser["spectator_delay"] == 30
    mine = api.get(f"/api/tables/{tid}/seat/0", headers=seat0).json()
    assert mine["state"]["hand"] == ["C3"] and "spectator_delay" not in mine
    assert api.get(f"/api/tables/{tid}/export").status_code == 409
    assert api.get(f"/api/tables/{tid}/export", headers=org_header).status_code == 200
    clock.advance(30)
    public = api.get(f"/api/tables/{tid}").json()
    assert public["state"]["play"] == ["C1", "C2"] and public["state"]["hand_count"] == 1
    assert api.get("/api/tables").json()[0]["scores"] == [2, 0]
    delay(api, tid, 0, org_header)
    feed(api, org_header, tid, "+play C4")
    public = api.get(f"/api/tables/{tid}").json()
    assert public["state"]["play"] == ["C1", "C2", "C4"] and "spectator_delay" not in public
    assert "spectator_delay" not in api.get("/api/tables").json()[0]


def test_the_setting_is_kept_across_a_restart(db: Path, clock: Clock) -> None:
    hub = Hub.open(db, find_game=find_test_game, clock=clock)
    token = hub.tokens.ensure_organiser_token(hub.token_file)
    org = {"Authorization": f"Bearer {token}"}
    with TestClient(create_app(hub)) as api:
        tid = make_table(api, org)
        delay(api, tid, 20, org)
    hub.close()
    hub = Hub.open(db, find_game=find_test_game, clock=clock)
    try:
        with TestClient(create_app(hub)) as api:
            assert api.get(f"/api/tables/{tid}").json()["spectator_delay"] == 20
            feed(api, org, tid, "+play C1")
            assert api.get(f"/api/tables/{tid}").json()["state"]["play"] == []
            clock.advance(20)
            assert api.get(f"/api/tables/{tid}").json()["state"]["play"] == ["C1"]
    finally:
        hub.close()


@pytest.mark.timeout(20)
def test_public_websocket_watchers_get_each_view_after_the_delay(
    client: Any, org: dict[str, str], new_table: Any
) -> None:
    tid = new_table()
    with (
        client.websocket_connect(f"/ws/tables/{tid}") as public,
        client.websocket_connect(f"/ws/tables/{tid}?token={org['Authorization'][7:]}") as mine,
    ):
        assert "spectator_delay" not in public.receive_json()
        mine.receive_json()
        assert delay(client, tid, 0.3, org).json()["spectator_delay"] == 0.3
        now = public.receive_json()  # the view of that moment, labelled, at once
        assert now["spectator_delay"] == 0.3 and now["inputs"] == 0
        mine.receive_json()
        start = time.monotonic()
        feed(client, org, tid, "+play C1")
        live = mine.receive_json()
        assert live["state"]["play"] == ["C1"] and "spectator_delay" not in live
        late = public.receive_json()
        assert time.monotonic() - start >= 0.3
        assert late["state"]["play"] == ["C1"] and late["spectator_delay"] == 0.3
        delay(client, tid, 0, org)  # off: the live view at once, unlabelled
        back = public.receive_json()
        assert back["state"]["play"] == ["C1"] and "spectator_delay" not in back
        mine.receive_json()
