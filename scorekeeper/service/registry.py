"""The table registry: which tables exist, loading them at start, and unloading and reloading
the ones that are over.

At start the tables that may play (created, running, paused) are replayed from their logs;
ended and archived ones are listed from their stored summaries (``Live.brief``), without a
replay, and replayed only when something needs them (``_table``: a view, a watcher, an undo).
Such a table joins the ``KEEP_LOADED`` kept loaded, and the least recently used unwatched one is
unloaded again (its summary stored first). A table that cannot be loaded is listed with its
error and refuses every input; the others are unharmed.

Locks: ``_get``, ``_all`` and ``table_ids`` take only the tables lock (``_tables``);
``_reload`` takes the table's lock (``Live.lock``) and, inside it, the store lock to replay,
then the tables lock to note it as recent, and only *tries* each victim's lock (never waits
for another table's lock while this one's may be held); ``_unload_locked`` is called with the
table's lock held and takes the store lock and the tables lock, one at a time. ``_load_all``
and ``_load`` run before any other thread can see the hub or the table (only the store lock
and the tables lock, one at a time).
"""

from __future__ import annotations

import contextlib
import json
import threading

from scorekeeper.core.table import Table, TableConfig
from scorekeeper.errors import NotFound, ScorekeeperError, StoreError, TableStateError
from scorekeeper.service import delay as spectator
from scorekeeper.service.hub_base import HubBase, log
from scorekeeper.service.live import Live, LockedSink, dumps, named
from scorekeeper.service.texts import ENDED, STATUSES

# How many ended or archived tables stay loaded after a view, an export or an undo brought them
# back (the least recently used one is unloaded first); a watched table stays loaded anyway.
KEEP_LOADED = 2


