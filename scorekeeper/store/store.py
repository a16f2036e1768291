"""The store: tables, their append-only event logs, kits and settings in one SQL database.

SQLite is the default (one file, ``var/scorekeeper.db``); every SQLite connection runs in WAL mode
with ``synchronous=FULL``, so a commit is on disk (fsync'd) when it returns. ``Store.append`` is
the hot path of the whole server: it commits each log record before returning its sequence
number, which is what docs/design.md invariant 1 ("logged before it takes effect") rests on.

Damage must never pass for a good store. Each record carries a chained checksum, verified
whenever a log is read (scorekeeper/store/chain.py); a SQLite file is opened only after
``PRAGMA quick_check`` and a comparison with its marker, a file beside it that remembers the
store's identity and what it acknowledged (scorekeeper/store/marker.py,
scorekeeper/store/checks.py); a database missing, empty, foreign or behind is refused.

One ``Store`` holds one database connection and a lock; every method is thread-safe.

``Store`` is this module's opening of a database (its checks, migrations and marker) on top of
its classes: base.py (the connection, its lock and errors in words), rows.py (tables, settings,
data entries, kits), log.py (appending, reading, replaying) and replica.py (replication: raw
records, insert-once receipt, the high-water mark). Every name other code imports
comes from here or from scorekeeper.store.
"""

from __future__ import annotations

import sqlite3
import threading
from contextlib import suppress
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, create_engine, event, inspect, select, update
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import StaticPool

from scorekeeper.errors import StoreError
from scorekeeper.store import checks, data_table, migrations
from scorekeeper.store.base import (
    KITS,
    LOG,
    META,
    SEAT_TOKENS,
    SETTINGS,
    TABLES,
    plain,
    sqlite_url,
)
from scorekeeper.store.chain import GENESIS, link
from scorekeeper.store.durable import fsync_file
from scorekeeper.store.event_models import EVENT_SQL_TABLES
from scorekeeper.store.log import READ_BATCH, Started, TableLog
from scorekeeper.store.marker import (
    STORE_ID_META,
    Marker,
    marker_path,
    new_store_id,
    read_marker,
)
from scorekeeper.store.replica import ReplicaStore
from scorekeeper.store.rows import HIGHEST_ID_META
from scorekeeper.store.settings import SettingsStore, TableSettings

# Names other modules import from here (the store's classes live in base.py, rows.py, log.py).
__all__ = [
    "DEFAULT_URL",
    "HIGHEST_ID_META",
    "KITS",
    "LOG",
    "META",
    "READ_BATCH",
    "SCHEMA_VERSION",
    "TABLES",
    "Started",
    "Store",
    "TableLog",
    "TableSettings",
    "sqlite_url",
]

DEFAULT_URL = "sqlite:///var/scorekeeper.db"
# 2: log rows carry chained checksums (a version-1 store gets them at its first open)
# 3: the games' data entries (board profiles) live in the ``data`` table, not in meta strings
# From 3 on the schema is kept by Alembic revisions (scorekeeper/store/migrations/), and each
# revision sets this value too (``backup`` reads it to recognise a store):
# 4: per-table settings and seat tokens in their own tables, not in meta strings
# 5: the spectator delay in table_settings, not in meta; the event hub's tables in the schema
SCHEMA_VERSION = migrations.HEAD_SCHEMA_VERSION
LEGACY_VERSION = "3"  # the schema the steps before Alembic bring a store to
# Every table of the store, in the order they can be created (a new database gets them at once);
# the event hub's are empty but on a hub's database (scorekeeper/event/event_db.py).
STORE_TABLES = (TABLES, LOG, META, KITS, data_table.DATA, SETTINGS, SEAT_TOKENS) + EVENT_SQL_TABLES


