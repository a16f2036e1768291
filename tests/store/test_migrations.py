"""The store's schema migrations: a new store at head on both backends, a schema-3 file made
the way the versions before migrations made it upgraded in place, a schema-4 store's spectator
delays moved on both backends, and no Alembic at a start."""

from __future__ import annotations

import json
import logging
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.environment import EnvironmentContext
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine
from sqlmodel import SQLModel

from scorekeeper.core.table import TableConfig
from scorekeeper.errors import StoreError
from scorekeeper.event.event_db import EventDb
from scorekeeper.store import Store, sqlite_url
from scorekeeper.store import store as store_module
from scorekeeper.store.chain import GENESIS, link
from scorekeeper.store.migrations import HEAD, run
from scorekeeper.store.settings import TableSettings
from tests.store.conftest import run_sql

STORE_TABLES = {table.name for table in store_module.STORE_TABLES}

# The statements the store ran to make a schema-3 database before migrations (SQLAlchemy's DDL
# for its models then, as read back from sqlite_master).
SCHEMA_3 = [
    "CREATE TABLE tables (id VARCHAR(32) NOT NULL, created_at DATETIME NOT NULL, name VARCHAR "
    "NOT NULL, game VARCHAR NOT NULL, config JSON NOT NULL, status VARCHAR NOT NULL, "
    "PRIMARY KEY (id))",
    "CREATE TABLE log (id INTEGER NOT NULL, table_id VARCHAR(32) NOT NULL, seq INTEGER NOT "
    "NULL, at DATETIME NOT NULL, record JSON NOT NULL, chain VARCHAR(64), PRIMARY KEY (id), "
    "CONSTRAINT uq_log_table_seq UNIQUE (table_id, seq), FOREIGN KEY(table_id) REFERENCES "
    "tables (id))",
    'CREATE TABLE meta ("key" VARCHAR(200) NOT NULL, value VARCHAR NOT NULL, PRIMARY KEY ("key"))',
    "CREATE TABLE kits (name VARCHAR(64) NOT NULL, game VARCHAR NOT NULL, entries JSON NOT "
    "NULL, updated_at DATETIME NOT NULL, PRIMARY KEY (name))",
    "CREATE TABLE data (game VARCHAR(64) NOT NULL, kind VARCHAR(64) NOT NULL, name VARCHAR(64) "
    "NOT NULL, body JSON NOT NULL, updated_at DATETIME NOT NULL, PRIMARY KEY (game, kind, name))",
]
WHEN = "2026-03-01 19:00:00.000000"
SUMMARY = '{"status": "ended", "inputs": 3, "scores": [4, 7],  "winners": [1]}'
ANN, BOB, GONE, BROKEN = ("a" * 64, "b" * 64, "c" * 64, "d" * 64)


def schema_3_store(db: Path) -> dict[str, list[tuple[int, str, str]]]:
    """A schema-3 store as the versions before migrations left it: two tables with logs, t2
    archived and ended with a summary, t1 with readers and two seat tokens (one withdrawn), and
    settings of a deleted table t3; returns each table's (seq, text, chain) as written."""
    db.parent.mkdir(parents=True, exist_ok=True)
    logs: dict[str, list[tuple[int, str, str]]] = {}
    with sqlite3.connect(db) as conn:
        for statement in SCHEMA_3:
            conn.execute(statement)
        for table_id, status in (("t1", "running"), ("t2", "ended")):
            config = {"game": "fake", "seats": ["ann", "bob"], "name": f"Table {table_id}"}
            conn.execute(
                "INSERT INTO tables VALUES (?, ?, ?, 'fake', ?, ?)",
                (table_id, WHEN, config["name"], json.dumps(config), status),
            )
            previous, rows = GENESIS, []
            for seq in (1, 2, 3):
                text = json.dumps({"type": "seen", "zone": "play", "piece": f"C{seq}", "on": True})
                previous = link(previous, table_id, seq, text)
                rows.append((seq, text, previous))
                conn.execute(
                    "INSERT INTO log (table_id, seq, at, record, chain) VALUES (?, ?, ?, ?, ?)",
                    (table_id, seq, WHEN, text, previous),
                )
            logs[table_id] = rows
        meta = {
            "schema_version": "3",
            "store-id": "0123456789abcdef01234567",
            "organiser-token-sha256": "e" * 64,
            "table-highest-number": "3",
            "table-readers:t1": "sim",
            "table-archived:t1": "0",
            "table-archived:t2": "1",
            "table-summary:t2": SUMMARY,
            "table-summary:t1": "{not json",
            "table-archived:t3": "1",
            f"seat-token:{ANN}": json.dumps({"table": "t1", "seat": 0}),
            f"seat-token:{BOB}": json.dumps({"table": "t1", "seat": 1, "revoked": True}),
            f"seat-token:{GONE}": json.dumps({"table": "t3", "seat": 0}),
            f"seat-token:{BROKEN}": "[1]",
            "seat-tokens:t1:0": json.dumps([ANN]),
            "seat-tokens:t1:1": "[]",
            "spectator-delay:t1": "30.0",
            "spectator-delay:t3": "10.0",
        }
        conn.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
    return logs


