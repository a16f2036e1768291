"""A slow commit overlaps the work after it, and nothing is seen before it is durable.

The hub's log sink (``service/log_sink.LockedSink``) can hand a commit to the log-commit
thread, so that the table applies the input and the hub renders the views while the fsync is in
flight; the views are handed to the watchers only once the commit has returned (invariant 1).
A write that fails is never seen: the table is replayed from its log. Each test holds or fails
the commit with a gate around the store's real sink; no test times anything (HANG_GUARD only
turns a hang into a failure, and the sink's choice is tested on a hand-moved clock).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.core.game import ORGANISER, PUBLIC
from scorekeeper.core.inputs import Seen
from scorekeeper.core.table import FEED_LENGTH
from scorekeeper.errors import StoreError
from scorekeeper.service import Hub
from scorekeeper.service.live import Live, dumps
from scorekeeper.service.log_sink import PROBE_EVERY, LockedSink
from scorekeeper.service.watchers import Subscriber
from tests.api.games import find_test_game

HANG_GUARD = 30.0


class GateSink:
    """The store's sink for one table, whose commits the test can hold or make fail."""

    def __init__(self, sink: Any) -> None:
        self.sink = sink
        self.open = threading.Event()
        self.open.set()
        self.entered = threading.Event()
        # Raise StoreError: "commit" once the row is in, before its commit (rolled back: not
        # logged), or "after" the commit (logged: a marker that cannot be written).
        self.fail = ""
        self.durable: list[int] = []  # the seqs committed, in order

    def append(self, record: dict[str, Any], started: Callable[[int], None] | None = None) -> int:
        def held(seq: int) -> None:
            if started is not None:
                started(seq)  # the hub goes on: it applies the input and renders meanwhile
            self.entered.set()
            assert self.open.wait(HANG_GUARD), "the test never let the commit go"
            if self.fail == "commit":
                raise StoreError("the disk is full (a test)")

        seq = int(self.sink.append(record, started=held))
        self.durable.append(seq)
        if self.fail == "after":
            raise StoreError("the input was logged, but its marker cannot be written (a test)")
        return seq