class Store(ReplicaStore, SettingsStore):
    """Tables, logs, kits and settings in one database at ``url`` (SQLAlchemy URL).

    A SQLite file's folder is created if missing. Errors from the database come out as
    StoreError naming the file; a missing table or kit is NotFound. A SQLite file is checked
    before use (``PRAGMA quick_check``, then against its marker): one that is damaged, or
    missing, empty, another store or behind what its marker says was acknowledged, raises
    StoreRefused and is left as it was.
    """

    def __init__(self, url: str = DEFAULT_URL, *, timeout: float = 5.0) -> None:
        self.url = url
        parsed = make_url(url)
        self._sqlite = parsed.get_backend_name() == "sqlite"
        database = parsed.database or ""
        memory = self._sqlite and database in ("", ":memory:")
        if self._sqlite:
            self.where = database or ":memory:"
        else:
            self.where = parsed.render_as_string(hide_password=True)
        self._lock = threading.RLock()
        self._next_seq: dict[str, int] = {}
        self._last_chain: dict[str, str] = {}
        self._listeners = []
        self._closed = False
        self.marker: Marker | None = None
        file = self._sqlite and not memory
        if file:
            try:
                Path(database).parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(
                    f"{self.where}: cannot create its folder: {exc.strerror or exc}"
                ) from None
            state = read_marker(marker_path(database))
            if state is not None and checks.file_is_empty(database):
                # Before SQLite creates a new file there: the real one must come back.
                raise checks.refuse_missing(self.where, state)
        try:
            if self._sqlite:
                self.engine: Engine = create_engine(
                    url,
                    poolclass=StaticPool,
                    connect_args={"check_same_thread": False, "timeout": timeout},
                )
                event.listen(self.engine, "connect", _sqlite_pragmas)
            else:
                self.engine = create_engine(url, pool_pre_ping=True)
            self._conn: Connection = self.engine.connect()
            if file:
                self._quick_check()
            self._migrate()
        except SQLAlchemyError as exc:
            self._give_up()
            raise StoreError(f"{self.where}: cannot open the database: {plain(exc)}") from None
        except sqlite3.Error as exc:  # raised inside the connect event, before wrapping
            self._give_up()
            raise StoreError(f"{self.where}: cannot open the database: {plain(exc)}") from None
        except StoreError:
            self._give_up()
            raise
        if file:
            try:
                self._check_marker(database, state)
            except BaseException:
                self._give_up()
                raise

    def _give_up(self) -> None:
        """Close what a failed open had opened (the caller raises)."""
        with suppress(Exception):
            self.close()

    def _quick_check(self) -> None:
        """SQLite's page-level check of the whole file (StoreRefused when it finds damage)."""
        try:
            rows = [str(row[0]) for row in self._conn.exec_driver_sql("PRAGMA quick_check").all()]
        except SQLAlchemyError as exc:  # damage bad enough that the check itself stops
            raise checks.refuse_damaged(self.where, [plain(exc)]) from None
        # The check read every page through the page cache: hand that memory back (a start
        # with hundreds of finished games must stay within the memory budget).
        self._conn.exec_driver_sql("PRAGMA shrink_memory")
        self._conn.rollback()
        if rows != ["ok"]:
            raise checks.refuse_damaged(self.where, rows)

    def _migrate(self) -> None:
        """Make a new database a store, or bring an older store up to the newest schema.

        The usual start finds the database at the newest revision in one SELECT and imports
        nothing more, and an empty database is given the newest tables without Alembic either
        (it costs time and memory a start cannot spare: migrations/). A store from before
        migrations first goes through the steps that bring it to schema 3 (``_legacy_steps``),
        in place, keeping every record and its chain, then through the revisions.
        """
        if migrations.current(self._conn) == migrations.HEAD:
            return
        names = set(inspect(self._conn).get_table_names())
        self._conn.rollback()
        if not names and migrations.create_new(self._conn, STORE_TABLES, META, sqlite=self._sqlite):
            return
        from scorekeeper.store.migrations import run  # Alembic: only now

        if "tables" in names and migrations.VERSION_TABLE not in names:
            # Made before migrations: a schema 1 or 2 store may lack the data table.
            for table in (TABLES, LOG, META, KITS, data_table.DATA):
                table.create(self._conn, checkfirst=True)
            self._conn.commit()
            self._legacy_steps()
        run.upgrade(self._conn, sqlite=self._sqlite, where=self.where)

    def _legacy_steps(self) -> None:
        """Bring a store from before migrations up to schema 3 (the Alembic baseline)."""
        version = self.get_meta("schema_version")
        if version == LEGACY_VERSION:
            return
        if version is not None:
            columns = {c["name"] for c in inspect(self._conn).get_columns("log")}
            if "chain" not in columns:
                self._conn.exec_driver_sql("ALTER TABLE log ADD COLUMN chain VARCHAR(64)")
                self._conn.commit()
            self._fill_chains()
            self._move_meta_data()
        self.set_meta("schema_version", LEGACY_VERSION)

    def _move_meta_data(self) -> None:
        """Move the data entries schema 2 kept as meta strings into the data table."""
        from scorekeeper.core.data import legacy_meta_kinds  # the games' kinds: loaded once

        for prefix, index_key, game, kind in legacy_meta_kinds():
            entries = self.meta_prefixed(prefix)
            with self._db("move stored data to its table") as conn:
                data_table.move_meta_entries(conn, entries, prefix, index_key, game, kind)
                conn.commit()

    def _fill_chains(self) -> None:
        """Give every record written before checksums existed its chain value (one pass)."""
        raw = self._record_text()
        with self._db("add checksums to the log") as conn:
            ids = conn.execute(select(LOG.c.table_id).distinct()).scalars().all()
            for table_id in ids:
                previous = GENESIS
                rows = conn.execute(
                    select(LOG.c.id, LOG.c.seq, raw, LOG.c.chain)
                    .where(LOG.c.table_id == table_id)
                    .order_by(LOG.c.seq)
                ).all()
                for row_id, seq, text, chain in rows:
                    if chain is None:
                        chain = link(previous, table_id, int(seq), str(text))
                        conn.execute(update(LOG).where(LOG.c.id == row_id).values(chain=chain))
                    previous = str(chain)
            conn.commit()

    def _check_marker(self, database: str, state: Any) -> None:
        """Compare the database with its marker, then (re)write the marker from it."""
        store_id = self.get_meta(STORE_ID_META)
        tables = self.overview()
        if state is not None:
            checks.check_identity(self.where, state, store_id)
            names = self._names()
            checks.check_not_behind(
                self.where, state, {t: last for t, _status, last in tables}, names
            )
        if store_id is None:
            store_id = new_store_id()
            self.set_meta(STORE_ID_META, store_id)
        try:
            # What this open read may include a commit whose writer died inside its fsync
            # (never acknowledged, still only in the page cache). The marker is about to be
            # written from it: make it durable first, or a power cut could leave the marker
            # ahead of the disk and refuse a good store at the next start.
            fsync_file(database, missing_ok=True)
            fsync_file(f"{database}-wal", missing_ok=True)
            self.marker = Marker(
                marker_path(database),
                store_id,
                {t: last for t, _status, last in tables if last},
                rewrite=state is None,
            )
        except OSError as exc:
            raise StoreError(
                f"{self.where}: cannot write its marker file "
                f"{marker_path(database)}: {exc.strerror or exc}"
            ) from None

    def _names(self) -> dict[str, str]:
        with self._db("list tables") as conn:
            rows = conn.execute(select(TABLES.c.id, TABLES.c.name)).all()
            conn.rollback()
        return {str(i): str(n) for i, n in rows}


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    """Run on every new SQLite connection: WAL journal, fsync on every commit, FK checks."""
    cursor = dbapi_conn.cursor()
    try:
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
    finally:
        cursor.close()
