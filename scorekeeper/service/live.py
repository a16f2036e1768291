"""What the hub keeps about one table (``Live``), and the small helpers every part of it uses.

A ``Live`` is plain data: each of its fields is read and written under that table's own lock,
``Live.lock`` (an RLock that orders everything done to the table), by the hub's parts
(``service/hub_base.py`` says which part takes which lock). Nothing in here takes a lock,
except ``LockedSink``, which takes the hub's store lock around each log append.

``LockedSink`` is also how a sighting's fsync overlaps the work after it: its ``append`` may
return the record's seq while the commit is still in flight on the log-commit thread, so the
table applies the input and the hub renders the views meanwhile. HAZARD: until ``settle``
returns, that input is not durable, and nothing derived from the table may leave the table's
lock: the hub settles before it publishes or composes a view (invariant 1).
"""

from __future__ import annotations

import json
import logging
import threading
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.core.game import Audience
from scorekeeper.core.table import FeedEntry, LogSink, Table, TableConfig
from scorekeeper.errors import StoreError
from scorekeeper.service.delay import SpectatorDelay
from scorekeeper.service.watchers import Subscriber

_log = logging.getLogger("scorekeeper.hub")


def named(config: TableConfig) -> TableConfig:
    """What an unloaded table keeps of its configuration: its game, seats and name."""
    return TableConfig(game=config.game, seats=config.seats, name=config.name)


def dumps(value: Any) -> str:
    """The compact JSON text the hub sends and stores (views, summaries)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class LockedSink:
    """A table's log sink that takes the hub's store lock around each append, and commits
    while the table goes on computing (the module docstring says what that asks of callers).

    The first append after the sink is made waits for its commit, and so learns the log's seq;
    later ones hand the commit to the log-commit thread and return the next seq at once (this
    process holds the database's lock, so nobody else appends to the log). ``settle`` waits
    for the append in flight and raises what it raised (StoreError, NotFound), or StoreError
    when the log gave it another seq; after a failure the table must be replayed from the log,
    which holds exactly what was committed. One append is in flight at a time, in order."""

    def __init__(self, sink: LogSink, lock: threading.RLock) -> None:
        self._sink = sink
        self._lock = lock
        self._last: int | None = None  # the seq of the last record appended (None: unknown)
        self._pending: Future[int] | None = None

    def append(self, record: dict[str, Any]) -> int:
        self.settle()
        last = self._last
        if last is not None:
            try:
                self._pending = _committer().submit(self._write, record)
            except RuntimeError:  # the interpreter is shutting down: commit on this thread
                pass
            else:
                self._last = last + 1
                return self._last
        self._last = self._write(record)
        return self._last

    def settle(self) -> None:
        """Return once the record in flight (if any) is durable, or raise why it is not."""
        pending, self._pending = self._pending, None
        if pending is None:
            return
        expected, self._last = self._last, None  # known again only from a successful commit
        seq = pending.result()
        if seq != expected:
            raise StoreError(
                "this input was logged out of order (another program wrote to the table's "
                "log at the same time); the table is read again from its log"
            )
        self._last = seq

    def _write(self, record: dict[str, Any]) -> int:
        with self._lock:
            return self._sink.append(record)


def settle(live: Live, store: Any, store_lock: threading.RLock) -> None:
    """Return once every input the table has logged is durable (``LockedSink.settle``); call
    with the table's lock held. When its commit failed, the views rendered meanwhile are
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
            _log.error("table not reloaded", extra={"table": live.table_id, "error": str(exc)})
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


@dataclass(eq=False, slots=True)
class Live:
    """Everything the hub keeps about one table."""

    table_id: str
    config: TableConfig
    status: str
    table: Table | None = None
    error: str | None = None
    lock: threading.RLock = field(default_factory=threading.RLock)
    version: int = 0
    cache: dict[Audience, tuple[int, str]] = field(default_factory=dict)
    subs: dict[Audience, set[Subscriber]] = field(default_factory=dict)
    # The last NOTICES notices (made at the first: hundreds of ended tables hold none).
    notices: deque[dict[str, str]] | None = None
    readers: Any = None
    readers_spec: str = ""
    attaching: bool = False  # a thread is opening the readers (set and cleared under lock)
    online: dict[str, bool] = field(default_factory=dict)
    # id(entry), organiser? -> (entry, its JSON): feed entries are frozen, so each is serialised
    # once per kind of audience (the organiser's lines also carry the raw input).
    feed_json: dict[tuple[int, bool], tuple[FeedEntry, str]] = field(default_factory=dict)
    # Wakes wait_inputs on each change (made by the first wait: most tables are never waited
    # for, and a condition costs a kilobyte on each of hundreds of tables).
    changed: threading.Condition | None = None
    delay: SpectatorDelay | None = None  # the public view's spectator delay, when on
    archived: bool = False  # hidden from the table lists; the log is kept and exportable
    # An unloaded table (ended or archived, nobody watching): its table list facts, kept
    # instead of the Table; the Table is replayed from the log again when it is needed.
    brief: str | None = None  # its stored summary (JSON: smaller than the parsed object)
    stored: str = ""  # the summary as last stored (a write only when it changed)
