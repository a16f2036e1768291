"""The hub: one process's live tables, their logs, their readers and who is watching them.

The hub owns the Store. At start it rebuilds the tables that may play (created, running, paused)
by replaying their logs, and lists ended and archived ones from their stored summaries; such a
table is replayed when something needs it and unloaded again when nobody does. Every
input goes through ``Hub.submit``, which calls ``Table.submit`` under the table's lock (the table
appends the input to the log, durably, before applying it) and then publishes the new views.

Threads: reader backends call back from their own threads, HTTP handlers run in a thread pool,
WebSocket clients live on the event loop. ``submit`` may be called from any thread: the table's
lock orders inputs, a store lock serialises SQLite access, and views are serialised to JSON once
per change and per audience, then handed to the event loop with one ``call_soon_threadsafe``,
where each client's mailbox keeps only the latest view (a slow client skips stale views).

``Hub`` is the one entry point of the other layers (api, commands, pi, tests, bench). It is
composed from parts, one module each, that share its attributes and locks
(``service/hub_base.py`` says which lock guards what, and their order):

- ``registry.py``: which tables exist; loading at start, unloading and reloading ended ones;
- ``lifecycle.py``: creating a table, starting, pausing, ending, archiving, deleting it;
- ``inputs.py``: ``submit`` (every input) and notices;
- ``reader_attachment.py``: each table's reader backend and what it reports;
- ``views.py``: the views and summaries, and their JSON caches;
- ``spectating.py``: the spectator delay wiring;
- ``publishing.py``: the watchers, and handing each change to them on the event loop;
- ``exporting.py``: a table's export.

This module holds the hub's making (``__init__``, ``open``) and its closing, and re-exports
what other layers import from here (the exceptions live in ``scorekeeper/errors.py``).
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scorekeeper.core.game import Game
from scorekeeper.errors import MovedOn, NotRunning, TableStateError
from scorekeeper.service.exporting import Export
from scorekeeper.service.hub_base import GameFinder, HubBase, ReaderOpener
from scorekeeper.service.inputs import Inputs, Submitted
from scorekeeper.service.lifecycle import TableLifecycle
from scorekeeper.service.live import Live
from scorekeeper.service.publishing import Publishing
from scorekeeper.service.reader_attachment import ReaderAttachment
from scorekeeper.service.registry import KEEP_LOADED, TableRegistry
from scorekeeper.service.spectating import SpectatorDelays
from scorekeeper.service.texts import CREATED, ENDED, PAUSED, RUNNING
from scorekeeper.service.tokens import Tokens, token_file_for
from scorekeeper.service.views import Views
from scorekeeper.service.watchers import Credentials

# What other layers import from here (some of it defined in the hub's parts).
__all__ = [
    "CREATED",
    "ENDED",
    "KEEP_LOADED",
    "PAUSED",
    "RUNNING",
    "Hub",
    "MovedOn",
    "NotRunning",
    "Submitted",
    "TableStateError",
    "store_class",
]


def _default_find_game(game_id: str) -> Game[Any]:
    from scorekeeper.games import find_game

    return find_game(game_id)


def store_class() -> Any:
    """The Store class (imported late: SQLAlchemy is the heaviest import of a start)."""
    from scorekeeper.store import Store

    return Store


def _default_open_readers(spec: str, **options: Any) -> Any:
    from scorekeeper.readers import open_readers

    return open_readers(spec, **options)


class Hub(
    TableRegistry,
    TableLifecycle,
    Inputs,
    ReaderAttachment,
    Views,
    SpectatorDelays,
    Publishing,
    Export,
    HubBase,
):
    """Owns the Store and the live tables of one server process (its methods are defined by
    the parts it is composed from; see the module docstring)."""

    def __init__(
        self,
        store: Any,
        *,
        find_game: GameFinder | None = None,
        open_readers: ReaderOpener | None = None,
        token_file: Path | None = None,
        default_readers: str | None = None,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.store = store
        self._clock = clock or time.monotonic  # the spectator delays' clock
        self.token_file = token_file
        self.default_readers = default_readers or ""
        self._find_game = find_game or _default_find_game
        self._open_readers = open_readers or _default_open_readers
        self._store_lock = threading.RLock()
        self._tables_lock = threading.Lock()
        self._tables: dict[str, Live] = {}
        # Ended or archived tables loaded again on demand, least recently loaded first.
        self._recent: OrderedDict[str, Live] = OrderedDict()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._loop_thread: int | None = None
        self._closed = False
        self.tokens = Tokens(store, self._store_lock)
        self.tokens.token_file = token_file
        # Watchers by the hash of the token they connected with: withdrawing a token ends them.
        self._credentials = Credentials()
        self.tokens.on_revoke = self.end_credentials
        # Where the server listens (host, port), told by serve and demo: a pairing QR code is
        # only drawn for an address a phone can open. None: not known (an embedded app).
        self.listen: tuple[str, int] | None = None
        self._load_all()

    @classmethod
    def open(cls, db: str | Path, **kwargs: Any) -> Hub:
        """A hub on the SQLite file ``db`` (created with its directory when missing)."""
        path = Path(db)
        path.parent.mkdir(parents=True, exist_ok=True)
        kwargs.setdefault("token_file", token_file_for(path))
        return cls(store_class()(f"sqlite:///{path}"), **kwargs)

    def close(self) -> None:
        """Stop every reader backend and close the store. Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        for live in self._all():
            self._detach(live)
        self._loop = None
        with self._store_lock:
            self.store.close()