class TableRegistry(HubBase):
    """The hub's part that holds its tables and loads and unloads them."""

    def _load_all(self) -> None:
        """Load the tables that may play (created, running, paused); list the ended and
        archived ones from their stored summaries, without replaying their logs (a summary
        missing, from a database written before summaries, or out of date: replayed once,
        stored, and unloaded)."""
        from scorekeeper.store.settings import DEFAULTS

        with self._store_lock:
            rows = self.store.overview()
            settings = self.store.table_settings()
        for table_id, status, last_seq in rows:
            live = None
            kept = settings.get(table_id, DEFAULTS)
            if (status == ENDED or kept.archived) and not self._delayed(kept.spectator_delay):
                live = self._listed(
                    table_id, status, last_seq, kept.summary or "", kept.archived, kept.readers
                )
            if live is None:
                live = self._load(table_id)
                with live.lock:
                    self._unload_locked(live)
            with self._tables_lock:
                self._tables[table_id] = live

    def _listed(
        self, table_id: str, status: str, last_seq: int, stored: str, archived: bool, readers: str
    ) -> Live | None:
        """An unloaded table built from its stored summary, or None when the summary is
        missing, unreadable or behind the log (the table is then replayed)."""
        try:
            brief = json.loads(stored) if stored else None
            if (
                not isinstance(brief, dict)
                or brief.get("status") != status
                or brief.get("inputs") != last_seq
            ):
                return None
            config = TableConfig.from_dict(brief.pop("table"))
        except (ValueError, KeyError, ScorekeeperError):
            return None
        return Live(
            table_id,
            config,
            status,
            archived=archived,
            readers_spec=readers,
            brief=stored,
            stored=stored,
        )

    def _load(self, table_id: str) -> Live:
        """Rebuild one table from the store. Never raises: a damaged table loads as broken.

        A broken table (config not readable, unknown status, log not replayable, game not
        installed) is listed with its error and refuses every input; the others are unharmed.
        """
        # Stands in for a configuration that cannot be read: no game, no seats.
        live = Live(table_id, TableConfig(game="", seats=()), "unknown")
        try:
            with self._store_lock:
                live.readers_spec = self.store.readers(table_id)
                live.status = str(self.store.status(table_id))
                live.config = self.store.config(table_id)
                live.archived = self.store.archived(table_id)
                delay = spectator.read_seconds(self.store, table_id)
            if live.status not in STATUSES:
                raise StoreError(
                    f"table {table_id} has an unknown status {live.status!r} "
                    f"(it should be one of {', '.join(STATUSES)})"
                )
            game = self._find_game(live.config.game)
            with self._store_lock:
                table = self.store.load_table(table_id, game)
                table.log = LockedSink(self.store.sink(table_id), self._store_lock)
            live.table = table
            if delay:
                self._start_delay(live, delay)
        except Exception as exc:  # noqa: BLE001 - one damaged table must not stop the server
            live.error = (
                f"table {table_id} cannot be loaded, so it takes no inputs: {exc}; "
                "the other tables are not affected"
            )
            if isinstance(exc, ScorekeeperError):
                log.error("table not loaded", extra={"table": table_id, "error": str(exc)})
            else:
                log.exception("table not loaded", extra={"table": table_id})
        else:
            log.info(
                "table loaded",
                extra={"table": table_id, "status": live.status, "inputs": table.inputs_seen},
            )
        return live

    def _all(self) -> list[Live]:
        with self._tables_lock:
            return list(self._tables.values())

    def _get(self, table_id: str) -> Live:
        with self._tables_lock:
            live = self._tables.get(table_id)
        if live is None:
            raise NotFound(f"there is no table {table_id!r}; GET /api/tables lists them")
        return live

    def _table(self, live: Live) -> Table:
        """The table's Table, replayed from the store first when it was unloaded (the same
        replay as a start: a view is the same whether the table stayed loaded or not)."""
        if live.table is None and live.brief is not None:
            self._reload(live)
        if live.table is None:
            raise TableStateError(live.error or f"table {live.table_id} is not loaded")
        return live.table

    def _reload(self, live: Live) -> None:
        """Replay an unloaded table from its log (a view, a watcher or an undo wants it); it
        joins the few kept loaded, and the least recently used unwatched one is unloaded."""
        with live.lock:
            if live.table is not None or live.brief is None:
                return
            try:
                game = self._find_game(live.config.game)
                with self._store_lock:
                    table = self.store.load_table(live.table_id, game)
                    table.log = LockedSink(self.store.sink(live.table_id), self._store_lock)
            except Exception as exc:  # noqa: BLE001 - one damaged table must not stop the server
                # Still listed from its summary; this request is refused in words, and the next
                # one tries again (a busy database passes, a damaged log says so each time).
                log.error("table not loaded", extra={"table": live.table_id, "error": str(exc)})
                raise TableStateError(
                    f"table {live.table_id} cannot be loaded from the store: "
                    f"{exc}; the other tables are not affected"
                ) from None
            live.table = table
            live.config = table.config
            live.brief = None
        log.info("table reloaded", extra={"table": live.table_id, "inputs": table.inputs_seen})
        with self._tables_lock:
            self._recent.pop(live.table_id, None)
            self._recent[live.table_id] = live
            over = len(self._recent) - KEEP_LOADED
            victims = list(self._recent.values())[: max(over, 0)]
        for victim in victims:
            # Never wait for another table's lock while this one's may be held (no deadlock):
            # a busy table is unloaded on a later turn.
            if victim.lock.acquire(blocking=False):
                try:
                    self._unload_locked(victim)
                finally:
                    victim.lock.release()

    def loaded(self) -> list[str]:
        """The ids of the tables whose Table is in memory now (the others are listed from
        their summaries, or are broken)."""
        return [live.table_id for live in self._all() if live.table is not None]

    def _unloadable(self, live: Live) -> bool:
        return (
            live.table is not None
            and (live.status == ENDED or live.archived)
            and not any(live.subs.values())
            and live.readers is None
            and not live.attaching
            and live.delay is None
        )

    def _unload_locked(self, live: Live) -> None:
        """Drop an ended or archived table nobody watches from memory (hold its lock): its
        summary is stored first, so that a start lists it without a replay."""
        if not self._unloadable(live):
            return
        brief = {"game_name": self._table(live).game.name, **self._facts(live)}
        scores = brief["scores"] or []  # None: a game that keeps its scores to the end
        best = max(scores, default=None)
        winners = [n for n, s in enumerate(scores) if s == best] if brief["over"] else []
        config = live.config
        stored = dumps(
            {
                **brief,
                "winners": winners,
                "table": {"game": config.game, "seats": list(config.seats), "name": config.name},
            }
        )
        if stored != live.stored:
            try:
                with self._store_lock:
                    self.store.set_summary(live.table_id, stored)
            except ScorekeeperError as exc:  # kept loaded: nothing is lost
                log.error(
                    "table summary not stored", extra={"table": live.table_id, "error": str(exc)}
                )
                return
            live.stored = stored
        table = live.table
        assert table is not None
        live.brief = stored
        live.table = None
        live.config = named(live.config)  # the rest (layout, kit) is read when needed
        # Its feed lines point back at the table (their words are worked out when asked):
        # emptied, the whole table goes at once, not at Python's next full garbage collection.
        table.feed.clear()
        live.cache.clear()
        live.feed_json.clear()
        live.feed_lines.clear()
        with self._tables_lock:
            self._recent.pop(live.table_id, None)
        log.info("table unloaded", extra={"table": live.table_id})
        from scorekeeper.service import memory

        # The pages its replay read would stay in SQLite's page cache otherwise.
        with self._store_lock, contextlib.suppress(ScorekeeperError):
            self.store.shrink()
        memory.release()  # glibc keeps a dropped table's heap unless told to give it back

    def _maybe_unload(self, live: Live) -> None:
        with live.lock:
            self._unload_locked(live)

    def table_ids(self) -> list[str]:
        """Every table's id, in creation order."""
        with self._tables_lock:
            return list(self._tables)

    def table(self, table_id: str) -> Table:
        """The live Table object. Hold ``locked(table_id)`` while reading it from a thread."""
        return self._table(self._get(table_id))

    def locked(self, table_id: str) -> threading.RLock:
        """The lock that orders everything done to this table."""
        return self._get(table_id).lock

    def status(self, table_id: str) -> str:
        return self._get(table_id).status

    def config(self, table_id: str) -> TableConfig:
        live = self._get(table_id)
        if live.brief is not None:  # unloaded: the hub keeps only its name and seats
            with self._store_lock:
                return self.store.config(table_id)
        return live.config
