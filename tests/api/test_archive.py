"""Issue 9, point 9: tables that are over can be archived (kept, exportable, hidden from the
lists) and deleted for good; an ended table asks nothing and waits for nobody; a table's
default name does not repeat its game."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.errors import NotFound
from scorekeeper.service import Hub
from scorekeeper.service.tokens import Unauthenticated, credential
from tests.api.games import find_test_game


def _ids(client: Any, query: str = "") -> list[str]:
    return [t["id"] for t in client.get(f"/api/tables{query}").json()]


def test_archive_hides_a_table_keeps_its_log_and_survives_a_restart(
    client: Any, org: Any, db: Path, new_table: Callable[..., str]
) -> None:
    tid = new_table()
    other = new_table()
    client.post(f"/api/tables/{tid}/inputs", headers=org, json={"input": "+play C1"})
    r = client.post(f"/api/tables/{tid}/archive", headers=org, json={"archived": True})
    assert r.status_code == 409 and "still running: end it" in r.json()["error"]
    assert client.post(f"/api/tables/{tid}/archive", json={"archived": True}).status_code == 401
    client.post(f"/api/tables/{tid}/end", headers=org)
    r = client.post(f"/api/tables/{tid}/archive", headers=org, json={"archived": True})
    assert r.status_code == 200 and r.json()["archived"] is True
    assert _ids(client) == [other]
    rows = client.get("/api/tables?archived=1").json()
    assert [(t["id"], t["archived"]) for t in rows] == [(tid, True), (other, False)]
    export = client.get(f"/api/tables/{tid}/export", headers=org)
    assert export.status_code == 200 and "+play C1" in export.text
    again = Hub.open(db, find_game=find_test_game)  # a restart reads the mark back
    try:
        assert [t["id"] for t in again.summaries()] == [other]
        assert again.summary(tid)["archived"] is True
    finally:
        again.close()
    r = client.post(f"/api/tables/{tid}/archive", headers=org, json={"archived": False})
    assert r.json()["archived"] is False and _ids(client) == [tid, other]


def test_delete_removes_an_ended_table_its_log_and_its_seat_tokens(
    client: Any, org: Any, hub: Hub, new_table: Callable[..., str]
) -> None:
    tid = new_table()
    keep = new_table()
    client.post(f"/api/tables/{tid}/inputs", headers=org, json={"input": "+play C1"})
    code = client.post(f"/api/tables/{tid}/seats/0/pair", headers=org).json()["code"]
    token = client.post("/api/pair", json={"code": code}).json()["token"]
    unused = client.post(f"/api/tables/{tid}/seats/1/pair", headers=org).json()["code"]
    r = client.delete(f"/api/tables/{tid}", headers=org)
    assert r.status_code == 409 and "only an ended or archived table" in r.json()["error"]
    assert client.delete(f"/api/tables/{tid}").status_code == 401
    client.post(f"/api/tables/{tid}/end", headers=org)
    r = client.delete(f"/api/tables/{tid}", headers=org)
    assert r.status_code == 200 and r.json() == {"deleted": tid, "records": 1}
    assert client.get(f"/api/tables/{tid}").status_code == 404
    assert _ids(client, "?archived=1") == [keep]
    with pytest.raises(NotFound):
        hub.store.records(tid)
    with pytest.raises(Unauthenticated):
        hub.tokens.identify(token)
    assert client.post("/api/pair", json={"code": unused}).status_code == 401
    assert hub.store.seat_token(credential(token)) is None  # its seat tokens went with it
    # its id is never given again, and an unnamed table is called by its number
    row = client.post("/api/tables", headers=org, json={"game": "fake", "seats": 2}).json()
    assert row["id"] not in (tid, keep) and row["name"] == f"Table {row['id'][1:]}"


def test_an_archived_table_that_never_ran_can_be_deleted(
    client: Any, org: Any, new_table: Callable[..., str]
) -> None:
    tid = new_table(start=False)
    client.post(f"/api/tables/{tid}/archive", headers=org, json={"archived": True})
    assert client.delete(f"/api/tables/{tid}", headers=org).json()["records"] == 0


def test_an_ended_table_asks_nothing_and_waits_for_nobody(
    client: Any, org: Any, new_table: Callable[..., str]
) -> None:
    tid = new_table(game="prompt")
    before = client.get(f"/api/tables/{tid}/organiser", headers=org).json()
    assert before["pending"] and before["waiting_for"]  # the seats are asked to pick
    client.post(f"/api/tables/{tid}/end", headers=org)
    for path in (f"/api/tables/{tid}", f"/api/tables/{tid}/organiser", f"/api/tables/{tid}/seat/0"):
        view = client.get(path, headers=org).json()
        assert view["pending"] == [] and view["waiting_for"] == "", path
    assert client.get("/api/tables").json()[0]["waiting_for"] == ""


def test_a_watcher_of_a_deleted_table_is_told(
    client: Any, org: Any, new_table: Callable[..., str]
) -> None:
    tid = new_table()
    client.post(f"/api/tables/{tid}/end", headers=org)
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        assert ws.receive_json()["id"] == tid
        assert client.delete(f"/api/tables/{tid}", headers=org).status_code == 200
        gone = ws.receive_json()
        assert gone["deleted"] is True and f"table {tid} was deleted" in gone["error"]
