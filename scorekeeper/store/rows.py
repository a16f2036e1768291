"""The store's rows other than the log: tables, store-wide settings (meta), data entries, kits.

``Rows`` is one of ``Store``'s classes (scorekeeper/store/store.py); the log is in log.py.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from sqlalchemy import Connection, bindparam, delete, func, insert, select, update
from sqlalchemy import Text as SqlText
from sqlalchemy.exc import IntegrityError
from sqlalchemy.sql import type_coerce

from scorekeeper.core.kit import Kit, check_kit_name
from scorekeeper.core.table import TableConfig
from scorekeeper.errors import ConfigError, NotFound, StoreError
from scorekeeper.store import data_table
from scorekeeper.store.base import KITS, LOG, META, SEAT_TOKENS, SETTINGS, TABLES, StoreBase
from scorekeeper.store.models import TABLE_STATUSES, utcnow

_TABLE_ID = re.compile(r"^t(\d+)$")
_GIVEN_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,31}")  # an id given from outside (event hub)
HIGHEST_ID_META = "table-highest-number"  # the highest table number ever given (deletes too)


def _insert_table(conn: Connection, table_id: str, data: dict[str, Any]) -> None:
    """Insert a new table's row (status ``created``) from its config dict, and commit.

    The row goes as execution parameters, not ``.values(...)``: SQLAlchemy's compiled cache
    keeps the first statement of each shape as its key, literal values and all, so a config
    given in the statement (an Arcana table's, with its 304-card pack: 290 KB) stayed in
    memory for as long as the server ran."""
    row = {
        "id": table_id,
        "created_at": utcnow(),
        "name": data["name"],
        "game": data["game"],
        "config": data,
        "status": "created",
    }
    conn.execute(insert(TABLES), row)
    conn.commit()


class Rows(StoreBase):
    """Tables, settings, data entries and kits of a ``Store``."""

    # -- tables -----------------------------------------------------------------------------

    def create_table(self, config: TableConfig, table_id: str | None = None) -> str:
        """Store a new table with ``config`` (status ``created``); returns its id.

        Without ``table_id`` the store numbers it (``t1``, ``t2``..., never reusing a deleted
        table's number). ``table_id`` is an id given from outside, such as the one an event hub
        assigns (``spring26-g12``): lower-case letters, digits and dashes, up to 32, starting
        with a letter or digit. ConfigError when it is malformed or already taken.
        """
        if table_id is not None:
            return self._create_named_table(config, table_id)
        data = config.to_dict()
        for _attempt in range(5):
            with self._db("create a table") as conn:
                ids = conn.execute(select(TABLES.c.id)).scalars().all()
                numbers = [int(m.group(1)) for i in ids if (m := _TABLE_ID.match(i))]
                highest = conn.execute(
                    select(META.c.value).where(META.c.key == HIGHEST_ID_META)
                ).scalar()
                if highest is not None and str(highest).isdigit():
                    # A deleted table's id is never given again: an old link, export or
                    # phone must not land on another table.
                    numbers.append(int(highest))
                number = max(numbers, default=0) + 1
                table_id = f"t{number}"
                # A table without a name is called by its number: the game's name is shown
                # next to it everywhere, so "Angels & Demons table" only repeated it.
                data["name"] = config.name or f"Table {number}"
                try:
                    _insert_table(conn, table_id, data)
                except IntegrityError:  # another process took that id first
                    conn.rollback()
                    continue
                self._next_seq[table_id] = 1
                return table_id
        raise StoreError(f"{self.where}: cannot create a table: ids keep colliding")

    def _create_named_table(self, config: TableConfig, table_id: str) -> str:
        """``create_table`` with an id given from outside (checked here)."""
        if not isinstance(table_id, str) or not _GIVEN_ID.fullmatch(table_id):
            raise ConfigError(
                f"{table_id!r} cannot be a table id: use 1 to 32 lower-case letters, digits "
                "and dashes, starting with a letter or a digit (such as spring26-g12)"
            )
        data = config.to_dict()
        data["name"] = config.name or f"Table {table_id}"
        with self._db("create a table") as conn:
            numbered = _TABLE_ID.match(table_id)
            highest = str(
                conn.execute(select(META.c.value).where(META.c.key == HIGHEST_ID_META)).scalar()
                or ""
            )
            if numbered and highest.isdigit() and int(numbered[1]) <= int(highest):
                # A deleted table's id is never given again (see create_table).
                raise ConfigError(
                    f"table id {table_id} belonged to a deleted table and is not given again; "
                    "choose another id"
                )
            try:
                _insert_table(conn, table_id, data)
            except IntegrityError:
                conn.rollback()
                raise ConfigError(
                    f"a table with id {table_id} exists; choose another id, or delete that "
                    "table first"
                ) from None
        self._next_seq.pop(table_id, None)  # loaded at its first append (a replica's gaps)
        self._last_chain.pop(table_id, None)
        return table_id

    def _table_row(self, conn: Connection, table_id: str) -> Any:
        row = conn.execute(select(TABLES).where(TABLES.c.id == table_id)).first()
        conn.rollback()
        if row is None:
            raise NotFound(f"no table {table_id!r}")
        return row

    def table_ids(self) -> list[str]:
        """Every table id, oldest first."""
        with self._db("list tables") as conn:
            rows = conn.execute(select(TABLES.c.id, TABLES.c.created_at)).all()
            conn.rollback()

        def key(row: Any) -> tuple[Any, int, str]:
            m = _TABLE_ID.match(row[0])
            return (row[1], int(m.group(1)) if m else 0, row[0])

        return [row[0] for row in sorted(rows, key=key)]

    def overview(self) -> list[tuple[str, str, int]]:
        """Every table as ``(id, status as stored, its log's last seq)``, oldest first, in
        two queries: what a start needs to list tables without replaying their logs."""
        order = {table_id: n for n, table_id in enumerate(self.table_ids())}
        # One index seek per table for its last seq (not a scan of the whole log, which would
        # also fill SQLite's page cache with pages nobody needs).
        last = select(func.max(LOG.c.seq)).where(LOG.c.table_id == TABLES.c.id).scalar_subquery()
        with self._db("list tables") as conn:
            rows = {
                row[0]: row
                for row in conn.execute(select(TABLES.c.id, TABLES.c.status, last)).all()
            }
            conn.rollback()
        return [
            (table_id, str(rows[table_id][1]), int(rows[table_id][2] or 0))
            for table_id in sorted(order, key=order.__getitem__)
            if table_id in rows
        ]

    def _table_column(self, table_id: str, column: Any) -> Any:
        """One column of a table's row (read as stored); NotFound if there is no such table."""
        with self._db("read a table") as conn:
            row = conn.execute(select(column).where(TABLES.c.id == table_id)).first()
            conn.rollback()
        if row is None:
            raise NotFound(f"no table {table_id!r}")
        return row[0]

    def config(self, table_id: str) -> TableConfig:
        """The configuration a table was created with.

        NotFound if there is no such table; StoreError naming the table if its stored
        configuration is damaged (not JSON, not an object, or missing what a table needs).
        """
        # Read as text: the JSON column type would raise a bare JSONDecodeError on bad JSON.
        value = self._table_column(table_id, type_coerce(TABLES.c.config, SqlText))
        try:
            data = json.loads(value) if isinstance(value, str | bytes) else value
        except ValueError as exc:
            raise StoreError(
                f"{self.where}: the configuration of table {table_id} is "
                f"damaged: not valid JSON ({exc})"
            ) from None
        if not isinstance(data, Mapping):
            raise StoreError(
                f"{self.where}: the configuration of table {table_id} is damaged: not a JSON object"
            )
        try:
            return TableConfig.from_dict(data)
        except ConfigError as exc:
            raise StoreError(
                f"{self.where}: the configuration of table {table_id} is damaged: {exc}"
            ) from None

    def replace_config(self, table_id: str, config: TableConfig) -> None:
        """Store the configuration a replica's origin made the table with (an event hub takes
        a table Pi's own kit into its copy of the game). Hazard: the log must be replayed
        with it from its first record; nothing else should ever change a configuration."""
        with self._db("store a table's configuration") as conn:
            # The config as a parameter, not a literal (see _insert_table: the compiled cache).
            done = conn.execute(
                update(TABLES).where(TABLES.c.id == bindparam("table_id")),
                {"table_id": table_id, "config": config.to_dict()},
            )
            if done.rowcount == 0:
                conn.rollback()
                raise NotFound(f"no table {table_id!r}")
            conn.commit()

    def status(self, table_id: str) -> str:
        """``created``, ``running``, ``paused`` or ``ended``; NotFound if there is no table.

        The value is returned as stored: a damaged row may hold something else.
        """
        return str(self._table_column(table_id, TABLES.c.status))

    def set_status(self, table_id: str, status: str) -> None:
        """Change a table's status (one of ``TABLE_STATUSES``)."""
        if status not in TABLE_STATUSES:
            raise ConfigError(
                f"unknown table status {status!r}; valid: {', '.join(TABLE_STATUSES)}"
            )
        with self._db("change a table's status") as conn:
            done = conn.execute(update(TABLES).where(TABLES.c.id == table_id).values(status=status))
            conn.commit()
        if done.rowcount == 0:
            raise NotFound(f"no table {table_id!r}")

    def delete_table(self, table_id: str, meta_keys: tuple[str, ...] | list[str] = ()) -> int:
        """Delete a table for good: its log records, its row, its settings and seat tokens
        (settings.py) and the ``meta_keys`` given (store-wide settings about it), in one
        transaction; returns how many log records went. NotFound if there is no such table.

        The one exception to the append-only log (docs/design.md, invariant 1), made only when the
        organiser asks for it explicitly (``DELETE /api/tables/{id}``,
        ``scorekeeper table delete``). The table's id is never given to another table.
        """
        keys = list(meta_keys)
        m = _TABLE_ID.match(table_id)
        with self._db("delete a table") as conn:
            self._table_row(conn, table_id)
            if self.marker is not None:
                self.marker.forget(table_id)
            gone = conn.execute(delete(LOG).where(LOG.c.table_id == table_id)).rowcount
            conn.execute(delete(SETTINGS).where(SETTINGS.c.table_id == table_id))
            conn.execute(delete(SEAT_TOKENS).where(SEAT_TOKENS.c.table_id == table_id))
            conn.execute(delete(TABLES).where(TABLES.c.id == table_id))
            if keys:
                conn.execute(delete(META).where(META.c.key.in_(keys)))
            if m is not None:
                highest = conn.execute(
                    select(META.c.value).where(META.c.key == HIGHEST_ID_META)
                ).scalar()
                before = str(highest) if highest is not None else ""
                value = max(int(m.group(1)), int(before) if before.isdigit() else 0)
                done = conn.execute(
                    update(META).where(META.c.key == HIGHEST_ID_META).values(value=str(value))
                )
                if done.rowcount == 0:
                    conn.execute(insert(META).values(key=HIGHEST_ID_META, value=str(value)))
            conn.commit()
        self._next_seq.pop(table_id, None)
        self._last_chain.pop(table_id, None)
        return int(gone or 0)

    # -- settings ---------------------------------------------------------------------------

    def get_meta(self, key: str) -> str | None:
        """A stored setting, or None when it was never set."""
        with self._db("read a setting") as conn:
            value = conn.execute(select(META.c.value).where(META.c.key == key)).scalar()
            conn.rollback()
        return None if value is None else str(value)

    def meta_prefixed(self, prefix: str) -> dict[str, str]:
        """Every setting whose key starts with ``prefix``, keyed by the rest of the key (one
        query: a start reads each table's settings at once, not table by table)."""
        with self._db("read settings") as conn:
            rows = conn.execute(
                select(META.c.key, META.c.value).where(
                    META.c.key.startswith(prefix, autoescape=True)
                )
            ).all()
            conn.rollback()
        return {str(key)[len(prefix) :]: str(value) for key, value in rows if value is not None}

    def set_meta(self, key: str, value: str) -> None:
        """Store (or replace) a setting."""
        with self._db("store a setting") as conn:
            done = conn.execute(update(META).where(META.c.key == key).values(value=value))
            if done.rowcount == 0:
                conn.execute(insert(META).values(key=key, value=value))
            conn.commit()

    # -- data entries (scorekeeper/core/data.py, scorekeeper/store/data_table.py) -----------

    def save_data(self, game: str, kind: str, name: str, body: Mapping[str, Any]) -> None:
        """Store (or replace) entry ``name`` of a game's data kind; ``body`` is its mapping,
        already validated by the kind (the store checks nothing about it)."""
        with self._db("save a data entry") as conn:
            data_table.put(conn, game, kind, name, body)
            conn.commit()

    def data(self, game: str, kind: str, name: str) -> dict[str, Any] | None:
        """The mapping of a stored data entry, or None when there is none of that name."""
        with self._db("read a data entry") as conn:
            body = data_table.get(conn, game, kind, name)
            conn.rollback()
        return body

    def data_names(self, game: str, kind: str) -> list[str]:
        """The names of the stored entries of a game's data kind, sorted."""
        with self._db("list data entries") as conn:
            found = data_table.names(conn, game, kind)
            conn.rollback()
        return found

    def delete_data(self, game: str, kind: str, name: str) -> bool:
        """Delete a stored data entry; False when there was none of that name."""
        with self._db("delete a data entry") as conn:
            done = data_table.remove(conn, game, kind, name)
            conn.commit()
        return done

    # -- kits -------------------------------------------------------------------------------

    def save_kit(self, name: str, game: str, entries: Mapping[str, str]) -> None:
        """Store (or replace) kit ``name`` for game id ``game``: ``entries`` is uid -> piece.

        Uids are normalised; EnrollmentError if one is malformed or a piece is tagged twice.
        """
        check_kit_name(name)
        kit = Kit(name, game, dict(entries))
        with self._db("save a kit") as conn:
            values = {"game": game, "entries": kit.entries, "updated_at": utcnow()}
            done = conn.execute(update(KITS).where(KITS.c.name == name).values(**values))
            if done.rowcount == 0:
                conn.execute(insert(KITS).values(name=name, **values))
            conn.commit()

    def kit(self, name: str) -> Kit:
        """The stored kit called ``name``; NotFound if there is none."""
        with self._db("read a kit") as conn:
            row = conn.execute(select(KITS).where(KITS.c.name == name)).first()
            conn.rollback()
        if row is None:
            raise NotFound(f"no kit called {name!r}")
        entries = row.entries
        if isinstance(entries, str):
            entries = json.loads(entries)
        return Kit(row.name, row.game, dict(entries))

    def kits(self) -> list[str]:
        """The names of every stored kit, sorted."""
        with self._db("list kits") as conn:
            names = conn.execute(select(KITS.c.name).order_by(KITS.c.name)).scalars().all()
            conn.rollback()
        return [str(n) for n in names]
