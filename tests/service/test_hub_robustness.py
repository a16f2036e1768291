"""The hub under damage and contention: broken tables, refusals while not running, exports
that do not stall the other tables, and concurrent starts that open readers once."""

from __future__ import annotations

import sqlite3
import threading
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.api import create_app
from scorekeeper.core.game import Game
from scorekeeper.core.inputs import Correct, Decision, Seen, Sighting, Undo
from scorekeeper.core.outcomes import Outcome
from scorekeeper.core.table import REFUSED, RULE_NOT_RUNNING
from scorekeeper.errors import StoreError
from scorekeeper.service import Hub, NotRunning
from scorekeeper.service.hub import TableStateError
from scorekeeper.store import Store, sqlite_url
from tests.api.games import find_test_game
from tests.fakes import FakeGame, FakeState

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

UID = "04A1B2C3D4E5F6"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "var" / "scorekeeper.db"


def _sql(db: Path, statement: str, *args: Any) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute(statement, args)


# -- 1. one damaged table does not stop the server ---------------------------------------------


def test_damaged_tables_load_as_broken_and_the_others_play_on(db: Path) -> None:
    hub = Hub.open(db, find_game=find_test_game)
    ids = [hub.create_table("fake", 2, name=f"table {n}") for n in range(4)]
    hub.start(ids[3])
    hub.submit(ids[3], Seen("play", "C1", True))
    hub.close()
    bad_json, no_game, odd_status, good = ids
    _sql(db, "UPDATE tables SET config = ? WHERE id = ?", "{not json", bad_json)
    _sql(db, "UPDATE tables SET config = ? WHERE id = ?", '{"seats": ["Ann"]}', no_game)
    _sql(db, "UPDATE tables SET status = ? WHERE id = ?", "exploded", odd_status)

    store = Store(sqlite_url(str(db)))
    try:
        for table_id in (bad_json, no_game):
            with pytest.raises(StoreError, match=f"table {table_id} is damaged"):
                store.config(table_id)
        assert store.config(good).name == "table 3"
    finally:
        store.close()

    hub = Hub.open(db, find_game=find_test_game)
    try:
        listed = {s["id"]: s for s in hub.summaries()}
        assert list(listed) == ids
        assert "not valid JSON" in listed[bad_json]["error"]
        assert "game" in listed[no_game]["error"]
        assert "unknown status 'exploded'" in listed[odd_status]["error"]
        assert "error" not in listed[good] and listed[good]["inputs"] == 1
        for broken in (bad_json, no_game, odd_status):
            with pytest.raises(TableStateError, match="cannot be loaded, so it takes no inputs"):
                hub.submit(broken, Seen("play", "C2", True))
            with pytest.raises(TableStateError, match="cannot be loaded"):
                hub.start(broken)
        assert hub.submit(good, Seen("play", "C2", True)).accepted
        with TestClient(create_app(hub)) as client:  # the server starts and lists them all
            r = client.get("/api/tables")
            assert r.status_code == 200 and [t["id"] for t in r.json()] == ids
            r = client.get(f"/api/tables/{bad_json}")
            assert r.status_code == 409 and "cannot be loaded" in r.json()["error"]
            assert client.get(f"/api/tables/{good}").json()["state"]["play"] == ["C1", "C2"]
    finally:
        hub.close()


# -- 2. an export does not hold the store lock while it replays -------------------------------


class GatedGame(FakeGame):
    """The fake game, but observing C9 blocks (once armed) until the test releases it."""

    def __init__(self) -> None:
        self.armed = False
        self.entered = threading.Event()
        self.release = threading.Event()

    def observe(self, state: FakeState, seen: Seen) -> Outcome:
        if self.armed and seen.piece == "C9":
            self.entered.set()
            self.release.wait(10)
        return super().observe(state, seen)


def test_an_export_replays_outside_the_store_lock(db: Path) -> None:
    game = GatedGame()
    find: Callable[[str], Game] = lambda _game_id: game  # noqa: E731
    hub = Hub.open(db, find_game=find)
    try:
        slow, other = hub.create_table("fake", 2), hub.create_table("fake", 2)
        hub.start(slow)
        hub.start(other)
        hub.submit(slow, Seen("play", "C9", True))
        game.armed = True
        exported: list[dict[str, Any]] = []
        exporter = threading.Thread(target=lambda: exported.append(hub.export(slow)))
        submitter = threading.Thread(target=hub.submit, args=(other, Seen("play", "C1", True)))
        exporter.start()
        try:
            assert game.entered.wait(5), "the export never replayed C9"
            submitter.start()  # another table's input, while the export is mid-replay
            submitter.join(3)
            not_stalled = not submitter.is_alive()
        finally:
            game.release.set()
            exporter.join(10)
            if submitter.is_alive() or submitter.ident is not None:
                submitter.join(10)
        assert not_stalled, "an export stalled another table's input"
        assert hub.inputs_seen(other) == 1
        assert [i["accepted"] for i in exported[0]["inputs"]] == [True]
        assert exported[0]["audience"] == "public" and exported[0]["scores"] == [1, 0]
    finally:
        hub.close()


