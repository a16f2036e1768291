"""The store's plumbing: its SQL tables, its connection and lock, and database errors in words.

``StoreBase`` is the root of ``Store``'s classes (scorekeeper/store/store.py opens the database
and sets the attributes declared here; rows.py, log.py add the tables, settings and the log).
Every database call goes through ``_db``: it holds the lock and turns database errors into
StoreError naming the file.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Any, Self

from sqlalchemy import JSON, Connection, Table, Text, cast, literal
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, SQLAlchemyError
from sqlalchemy.sql import ColumnElement, type_coerce

from scorekeeper.errors import StoreError
from scorekeeper.store.marker import Marker
from scorekeeper.store.models import (
    KitRow,
    LogRow,
    MetaRow,
    SeatTokenRow,
    TableRow,
    TableSettingsRow,
)


def table_of(model: type[Any]) -> Table:
    table = model.__table__
    assert isinstance(table, Table)
    return table


TABLES = table_of(TableRow)
LOG = table_of(LogRow)
META = table_of(MetaRow)
KITS = table_of(KitRow)
SETTINGS = table_of(TableSettingsRow)
SEAT_TOKENS = table_of(SeatTokenRow)


# Told of each durable append: (table id, seq, the record's JSON text as stored, its chain).
AppendListener = Callable[[str, int, str, str], None]


def sqlite_url(path_or_url: str) -> str:
    """Turn a ``--db`` argument into a database URL: a plain path means a SQLite file."""
    return path_or_url if "://" in path_or_url else f"sqlite:///{path_or_url}"


def plain(exc: BaseException) -> str:
    """A short human explanation of a database error."""
    orig = exc.orig if isinstance(exc, DBAPIError) else exc
    text = str(orig).strip().splitlines()[0] if str(orig).strip() else type(orig).__name__
    low = text.lower()
    if "not a database" in low or "malformed" in low:
        return f"{text} (the file is damaged or is not a scorekeeper database)"
    if "locked" in low or "busy" in low:
        return f"{text} (another program holds it; is a second scorekeeper running?)"
    if "unable to open" in low or "readonly" in low or "read-only" in low:
        return f"{text} (check that the file and its folder exist and are writable)"
    return text


class StoreBase:
    """One database connection and its lock (every method is thread-safe); see ``Store``."""

    url: str
    where: str  # the file (or the URL without its password), named in every error
    engine: Engine
    marker: Marker | None
    _sqlite: bool
    _conn: Connection
    _lock: threading.RLock
    _closed: bool
    _next_seq: dict[str, int]  # table id -> the seq its next record gets (log.py)
    _last_chain: dict[str, str]  # table id -> its last record's chain value (log.py)
    _listeners: list[AppendListener]  # told of each durable append (log.py, replica.py)

    def _record_text(self) -> ColumnElement[Any]:
        """The log's ``record`` column read as the JSON text stored, which the chain covers."""
        return self._json_text(LOG.c.record)

    def _json_text(self, column: ColumnElement[Any]) -> ColumnElement[Any]:
        """A JSON column read as the text stored.

        PostgreSQL's ``json`` type keeps the text as given, but psycopg parses a json column
        into Python objects: there it is CAST to text in the query. SQLite stores text and
        returns it as is (no CAST: the hot read path stays what it was).
        """
        if self._sqlite:
            return type_coerce(column, Text)
        return cast(column, Text)

    def _json_value(self, text: str) -> ColumnElement[Any]:
        """The SQL value that stores the JSON ``text`` as is in a JSON column.

        Bound as text, not through the JSON type (that would encode the string once more). On
        PostgreSQL it is CAST to ``json``, which keeps the text exactly as given (and refuses
        text that is not JSON).
        """
        value = literal(text, Text)
        return value if self._sqlite else cast(value, JSON)

    # -- plumbing ---------------------------------------------------------------------------

    @contextmanager
    def _db(self, doing: str) -> Iterator[Connection]:
        """Hold the lock and the connection; turn database errors into StoreError."""
        with self._lock:
            if self._closed:
                raise StoreError(f"{self.where}: the store is closed")
            try:
                yield self._conn
            except SQLAlchemyError as exc:
                self._rollback()
                raise StoreError(f"{self.where}: cannot {doing}: {plain(exc)}") from None
            except BaseException:
                self._rollback()
                raise

    def _rollback(self) -> None:
        with suppress(SQLAlchemyError):
            self._conn.rollback()

    def close(self) -> None:
        """Close the connection. Safe to call twice."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            if self.marker is not None:
                with suppress(OSError):
                    self.marker.close()
            try:
                self._conn.close()
                self.engine.dispose()
            except SQLAlchemyError:
                pass

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def shrink(self) -> None:
        """Hand SQLite's page cache back (``PRAGMA shrink_memory``): after a large read, such
        as replaying a finished table that is then dropped again."""
        if not self._sqlite:
            return
        with self._db("free its cache") as conn:
            conn.exec_driver_sql("PRAGMA shrink_memory")
            conn.rollback()

    def pragma(self, name: str) -> Any:
        """The value of a SQLite PRAGMA on the store's connection (for checks and tests)."""
        if not re.fullmatch(r"[a-z_]+", name):
            raise ValueError(f"not a pragma name: {name!r}")
        with self._db(f"read PRAGMA {name}") as conn:
            value = conn.exec_driver_sql(f"PRAGMA {name}").scalar()
            conn.rollback()
            return value
