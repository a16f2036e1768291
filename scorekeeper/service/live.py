"""What the hub keeps about one table (``Live``), and the small helpers every part of it uses.

A ``Live`` is plain data: each of its fields is read and written under that table's own lock,
``Live.lock`` (an RLock that orders everything done to the table), by the hub's parts
(``service/hub_base.py`` says which part takes which lock). Nothing in here takes a lock,
except ``LockedSink`` (``service/log_sink.py``, imported from here by the registry and the
lifecycle), which takes the hub's store lock around each log append.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.core.game import Audience
from scorekeeper.core.table import FeedEntry, Table, TableConfig
from scorekeeper.service.delay import SpectatorDelay

# Re-exported: the registry and the lifecycle make each table's sink from here.
from scorekeeper.service.log_sink import LockedSink as LockedSink
from scorekeeper.service.watchers import Subscriber


def named(config: TableConfig) -> TableConfig:
    """What an unloaded table keeps of its configuration: its game, seats and name."""
    return TableConfig(game=config.game, seats=config.seats, name=config.name)


def dumps(value: Any) -> str:
    """The compact JSON text the hub sends and stores (views, summaries). Views are trees made
    anew: not checking for cycles saves an eighth of the time (a cycle still fails, as
    RecursionError)."""
    return _DUMPS(value)


_DUMPS = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False).encode


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
    # organiser? -> the feed entries that kind of audience was last shown, and their JSON.
    feed_lines: dict[bool, tuple[list[FeedEntry], list[str]]] = field(default_factory=dict)
    # Wakes wait_inputs on each change (made by the first wait: most tables are never waited
    # for, and a condition costs a kilobyte on each of hundreds of tables).
    changed: threading.Condition | None = None
    delay: SpectatorDelay | None = None  # the public view's spectator delay, when on
    archived: bool = False  # hidden from the table lists; the log is kept and exportable
    # An unloaded table (ended or archived, nobody watching): its table list facts, kept
    # instead of the Table; the Table is replayed from the log again when it is needed.
    brief: str | None = None  # its stored summary (JSON: smaller than the parsed object)
    stored: str = ""  # the summary as last stored (a write only when it changed)
