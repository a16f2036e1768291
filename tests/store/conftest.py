"""Fixtures of the store tests: the store's URL on each backend, and a FUSE-mounted disk whose
power can be cut."""

from __future__ import annotations

import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from sqlalchemy import create_engine, make_url, text

from scorekeeper.event.servers import PrivatePostgres
from scorekeeper.store import Store, sqlite_url
from scorekeeper.store.event_models import EVENT_SQL_TABLES
from soak.fusecut import Mount, why_fuse_cannot_mount

BACKENDS = ("sqlite", "postgresql")
# The event hub's tables, those referring to ``events`` first (the order they can be dropped).
EVENT_TABLES = tuple(table.name for table in reversed(EVENT_SQL_TABLES))


@pytest.fixture(scope="session")
def store_database(postgres_server: PrivatePostgres) -> Iterator[tuple[str, psycopg.Connection]]:
    """One PostgreSQL database for the store tests of this process, and a connection to it
    that empties it between tests (much cheaper than a new database a test: 8 ms, not 100)."""
    url = postgres_server.create_database(f"store_{os.getpid()}")
    dsn = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(dsn, autocommit=True) as admin:
        # A test that left a transaction open would make the reset wait: fail instead.
        admin.execute("SET lock_timeout = '10s'")
        yield url, admin


@pytest.fixture(params=BACKENDS)
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of a new, empty database for a store on each backend in turn: a SQLite file in
    tmp_path, and the store tests' database on the session's private PostgreSQL server
    (tests/conftest.py), emptied first (its schema dropped and made again)."""
    if request.param == "sqlite":
        return sqlite_url(str(tmp_path / "state" / "scorekeeper.db"))
    url, admin = request.getfixturevalue("store_database")
    admin.execute("DROP SCHEMA public CASCADE")
    admin.execute("CREATE SCHEMA public")
    return str(url)


def run_sql(url: str, statement: str, **params: object) -> list[tuple[object, ...]]:
    """Run one SQL statement on the store at ``url`` behind its back (to damage it, or to
    build an old layout), on its own connection, committed; returns the rows it gave."""
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            result = conn.execute(text(statement), params)
            return [tuple(row) for row in result] if result.returns_rows else []
    finally:
        engine.dispose()


def before_migrations(db: Path, schema_version: str) -> None:
    """Turn the SQLite store ``db`` (closed, holding no table settings, seat tokens or events)
    into one written by the versions before migrations, at ``schema_version`` ("1" to "3")."""
    with sqlite3.connect(db) as conn:
        for name in ("alembic_version", "seat_tokens", "table_settings", *EVENT_TABLES):
            conn.execute(f"DROP TABLE {name}")
        conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (schema_version,))


@pytest.fixture
def any_store(store_url: str) -> Iterator[Store]:
    """A new, empty ``Store`` on each backend in turn (closed after the test)."""
    store = Store(store_url)
    try:
        yield store
    finally:
        store.close()


def need_fuse() -> None:
    """Fail (never skip) where FUSE cannot mount, saying why and what to install."""
    reason = why_fuse_cannot_mount()
    if reason is not None:
        pytest.fail(
            f"the power-cut tests need FUSE, and it cannot be mounted here: {reason}", pytrace=False
        )


def unmount_left_over(mountpoint: Path) -> None:
    """A mount left behind would hang every later test that walks tmp_path: go, lazily."""
    if os.path.ismount(mountpoint):
        subprocess.run(
            ["fusermount3", "-u", "-z", str(mountpoint)], check=False, capture_output=True
        )
    assert not os.path.ismount(mountpoint), f"{mountpoint} is still mounted"


@pytest.fixture
def disk(tmp_path: Path) -> Iterator[Mount]:
    """A FUSE layer over tmp_path/disk mounted at tmp_path/mnt (soak/fusecut.py): what was not
    fsync'd can be thrown away with ``disk.cut``. Always unmounted, even on failure."""
    need_fuse()
    mount = Mount(tmp_path / "disk", tmp_path / "mnt")
    try:
        yield mount
    finally:
        mount.close()
        unmount_left_over(tmp_path / "mnt")