@pytest.fixture
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    """An event loop running in its own thread, as the server's is."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    yield loop
    loop.call_soon_threadsafe(loop.stop)
    thread.join(HANG_GUARD)
    loop.close()


def _flush(loop: asyncio.AbstractEventLoop) -> None:
    """Return once the loop has run every callback handed to it before this call."""
    asyncio.run_coroutine_threadsafe(asyncio.sleep(0), loop).result(HANG_GUARD)


def _until(condition: Callable[[], bool]) -> None:
    event = threading.Event()
    for _ in range(int(HANG_GUARD / 0.001)):
        if condition():
            return
        event.wait(0.001)
    pytest.fail("the condition never held")


def _submit_held(hub: Hub, tid: str, gate: GateSink) -> threading.Thread:
    """A reader's thread laying C2, started with the gate shut: it returns once C2's commit
    has begun and is held (the thread is still inside ``submit``)."""
    gate.open.clear()
    gate.entered.clear()
    reader = threading.Thread(target=hub.submit, args=(tid, Seen("play", "C2", True)), daemon=True)
    reader.start()
    assert gate.entered.wait(HANG_GUARD)
    return reader


def _gated(
    tmp_path: Path, loop: asyncio.AbstractEventLoop, overlap: bool = True
) -> tuple[Hub, str, Live, GateSink, list[dict[str, Any]]]:
    """A hub on the loop with a running fake table whose sink is gated (and overlaps, or
    not), one public watcher whose every view is kept, and C1 already played."""
    hub = Hub.open(tmp_path / "sk.db", find_game=find_test_game)
    asyncio.run_coroutine_threadsafe(_bind(hub, loop), loop).result(HANG_GUARD)
    tid = hub.create_table("fake", 2)
    hub.start(tid)
    live = hub._get(tid)
    assert live.table is not None
    gate = GateSink(hub.store.sink(tid))
    live.table.log = LockedSink(gate, hub._store_lock, overlap=overlap)
    seen: list[dict[str, Any]] = []
    watcher = hub.subscribe(tid, PUBLIC)
    offer = watcher.offer

    def keep(version: int, payload: str) -> None:
        seen.append(json.loads(payload))
        offer(version, payload)

    watcher.offer = keep  # type: ignore[method-assign]
    seen.append(json.loads(watcher.latest or "{}"))
    assert hub.submit(tid, Seen("play", "C1", True)).accepted
    _flush(loop)
    assert gate.durable == [1] and seen[-1]["state"]["play"] == ["C1"]
    return hub, tid, live, gate, seen


async def _bind(hub: Hub, loop: asyncio.AbstractEventLoop) -> None:
    hub.bind_loop(loop)


def _rendered_inputs(live: Live) -> int:
    """How many inputs the last public view rendered (read without the lock: a test probe)."""
    cached = live.cache.get(PUBLIC)
    return int(json.loads(cached[1])["inputs"]) if cached else -1


def test_views_are_rendered_during_the_commit_and_sent_only_once_it_is_durable(
    tmp_path: Path, loop: asyncio.AbstractEventLoop
) -> None:
    hub, tid, live, gate, seen = _gated(tmp_path, loop)
    try:
        reader = _submit_held(hub, tid, gate)
        # The commit is held: the table has applied C2 and the public view is rendered...
        _until(lambda: _rendered_inputs(live) == 2)
        assert gate.durable == [1]
        _flush(loop)
        # ...but no watcher has it: it is not in the log yet.
        assert all(view.get("inputs", 0) <= 1 for view in seen)
        gate.open.set()
        reader.join(HANG_GUARD)
        assert not reader.is_alive()
        _flush(loop)
        assert gate.durable == [1, 2]
        assert seen[-1]["inputs"] == 2 and seen[-1]["state"]["play"] == ["C1", "C2"]
    finally:
        gate.open.set()
        hub.close()


@pytest.mark.parametrize("overlap", [True, False])
@pytest.mark.parametrize("when", ["commit", "after"])
def test_a_failed_commit_is_never_seen_and_the_table_is_what_its_log_holds(
    tmp_path: Path, loop: asyncio.AbstractEventLoop, when: str, overlap: bool
) -> None:
    """Failing at the commit: C2 is not in the log, and nobody ever sees it. Failing after it
    (the marker): C2 is in the log, so the replayed table has it, as a restart would. Alike
    whether the commit overlapped the table's work or not."""
    hub, tid, live, gate, seen = _gated(tmp_path, loop, overlap)
    try:
        gate.fail = when
        with pytest.raises(StoreError, match="a test"):
            hub.submit(tid, Seen("play", "C2", True))
        _flush(loop)
        logged = [record for _seq, record in hub.store.records(tid)]
        expected = ["C1", "C2"] if when == "after" else ["C1"]
        assert [record.get("piece") for record in logged] == expected
        assert [v["state"]["play"] for v in seen if v].count(["C1", "C2"]) == (when == "after")
        assert json.loads(hub.view_json(tid, PUBLIC))["state"]["play"] == expected
        # The table plays on, on the store's own sink again (the gate would fail it).
        assert hub.submit(tid, Seen("play", "C3", True)).accepted
        _flush(loop)
        assert seen[-1]["state"]["play"] == [*expected, "C3"]
        assert [seq for seq, _record in hub.store.records(tid)] == list(range(1, len(logged) + 2))
    finally:
        hub.close()
    again = Hub.open(tmp_path / "sk.db", find_game=find_test_game)
    try:  # the log is the truth: a restart shows what the live table showed
        assert json.loads(again.view_json(tid, PUBLIC))["state"]["play"] == [*expected, "C3"]
    finally:
        again.close()


def test_a_view_asked_for_after_a_commit_failed_out_of_sight_is_the_log_s(
    tmp_path: Path, loop: asyncio.AbstractEventLoop
) -> None:
    """The second line: an input appended by a path that never published (a bug) is settled
    before any view is composed, and its failed commit is never shown."""
    hub, tid, live, gate, seen = _gated(tmp_path, loop)
    try:
        gate.fail = "commit"
        assert live.table is not None
        with live.lock:
            live.table.submit(Seen("play", "C2", True))  # in flight; nobody publishes it
        with pytest.raises(StoreError, match="a test"):
            hub.view_json(tid, PUBLIC)
        assert json.loads(hub.view_json(tid, PUBLIC))["state"]["play"] == ["C1"]
        assert hub.view(tid, ORGANISER)["inputs"] == 1
    finally:
        hub.close()


def test_a_long_feed_s_cached_json_is_the_view_s_own(tmp_path: Path) -> None:
    """Past FEED_LENGTH inputs the feed's JSON still comes from the per-entry cache, and the
    text is exactly ``dumps(view)`` for every audience."""
    hub = Hub.open(tmp_path / "sk.db", find_game=find_test_game)
    try:
        tid = hub.create_table("fake", 2)
        hub.start(tid)
        watchers: list[Subscriber] = [hub.subscribe(tid, a) for a in (PUBLIC, ORGANISER, 0)]
        for n in range(130):
            card = f"C{n % 9 + 1}"
            hub.submit(tid, Seen("play" if n % 3 else "hand", card, n % 2 == 0))
            if n % 7 == 0 or n > 120:  # the feed's lines taken over as it moves on
                for audience in (PUBLIC, ORGANISER, 0):
                    assert hub.view_json(tid, audience) == dumps(hub.view(tid, audience))
        live = hub._get(tid)
        assert live.feed_json  # the per-entry cache served these views
        for audience in (PUBLIC, ORGANISER, 0):
            assert hub.view_json(tid, audience) == dumps(hub.view(tid, audience))
        assert len(live.feed_json) <= 2 * (4 * FEED_LENGTH + 8)  # scrolled-out lines dropped
        for watcher in watchers:
            hub.unsubscribe(watcher)
    finally:
        hub.close()


