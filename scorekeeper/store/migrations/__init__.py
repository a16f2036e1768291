"""The store's schema, kept by Alembic revisions (versions/), and the quick check of where a
database stands.

A store at ``HEAD`` opens with one plain SELECT of ``alembic_version`` (``current``) and never
imports Alembic: a start is budgeted in time and memory (about 1.5 s and 80 MB), and Alembic
with its script loading is only paid when an upgrade is due (``run.upgrade``).

An empty database is made a store at ``HEAD`` without Alembic too (``create_new``: the models'
tables, stamped ``HEAD`` by plain SQL), which is Alembic's own recipe for a database built
from scratch: importing and running it would cost about 10 MB for the life of the process
(a first start on a new Pi, and every start ``make bench`` measures, is on a new database). A
test proves that the revisions, run from nothing, give exactly the models' tables.

Revisions, in order:

- ``0003_baseline``: the tables of schema 3 (tables, log, meta, kits, data), as the store made
  them before migrations existed. A store from then (``schema_version`` in meta, no
  ``alembic_version`` table) is stamped at it, after the legacy steps that bring a schema 1 or
  2 store up to 3 (scorekeeper/store/store.py).
- ``0004_table_settings``: per-table settings move out of meta strings into ``table_settings``
  and ``seat_tokens``.
- ``0005_delay_and_events``: the spectator delay moves out of meta strings into
  ``table_settings``; the event hub's tables (``events``, ``event_log``, ``players``,
  ``event_tables``, ``event_tokens``: scorekeeper/store/event_models.py) join the schema, made
  where missing (a hub database made before it keeps its own).
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Connection, Table, insert, inspect, text
from sqlalchemy.exc import SQLAlchemyError

BASELINE = "0003_baseline"
HEAD = "0005_delay_and_events"
HEAD_SCHEMA_VERSION = "5"  # what HEAD writes as schema_version in meta (backups read it)
VERSION_TABLE = "alembic_version"  # Alembic's own name for it, and its own layout below
_VERSION_DDL = (
    f"CREATE TABLE {VERSION_TABLE} (version_num VARCHAR(32) NOT NULL, "
    f"CONSTRAINT {VERSION_TABLE}_pkc PRIMARY KEY (version_num))"
)
_LOCK_KEY = 0x5C0BE4EE  # the advisory lock PostgreSQL openers take while they change the schema


def current(conn: Connection) -> str | None:
    """The revision the database is at, or None when it has no version table (a new database
    or one from before migrations) or holds no revision. One SELECT; the transaction it opens
    is rolled back (on PostgreSQL a failed SELECT would otherwise spoil the next statement)."""
    try:
        value = conn.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalar()
    except SQLAlchemyError:
        value = None
    conn.rollback()
    return None if value is None else str(value)


def begin_exclusive(conn: Connection, *, sqlite: bool) -> None:
    """Open the transaction a schema change runs in, held against other openers.

    SQLite: an explicit ``BEGIN IMMEDIATE`` (Python's sqlite3 would otherwise commit each
    CREATE TABLE on its own, and a crash half-way would leave a store no revision describes).
    PostgreSQL: a transaction-scoped advisory lock. A second process opening the same database
    at the same moment waits, then finds the work done.
    """
    if sqlite:
        conn.exec_driver_sql("BEGIN IMMEDIATE")
    else:
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOCK_KEY})


def create_new(conn: Connection, tables: Sequence[Table], meta: Table, *, sqlite: bool) -> bool:
    """Make an empty database a store at ``HEAD``: create ``tables`` (the models' tables),
    stamp ``HEAD`` and write ``schema_version`` into ``meta``, in one transaction, committed.

    Returns False, changing nothing, when the database is not empty once held (another process
    made it meanwhile, or it holds something else): the caller then upgrades it as it is.
    """
    begin_exclusive(conn, sqlite=sqlite)
    try:
        if inspect(conn).get_table_names():
            conn.rollback()
            return False
        for table in tables:
            table.create(conn)
        conn.execute(text(_VERSION_DDL))
        conn.execute(text(f"INSERT INTO {VERSION_TABLE} (version_num) VALUES (:v)"), {"v": HEAD})
        conn.execute(insert(meta).values(key="schema_version", value=HEAD_SCHEMA_VERSION))
        conn.commit()
    except BaseException:
        conn.rollback()
        raise
    return True
