"""WebSocket push, and reader sightings delivered from a backend's own thread."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from scorekeeper.core.inputs import Seen
from scorekeeper.service import Hub


def test_view_on_connect_and_after_each_input(
    client: Any, org: Any, new_table: Callable[..., str]
) -> None:
    tid = new_table()
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        first = ws.receive_json()
        assert first["id"] == tid and first["audience"] == "public" and first["inputs"] == 0
        client.post(f"/api/tables/{tid}/inputs", json={"input": "+play C2"}, headers=org)
        after = ws.receive_json()
        assert after["inputs"] == 1 and after["state"]["play"] == ["C2"]
        client.post(f"/api/tables/{tid}/pause", headers=org)
        assert ws.receive_json()["status"] == "paused"


def test_seat_socket_gets_its_own_view_and_wrong_tokens_are_refused(
    client: Any, org: Any, new_table: Callable[..., str]
) -> None:
    tid = new_table()
    other = new_table()
    code = client.post(f"/api/tables/{tid}/seats/0/pair", headers=org).json()["code"]
    token = client.post("/api/pair", json={"code": code}).json()["token"]
    client.post(f"/api/tables/{tid}/inputs", json={"input": "+hand C9"}, headers=org)
    with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
        view = ws.receive_json()
        assert view["audience"] == "seat 0" and view["state"]["hand"] == ["C9"]
    with client.websocket_connect(f"/ws/tables/{other}?token={token}") as ws:
        refused = ws.receive_json()
        assert "each phone sees only its own seat" in refused["error"]
    with client.websocket_connect(f"/ws/tables/{tid}?token=bogus") as ws:
        assert "not known" in ws.receive_json()["error"]
    with client.websocket_connect("/ws/tables/t99") as ws:
        assert "no table" in ws.receive_json()["error"]


def test_unknown_tag_from_reader_thread_is_refused_and_table_keeps_running(
    client: Any, org: Any, hub: Hub, new_table: Callable[..., str]
) -> None:
    tid = new_table(readers="sim", kit={"04A1B2C3D4E5F6": "C1"})
    backend = hub.readers(tid)
    assert backend is not None
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        ws.receive_json()
        worker = threading.Thread(target=backend.put, args=("r2", "04FFFFFFFFFFFF"))
        worker.start()
        worker.join()
        view = ws.receive_json()
        last = view["feed"][-1]
        assert not last["accepted"]
        assert last["rejection"]["rule"] == "TABLE-UNKNOWN-TAG"
        assert "04FFFFFFFFFFFF" in last["rejection"]["reason"]
        assert last["rejection"]["hint"]
        assert view["status"] == "running"
        worker = threading.Thread(target=backend.put, args=("r2", "04A1B2C3D4E5F6"))
        worker.start()
        worker.join()
        view = ws.receive_json()
        assert view["feed"][-1]["accepted"] and view["state"]["play"] == ["C1"]
    health = client.get(f"/api/tables/{tid}/organiser", headers=org).json()["readers"]
    assert set(health) == {"r1", "r2"} and health["r2"]["online"] is True


def test_sighting_for_a_paused_table_is_logged_as_refused_and_shown(
    client: Any, org: Any, hub: Hub, new_table: Callable[..., str]
) -> None:
    tid = new_table(readers="sim", kit={"04A1B2C3D4E5F6": "C1"})
    client.post(f"/api/tables/{tid}/pause", headers=org)
    hub.readers(tid).put("r2", "04A1B2C3D4E5F6")
    view = client.get(f"/api/tables/{tid}").json()
    assert view["inputs"] == 1 and view["accepted"] == 0 and view["status"] == "paused"
    assert view["feed"][-1]["rejection"]["rule"] == "TABLE-NOT-RUNNING"
    assert "put it back" in view["feed"][-1]["rejection"]["hint"]
    assert "paused" in view["notices"][-1]["text"]
    assert view["state"]["play"] == []


def test_views_arrive_in_order_ending_at_the_latest(
    client: Any, org: Any, hub: Hub, new_table: Callable[..., str]
) -> None:
    tid = new_table()
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        ws.receive_json()
        for n in range(1, 10):
            hub.submit(tid, Seen("play", f"C{n}", True))
        seen = []
        while True:
            view = ws.receive_json()
            seen.append(view["inputs"])
            if view["inputs"] == 9:
                break
        assert seen == sorted(seen) and seen[-1] == 9


def test_reader_going_offline_is_shown_at_the_table(
    org: Any, hub: Hub, new_table: Callable[..., str]
) -> None:
    tid = new_table(readers="sim")
    hub.readers(tid).set_online("r1", False)
    hub.check_readers()
    notice = hub.view(tid, "public")["notices"][-1]
    assert notice["rule"] == "TABLE-READER-OFFLINE" and "r1" in notice["text"]
    hub.readers(tid).set_online("r1", True)
    hub.check_readers()
    assert hub.view(tid, "public")["notices"][-1]["rule"] == "TABLE-READER-BACK"
    assert hub.status(tid) == "running"
