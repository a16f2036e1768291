"""The table lifecycle: creating a table, and moving it through its statuses (created, running,
paused, ended), archiving it and deleting it for good.

A created table is stored and kept loaded, with its reader backend attached when it has one;
starting it (again) attaches its readers, ending it stops them and unloads it unless someone
watches it, archiving it unloads it too. Every change of status is stored, then published.

Locks: each action takes the table's lock (``Live.lock``) for its checks and changes, and the
store lock inside it for each store call; ``create_table`` and ``delete_table`` take the tables
lock (inside the table's lock for a delete) to add or drop the table. Readers are attached and
detached after the table's lock is released (``ReaderAttachment``: opening hardware is slow).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scorekeeper.core.table import Table, TableConfig
from scorekeeper.errors import ConfigError, TableStateError
from scorekeeper.service.hub_base import HubBase, log
from scorekeeper.service.live import Live, LockedSink, dumps
from scorekeeper.service.texts import CREATED, ENDED, PAUSED, RUNNING
from scorekeeper.service.watchers import fanout


class TableLifecycle(HubBase):
    """The hub's part that creates tables and changes their status."""

    def create_table(
        self,
        game: str,
        seats: int | Sequence[str],
        *,
        options: Mapping[str, Any] | None = None,
        layout: Mapping[str, str] | None = None,
        kit: str | Mapping[str, str] | None = None,
        name: str = "",
        readers: str | None = None,
        table_id: str | None = None,
    ) -> str:
        """Create a table (status ``created``) and return its id; ConfigError when invalid.

        ``seats`` is a count or the players' names; ``layout`` defaults to the game's default
        zone layout; ``kit`` is a stored kit's name or an inline ``{uid: piece}`` mapping;
        ``readers`` is a reader backend spec (``sim``, ``serial:/dev/...``), default the hub's.
        ``table_id``: an id given from outside (an event's game id, ``<event>-r1-t3``) instead
        of the next ``t<n>``; ConfigError when it is malformed or taken.
        """
        found = self._find_game(game)
        names = self._seat_names(seats)
        unasked = [o for o in found.options if o.ask and o.name not in (options or {})]
        if unasked:
            raise ConfigError(
                "choose "
                + "; ".join(f"{o.name}: {o.help}" for o in unasked)
                + " (give it as an option when you create the table)"
            )
        # The table keeps its options resolved: defaults and files (an Arcanum board profile
        # given as a path) are frozen into the config, so a later version's defaults or an
        # edited file can never change how the log replays.
        config = TableConfig(
            game=found.id,
            seats=names,
            options=found.resolve_options(options, len(names)),
            layout=dict(layout) if layout else found.default_layout(len(names)),
            kit=self._kit(found.id, kit),
            name=name.strip(),
        )
        Table(config, found)  # validates options, layout and kit before anything is stored
        spec = self.default_readers if readers is None else readers
        backend = self._open(spec, config.layout) if spec else None  # ConfigError: bad spec
        with self._store_lock:
            table_id = str(self.store.create_table(config, table_id=table_id))
            config = self.store.config(table_id)  # an unnamed table is called "Table <n>"
            table = Table(
                config, found, log=LockedSink(self.store.sink(table_id), self._store_lock)
            )
        live = Live(table_id, config, CREATED, table=table, readers_spec=spec)
        with self._tables_lock:
            self._tables[table_id] = live
        if spec:
            with self._store_lock:
                self.store.set_readers(table_id, spec)
            self._attach_once(live, backend)
        log.info(
            "table created",
            extra={
                "table": table_id,
                "game": found.id,
                "seats": len(names),
                "readers": spec or "none",
            },
        )
        return table_id

    @staticmethod
    def _seat_names(seats: int | Sequence[str]) -> tuple[str, ...]:
        if isinstance(seats, bool):
            raise ConfigError("seats must be a number or a list of player names")
        if isinstance(seats, int):
            if seats < 1:
                raise ConfigError(f"a table needs at least one seat, not {seats}")
            return tuple(f"Seat {i + 1}" for i in range(seats))
        if isinstance(seats, str):
            raise ConfigError("seats must be a number or a list of player names")
        names = tuple(str(s).strip() or f"Seat {i + 1}" for i, s in enumerate(seats))
        if not names:
            raise ConfigError("a table needs at least one seat")
        return names

    def _kit(self, game: str, kit: str | Mapping[str, str] | None) -> dict[str, str]:
        if kit is None:
            return {}
        if isinstance(kit, str):
            with self._store_lock:
                stored = self.store.kit(kit)
            if stored.game != game:
                raise ConfigError(f"kit {kit!r} tags a copy of {stored.game}, not {game}")
            return dict(stored.entries)
        from scorekeeper.core.kit import Kit

        return dict(Kit("inline", game, {str(k): str(v) for k, v in kit.items()}).entries)

    def _set_status(self, live: Live, status: str) -> None:
        with self._store_lock:
            self.store.set_status(live.table_id, status)
        live.status = status
        log.info("table status", extra={"table": live.table_id, "status": status})
        self._publish_locked(live)

    def start(self, table_id: str) -> str:
        """Start (or resume) a table: readers and players' inputs are accepted from now on."""
        live = self._get(table_id)
        with live.lock:
            if live.status == ENDED:  # asked before a replay: an unloaded table stays so
                raise TableStateError(
                    f"table {table_id} has ended; create a new table to play "
                    "again (undo and corrections still work on it)"
                )
            self._table(live)
            if live.status != RUNNING:
                self._set_status(live, RUNNING)
        self._attach_once(live)
        return live.status

    def pause(self, table_id: str) -> str:
        """Pause a running table: inputs are logged as refused until it is started again."""
        live = self._get(table_id)
        with live.lock:
            if live.status != RUNNING:
                raise TableStateError(
                    f"table {table_id} is {live.status}, not running: only a "
                    "running table can be paused"
                )
            self._set_status(live, PAUSED)
        return live.status

    def end(self, table_id: str) -> str:
        """End a table for good: its readers stop; undo and corrections still work."""
        live = self._get(table_id)
        with live.lock:
            if live.status != ENDED:
                self._set_status(live, ENDED)
        self._detach(live)
        self._maybe_unload(live)  # kept only while someone watches it
        return live.status

    def archive(self, table_id: str, archived: bool = True) -> bool:
        """Archive a table that is over (hidden from the lists, its log kept and exportable)
        or bring it back; kept in the store. A running table is refused: end or pause it."""
        live = self._get(table_id)
        with live.lock:
            if archived and live.status == RUNNING:
                raise TableStateError(
                    f"table {table_id} is still running: end it (or pause it) before archiving it"
                )
            with self._store_lock:
                self.store.set_archived(table_id, archived)
            live.archived = archived
            log.info(
                "table archived" if archived else "table unarchived", extra={"table": table_id}
            )
            self._publish_locked(live)
            if archived:
                self._unload_locked(live)
            elif live.status != ENDED and live.brief is not None:
                self._table(live)  # it may be played again: loaded, as at a start
        return archived

    def delete_table(self, table_id: str) -> int:
        """Delete an ended or archived table for good: its log records, its seat tokens and
        pairing codes and its settings leave the store (the one exception to the append-only
        log, asked for explicitly). Returns how many log records went."""
        live = self._get(table_id)
        with live.lock:
            if live.status != ENDED and not live.archived:
                raise TableStateError(
                    f"table {table_id} is {live.status}: only an ended or archived table can "
                    "be deleted; end it first (or archive it), and export its log if you want "
                    "to keep it"
                )
            with self._store_lock:  # its settings (its delay too) and seat tokens go with it
                gone = self.store.delete_table(table_id)
            self.tokens.revoke_codes(table_id)
            with self._tables_lock:
                self._tables.pop(table_id, None)
                self._recent.pop(table_id, None)
            live.status = ENDED
            # Whoever still watches it is told in plain words (a TV left on the table).
            gone_view = dumps(
                {
                    "id": table_id,
                    "deleted": True,
                    "error": f"table {table_id} was deleted by the organiser; the other "
                    "tables are at /api/tables",
                }
            )
            watchers = [sub for subs in live.subs.values() for sub in subs]
            if watchers:
                self._on_loop(fanout, [(live.version + 1, gone_view, watchers)])
        self._detach(live)
        if live.delay is not None:
            self._on_loop(live.delay.close)
        log.info("table deleted", extra={"table": table_id, "records": gone})
        return gone
