"""A table's log sink in the hub (``LockedSink``), and ``settle``: nothing is seen before it is
durable, and a failed write is never seen.

``LockedSink`` takes the hub's store lock around each append. It can also let a sighting's
fsync overlap the work after it: ``append`` then hands the write to the log-commit thread and
returns the record's seq as soon as its row is inserted, while the commit (the fsync) is still
in flight, so the table applies the input and the hub renders the views meanwhile. HAZARD:
until ``settle`` returns, that input is not durable, and nothing derived from the table may
leave the table's lock: the hub settles before it publishes or composes a view (invariant 1).
HAZARD: never append while holding the store lock: the log-commit thread takes it, and the
appending thread waits for that thread.

The overlap costs three thread hand-overs (together 0.1-0.2 ms on the 2-core development
machine under load, measured with perf_counter spans inside the server of bench/latency.py),
and there it saved no more than that: the commit took about 0.4 ms and the work after it (apply and
render) about 0.1-0.3 ms. So it is taken only when both the commit and the work (moving
averages) take longer than ``OVERLAP_FROM``: on a Pi, 5-10x slower and fsyncing to an SD card
in milliseconds, they should (not measured on a Pi); elsewhere one thread does both, in turn.

Whichever way, a write that fails once its row is in (the commit, or the marker after it) is
raised by ``settle``, after the table applied the input: ``settle`` (the function) then drops
the views rendered meanwhile and replays the table from its log, which holds exactly what was
committed (a restart would show the same). A write that fails before its row is in raises from
``append``, and nothing is applied.
"""

from __future__ import annotations

import inspect
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from scorekeeper.core.table import LogSink

if TYPE_CHECKING:
    from scorekeeper.service.live import Live

log = logging.getLogger("scorekeeper.hub")

# Overlap a commit with the work after it when both take longer than this (seconds): more
# than the hand-overs cost.
OVERLAP_FROM = 0.0005
_WEIGHT = 0.2  # of the newest duration in the moving averages


class LockedSink:
    """A table's log sink that takes the hub's store lock around each append, and overlaps
    slow commits with the table's work (the module docstring says when, and what that asks).

    ``overlap``: None chooses by the measured durations; True and False force it (tests).
    ``clock``: what the durations are measured with. One append is in flight at a time, in
    order; ``settle`` waits for it and raises what it raised (StoreError, NotFound). A sink
    that cannot tell when its row is in (not the store's) is written on the caller's thread,
    durable on return, and its failures raise from ``append``."""

    def __init__(
        self,
        sink: LogSink,
        lock: threading.RLock,
        *,
        overlap: bool | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self._sink = sink
        self._lock = lock
        self._overlap = overlap
        self._clock = clock
        self._pending: Future[int] | None = None
        self._failed: BaseException | None = None
        self._returned: float | None = None  # when the last append returned to the table
        self.commit_s = 0.0  # moving averages: an append's write, and the work after it
        self.work_s = 0.0
        try:
            self._reports = "started" in inspect.signature(sink.append).parameters
        except (TypeError, ValueError):  # a sink Python cannot describe: the plain way
            self._reports = False

    @property
    def overlapping(self) -> bool:
        """Whether the next append overlaps its commit with the table's work."""
        if not self._reports:
            return False
        if self._overlap is not None:
            return self._overlap
        return min(self.commit_s, self.work_s) > OVERLAP_FROM

    def append(self, record: dict[str, Any]) -> int:
        self.settle()
        inserted: list[int] = []
        if self.overlapping:
            ready = threading.Event()

            def started(seq: int) -> None:
                inserted.append(seq)
                ready.set()

            try:
                pending = _committer().submit(self._write, record, started)
            except RuntimeError:  # the interpreter is shutting down: written on this thread
                pass
            else:
                pending.add_done_callback(lambda _done: ready.set())
                ready.wait()  # frees the GIL for the log-commit thread's Python work
                if not inserted:  # it failed before its row was in: nothing is logged
                    return self._returning(pending.result())
                self._pending = pending
                return self._returning(inserted[0])
        try:
            return self._returning(self._write(record, inserted.append if self._reports else None))
        except BaseException as exc:
            if not inserted:
                raise
            # The row went in, then its commit or the marker failed: the table applies it and
            # settle raises, so that the table is replayed from what the log holds.
            self._failed = exc
            return self._returning(inserted[0])

    def settle(self) -> None:
        """Return once the record in flight (if any) is durable, or raise why it is not."""
        if self._returned is not None:
            self.work_s = _average(self.work_s, self._clock() - self._returned)
            self._returned = None
        pending, self._pending = self._pending, None
        failed, self._failed = self._failed, None
        if pending is not None:
            pending.result()
        if failed is not None:
            raise failed

    def _returning(self, seq: int) -> int:
        self._returned = self._clock()
        return seq

    def _write(self, record: dict[str, Any], started: Callable[[int], None] | None) -> int:
        began = self._clock()
        try:
            with self._lock:
                if started is None:
                    return self._sink.append(record)
                return int(self._sink.append(record, started=started))  # type: ignore[call-arg]
        finally:
            self.commit_s = _average(self.commit_s, self._clock() - began)


def _average(average: float, newest: float) -> float:
    return average + _WEIGHT * (newest - average)


def settle(live: Live, store: Any, store_lock: threading.RLock) -> None:
    """Return once every input the table has logged is durable (``LockedSink.settle``); call
    with the table's lock held. When its write failed, the views rendered meanwhile are
    dropped, the table is replayed from its log (what was committed, and only that) and the
    error is raised; a table that cannot be replayed takes no inputs and says why."""
    table = live.table
    sink = table.log if table is not None else None
    if table is None or not isinstance(sink, LockedSink):
        return
    try:
        sink.settle()
    except BaseException:
        live.cache.clear()
        live.feed_json.clear()
        live.version += 1
        try:
            with store_lock:
                fresh = store.load_table(live.table_id, table.game)
                fresh.log = LockedSink(store.sink(live.table_id), store_lock)
        except Exception as exc:  # noqa: BLE001 - said on the table; the caller's error goes on
            live.table = None
            live.error = (
                f"table {live.table_id} cannot be read again from its log after a failed "
                f"write, so it takes no inputs until the server restarts: {exc}"
            )
            log.error("table not reloaded", extra={"table": live.table_id, "error": str(exc)})
        else:
            live.table = fresh
        raise


_COMMITTER: list[ThreadPoolExecutor] = []
_COMMITTER_LOCK = threading.Lock()


def _committer() -> ThreadPoolExecutor:
    """The process's one log-commit thread (made at the first use). Shared by every table and
    hub: their appends are serialised by the store lock anyway."""
    with _COMMITTER_LOCK:
        if not _COMMITTER:
            _COMMITTER.append(ThreadPoolExecutor(1, thread_name_prefix="log-commit"))
        return _COMMITTER[0]