class CountingSink:
    """A sink that reports its rows like the store's, and counts the threads it ran on."""

    def __init__(self) -> None:
        self.seq = 0
        self.threads: list[str] = []

    def append(self, record: dict[str, Any], started: Callable[[int], None] | None = None) -> int:
        self.seq += 1
        self.threads.append(threading.current_thread().name)
        if started is not None:
            started(self.seq)
        return self.seq


@pytest.mark.parametrize("overlap_faster", [True, False])
def test_the_sink_takes_the_way_measured_faster_and_tries_the_other_now_and_then(
    overlap_faster: bool,
) -> None:
    """The clock is moved by the work itself: by 1 when it runs on the log-work thread (beside
    the commit), by 2 on the appending thread, or the other way round."""
    now = [0.0]
    sink = CountingSink()
    locked = LockedSink(sink, threading.RLock(), clock=lambda: now[0])
    ways: list[bool] = []

    def work(seq: int) -> int:
        beside = threading.current_thread().name == "log-work"
        ways.append(beside)
        now[0] += 1 if beside is overlap_faster else 2
        return seq * 10

    for n in range(1, 4 * PROBE_EVERY + 1):
        assert locked.append_while({"n": n}, work) == n * 10
    assert ways[:6] == [False] * 3 + [True] * 3  # each way measured first
    # Then the faster way, except for one probe of the other in every PROBE_EVERY.
    probes = [n for n, way in enumerate(ways) if n >= 6 and way is not overlap_faster]
    assert probes == list(range(PROBE_EVERY - 1, len(ways), PROBE_EVERY))
    assert sink.threads == ["MainThread"] * len(ways)  # the commit: always this thread
    assert sink.seq == len(ways)


def test_work_that_fails_beside_the_commit_raises_here_once_the_record_is_durable() -> None:
    sink = CountingSink()
    locked = LockedSink(sink, threading.RLock(), overlap=True)

    def work(seq: int) -> int:
        raise ValueError(f"the rules broke on {seq}")

    with pytest.raises(ValueError, match="the rules broke on 1"):
        locked.append_while({"n": 1}, work)
    assert sink.seq == 1
    assert locked.append_while({"n": 2}, lambda seq: seq) == 2  # the sink goes on


def test_listeners_hear_of_an_input_only_once_it_is_durable(
    tmp_path: Path, loop: asyncio.AbstractEventLoop
) -> None:
    """A listener (the Pi's refusal beep) is something people notice: like the views, it waits
    for the commit, though the table applied the input beside it."""
    hub, tid, live, gate, _seen = _gated(tmp_path, loop)
    heard: list[int] = []
    try:
        assert live.table is not None
        live.table.listeners.append(lambda _table, entry: heard.append(entry.seq))
        reader = _submit_held(hub, tid, gate)
        _until(lambda: _rendered_inputs(live) == 2)  # applied and rendered...
        assert heard == []  # ...and not heard of while its commit is held
        gate.open.set()
        reader.join(HANG_GUARD)
        assert not reader.is_alive()
        assert heard == [2] and gate.durable == [1, 2]
    finally:
        gate.open.set()
        hub.close()


def test_a_forked_child_overlaps_on_a_log_work_thread_of_its_own() -> None:
    """The power-cut campaign forks writers from a process that played already: a child must
    not hand its work to the parent's log-work thread, which it does not have (it hung)."""
    locked = LockedSink(CountingSink(), threading.RLock(), overlap=True)
    assert locked.append_while({"n": 1}, lambda seq: seq) == 1  # the parent's thread is made
    pid = os.fork()
    if pid == 0:  # the child: exit 0 once its own thread did the work, 1 on anything else
        code = 1
        try:
            signal.alarm(int(HANG_GUARD))
            child = LockedSink(CountingSink(), threading.RLock(), overlap=True)
            code = 0 if child.append_while({"n": 1}, lambda seq: seq + 41) == 42 else 1
        finally:
            os._exit(code)
    status: int | None = None

    def reaped() -> bool:
        nonlocal status
        done, raw = os.waitpid(pid, os.WNOHANG)
        if done == pid:
            status = os.waitstatus_to_exitcode(raw)
        return done == pid

    _until(reaped)
    assert status == 0