# -- 3. an input for a table that is not running is logged as refused -------------------------


def test_inputs_while_not_running_are_logged_as_refused_and_replayed(db: Path) -> None:
    hub = Hub.open(db, find_game=find_test_game)
    try:
        tid = hub.create_table("fake", ["Ann", "Bea"], readers="sim", kit={UID: "C2"})
        with pytest.raises(NotRunning, match="not been started") as early:
            hub.submit(tid, Seen("play", "C1", True))
        assert "logged as refused" in str(early.value)
        first = hub.view(tid, "public")["feed"][-1]
        assert first["rejection"]["rule"] == RULE_NOT_RUNNING
        assert first["rejection"]["hint"].startswith("the organiser starts it")

        hub.start(tid)
        assert hub.submit(tid, Seen("play", "C1", True)).accepted
        hub.pause(tid)
        with pytest.raises(NotRunning, match="is paused") as paused:
            hub.submit(tid, Seen("play", "C3", True))
        assert "lift that card and put it back" in str(paused.value)
        hub.readers(tid).put("r2", UID)  # a card laid on a reader while paused
        assert hub.wait_inputs(tid, 4, 5)
        with pytest.raises(NotRunning):
            hub.submit(tid, Decision(0, "anything", "yes"))
        assert hub.submit(tid, Correct(Seen("play", "C4", True))).accepted  # still taken
        assert hub.submit(tid, Undo()).accepted

        view = hub.view(tid, "organiser")
        assert view["inputs"] == 7 and view["accepted"] == 0 and view["state"]["play"] == []
        feed = view["feed"]
        assert [e["accepted"] for e in feed] == [False, True, False, False, False, True, True]
        refusal = feed[2]["rejection"]
        assert refusal == {
            "rule": RULE_NOT_RUNNING,
            "reason": "the table is paused",
            "hint": "the organiser resumes it; then lift that card and put it back",
        }
        assert feed[3]["input"] == f"tag +r2 {UID}"
        assert feed[4]["rejection"]["hint"].endswith("then answer again")
        assert "paused" in view["notices"][-1]["text"]
        exported = hub.export(tid, "organiser")
        assert [{k: v for k, v in i.items() if k != "record"} for i in exported["inputs"]] == feed
        assert exported["inputs"][2]["record"][REFUSED] == refusal
        before = {aud: hub.view(tid, aud) for aud in ("public", "organiser", 0)}
    finally:
        hub.close()

    store = Store(sqlite_url(str(db)))
    try:
        records = [r for _seq, r in store.records(tid)]
        assert [REFUSED in r for r in records] == [True, False, True, True, True, False, False]
    finally:
        store.close()
    hub = Hub.open(db, find_game=find_test_game)  # replay: the same feed and state
    try:
        for aud, seen in before.items():
            after = hub.view(tid, aud)
            after.pop("notices", None)
            seen.pop("notices", None)
            assert after == seen
    finally:
        hub.close()


# -- 4. two concurrent starts open the readers once -------------------------------------------


class CountingBackend:
    """A reader backend that only counts how often it is started and stopped."""

    def __init__(self) -> None:
        self.starts = 0
        self.stops = 0

    def start(self, sink: Callable[[Sighting], None]) -> None:
        self.starts += 1

    def stop(self) -> None:
        self.stops += 1

    def health(self) -> dict[str, Any]:
        return {}


def test_concurrent_starts_open_the_readers_once(db: Path) -> None:
    hub = Hub.open(db, find_game=find_test_game, open_readers=lambda spec, **_: CountingBackend())
    tid = hub.create_table("fake", 2, readers="fake:readers")
    hub.close()

    opened: list[CountingBackend] = []

    def slow_open(spec: str, **_options: Any) -> CountingBackend:
        time.sleep(0.2)  # opening a serial port takes a while
        backend = CountingBackend()
        opened.append(backend)
        return backend

    hub = Hub.open(db, find_game=find_test_game, open_readers=slow_open)
    try:
        assert hub.readers(tid) is None  # a created table's readers open when it starts
        barrier = threading.Barrier(2)
        statuses: list[str] = []

        def start() -> None:
            barrier.wait()
            statuses.append(hub.start(tid))

        threads = [threading.Thread(target=start) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(5)
        assert statuses == ["running", "running"]
        assert len(opened) == 1 and opened[0].starts == 1
        assert hub.readers(tid) is opened[0]
        hub.start(tid)  # already attached: nothing more is opened
        assert len(opened) == 1
    finally:
        hub.close()
    assert opened[0].stops == 1
