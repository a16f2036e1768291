"""The store's schema, kept by Alembic revisions (versions/), and the quick check of where a
database stands.

A store at ``HEAD`` opens with one plain SELECT of ``alembic_version`` (``current``) and never
imports Alembic: a start is budgeted in time and memory (about 1.5 s and 80 MB), and Alembic
with its script loading is only paid when an upgrade is due (``run.upgrade``).

Revisions, in order:

- ``0003_baseline``: the tables of schema 3 (tables, log, meta, kits, data), as the store made
  them before migrations existed. A store from then (``schema_version`` in meta, no
  ``alembic_version`` table) is stamped at it, after the legacy steps that bring a schema 1 or
  2 store up to 3 (scorekeeper/store/store.py).
- ``0004_table_settings``: per-table settings move out of meta strings into ``table_settings``
  and ``seat_tokens``.
"""

from __future__ import annotations

from sqlalchemy import Connection, text
from sqlalchemy.exc import SQLAlchemyError

BASELINE = "0003_baseline"
HEAD = "0004_table_settings"
VERSION_TABLE = "alembic_version"  # Alembic's own name for it


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
