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
"""

from __future__ import annotations

import json
import re
import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Connection,
    Table,
    create_engine,
    delete,
    event,
    func,
    insert,
    inspect,
    select,
    update,
)
from sqlalchemy import Text as SqlText
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import DBAPIError, IntegrityError, SQLAlchemyError
from sqlalchemy.pool import StaticPool
from sqlalchemy.sql import type_coerce

from scorekeeper.core.game import Game
from scorekeeper.core.inputs import InputSyntaxError, input_from_record
from scorekeeper.core.kit import Kit, check_kit_name
from scorekeeper.core.table import Table as GameTable
from scorekeeper.core.table import TableConfig, refusal_from_record
from scorekeeper.errors import ConfigError, NotFound, StoreError
from scorekeeper.store import checks, data_table
from scorekeeper.store.chain import GENESIS, ChainChecker, link
from scorekeeper.store.durable import fsync_file
from scorekeeper.store.marker import (
    STORE_ID_META,
    Marker,
    marker_path,
    new_store_id,
    read_marker,
)
from scorekeeper.store.models import (
    TABLE_STATUSES,
    KitRow,
    LogRow,
    MetaRow,
    TableRow,
    utcnow,
)

DEFAULT_URL = "sqlite:///var/scorekeeper.db"
# 2: log rows carry chained checksums (a version-1 store gets them at its first open)
# 3: the games' data entries (board profiles) live in the ``data`` table, not in meta strings
SCHEMA_VERSION = "3"
READ_BATCH = 2000
_TABLE_ID = re.compile(r"^t(\d+)$")
ARCHIVED_META = "table-archived:"  # + table id -> "1" while the table is archived
# + table id -> JSON: an ended or archived table's list line (final scores, winners...), so that
# a start lists it without replaying its log (written by the hub when it unloads the table).
SUMMARY_META = "table-summary:"
HIGHEST_ID_META = "table-highest-number"  # the highest table number ever given (deletes too)
_INSERT_LOG = "INSERT INTO log (table_id, seq, at, record, chain) VALUES (?, ?, ?, ?, ?)"
_SQLITE_DATETIME = "%Y-%m-%d %H:%M:%S.%f"  # how SQLAlchemy stores a DateTime in SQLite
Started = Callable[[int], None]  # told a log row's seq once it is inserted, before its commit


def _table(model: type[Any]) -> Table:
    table = model.__table__
    assert isinstance(table, Table)
    return table


TABLES = _table(TableRow)
LOG = _table(LogRow)
META = _table(MetaRow)
KITS = _table(KitRow)


def sqlite_url(path_or_url: str) -> str:
    """Turn a ``--db`` argument into a database URL: a plain path means a SQLite file."""
    return path_or_url if "://" in path_or_url else f"sqlite:///{path_or_url}"


def _plain(exc: BaseException) -> str:
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


class TableLog:
    """A table's ``LogSink``: ``append`` commits one record to the store and returns its seq."""

    def __init__(self, store: Store, table_id: str) -> None:
        self.store = store
        self.table_id = table_id

    def append(self, record: dict[str, Any], started: Started | None = None) -> int:
        """Append ``record`` durably; returns its sequence number (1, 2, ...). ``started``:
        as for ``Store.append``."""
        return self.store.append(self.table_id, record, started)


