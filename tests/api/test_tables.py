"""Tables through the API: life cycle, inputs, decisions, undo and corrections, errors."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from scorekeeper.core.inputs import Seen
from scorekeeper.service.hub import NotRunning
from tests.api.pinned import correct, undo


def test_create_and_start_as_organiser(client: Any, org: Any) -> None:
    r = client.post(
        "/api/tables",
        headers=org,
        json={"game": "fake", "seats": ["Ann", "Bob"], "name": "Table A", "options": {}},
    )
    assert r.status_code == 201
    table = r.json()
    assert table["seats"] == ["Ann", "Bob"] and table["name"] == "Table A"
    tid = table["id"]
    assert client.post(f"/api/tables/{tid}/start", headers=org).json()["status"] == "running"
    listed = client.get("/api/tables").json()
    assert [(t["id"], t["status"], t["scores"]) for t in listed] == [(tid, "running", [0, 0])]
    assert client.get("/healthz").json() == {"ok": True, "tables": 1}


def test_bad_create_requests_are_plain_errors(client: Any, org: Any) -> None:
    r = client.post("/api/tables", headers=org, json={"game": "chess", "seats": 2})
    assert r.status_code == 422 and "chess" in r.json()["error"]
    r = client.post("/api/tables", headers=org, json={"game": "fake", "seats": 9})
    assert r.status_code == 422 and "players" in r.json()["error"]
    r = client.post(
        "/api/tables", headers=org, json={"game": "fake", "seats": 2, "layout": {"r1": "nowhere"}}
    )
    assert r.status_code == 422 and "nowhere" in r.json()["error"]
    r = client.post(
        "/api/tables", headers=org, json={"game": "fake", "seats": 2, "readers": "bluetooth:x"}
    )
    assert r.status_code == 422 and "reader" in r.json()["error"]
    r = client.post(
        "/api/tables", headers=org, json={"game": "fake", "seats": 2, "kit": "no-such-kit"}
    )
    assert r.status_code == 404
    assert client.get("/api/tables").json() == []
    assert client.get("/api/tables/t9").status_code == 404


def test_inputs_refused_while_not_running(
    client: Any, org: Any, new_table: Callable[..., str]
) -> None:
    tid = new_table(start=False)
    r = client.post(f"/api/tables/{tid}/inputs", json={"input": "+play C1"}, headers=org)
    assert r.status_code == 409 and "not been started" in r.json()["error"]
    client.post(f"/api/tables/{tid}/start", headers=org)
    assert client.post(f"/api/tables/{tid}/inputs", json={"input": "+play C1"}, headers=org).json()[
        "accepted"
    ]
    assert client.post(f"/api/tables/{tid}/pause", headers=org).json()["status"] == "paused"
    r = client.post(f"/api/tables/{tid}/inputs", json={"input": "+play C2"}, headers=org)
    assert r.status_code == 409 and "paused" in r.json()["error"]
    # organiser corrections are still taken
    r = correct(client, org, tid, "+play C3")
    assert r.json()["accepted"]
    assert client.post(f"/api/tables/{tid}/pause", headers=org).status_code == 409
    assert client.post(f"/api/tables/{tid}/end", headers=org).json()["status"] == "ended"
    assert client.post(f"/api/tables/{tid}/start", headers=org).status_code == 409
    assert undo(client, org, tid).json()["accepted"]
    view = client.get(f"/api/tables/{tid}").json()
    # The two inputs refused for the table's status are in the log, as refused (invariant 4).
    assert view["inputs"] == 5 and view["accepted"] == 0
    refused = [e for e in view["feed"] if not e["accepted"]]
    assert [e["rejection"]["rule"] for e in refused[:2]] == ["TABLE-NOT-RUNNING"] * 2


def test_undo_and_correct(client: Any, org: Any, new_table: Callable[..., str]) -> None:
    tid = new_table()
    r = undo(client, org, tid).json()
    assert r == {
        "accepted": False,
        "seq": 1,
        "events": [],
        "rule": "TABLE-UNDO-EMPTY",
        "reason": "there is nothing to undo",
        "hint": "the game is at its start",
    }
    client.post(f"/api/tables/{tid}/inputs", json={"input": "+play C1"}, headers=org)
    client.post(f"/api/tables/{tid}/inputs", json={"input": "+play C2"}, headers=org)
    assert undo(client, org, tid).json()["accepted"]
    assert client.get(f"/api/tables/{tid}").json()["state"]["play"] == ["C1"]
    r = correct(client, org, tid, "+play C4")
    assert r.json()["accepted"] and "corrected" in r.json()["events"][0]
    r = correct(client, org, tid, "correct +play C5")
    assert r.json()["accepted"]
    assert client.get(f"/api/tables/{tid}").json()["state"]["play"] == ["C5"]
    r = client.post(f"/api/tables/{tid}/correct", json={"input": "undo"}, headers=org)
    assert r.status_code == 422 and "correction" in r.json()["error"]
    r = client.post(f"/api/tables/{tid}/inputs", json={"input": "hello there"}, headers=org)
    assert r.status_code == 422 and "not an input" in r.json()["error"]


def test_decisions_by_seat_and_organiser(
    client: Any, org: Any, new_table: Callable[..., str]
) -> None:
    tid = new_table(game="prompt", seats=3)
    tokens = {}
    for seat in (0, 1):
        code = client.post(f"/api/tables/{tid}/seats/{seat}/pair", headers=org).json()["code"]
        tokens[seat] = client.post("/api/pair", json={"code": code}).json()["token"]
    seat0 = {"Authorization": f"Bearer {tokens[0]}"}
    public = client.get(f"/api/tables/{tid}").json()
    assert public["pending"] == []  # private prompts are not shown to the public
    mine = client.get(f"/api/tables/{tid}/seat/0", headers=seat0).json()
    assert [p["seat"] for p in mine["pending"]] == [0]
    # a seat answers its own prompt
    r = client.post(
        f"/api/tables/{tid}/decisions", headers=seat0, json={"prompt": "pick", "answer": "red"}
    )
    assert r.json()["accepted"], r.json()
    # ... not another seat's
    r = client.post(
        f"/api/tables/{tid}/decisions",
        headers=seat0,
        json={"prompt": "pick", "answer": "red", "seat": 1},
    )
    assert r.status_code == 403
    # a wrong answer is refused with its rule, reason and hint
    r = client.post(
        f"/api/tables/{tid}/decisions",
        json={"prompt": "pick", "answer": "green"},
        headers={"Authorization": f"Bearer {tokens[1]}"},
    )
    assert r.status_code == 200
    assert r.json() == {
        "accepted": False,
        "seq": 2,
        "events": [],
        "rule": "R-PICK-1",
        "reason": "'green' is not a colour",
        "hint": "red or blue",
    }
    # no token at all
    assert (
        client.post(
            f"/api/tables/{tid}/decisions", json={"prompt": "pick", "answer": "red"}
        ).status_code
        == 401
    )
    # the organiser may answer for any seat
    r = client.post(
        f"/api/tables/{tid}/decisions",
        headers=org,
        json={"prompt": "pick", "answer": "blue", "seat": 2},
    )
    assert r.json()["accepted"]
    assert client.get(f"/api/tables/{tid}/seat/0", headers=seat0).json()["state"]["picks"] == {
        "0": "red"
    }
    assert client.get(f"/api/tables/{tid}").json()["state"]["picks"] == {}


def test_export_public_and_organiser(client: Any, org: Any, new_table: Callable[..., str]) -> None:
    tid = new_table()
    client.post(f"/api/tables/{tid}/inputs", json={"input": "+hand C3"}, headers=org)
    public = client.get(f"/api/tables/{tid}/export")
    assert public.status_code == 200, public.text
    assert "C3" not in public.text
    full = client.get(f"/api/tables/{tid}/export", headers=org)
    assert full.status_code == 200 and "C3" in full.text


def test_page_is_plain_and_self_contained(client: Any) -> None:
    r = client.get("/")
    assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    assert "/ws/tables/" in r.text and "<script src" not in r.text
    assert "http://" not in r.text and "https://" not in r.text


def test_a_typed_input_refused_asks_for_no_physical_move(
    client: Any, org: Any, hub: Any, new_table: Callable[..., str]
) -> None:
    """Nothing lies on the table for an input the organiser typed: its refusal never says "lift
    that card and put it back"; a card a reader saw on a paused table still gets that hint."""
    tid = new_table()
    assert client.post(f"/api/tables/{tid}/pause", headers=org).status_code == 200
    r = client.post(f"/api/tables/{tid}/inputs", json={"input": "+play C2"}, headers=org)
    assert r.status_code == 409
    error = r.json()["error"]
    assert "is paused" in error and "nothing to put back" in error
    assert "lift that card" not in error
    with pytest.raises(NotRunning) as laid:
        hub.submit(tid, Seen("play", "C3", True))  # what a reader reports
    assert "lift that card and put it back" in str(laid.value)
    hints = [
        e["rejection"]["hint"]
        for e in client.get(f"/api/tables/{tid}").json()["feed"]
        if not e["accepted"]
    ]
    assert "nothing to put back" in hints[-2] and "lift that card" not in hints[-2]
    assert "lift that card and put it back" in hints[-1]
