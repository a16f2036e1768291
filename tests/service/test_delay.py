"""The spectator delay: a time-stamped buffer of public views (an injected clock, no sleeps),
and the hub delaying only the public audience, the setting surviving a restart."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.core.game import ORGANISER, PUBLIC
from scorekeeper.core.inputs import Seen
from scorekeeper.core.table import TableConfig
from scorekeeper.errors import ConfigError
from scorekeeper.service import Hub, TableStateError
from scorekeeper.service.delay import (
    SpectatorDelay,
    check_seconds,
    labelled,
    read_seconds,
    write_seconds,
)
from scorekeeper.store import Store, sqlite_url
from tests.api.games import find_test_game
from tests.fakes import Clock


def facts(n: int) -> dict[str, Any]:
    return {"scores": [n]}


# --- the buffer ------------------------------------------------------------------------------


def test_a_view_is_shown_once_it_is_old_enough() -> None:
    clock = Clock()
    delay = SpectatorDelay(30, clock=clock)
    assert delay.shown() is None and delay.payload() is None
    delay.record(1, '{"v":1}', facts(1))  # the view of the moment it is switched on: at once
    assert delay.payload() == (1, '{"v":1,"spectator_delay":30}')
    clock.advance(5)
    delay.record(2, '{"v":2}', facts(2))
    clock.advance(10)
    delay.record(3, '{"v":3}', facts(3))
    assert delay.payload() == (1, '{"v":1,"spectator_delay":30}')
    assert delay.facts() == facts(1) and delay.pending == 2
    assert delay.due_in() == pytest.approx(20)
    clock.advance(19.9)
    assert delay.payload() is not None and delay.payload()[0] == 1  # type: ignore[index]
    clock.advance(0.1)  # view 2 is exactly 30 s old
    assert delay.payload() == (2, '{"v":2,"spectator_delay":30}')
    assert delay.facts() == facts(2) and delay.due_in() == pytest.approx(10)
    clock.advance(60)
    assert delay.payload() == (3, '{"v":3,"spectator_delay":30}')
    assert delay.pending == 0 and delay.due_in() is None


def test_lowering_the_delay_releases_at_once_raising_it_never_goes_back() -> None:
    clock = Clock()
    delay = SpectatorDelay(60, clock=clock)
    delay.record(1, '{"v":1}', facts(1))
    for version in (2, 3, 4):
        clock.advance(10)
        delay.record(version, f'{{"v":{version}}}', facts(version))
    delay.set_seconds(10)  # views 2 (20 s old) and 3 (10 s) are due now, 4 (0 s) is not
    assert delay.payload() == (3, '{"v":3,"spectator_delay":10}')
    delay.set_seconds(600)  # spectators keep view 3: they never go back in time
    assert delay.payload() == (3, '{"v":3,"spectator_delay":600}')
    clock.advance(599)
    assert delay.payload() is not None and delay.payload()[0] == 3  # type: ignore[index]
    clock.advance(1)
    assert delay.payload() == (4, '{"v":4,"spectator_delay":600}')


def test_the_buffer_is_bounded_and_never_shows_a_view_early() -> None:
    clock = Clock()
    delay = SpectatorDelay(100, clock=clock, max_views=8)
    delay.record(0, '{"v":0}', facts(0))
    recorded_at = {}
    for version in range(1, 41):
        clock.advance(1)
        recorded_at[version] = clock.now
        delay.record(version, f'{{"v":{version}}}', facts(version))
        assert delay.pending <= 8
    seen = []
    while delay.pending:
        wait = delay.due_in()
        assert wait is not None
        clock.advance(wait)
        version = delay.payload()[0]  # type: ignore[index]
        assert clock.now - recorded_at[version] >= 100  # never early
        seen.append(version)
    assert seen[-1] == 40 and seen == sorted(seen)  # the newest is always kept
    bytes_bound = SpectatorDelay(100, clock=clock, max_bytes=100)
    bytes_bound.record(0, "{}", {})
    for version in range(1, 30):
        bytes_bound.record(version, '{"pad":"' + "x" * 20 + '"}', {})
    assert bytes_bound.pending <= 4


def test_labels_and_the_seconds_a_delay_accepts() -> None:
    assert labelled("{}", 30) == '{"spectator_delay":30}'
    assert labelled('{"a":1}', 0.5) == '{"a":1,"spectator_delay":0.5}'
    assert json.loads(labelled('{"a":"}"}', 600)) == {"a": "}", "spectator_delay": 600}
    assert check_seconds(0) == 0.0 and check_seconds(600) == 600.0 and check_seconds(0.3) == 0.3
    for bad in (-1, 600.5, float("nan"), float("inf"), True, "30", None):
        with pytest.raises(ConfigError, match="spectator delay"):
            check_seconds(bad)


def test_the_setting_is_kept_with_the_table_and_read_back_within_its_limits(
    tmp_path: Path,
) -> None:
    with Store(sqlite_url(str(tmp_path / "sk.db"))) as store:
        t1, t2 = (store.create_table(TableConfig(game="fake", seats=("a", "b"))) for _ in "12")
        assert read_seconds(store, t1) == 0.0
        write_seconds(store, t1, 45)
        assert read_seconds(store, t1) == 45.0 and read_seconds(store, t2) == 0.0
        assert store.spectator_delay(t1) == 45.0
        with pytest.raises(ConfigError, match="spectator delay"):
            write_seconds(store, t2, 601)  # refused before anything is stored
        store.set_spectator_delay(t2, 9999)  # written behind the server's back: off
        assert read_seconds(store, t2) == 0.0 and store.spectator_delay(t2) == 9999.0


def test_pump_delivers_due_views_and_sets_a_loop_timer_for_the_next() -> None:
    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        clock = Clock()
        delay = SpectatorDelay(30, clock=clock)
        sent: list[tuple[int, str]] = []
        delay.record(1, '{"v":1}', {})
        delay.pump(loop, lambda v, p: sent.append((v, p)))
        assert sent == [(1, '{"v":1,"spectator_delay":30}')] and delay._timer is None
        clock.advance(1)
        delay.record(2, '{"v":2}', {})
        before = loop.time()
        delay.pump(loop, lambda v, p: sent.append((v, p)))
        after = loop.time()
        timer = delay._timer
        assert len(sent) == 1 and timer is not None
        # set for 30 s on the delay's clock (and 1 ms late rather than early), however long
        # the pump itself took
        assert before + 30.001 <= timer.when() <= after + 30.001
        clock.advance(30)
        delay.pump(loop, lambda v, p: sent.append((v, p)))  # what the timer does when due
        assert sent[-1][0] == 2 and timer.cancelled() and delay._timer is None
        delay.pump(loop, lambda v, p: sent.append((v, p)))
        assert len(sent) == 2  # nothing new: nothing sent again
        clock.advance(1)
        delay.record(3, '{"v":3}', {})
        delay.pump(loop, lambda v, p: sent.append((v, p)))
        assert delay._timer is not None
        delay.close()
        assert delay._timer is None
        clock.advance(60)
        delay.pump(loop, lambda v, p: sent.append((v, p)))
        assert len(sent) == 2  # closed: the delay is off

    asyncio.run(scenario())


# --- the hub ---------------------------------------------------------------------------------


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def hub(tmp_path: Path, clock: Clock) -> Iterator[Hub]:
    h = Hub.open(tmp_path / "sk.db", find_game=find_test_game, clock=clock)
    yield h
    h.close()


def play(hub: Hub, table_id: str, card: str) -> None:
    assert hub.submit(table_id, Seen("play", card, True)).accepted


def public(hub: Hub, table_id: str) -> dict[str, Any]:
    view: dict[str, Any] = json.loads(hub.view_json(table_id, PUBLIC))
    return view


def test_only_the_public_audience_is_delayed(hub: Hub, clock: Clock) -> None:
    tid = hub.create_table("fake", 2)
    hub.start(tid)
    play(hub, tid, "C1")
    assert hub.spectator_delay(tid) == 0 and "spectator_delay" not in public(hub, tid)
    assert hub.set_spectator_delay(tid, 30) == 30 and hub.spectator_delay(tid) == 30
    shown = public(hub, tid)
    assert shown["spectator_delay"] == 30 and shown["state"]["play"] == ["C1"]
    clock.advance(1)
    play(hub, tid, "C2")
    hub.submit(tid, Seen("hand", "C3", True))
    assert public(hub, tid)["state"]["play"] == ["C1"]
    assert "spectator_delay" not in json.loads(hub.view_json(tid, ORGANISER))
    assert json.loads(hub.view_json(tid, ORGANISER))["state"]["play"] == ["C1", "C2"]
    assert json.loads(hub.view_json(tid, 0))["state"]["hand"] == ["C3"]
    assert hub.view(tid, PUBLIC)["state"]["play"] == ["C1", "C2"]  # the hub's own: live
    summary = hub.summary(tid)
    assert summary["scores"] == [1, 0] and summary["inputs"] == 1
    assert summary["spectator_delay"] == 30
    assert hub.summary(tid, delayed=False)["scores"] == [2, 0]
    assert "spectator_delay" not in hub.summary(tid, delayed=False)
    assert [s["scores"] for s in hub.summaries()] == [[1, 0]]
    clock.advance(29)  # 29 s after C2: not yet
    assert public(hub, tid)["state"]["play"] == ["C1"]
    clock.advance(1)
    assert public(hub, tid)["state"]["play"] == ["C1", "C2"]
    assert hub.summary(tid)["scores"] == [2, 0] and hub.summary(tid)["inputs"] == 3
    assert public(hub, tid)["state"]["hand_count"] == 1
    hub.pause(tid)
    assert public(hub, tid)["status"] == "running" and hub.summary(tid)["status"] == "running"
    clock.advance(30)
    assert public(hub, tid)["status"] == "paused" and hub.summary(tid)["status"] == "paused"


def test_turning_it_off_shows_the_live_view_at_once(hub: Hub, clock: Clock) -> None:
    tid = hub.create_table("fake", 2)
    hub.start(tid)
    hub.set_spectator_delay(tid, 600)
    play(hub, tid, "C1")
    assert public(hub, tid)["state"]["play"] == []
    hub.set_spectator_delay(tid, 0)
    view = public(hub, tid)
    assert view["state"]["play"] == ["C1"] and "spectator_delay" not in view
    assert hub.summary(tid)["scores"] == [1, 0] and "spectator_delay" not in hub.summary(tid)
    with pytest.raises(ConfigError):
        hub.set_spectator_delay(tid, 601)
    with pytest.raises(ConfigError):
        hub.set_spectator_delay(tid, -1)
    assert hub.spectator_delay(tid) == 0


def test_the_delay_survives_a_restart(tmp_path: Path, clock: Clock) -> None:
    db = tmp_path / "sk.db"
    hub = Hub.open(db, find_game=find_test_game, clock=clock)
    tid = hub.create_table("fake", 2)
    other = hub.create_table("fake", 2)
    hub.start(tid)
    play(hub, tid, "C1")
    hub.set_spectator_delay(tid, 45)
    ended, quiet = hub.create_table("fake", 2), hub.create_table("fake", 2)
    for table_id in (ended, quiet):
        hub.start(table_id)
        hub.end(table_id)
    hub.set_spectator_delay(ended, 10)
    hub.close()
    hub = Hub.open(db, find_game=find_test_game, clock=clock)
    try:
        assert hub.spectator_delay(tid) == 45 and hub.spectator_delay(other) == 0
        # An ended table with a delay is loaded at the start (its delay holds views to show);
        # one without is listed from its summary.
        assert ended in hub.loaded() and quiet not in hub.loaded()
        assert hub.spectator_delay(ended) == 10
        assert hub.store.spectator_delay(tid) == 45.0
        assert hub.store.meta_prefixed("spectator-delay:") == {}  # not a meta string any more
        view = public(hub, tid)
        assert view["spectator_delay"] == 45 and view["state"]["play"] == ["C1"]
        play(hub, tid, "C2")
        assert public(hub, tid)["state"]["play"] == ["C1"]
        clock.advance(45)
        assert public(hub, tid)["state"]["play"] == ["C1", "C2"]
        assert "spectator_delay" not in public(hub, other)
    finally:
        hub.close()


def test_the_public_export_waits_while_the_table_is_delayed(hub: Hub) -> None:
    tid = hub.create_table("fake", 2)
    hub.start(tid)
    hub.set_spectator_delay(tid, 10)
    with pytest.raises(TableStateError, match="delay"):
        hub.export(tid, PUBLIC)
    assert hub.export(tid, ORGANISER)
    hub.set_spectator_delay(tid, 0)
    assert hub.export(tid, PUBLIC)


class SkippingLoop(asyncio.SelectorEventLoop):
    """An event loop whose clock runs in real time and also jumps whenever the test moves the
    hand-moved clock: a loop timer set for N seconds of the delay fires as soon as the test
    moves that clock by N, with no waiting."""

    def __init__(self, clock: Clock) -> None:
        super().__init__()
        self.hand_clock = clock
        self.hand_start = clock.now

    def time(self) -> float:
        return super().time() + (self.hand_clock.now - self.hand_start)


# Turns a hang into a failure; nothing here takes more than milliseconds on any machine. The
# delay is longer, so a reader's thread that slept it out in real time fails too.
HANG_GUARD = 30.0


def test_public_watchers_get_the_delayed_view_from_a_loop_timer(
    tmp_path: Path, clock: Clock
) -> None:
    """A reader's thread publishes; seats and the organiser get it at once, public watchers
    when it is old enough, from a timer on the loop. The delay's clock is moved by hand: until
    the test moves it, the view is not due, however slow or fast the machine."""
    hub = Hub.open(tmp_path / "sk.db", find_game=find_test_game, clock=clock)
    tid = hub.create_table("fake", 2)
    hub.start(tid)

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        hub.bind_loop(loop)
        watcher = hub.subscribe(tid, PUBLIC)
        organiser = hub.subscribe(tid, ORGANISER)
        assert "spectator_delay" not in json.loads(await watcher.next())
        await organiser.next()
        await asyncio.to_thread(hub.set_spectator_delay, tid, 60)
        labelled_view = json.loads(await asyncio.wait_for(watcher.next(), HANG_GUARD))
        assert labelled_view["spectator_delay"] == 60 and labelled_view["inputs"] == 0
        shown = watcher.version
        await organiser.next()
        reader = threading.Thread(target=play, args=(hub, tid, "C1"), daemon=True)
        reader.start()
        reader.join(HANG_GUARD)
        # The delay's clock has not moved: a reader's thread that waited for the view to be
        # due would still be waiting.
        if reader.is_alive():
            clock.advance(3600)  # let it go, so that the failure is reported, not a hang
            pytest.fail("the reader's thread waits for the spectator delay")
        live = json.loads(await asyncio.wait_for(organiser.next(), HANG_GUARD))
        assert live["state"]["play"] == ["C1"] and "spectator_delay" not in live
        # The hand-over that gave the organiser its view also pumped the delay: nothing for
        # the public yet, the view is 0 s old.
        assert watcher.version == shown and not watcher.event.is_set()
        clock.advance(59)  # 59 s old: not due, for the watchers or a reader of the view
        assert public(hub, tid)["state"]["play"] == [] and watcher.version == shown
        clock.advance(1)  # 60 s old: due; only the loop timer hands it to the watcher
        late = json.loads(await asyncio.wait_for(watcher.next(), HANG_GUARD))
        assert late["state"]["play"] == ["C1"] and late["spectator_delay"] == 60
        later = hub.subscribe(tid, PUBLIC)  # a new public watcher gets the delayed view
        assert json.loads(await later.next())["spectator_delay"] == 60
        for sub in (watcher, organiser, later):
            hub.unsubscribe(sub)

    try:
        with asyncio.Runner(loop_factory=lambda: SkippingLoop(clock)) as runner:
            runner.run(scenario())
    finally:
        hub.close()
