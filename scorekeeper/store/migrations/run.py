"""Bringing a database up to ``HEAD`` with Alembic (imported only here: see __init__.py).

``upgrade`` runs the revisions on the store's own connection, in one transaction that it
commits, held against other openers (``begin_exclusive``): a second process opening the same
database at the same moment waits, then finds it upgraded and does nothing.

There is no env.py or alembic.ini: the environment is set up here, on that connection, and the
revisions are read once per process (every new store, and the tests make many, runs them).
"""

from __future__ import annotations

import logging
from functools import cache
from pathlib import Path
from typing import Any

from alembic.config import Config
from alembic.runtime.environment import EnvironmentContext
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util.exc import CommandError
from sqlalchemy import Connection, inspect, text

from scorekeeper.errors import StoreError
from scorekeeper.store.migrations import BASELINE, HEAD, VERSION_TABLE, begin_exclusive

log = logging.getLogger(__name__)


@cache
def script() -> ScriptDirectory:
    """This package's revisions (versions/), read once per process."""
    return ScriptDirectory(str(Path(__file__).parent))


def upgrade(conn: Connection, *, sqlite: bool, where: str) -> str | None:
    """Upgrade the database behind ``conn`` to ``HEAD`` and commit; returns the revision it
    was at (None: none, a new database or one from before migrations).

    A database that has the store's tables but no version table (made before migrations, and
    already brought to schema 3 by the caller) is stamped at ``BASELINE`` first, so that its
    tables and records are kept and only the later revisions run. Rolled back on any error;
    StoreError naming ``where`` (the database) when its revision is not one this version knows.
    """
    begin_exclusive(conn, sqlite=sqlite)
    try:
        tables = set(inspect(conn).get_table_names())
        before = _version(conn) if VERSION_TABLE in tables else None
        if before != HEAD:
            try:
                _run(conn, stamp=before is None and "tables" in tables)
            except CommandError as exc:
                raise StoreError(
                    f"{where}: its schema (revision {before}) is not one this version of "
                    f"scorekeeper knows ({exc}): it was written by a newer version; run that "
                    "version (or a newer one) on it"
                ) from None
            log.info(
                "store schema upgraded",
                extra={"from": before or ("schema 3" if "tables" in tables else "new"), "to": HEAD},
            )
        conn.commit()
    except BaseException:
        conn.rollback()
        raise
    return before


def _run(conn: Connection, *, stamp: bool) -> None:
    """Run the revisions up to HEAD inside the caller's transaction (Alembic sees it is
    external and commits nothing); with ``stamp`` first mark the database at BASELINE."""
    scripts = script()
    if stamp:
        MigrationContext.configure(conn).stamp(scripts, BASELINE)

    def steps(rev: Any, _context: MigrationContext) -> Any:
        return scripts._upgrade_revs(HEAD, rev)  # what alembic.command.upgrade runs

    with EnvironmentContext(Config(), scripts, fn=steps, destination_rev=HEAD) as env:
        env.configure(connection=conn, transactional_ddl=True)
        with env.begin_transaction():
            env.run_migrations()


def _version(conn: Connection) -> str | None:
    value = conn.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalar()
    return None if value is None else str(value)


__all__ = ["upgrade"]
