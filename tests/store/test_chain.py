"""Chained record checksums: damage inside a record that SQLite's own checks miss is found, the
first bad record is named, and one damaged table does not stop the others."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from scorekeeper.core.inputs import Seen
from scorekeeper.core.table import TableConfig
from scorekeeper.service import Hub
from scorekeeper.service.hub import TableStateError
from scorekeeper.store import Store, sqlite_url
from scorekeeper.store.chain import GENESIS, BrokenChain, link
from scorekeeper.store.store import SCHEMA_VERSION
from tests.api.games import find_test_game
from tests.store.conftest import before_migrations, run_sql


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "var" / "scorekeeper.db"


def _sql(db: Path, statement: str, *args: object) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as conn:
        return conn.execute(statement, args).fetchall()


def _two_played_tables(db: Path) -> tuple[str, str]:
    hub = Hub.open(db, find_game=find_test_game)
    damaged, good = (hub.create_table("fake", 2, name=n) for n in ("Friday", "Saturday"))
    for table_id in (damaged, good):
        hub.start(table_id)
        for card in ("C1", "C2", "C3", "C4"):
            hub.submit(table_id, Seen("play", card, True))
    hub.close()
    return damaged, good


def test_a_flipped_byte_that_keeps_the_json_valid_is_found_and_named(db: Path) -> None:
    damaged, good = _two_played_tables(db)
    text = _sql(db, "SELECT record FROM log WHERE table_id = ? AND seq = 3", damaged)[0][0]
    assert isinstance(text, str) and '"C3"' in text
    # One bit: "C3" becomes "C2", still JSON, still an input the game would take.
    _sql(
        db,
        "UPDATE log SET record = ? WHERE table_id = ? AND seq = 3",
        text.replace('"C3"', '"C2"'),
        damaged,
    )
    assert _sql(db, "PRAGMA integrity_check") == [("ok",)]  # SQLite cannot see it

    hub = Hub.open(db, find_game=find_test_game)
    try:
        listed = {s["id"]: s for s in hub.summaries()}
        assert "damaged from record 3 on" in listed[damaged]["error"]
        assert "does not match its checksum" in listed[damaged]["error"]
        with pytest.raises(TableStateError, match="cannot be loaded"):
            hub.submit(damaged, Seen("play", "C5", True))
        assert "error" not in listed[good]
        assert hub.submit(good, Seen("play", "C5", True)).accepted
    finally:
        hub.close()


def test_damage_made_by_sql_is_found_on_every_backend(store_url: str) -> None:
    """A changed byte, a changed checksum and a removed record, each in its own table."""
    with Store(store_url) as store:
        tables = [store.create_table(TableConfig(game="fake", seats=("a", "b"))) for _ in "abcd"]
        for table_id in tables:
            for card in ("C1", "C2", "C3", "C4"):
                store.append(table_id, {"type": "seen", "zone": "play", "piece": card})
        flipped, rechained, removed, good = tables
        where = "table_id = :t AND seq = :s"
        run_sql(
            store_url,
            f"UPDATE log SET record = :r WHERE {where}",
            t=flipped,
            s=3,
            r=('{"type": "seen", "zone": "play", "piece": "C2"}'),
        )
        run_sql(store_url, f"UPDATE log SET chain = :c WHERE {where}", t=rechained, s=4, c="0")
        run_sql(store_url, f"DELETE FROM log WHERE {where}", t=removed, s=2)
        for table_id, seq, why in (
            (flipped, 3, "its content does not match its checksum"),
            (rechained, 4, "its content does not match its checksum"),
            (removed, 2, "record 2 is missing"),
        ):
            with pytest.raises(BrokenChain, match=why) as caught:
                list(store.records(table_id))
            assert (caught.value.table_id, caught.value.seq) == (table_id, seq)
        assert [seq for seq, _ in store.records(good)] == [1, 2, 3, 4]


def test_a_record_removed_from_the_middle_is_named(db: Path) -> None:
    damaged, _good = _two_played_tables(db)
    _sql(db, "DELETE FROM log WHERE table_id = ? AND seq = 2", damaged)
    with Store(sqlite_url(str(db))) as store, pytest.raises(BrokenChain) as caught:
        list(store.records(damaged))
    assert caught.value.seq == 2 and caught.value.table_id == damaged
    assert "record 2 is missing" in str(caught.value)


def test_a_damaged_checksum_is_damage_too(db: Path) -> None:
    damaged, good = _two_played_tables(db)
    _sql(db, "UPDATE log SET chain = ? WHERE table_id = ? AND seq = 4", "0" * 32, damaged)
    with Store(sqlite_url(str(db))) as store:
        with pytest.raises(BrokenChain, match="from record 4 on"):
            list(store.records(damaged))
        assert [seq for seq, _ in store.records(good)] == [1, 2, 3, 4]


def test_appends_after_a_reopen_continue_the_chain(db: Path) -> None:
    damaged, _good = _two_played_tables(db)
    hub = Hub.open(db, find_game=find_test_game)
    try:
        assert hub.submit(damaged, Seen("play", "C9", True)).accepted
    finally:
        hub.close()
    rows = _sql(db, "SELECT seq, record, chain FROM log WHERE table_id = ? ORDER BY seq", damaged)
    previous = GENESIS
    for seq, text, chain in rows:
        assert chain == link(previous, damaged, int(str(seq)), str(text))
        previous = str(chain)
    assert len(rows) == 5


def test_a_store_written_before_checksums_gets_them_at_its_first_open(db: Path) -> None:
    damaged, good = _two_played_tables(db)
    before = {
        t: _sql(db, "SELECT record FROM log WHERE table_id = ? ORDER BY seq", t)
        for t in (damaged, good)
    }
    _sql(db, "ALTER TABLE log DROP COLUMN chain")
    before_migrations(db, "1")
    with Store(sqlite_url(str(db))) as store:
        assert store.get_meta("schema_version") == SCHEMA_VERSION
        for table_id in (damaged, good):
            assert [r for _, r in store.records(table_id)] == [
                json.loads(str(t[0])) for t in before[table_id]
            ]
    assert _sql(db, "SELECT COUNT(*) FROM log WHERE chain IS NULL") == [(0,)]
