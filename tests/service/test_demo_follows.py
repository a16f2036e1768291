"""Issue 9, point 3: the demo survives an organiser. After an undo or a correction the bots
rebuild their world from the table's accepted inputs and play on with no refusals; a paused
table pauses them; a restart resumes; a move the world never made deals a fresh game; a demo
of one game pauses the other game's demo table, which nothing plays any more."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from scorekeeper.core.inputs import Correct, Seen, Undo
from scorekeeper.core.table import FeedEntry, Table
from scorekeeper.service import Hub
from scorekeeper.service.demo import DemoDriver

AD = "angels-and-demons"


def _wait(what: Callable[[], bool], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not what():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def _accepted(hub: Hub, tid: str) -> int:
    with hub.locked(tid):
        return hub.table(tid).referee.accepted_count


class Refusals:
    """Counts the refused inputs of a table from the moment it is attached."""

    def __init__(self, hub: Hub, tid: str) -> None:
        self.lines: list[str] = []
        with hub.locked(tid):
            hub.table(tid).listeners.append(self)

    def __call__(self, _table: Table, entry: FeedEntry) -> None:
        if not entry.accepted:
            self.lines.append(f"#{entry.seq} {entry.input}: {entry.rejection}")


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "demo.db"


@pytest.fixture
def driven(db: Path) -> Iterator[tuple[Hub, DemoDriver]]:
    hub = Hub.open(db)
    driver = DemoDriver(hub, game=AD, seats=3, seed=4, pace=0.001, next_game_after=60)
    yield hub, driver
    driver.stop()
    hub.close()


def _undo(hub: Hub, tid: str) -> None:
    with hub.locked(tid):  # the organiser previews and confirms: pinned to what it saw
        seq = hub.table(tid).last_accepted_seq
        assert hub.submit(tid, Undo(), expect_seq=seq).accepted


def test_undo_correct_pause_and_restart_leave_no_refusals(
    db: Path, driven: tuple[Hub, DemoDriver]
) -> None:
    hub, driver = driven
    tid = driver.prepare().table_id
    refusals = Refusals(hub, tid)
    driver.start()
    _wait(lambda: _accepted(hub, tid) >= 40)
    for _ in range(3):
        _undo(hub, tid)
    low = _accepted(hub, tid)
    _wait(lambda: _accepted(hub, tid) >= low + 30)
    with hub.locked(tid):  # a correction the bots can follow: the same move, read again
        table = hub.table(tid)
        last = table.referee.last_accepted
        assert last is not None
        assert hub.submit(tid, Correct(last), expect_seq=table.last_accepted_seq).accepted
    low = _accepted(hub, tid)
    _wait(lambda: _accepted(hub, tid) >= low + 20)
    hub.pause(tid)
    time.sleep(0.05)
    paused = hub.inputs_seen(tid)
    time.sleep(0.3)
    assert hub.inputs_seen(tid) == paused  # a paused table pauses the bots
    _undo(hub, tid)  # an undo while paused
    hub.start(tid)
    low = _accepted(hub, tid)
    _wait(lambda: _accepted(hub, tid) >= low + 20)
    assert driver.current is not None and driver.current.table_id == tid
    assert refusals.lines == []
    assert driver.syncs >= 4  # start, three undos at once or apart, the correction, the pause
    driver.stop()
    assert hub.status(tid) == "paused"  # nothing plays it now: it does not claim to run
    hub.close()

    again = Hub.open(db)  # a restart after all of that resumes the same game cleanly
    second = DemoDriver(again, game=AD, seats=3, seed=4, pace=0.001, next_game_after=60)
    try:
        assert second.prepare().table_id == tid and again.status(tid) == "running"
        refusals = Refusals(again, tid)
        low = _accepted(again, tid)
        second.start()
        _wait(lambda: _accepted(again, tid) >= low + 30)
        assert refusals.lines == []
    finally:
        second.stop()
        again.close()


def test_a_move_the_world_never_made_deals_a_fresh_game(driven: tuple[Hub, DemoDriver]) -> None:
    hub, driver = driven
    driver.pace = 0.01  # slow enough that the game is not over before the organiser steps in
    tid = driver.prepare().table_id
    driver.start()
    _wait(lambda: _accepted(hub, tid) >= 20)

    # The organiser feeds a card lifted off the talon that no bot lifted (should a bot have
    # been about to lift that very card, the bots follow and the organiser tries again).
    def moved_on() -> bool:
        return driver.current is not None and driver.current.table_id != tid

    for _attempt in range(20):
        with hub.locked(tid):
            talon = hub.view(tid, "organiser")["state"]["talon"]
            fed = bool(talon) and hub.submit(tid, Seen("talon", talon[-1], False)).accepted
        deadline = time.monotonic() + (2 if fed else 0.02)
        while not moved_on() and time.monotonic() < deadline:
            time.sleep(0.01)
        if moved_on():
            break
    assert moved_on()
    assert hub.status(tid) == "ended"
    notices = " ".join(n["text"] for n in hub.view(tid, "public").get("notices", []))
    new = driver.current.table_id if driver.current else ""
    assert "cannot play on" in notices and f"a fresh demo game is dealt at table {new}" in notices
    refusals = Refusals(hub, new)
    _wait(lambda: _accepted(hub, new) >= 20)
    assert refusals.lines == [] and hub.status(new) == "running"


def test_a_demo_of_one_game_pauses_the_other_games_demo_table(db: Path) -> None:
    hub = Hub.open(db)
    try:
        arcanum = DemoDriver(hub, game="arcanum", seats=3, seed=1, pace=0.001)
        other = arcanum.prepare().table_id
        assert hub.status(other) == "running"
        first = DemoDriver(hub, game=AD, seats=3, seed=1, pace=0.001).prepare().table_id
        assert hub.status(other) == "paused" and hub.status(first) == "running"
        assert "no demo is playing this table" in hub.view(other, "public")["notices"][-1]["text"]
        assert hub.summary(first)["name"] == "Demo, seed 1"  # not the game's name again
        # --new ends the current demo table and deals a fresh game with the next seed
        fresh = DemoDriver(hub, game=AD, seats=3, seed=1, pace=0.001).prepare(new=True)
        assert fresh.table_id != first and fresh.seed == 2 and hub.status(first) == "ended"
    finally:
        hub.close()


def test_an_undo_after_the_game_ended_lets_the_bots_finish_it_again(
    driven: tuple[Hub, DemoDriver],
) -> None:
    hub, driver = driven
    tid = driver.prepare().table_id
    driver.start()

    def over() -> bool:
        with hub.locked(tid):
            table = hub.table(tid)
            return bool(table.game.is_over(table.state))

    _wait(over, 60)
    refusals = Refusals(hub, tid)
    for _ in range(5):
        _undo(hub, tid)
    assert not over()
    _wait(over)  # the bots played the last moves again, on the same table
    assert refusals.lines == [] and driver.current is not None
    assert driver.current.table_id == tid
