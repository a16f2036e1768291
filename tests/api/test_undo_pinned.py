"""Issue 9, point 2: an undo or a correction names the input its preview showed; when the table
has moved on meanwhile it is refused (409, plain words) and changes nothing."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from scorekeeper.core.inputs import Seen
from scorekeeper.service import Hub


@pytest.fixture
def busy(hub: Hub, new_table: Callable[..., str]) -> Iterator[tuple[str, threading.Event]]:
    """A running table that a thread keeps feeding sightings (a card in and out of the hand)
    until the event is set."""
    tid = new_table(seats=["Ann", "Bob"])
    stop = threading.Event()

    def feed() -> None:
        present = True
        while not stop.is_set():
            hub.submit(tid, Seen("hand", "C1", present))
            present = not present
            stop.wait(0.002)

    thread = threading.Thread(target=feed, daemon=True)
    thread.start()
    yield tid, stop
    stop.set()
    thread.join(5)


def _undos(hub: Hub, tid: str) -> int:
    return sum(1 for _seq, r in hub.store.records(tid) if r.get("type") in ("undo", "correct"))


def test_undo_is_refused_when_the_table_moved_on_since_the_preview(
    client: Any, org: Any, hub: Hub, busy: tuple[str, threading.Event]
) -> None:
    tid, stop = busy
    assert hub.wait_inputs(tid, 5, 5)
    preview = client.get(f"/api/tables/{tid}/undo-preview", headers=org).json()
    shown = preview["input_seq"]
    assert isinstance(shown, int) and shown > 0
    assert hub.wait_inputs(tid, preview["inputs"] + 3, 5)  # the table moves on meanwhile
    for path, body in (("undo", {"seq": shown}), ("correct", {"input": "+play C2", "seq": shown})):
        r = client.post(f"/api/tables/{tid}/{path}", headers=org, json=body)
        assert r.status_code == 409, r.text
        error = r.json()["error"]
        assert error.startswith("The table has moved on since the preview: ")
        assert f"not #{shown}." in error and "Look again and confirm." in error
        assert "card 1" in error  # the card in words, not its id
    assert _undos(hub, tid) == 0  # nothing was logged or taken back
    stop.set()
    # the right seq is taken back, and only that one
    with hub.locked(tid):
        seq = hub.table(tid).last_accepted_seq
        accepted = hub.table(tid).referee.accepted_count
    preview = client.get(f"/api/tables/{tid}/undo-preview", headers=org).json()
    assert preview["input_seq"] == seq
    r = client.post(f"/api/tables/{tid}/undo", headers=org, json={"seq": seq})
    assert r.status_code == 200 and r.json()["accepted"], r.text
    view = client.get(f"/api/tables/{tid}/organiser", headers=org).json()
    assert view["accepted"] == accepted - 1
    assert view["put_back"]["kind"] == "undo" and "card 1" in view["put_back"]["text"]


def test_undo_and_correct_without_a_seq_say_to_preview_first(
    client: Any, org: Any, hub: Hub, new_table: Callable[..., str]
) -> None:
    tid = new_table()
    client.post(f"/api/tables/{tid}/inputs", headers=org, json={"input": "+play C1"})
    for path, body in (("undo", None), ("undo", {}), ("correct", {"input": "+play C2"})):
        r = client.post(f"/api/tables/{tid}/{path}", headers=org, json=body)
        assert r.status_code == 422, r.text
        assert "preview first" in r.json()["error"] and "input_seq" in r.json()["error"]
    assert _undos(hub, tid) == 0
    assert client.post(
        f"/api/tables/{tid}/correct", headers=org, json={"input": "+play C2", "seq": 1}
    ).json()["accepted"]
    # a preview of nothing to take back (input_seq null) is confirmed with seq 0
    assert client.post(f"/api/tables/{tid}/undo", headers=org, json={"seq": 2}).json()["accepted"]
    r = client.post(f"/api/tables/{tid}/undo", headers=org, json={"seq": 0})
    assert r.status_code == 200 and r.json()["rule"] == "TABLE-UNDO-EMPTY"


def test_an_undo_cannot_be_typed_as_an_input(
    client: Any, org: Any, hub: Hub, new_table: Callable[..., str]
) -> None:
    tid = new_table()
    client.post(f"/api/tables/{tid}/inputs", headers=org, json={"input": "+play C1"})
    for line in ("undo", "correct +play C2"):
        r = client.post(f"/api/tables/{tid}/inputs", headers=org, json={"input": line})
        assert r.status_code == 422 and "preview first" in r.json()["error"], line
    assert _undos(hub, tid) == 0
