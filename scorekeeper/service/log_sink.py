"""A table's log sink in the hub (``LockedSink``), and ``settle``: nothing is seen before it is
durable, and a failed write is never seen.

``LockedSink`` takes the hub's store lock around each append. ``append_while`` can also let a
sighting's commit (the fsync) overlap the work after it: once the record's row is inserted, the
work (``Table.submit`` applies the input and the hub renders its views) is handed to the
log-work thread, while the appending thread commits; the fsync frees the GIL for the work, and
``append_while`` returns once both are done, so the record is durable before anything derived
from it leaves (invariant 1). HAZARD: the work runs while the appending thread holds the table's
lock and the store lock: it must take no lock, and publish nothing. HAZARD: never append while
holding the store lock in another thread that waits for this one.

Which way pays depends on the machine. Overlapping saves the work's time when the work, plus
waking the log-work thread, ends before the fsync does. When it does not, the appending thread,
back from the fsync, waits for the GIL and must be woken again once the work is done, and on
the 2-core development VM waking a thread that sleeps costs 0.05-0.6 ms. Measured in one
process (two sinks side by side, 400-600 appends each, a fsync of about 0.4 ms): with 0.18 ms
of work, 0.49 ms overlapped against 0.64 ms plain (the work hidden whole); with 0.35 ms, the
commit returned 0.20 ms after the work ended; with 0.45 ms, 0.61 ms after, and overlapping
took 1.63 ms against 1.05 ms plain. In the server of bench/latency.py the commit is slower
beside any work, for a reason not found: beside the work (about 0.2 ms) it took 0.44 ms
against 0.29 ms alone, and overlapping saved about 0.03 ms a sighting; beside 0.07 ms of work
(an experiment that skipped rendering the views) 0.33 ms against 0.29 ms. Posting the job
before the row is written, to wake the thread sooner, was tried: the work still began 0.08 ms
after the row was in (the thread sleeps again waiting for it), against 0.09 ms, so it is not
done. On a Pi, whose SD card fsyncs in milliseconds, overlapping should pay (not measured on
a Pi). So ``LockedSink`` measures both ways on the appending thread and takes the faster,
trying the other now and then (``PROBE_EVERY``).

Whichever way, a write that fails once its row is in (the commit, or the marker after it) is
raised by ``settle``, after the table applied the input: ``settle`` (the function) then drops
the views rendered meanwhile and replays the table from its log, which holds exactly what was
committed (a restart would show the same). A write that fails before its row is in raises from
``append``, and nothing is applied.
"""

from __future__ import annotations

import inspect
import logging
import os
import queue
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

from scorekeeper.core.table import LogSink

if TYPE_CHECKING:
    from scorekeeper.service.live import Live

log = logging.getLogger("scorekeeper.hub")
T = TypeVar("T")

# One append_while in this many goes the way measured to be slower (both stay measured).
PROBE_EVERY = 32