class Store:
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
            for table in (TABLES, LOG, META, KITS, data_table.DATA):
                table.create(self._conn, checkfirst=True)
            self._conn.commit()
            self._migrate()
        except SQLAlchemyError as exc:
            self._give_up()
            raise StoreError(f"{self.where}: cannot open the database: {_plain(exc)}") from None
        except sqlite3.Error as exc:  # raised inside the connect event, before wrapping
            self._give_up()
            raise StoreError(f"{self.where}: cannot open the database: {_plain(exc)}") from None
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
            raise checks.refuse_damaged(self.where, [_plain(exc)]) from None
        # The check read every page through the page cache: hand that memory back (a start
        # with hundreds of finished games must stay within the memory budget).
        self._conn.exec_driver_sql("PRAGMA shrink_memory")
        self._conn.rollback()
        if rows != ["ok"]:
            raise checks.refuse_damaged(self.where, rows)

    def _migrate(self) -> None:
        """Bring a store written by an older version up to ``SCHEMA_VERSION`` (or set it)."""
        version = self.get_meta("schema_version")
        if version == SCHEMA_VERSION:
            return
        if version is not None:
            columns = {c["name"] for c in inspect(self._conn).get_columns("log")}
            if "chain" not in columns:
                self._conn.exec_driver_sql("ALTER TABLE log ADD COLUMN chain VARCHAR(64)")
                self._conn.commit()
            self._fill_chains()
            self._move_meta_data()
        self.set_meta("schema_version", SCHEMA_VERSION)

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
        raw = type_coerce(LOG.c.record, SqlText)
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
                raise StoreError(f"{self.where}: cannot {doing}: {_plain(exc)}") from None
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

    def __enter__(self) -> Store:
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

    # -- tables -----------------------------------------------------------------------------

    def create_table(self, config: TableConfig) -> str:
        """Store a new table with ``config`` (status ``created``); returns its id (``t1``...)."""
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
                    conn.execute(
                        insert(TABLES).values(
                            id=table_id,
                            created_at=utcnow(),
                            name=data["name"],
                            game=config.game,
                            config=data,
                            status="created",
                        )
                    )
                    conn.commit()
                except IntegrityError:  # another process took that id first
                    conn.rollback()
                    continue
                self._next_seq[table_id] = 1
                return table_id
        raise StoreError(f"{self.where}: cannot create a table: ids keep colliding")

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

    def archived(self, table_id: str) -> bool:
        """True while the table is archived (hidden from the lists; its log is kept)."""
        return self.get_meta(ARCHIVED_META + table_id) == "1"

    def set_archived(self, table_id: str, archived: bool) -> None:
        """Archive or unarchive a table (NotFound if there is no such table)."""
        self._table_column(table_id, TABLES.c.id)
        self.set_meta(ARCHIVED_META + table_id, "1" if archived else "0")

    def delete_table(self, table_id: str, meta_keys: tuple[str, ...] | list[str] = ()) -> int:
        """Delete a table for good: its log records, its row, its archive mark and the
        ``meta_keys`` given (its readers, spectator delay, seat tokens), in one transaction;
        returns how many log records went. NotFound if there is no such table.

        The one exception to the append-only log (docs/design.md, invariant 1), made only when the
        organiser asks for it explicitly (``DELETE /api/tables/{id}``,
        ``scorekeeper table delete``). The table's id is never given to another table.
        """
        keys = [ARCHIVED_META + table_id, SUMMARY_META + table_id, *meta_keys]
        m = _TABLE_ID.match(table_id)
        with self._db("delete a table") as conn:
            self._table_row(conn, table_id)
            if self.marker is not None:
                self.marker.forget(table_id)
            gone = conn.execute(delete(LOG).where(LOG.c.table_id == table_id)).rowcount
            conn.execute(delete(TABLES).where(TABLES.c.id == table_id))
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

    # -- the log ----------------------------------------------------------------------------

    def _load_next_seq(self, conn: Connection, table_id: str) -> int:
        """The next seq of a table's log; also caches its last record's chain value."""
        self._table_row(conn, table_id)
        last = conn.execute(
            select(LOG.c.seq, LOG.c.chain)
            .where(LOG.c.table_id == table_id)
            .order_by(LOG.c.seq.desc())
            .limit(1)
        ).first()
        conn.rollback()
        self._last_chain[table_id] = GENESIS if last is None else str(last[1] or "")
        return (int(last[0]) if last is not None else 0) + 1

    def append(self, table_id: str, record: dict[str, Any], started: Started | None = None) -> int:
        """Append ``record`` to a table's log and commit it (fsync'd); returns its seq.

        The record is durable when this returns, and the marker has been told (after the
        commit: the marker may lag the database, never lead it). NotFound if the table does not
        exist; StoreError if the database refuses the write. Thread-safe.

        ``started(seq)`` is called once the row is inserted, just before the commit (the
        fsync), on this thread: a caller that appends on another thread may go on meanwhile
        (``service/log_sink.LockedSink``). It must not touch the store, and the record is not
        durable until this returns (the commit may still fail).
        """
        text = json.dumps(record)
        with self._db("append to the log") as conn:
            for _attempt in range(3):
                seq = self._next_seq.get(table_id)
                if seq is None or table_id not in self._last_chain:
                    seq = self._load_next_seq(conn, table_id)
                chain = link(self._last_chain[table_id], table_id, seq, text)
                try:
                    self._insert_log(conn, table_id, seq, record, text, chain, started)
                except (IntegrityError, sqlite3.IntegrityError):  # another writer took this seq
                    self._next_seq.pop(table_id, None)  # reload it and retry
                    continue
                self._next_seq[table_id] = seq + 1
                self._last_chain[table_id] = chain
                if self.marker is not None:
                    try:
                        self.marker.note(table_id, seq)
                    except OSError as exc:  # the input is logged; only the marker lags
                        raise StoreError(
                            f"{self.where}: the input was logged, but its marker "
                            f"file cannot be written: {exc.strerror or exc}"
                        ) from None
                return seq
        raise StoreError(
            f"{self.where}: cannot append to the log of {table_id}: "
            "another program keeps writing to it"
        )

    def _insert_log(
        self,
        conn: Connection,
        table_id: str,
        seq: int,
        record: dict[str, Any],
        text: str,
        chain: str,
        started: Started | None = None,
    ) -> None:
        """Insert one log row and commit it (durable on return); rolled back on any error.
        ``started(seq)`` is called between the two (``append``).

        SQLite takes the short road: one prepared INSERT and a commit on the driver's own
        connection, skipping SQLAlchemy's statement compilation and transaction bookkeeping
        (about 0.1 ms of the hot path). The row is byte-for-byte what the SQLAlchemy path
        writes (``at`` in SQLAlchemy's SQLite datetime format, ``record`` through
        ``json.dumps``), and the commit is the same ``synchronous=FULL`` fsync. ``text`` is
        ``json.dumps(record)``, what ``chain`` covers; the SQLAlchemy path stores the same text
        (its JSON type serialises with ``json.dumps``), which reading checks.
        """
        raw = conn.connection.dbapi_connection if self._sqlite else None
        if not isinstance(raw, sqlite3.Connection) or conn.in_transaction() or raw.in_transaction:
            try:
                conn.execute(
                    insert(LOG),
                    {
                        "table_id": table_id,
                        "seq": seq,
                        "at": utcnow(),
                        "record": record,
                        "chain": chain,
                    },
                )
                if started is not None:
                    started(seq)
                conn.commit()
            except IntegrityError:
                conn.rollback()
                raise
            return
        try:
            raw.execute(
                _INSERT_LOG, (table_id, seq, utcnow().strftime(_SQLITE_DATETIME), text, chain)
            )
            if started is not None:
                started(seq)
            # COMMIT as a (cached) statement, not raw.commit(): that frees the GIL three times
            # (prepare, step, finalize), and a thread woken by ``started`` takes it at the
            # first and holds the fsync back until its work is done (a microbenchmark with
            # 0.2 ms of Python beside it: 0.51 ms a commit, 0.31 ms as a statement).
            raw.execute("COMMIT")
        except BaseException as exc:
            with suppress(sqlite3.Error):
                raw.rollback()
            if isinstance(exc, sqlite3.Error) and not isinstance(exc, sqlite3.IntegrityError):
                raise StoreError(f"{self.where}: cannot append to the log: {_plain(exc)}") from None
            raise

    def records(self, table_id: str) -> Iterator[tuple[int, dict[str, Any]]]:
        """Every ``(seq, record)`` of a table's log in seq order (read in batches).

        NotFound is raised at once if the table does not exist; StoreError names the seq of a
        record that cannot be read, BrokenChain the first record that fails its checksum (or
        is missing), so nothing damaged is ever handed out as a record.
        """
        with self._db("read a table") as conn:
            self._table_row(conn, table_id)
        return self._iter_records(table_id)

    def _iter_records(self, table_id: str) -> Iterator[tuple[int, dict[str, Any]]]:
        last = 0
        raw = type_coerce(LOG.c.record, SqlText)
        checker = ChainChecker(self.where, table_id)
        while True:
            with self._db("read the log") as conn:
                rows = conn.execute(
                    select(LOG.c.seq, raw, LOG.c.chain)
                    .where(LOG.c.table_id == table_id, LOG.c.seq > last)
                    .order_by(LOG.c.seq)
                    .limit(READ_BATCH)
                ).all()
                conn.rollback()
            for seq, value, chain in rows:
                checker.check(int(seq), value if isinstance(value, str) else str(value), chain)
                try:
                    record = json.loads(value) if isinstance(value, str | bytes) else value
                except ValueError as exc:
                    raise StoreError(
                        f"{self.where}: record {seq} of table {table_id} is damaged: {exc}"
                    ) from None
                if not isinstance(record, dict):
                    raise StoreError(
                        f"{self.where}: record {seq} of table {table_id} is "
                        "damaged: not a JSON object"
                    )
                yield int(seq), record
            if len(rows) < READ_BATCH:
                return
            last = int(rows[-1][0])

    def sink(self, table_id: str) -> TableLog:
        """The ``LogSink`` a live ``Table`` appends to."""
        return TableLog(self, table_id)

    def load_table(self, table_id: str, game: Game[Any]) -> GameTable:
        """Rebuild a table by replaying its log; the table then appends to this store.

        Raises NotFound (no table), ConfigError (the table plays another game) or StoreError
        (a damaged record, named by its seq).
        """
        config = self.config(table_id)
        if config.game != game.id:
            raise ConfigError(f"table {table_id} plays {config.game!r}, not {game.id!r}")
        table = GameTable.replay(config, game, self._checked(table_id))
        table.log = self.sink(table_id)
        return table

    def _checked(self, table_id: str) -> Iterator[tuple[int, dict[str, Any]]]:
        """The log's records, each checked to be a readable input first."""
        for seq, record in self.records(table_id):
            try:
                input_from_record(record)
                refusal_from_record(record)
            except InputSyntaxError as exc:
                raise StoreError(
                    f"{self.where}: record {seq} of table {table_id} is not an input: {exc}"
                ) from None
            yield seq, record

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


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    """Run on every new SQLite connection: WAL journal, fsync on every commit, FK checks."""
    cursor = dbapi_conn.cursor()
    try:
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
    finally:
        cursor.close()