def test_a_schema_3_file_is_upgraded_in_place_keeping_every_record(tmp_path: Path) -> None:
    db = tmp_path / "var" / "scorekeeper.db"
    logs = schema_3_store(db)
    with Store(sqlite_url(str(db))) as store:
        for table_id, rows in logs.items():
            assert store.raw_records(table_id) == rows  # byte for byte, chains and all
            assert [seq for seq, _r in store.records(table_id)] == [1, 2, 3]  # chain checked
        assert store.table_settings() == {
            "t1": TableSettings(archived=False, summary=None, readers="sim", spectator_delay=30),
            "t2": TableSettings(archived=True, summary=SUMMARY, readers=""),
        }
        assert store.seat_token(ANN) == ("t1", 0, False)
        assert store.seat_token(BOB) == ("t1", 1, True)
        assert store.seat_token(GONE) is None and store.seat_token(BROKEN) is None
        assert store.meta_prefixed("table-") == {"highest-number": "3"}
        assert store.meta_prefixed("seat-token") == {}
        assert store.meta_prefixed("spectator-delay:") == {}
        for key, value in (
            ("schema_version", "5"),
            ("store-id", "0123456789abcdef01234567"),
            ("organiser-token-sha256", "e" * 64),
        ):
            assert store.get_meta(key) == value
        assert store.append("t1", {"type": "undo"}) == 4  # the chain goes on
        assert store.create_table(store.config("t1")) == "t4"  # numbers are not given twice
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchall() == [(HEAD,)]


