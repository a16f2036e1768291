"""The store's event logs: appending a record (its chain and marker), reading and replaying.

``LogStore`` is one of ``Store``'s classes (scorekeeper/store/store.py). ``append`` is the hot
path of the whole server (docs/design.md, invariant 1: logged before it takes effect).
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import suppress
from typing import Any

from sqlalchemy import Connection, insert, select
from sqlalchemy.exc import IntegrityError

from scorekeeper.core.game import Game
from scorekeeper.core.inputs import InputSyntaxError, input_from_record
from scorekeeper.core.table import Table as GameTable
from scorekeeper.core.table import refusal_from_record
from scorekeeper.errors import ConfigError, StoreError
from scorekeeper.store.base import LOG, AppendListener, plain
from scorekeeper.store.chain import GENESIS, ChainChecker, link
from scorekeeper.store.models import utcnow
from scorekeeper.store.rows import Rows

_log = logging.getLogger(__name__)
READ_BATCH = 2000
_INSERT_LOG = "INSERT INTO log (table_id, seq, at, record, chain) VALUES (?, ?, ?, ?, ?)"
_SQLITE_DATETIME = "%Y-%m-%d %H:%M:%S.%f"  # how SQLAlchemy stores a DateTime in SQLite
Started = Callable[[int], None]  # told a log row's seq once it is inserted, before its commit


class TableLog:
    """A table's ``LogSink``: ``append`` commits one record to the store and returns its seq."""

    def __init__(self, store: LogStore, table_id: str) -> None:
        self.store = store
        self.table_id = table_id

    def append(self, record: dict[str, Any], started: Started | None = None) -> int:
        """Append ``record`` durably; returns its sequence number (1, 2, ...). ``started``:
        as for ``Store.append``."""
        return self.store.append(self.table_id, record, started)


class LogStore(Rows):
    """The event logs of a ``Store``."""

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
                break
            else:
                raise StoreError(
                    f"{self.where}: cannot append to the log of {table_id}: "
                    "another program keeps writing to it"
                )
        if self._listeners:  # the one check the hot path pays when nobody listens
            self._tell_listeners(table_id, seq, text, chain)
        return seq

    def add_append_listener(self, fn: AppendListener) -> None:
        """Have ``fn(table_id, seq, text, chain)`` called after each durable append.

        It is called on the appending thread, after the commit and the marker, outside the
        store's lock, with the record's JSON text exactly as stored and its chain value (what a
        table agent publishes to the hub). It must be quick: the append's caller waits for it.
        An exception from it is logged and never fails the append (the record is logged).
        """
        with self._lock:
            self._listeners = [*self._listeners, fn]  # a new list: a running append keeps its

    def _tell_listeners(self, table_id: str, seq: int, text: str, chain: str) -> None:
        for fn in self._listeners:
            try:
                fn(table_id, seq, text, chain)
            except Exception:
                _log.exception(
                    "an append listener failed; the record is logged all the same",
                    extra={"table_id": table_id, "seq": seq, "listener": repr(fn)},
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
                raise StoreError(f"{self.where}: cannot append to the log: {plain(exc)}") from None
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
        raw = self._record_text()
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