class LockedSink:
    """A table's log sink that takes the hub's store lock around each append, and overlaps
    commits with the table's work when that is faster (the module docstring says when, and
    what that asks).

    ``overlap``: None chooses by the measured durations; True and False force it (tests).
    ``clock``: what the durations are measured with (on the appending thread only).
    ``settle`` raises what a write that failed once its row was in raised (StoreError,
    NotFound). A sink that cannot tell when its row is in (not the store's) is written plainly,
    and its failures raise from ``append``."""

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
        self._failed: BaseException | None = None
        # The last few durations (seconds) of append_while on the appending thread, each way:
        # plain (False) and overlapped (True); the next one goes the way whose median is less.
        self._took: dict[bool, deque[float]] = {False: deque(maxlen=9), True: deque(maxlen=9)}
        self._count = 0
        try:
            self._reports = "started" in inspect.signature(sink.append).parameters
        except (TypeError, ValueError):  # a sink Python cannot describe: the plain way
            self._reports = False

    @property
    def overlapping(self) -> bool:
        """Whether the next ``append_while`` runs its work beside the commit: the way that
        took less (median of the last few) on this machine, except that one append in
        PROBE_EVERY goes the other way, so that both stay measured as conditions change."""
        if not self._reports:
            return False
        if self._overlap is not None:
            return self._overlap
        plain, overlapped = self._took[False], self._took[True]
        if len(plain) < 3 or len(overlapped) < 3:  # each way a few times first
            return len(plain) >= 3
        faster = _median(overlapped) < _median(plain)
        return faster is not (self._count % PROBE_EVERY == PROBE_EVERY - 1)

    def append(self, record: dict[str, Any]) -> int:
        """Append ``record`` on this thread; durable on return, unless its row went in and the
        commit (or the marker after it) failed: then ``settle`` raises it."""
        self.settle()
        inserted: list[int] = []
        try:
            return self._write(record, inserted.append if self._reports else None)
        except BaseException as exc:
            if not inserted:
                raise
            # The row went in, then its commit or the marker failed: the table applies it and
            # settle raises, so that the table is replayed from what the log holds.
            self._failed = exc
            return inserted[0]

    def append_while(self, record: dict[str, Any], work: Callable[[int], T]) -> T:
        """Append ``record``, run ``work(seq)`` once its row is in, and return what it returned
        once the record is durable (a failed write after the row went in: ``settle`` raises
        it). Overlapping, ``work`` runs on the log-work thread while this thread commits (the
        fsync frees the GIL for it); otherwise here, after the commit. HAZARD: ``work`` must
        take no lock another thread may hold while waiting for this one (it runs while this
        thread holds the table's and the store's locks) and let nothing out."""
        overlap = self.overlapping
        self._count += 1
        began = self._clock()
        try:
            if not overlap:
                return work(self.append(record))
            self.settle()
            jobs: list[_Job[T]] = []
            try:
                self._write(record, lambda seq: jobs.append(_Job(work, seq)))
            except BaseException as exc:
                if not jobs:  # it failed before its row was in: nothing is logged
                    raise
                self._failed = exc  # the table applies it, then settle raises (as ``append``)
            return jobs[0].result()
        finally:
            self._took[overlap].append(self._clock() - began)

    def settle(self) -> None:
        """Return, or raise why the last record whose row went in is not durable."""
        failed, self._failed = self._failed, None
        if failed is not None:
            raise failed

    def _write(self, record: dict[str, Any], started: Callable[[int], None] | None) -> int:
        with self._lock:
            if started is None:
                return self._sink.append(record)
            return int(self._sink.append(record, started=started))  # type: ignore[call-arg]


class _Job(Generic[T]):
    """``work(seq)`` handed to the log-work thread at once; ``result`` waits for it there and
    raises here what it raised."""

    def __init__(self, work: Callable[[int], T], seq: int) -> None:
        self._work = work
        self._seq = seq
        self._value: T | None = None
        self._error: BaseException | None = None
        self._done = threading.Lock()
        self._done.acquire()
        _worker().put(self)

    def run(self) -> None:
        try:
            self._value = self._work(self._seq)
        except BaseException as exc:  # noqa: BLE001 - raised again by result, on its thread
            self._error = exc
        finally:
            self._done.release()

    def result(self) -> T:
        self._done.acquire()
        if self._error is not None:
            raise self._error
        return cast(T, self._value)


def _median(durations: deque[float]) -> float:
    return sorted(durations)[len(durations) // 2]


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
        live.feed_lines.clear()
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


_WORKER: list[queue.SimpleQueue[_Job[Any]]] = []
_WORKER_LOCK = threading.Lock()


def _worker() -> queue.SimpleQueue[_Job[Any]]:
    """The process's one log-work thread's queue (the thread is made at the first use).
    Shared by every table and hub: a job takes no lock, so jobs never wait for each other."""
    with _WORKER_LOCK:
        if not _WORKER:
            jobs: queue.SimpleQueue[_Job[Any]] = queue.SimpleQueue()
            threading.Thread(target=_work, args=(jobs,), name="log-work", daemon=True).start()
            _WORKER.append(jobs)
        return _WORKER[0]


def _work(jobs: queue.SimpleQueue[_Job[Any]]) -> None:
    while True:
        jobs.get().run()


def _forget_worker() -> None:
    """In a forked child: the parent's log-work thread is not there (its queue would never
    be served, and the power-cut campaign's writers hung on it), so the first use makes one."""
    global _WORKER_LOCK
    _WORKER.clear()
    _WORKER_LOCK = threading.Lock()


os.register_at_fork(after_in_child=_forget_worker)