def test_a_schema_4_store_s_spectator_delays_move_into_its_table_settings(
    store_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A store at 0004 (made by going down from head, which turns the delays back into meta
    strings), with delays for a table with settings, one without, and unusable ones: the
    upgrade (run by the event hub's database opening it) moves what the server used and drops
    the rest; the event tables it already had (as a hub made them before 0005) are kept with
    their rows."""
    with Store(store_url) as store:
        t1, t2, t3, t4, t5 = (
            store.create_table(TableConfig(game="fake", seats=("a", "b"))) for _ in range(5)
        )
        store.set_readers(t1, "sim")
        store.set_spectator_delay(t1, 30)
    db = EventDb(store_url)
    db.create_event("cup", "Cup", "fake")
    db.close()
    assert go_down(store_url, "0004_table_settings") == HEAD
    went_down = "SELECT key, value FROM meta WHERE key LIKE 'spectator%' OR key = 'schema_version'"
    assert sorted(run_sql(store_url, went_down)) == [
        ("schema_version", "4"),
        (f"spectator-delay:{t1}", "30.0"),
    ]
    more = {t2: "12.5", t3: "0", t4: "banana", t5: "9999", "t9": "5"}
    run_sql(  # one statement: each connection to PostgreSQL costs tens of milliseconds
        store_url,
        "INSERT INTO meta (key, value) VALUES "
        + ", ".join(f"('spectator-delay:{t}', '{v}')" for t, v in more.items()),
    )
    caplog.set_level(logging.WARNING, logger="scorekeeper.store.migrations")
    db = EventDb(store_url)  # the hub's first start after the update upgrades it
    try:
        assert db.event("cup")["name"] == "Cup"
    finally:
        db.close()
    with Store(store_url) as store:
        assert store.table_settings() == {
            t1: TableSettings(readers="sim", spectator_delay=30.0),
            t2: TableSettings(spectator_delay=12.5),  # a row made for it
        }  # t3's was off; t4's and t5's were read as off, and go with a warning
        assert store.meta_prefixed("spectator-delay:") == {}
        assert store.get_meta("schema_version") == "5"
    dropped = [getattr(r, "key", None) for r in caplog.records if "not moved" in r.getMessage()]
    assert sorted(dropped) == [f"spectator-delay:{t}" for t in (t4, t5, "t9")]
    assert run_sql(store_url, "SELECT version_num FROM alembic_version") == [(HEAD,)]


def go_down(url: str, target: str) -> str | None:
    """Run the revisions' downgrades from where the database at ``url`` is to ``target``, in
    one transaction; returns the revision it was at."""
    scripts = run.script()
    engine = create_engine(url)
    start: list[str | None] = []

    def steps(rev: Any, _context: MigrationContext) -> Any:
        start.append(run._version(conn))
        return scripts._downgrade_revs(target, rev)

    try:
        with (
            engine.begin() as conn,
            EnvironmentContext(Config(), scripts, fn=steps, destination_rev=target) as env,
        ):
            env.configure(connection=conn, transactional_ddl=True)
            with env.begin_transaction():
                env.run_migrations()
    finally:
        engine.dispose()
    return start[0]


def test_a_new_store_and_the_revisions_run_from_nothing_both_give_the_models_tables(
    store_url: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """A new store is made from the models without Alembic (migrations/__init__.py); the
    revisions, run from an empty database, must give exactly the same schema."""
    with Store(store_url) as store:
        assert store.get_meta("schema_version") == "5"
    assert run_sql(store_url, "SELECT version_num FROM alembic_version") == [(HEAD,)]
    assert schema_differences(store_url) == []
    if store_url.startswith("sqlite"):
        empty = sqlite_url(str(tmp_path / "empty.db"))
    else:
        empty = str(request.getfixturevalue("pg_url"))
    engine = create_engine(empty)
    try:
        with engine.connect() as conn:
            assert run.upgrade(conn, sqlite=empty.startswith("sqlite"), where="x") is None
    finally:
        engine.dispose()
    assert run_sql(empty, "SELECT version_num FROM alembic_version") == [(HEAD,)]
    assert run_sql(empty, "SELECT value FROM meta") == [("5",)]
    assert schema_differences(empty) == []
    with Store(empty) as store:  # and it is a store at head
        table = store.create_table(TableConfig(game="fake", seats=("a", "b")))
        store.set_archived(table, True)
        assert store.archived(table) and store.append(table, {"type": "undo"}) == 1


def schema_differences(url: str) -> list[Any]:
    """What Alembic finds between the database at ``url`` and the store's models."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            context = MigrationContext.configure(
                conn, opts={"compare_type": True, "include_object": _store_object}
            )
            return list(compare_metadata(context, SQLModel.metadata))
    finally:
        engine.dispose()


def _store_object(thing: Any, name: Any, kind: str, _reflected: bool, _other: Any) -> bool:
    """Compare the store's tables only (the metadata is shared with any other SQLModel model
    the process imported)."""
    table = name if kind == "table" else getattr(getattr(thing, "table", None), "name", None)
    return table in STORE_TABLES


def test_a_start_at_head_or_on_a_new_database_does_not_import_alembic(tmp_path: Path) -> None:
    db = tmp_path / "sk.db"
    Store(sqlite_url(str(db))).close()
    code = (
        "import sys\n"
        "from scorekeeper.store import Store\n"
        f"Store({sqlite_url(str(db))!r}).close()\n"
        f"Store({sqlite_url(str(tmp_path / 'new.db'))!r}).close()\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'alembic'))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "[]", done.stderr


def test_a_store_from_a_newer_version_is_refused_in_words(tmp_path: Path) -> None:
    db = tmp_path / "sk.db"
    Store(sqlite_url(str(db))).close()
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '0099_from_the_future'")
    with pytest.raises(StoreError, match=r"sk\.db: its schema \(revision 0099_from_the_future\)"):
        Store(sqlite_url(str(db)))
    with sqlite3.connect(db) as conn:  # and left as it was
        assert conn.execute("SELECT version_num FROM alembic_version").fetchall() == [
            ("0099_from_the_future",)
        ]
