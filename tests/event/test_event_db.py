"""The event hub's database on a real PostgreSQL: a new database made a store at the newest
revision, two hubs append to one event log without a clash, players outlive events, tokens are
scoped and revocable; a database the store refuses is refused in words."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text

from scorekeeper.errors import ConfigError, NotFound, StoreError
from scorekeeper.event.event_db import EventDb
from scorekeeper.store import Store, sqlite_url
from scorekeeper.store.migrations import HEAD


@pytest.fixture
def dbs(pg_url: str) -> Iterator[list[EventDb]]:
    """Two hub processes' views of one database."""
    first, second = EventDb(pg_url), EventDb(pg_url)
    yield [first, second]
    first.close()
    second.close()


def test_a_database_the_store_refuses_is_refused_in_words(tmp_path: Path) -> None:
    db = tmp_path / "sk.db"
    Store(sqlite_url(str(db))).close()
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '0099_from_the_future'")
    with pytest.raises(StoreError, match=r"sk\.db: its schema \(revision 0099_from_the_future\)"):
        EventDb(str(db))


def test_two_hubs_append_to_one_event_log_without_losing_or_doubling(dbs: list[EventDb]) -> None:
    dbs[0].create_event("club7", "Club night", "arcanum")
    errors: list[BaseException] = []

    def write(db: EventDb, who: str) -> None:
        try:
            for n in range(25):
                db.append("club7", {"kind": "note", "by": who, "n": n})
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(db, f"hub{i}")) for i, db in enumerate(dbs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    records = dbs[1].records("club7")
    assert [seq for seq, _ in records] == list(range(1, 51))
    by = sorted((r["by"], r["n"]) for _, r in records)
    assert by == sorted((f"hub{i}", n) for i in range(2) for n in range(25))
    assert [seq for seq, _ in dbs[0].records("club7", after=48)] == [49, 50]


def test_a_new_database_is_made_a_store_then_events_and_players(
    pg_url: str, dbs: list[EventDb]
) -> None:
    engine = create_engine(pg_url)
    try:
        with engine.connect() as conn:
            version = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
            names = set(inspect(conn).get_table_names())
    finally:
        engine.dispose()
    assert version == HEAD  # the schema the store's revisions make, event tables and all
    assert {"events", "event_log", "players", "event_tables", "event_tokens", "log"} <= names
    db = dbs[0]
    db.create_event("spring", "Spring open", "arcana")
    with pytest.raises(ConfigError, match="exists already"):
        dbs[1].create_event("spring", "Again", "arcana")
    with pytest.raises(ConfigError, match="lowercase"):
        db.create_event("Spring Open", "x", "arcana")
    assert dbs[1].event("spring")["name"] == "Spring open"
    with pytest.raises(NotFound):
        db.event("autumn")
    ann = db.add_player("  Ann   Lee ")
    db.add_player("Bo")
    assert dbs[1].player(ann) == {"id": ann, "name": "Ann Lee"}
    assert [p["name"] for p in dbs[1].players("lee")] == ["Ann Lee"]
    assert [p["name"] for p in db.players()] == ["Ann Lee", "Bo"]
    with pytest.raises(ConfigError, match="name"):
        db.add_player("   ")


def test_tables_and_scoped_tokens(dbs: list[EventDb]) -> None:
    db = dbs[0]
    db.create_event("cup", "Cup", "arcanum")
    db.add_table("cup", "t1", "sk-cup-t1", "$7$old")
    db.add_table("cup", "t2", "sk-cup-t2", "$7$x")
    db.add_table("cup", "t1", "sk-cup-t1", "$7$new")  # new credentials, same table
    assert [(t["name"], t["password_hash"]) for t in db.tables("cup")] == [
        ("t1", "$7$new"),
        ("t2", "$7$x"),
    ]
    db.table_said("cup", "t2", online=True, games={"cup-r1-t2": 7})
    dbs[1].table_said("cup", "t2", health={"readers": [{"id": "r1", "ok": True}]})
    t2 = dbs[1].tables("cup")[1]
    assert (t2["online"], t2["games"], t2["health"]["readers"][0]["id"]) == (
        True,
        {"cup-r1-t2": 7},
        "r1",
    )
    assert t2["seen_at"] is not None and db.tables("cup")[0]["online"] is False
    judge = db.new_token("cup", "judge", "Jo")
    seat = db.new_token("cup", "seat", "k7m2p")
    assert dbs[1].identify(judge) == ("cup", "judge", "Jo")
    assert dbs[1].identify(seat) == ("cup", "seat", "k7m2p")
    assert db.identify("not-a-token") is None
    assert db.identify(None) is None
    assert db.revoke("cup", "seat", "k7m2p") == 1
    assert dbs[1].identify(seat) is None
    assert dbs[1].identify(judge) == ("cup", "judge", "Jo")
    with pytest.raises(ConfigError, match="scope"):
        db.new_token("cup", "king")
