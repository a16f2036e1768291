"""What the hub's parts share: its attributes, its locks and their order, and (for the type
checker only) the methods one part calls on another.

``Hub`` (service/hub.py) is composed from parts, one module each, as mixin classes over this
base: the table registry (loading and unloading), the table lifecycle, inputs, reader
attachment, views, the spectator delay wiring, publishing to watchers, and export. They share
one object, so a call from one part to another is an ordinary method call (no forwarding layer
on the path of each sighting: ``submit`` -> views -> fan-out).

Locks, and the order they are taken in (a lock is only ever taken while holding those before
it in this list, never the other way round, so no two threads can wait for each other):

1. ``Live.lock``: one RLock per table; orders everything done to that table and guards its
   ``Live`` fields. Another table's lock is never waited for while one is held: the registry
   only *tries* it (``acquire(blocking=False)``) when it unloads a victim after a reload.
2. ``_tables_lock``: guards ``_tables`` and ``_recent`` (which tables exist, which ended ones
   are loaded again); held only for dictionary operations, never while waiting for another.
3. ``_store_lock``: one RLock that serialises SQLite access (the store, the token store and
   each table's log appends through ``LockedSink``); taken last, held only for store calls.

The watchers' credentials (``service/watchers.Credentials``), the pairing codes (``Tokens``) and
each spectator delay keep short locks of their own, taken with nothing else held or as the
innermost lock (no other lock is taken while one of them is held).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scorekeeper.core.game import Audience, Game
from scorekeeper.core.inputs import Input
from scorekeeper.core.table import Table
from scorekeeper.service.live import Live
from scorekeeper.service.tokens import Tokens
from scorekeeper.service.watchers import Credentials

if TYPE_CHECKING:
    from scorekeeper.service.inputs import Submitted
    from scorekeeper.service.publishing import Prepared
    from scorekeeper.store import Store

# Every part logs as the hub did when it was one module (docs/server.md shows its lines).
log = logging.getLogger("scorekeeper.hub")

GameFinder = Callable[[str], Game[Any]]
ReaderOpener = Callable[..., Any]


class HubBase:
    """The attributes every part of the hub uses (set by ``Hub.__init__``)."""

    store: Store
    token_file: Path | None
    default_readers: str
    tokens: Tokens
    listen: tuple[str, int] | None
    _clock: Callable[[], float]  # the spectator delays' clock
    _find_game: GameFinder
    _open_readers: ReaderOpener
    _store_lock: threading.RLock
    _tables_lock: threading.Lock
    _tables: dict[str, Live]
    _recent: OrderedDict[str, Live]  # ended or archived tables loaded again, oldest first
    _loop: asyncio.AbstractEventLoop | None
    _loop_thread: int | None
    _closed: bool
    _credentials: Credentials

    if TYPE_CHECKING:  # what one part calls on another; defined by the part named
        # registry
        def _all(self) -> list[Live]: ...
        def _get(self, table_id: str) -> Live: ...
        def _table(self, live: Live) -> Table: ...
        def _reload(self, live: Live) -> None: ...
        def _unload_locked(self, live: Live) -> None: ...
        def _maybe_unload(self, live: Live) -> None: ...
        def table_ids(self) -> list[str]: ...

        # inputs
        def submit(
            self, table_id: str, inp: Input, *, expect_seq: int | None = None, typed: bool = False
        ) -> Submitted: ...
        def notice(self, table_id: str, text: str, rule: str = "") -> None: ...

        # reader attachment
        def _attach_once(self, live: Live, backend: Any = None) -> None: ...
        def _detach(self, live: Live) -> None: ...
        def _open(self, spec: str, layout: Mapping[str, str]) -> Any: ...

        # views
        def _render(self, live: Live, audience: Audience) -> str: ...
        def _facts(self, live: Live) -> dict[str, Any]: ...

        # spectator delay
        @staticmethod
        def _delayed(seconds: float) -> bool: ...
        def _start_delay(self, live: Live, seconds: float) -> None: ...
        @staticmethod
        def _to_public(live: Live, version: int, payload: str) -> None: ...

        # publishing
        def _prepare(self, live: Live) -> Prepared: ...
        def _publish_locked(self, live: Live, prepared: Prepared | None = None) -> None: ...
        def _on_loop(self, call: Callable[..., None], *args: Any) -> None: ...
