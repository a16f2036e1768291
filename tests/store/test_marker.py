"""The marker beside a SQLite store: a database that is missing, empty, another store or behind
what was acknowledged is refused at open, in words, and nothing is written over."""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
from pathlib import Path

import pytest

from scorekeeper.core.table import TableConfig
from scorekeeper.service import Hub
from scorekeeper.service.tokens import ORGANISER_META, credential
from scorekeeper.store import Store, sqlite_url
from scorekeeper.store.checks import StoreRefused
from scorekeeper.store.marker import (
    COMPACT_BYTES,
    STORE_ID_META,
    adopt,
    marker_path,
    read_marker,
    write_marker,
)
from tests.api.games import find_test_game


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "var" / "scorekeeper.db"


def _open(db: Path) -> Store:
    return Store(sqlite_url(str(db)))


def _played(db: Path, inputs: int = 5) -> str:
    with _open(db) as store:
        table_id = store.create_table(
            TableConfig(game="fake", seats=("Ann", "Bob"), name="Friday final")
        )
        for n in range(inputs):
            store.append(
                table_id, {"type": "seen", "zone": "play", "piece": f"C{n}", "present": True}
            )
    return table_id


def test_the_marker_follows_every_acknowledged_input(db: Path) -> None:
    with _open(db) as store:
        table_id = store.create_table(TableConfig(game="fake", seats=("Ann",)))
        for n in range(1, 4):
            assert store.append(table_id, {"type": "undo"}) == n
            state = read_marker(marker_path(db))  # read while open: nothing waits for close
            assert state is not None and state.last == {table_id: n}
            assert state.store_id == store.get_meta(STORE_ID_META)


def test_torn_and_zeroed_lines_are_skipped_and_can_only_say_less(tmp_path: Path) -> None:
    path = tmp_path / "x.marker"
    write_marker(path, "abc", {"t1": 7, "t2": 3})
    with path.open("ab") as f:
        f.write(b"t1 9 00000000\n")  # a wrong CRC
        f.write(b"\x00" * 40 + b"\n")  # a page the crash zeroed
        f.write(b"t2 12")  # torn: no CRC, no newline
    state = read_marker(path)
    assert state is not None and state.store_id == "abc" and state.last == {"t1": 7, "t2": 3}
    path.write_bytes(b"\x00" * 100)
    assert read_marker(path) is None  # no header: as if there were no marker


def test_a_missing_database_is_refused_and_not_created(db: Path) -> None:
    _played(db)
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    with pytest.raises(StoreRefused) as caught:
        _open(db)
    text = str(caught.value)
    assert "is missing or empty" in text and "it held 1 table" in text
    assert "scorekeeper restore" in text and "organiser token was not changed" in text
    assert not db.exists()  # SQLite did not make a new, empty one in its place


def test_an_empty_database_is_refused(db: Path) -> None:
    _played(db)
    db.write_bytes(b"")
    with pytest.raises(StoreRefused, match="missing or empty"):
        _open(db)
    assert db.stat().st_size == 0


def test_a_copy_without_its_wal_is_refused_as_behind(db: Path, tmp_path: Path) -> None:
    """The attack's case: inputs still only in the -wal file, and the file copied alone."""
    store = _open(db)
    try:
        table_id = store.create_table(TableConfig(game="fake", seats=("Ann",), name="Friday final"))
        for _ in range(5):
            store.append(table_id, {"type": "undo"})
        with sqlite3.connect(db) as conn:  # what SQLite does now and then by itself
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        for _ in range(15):
            store.append(table_id, {"type": "undo"})
        assert Path(f"{db}-wal").stat().st_size > 0
        copy = tmp_path / "copy" / "scorekeeper.db"
        copy.parent.mkdir()
        shutil.copy(db, copy)
        shutil.copy(marker_path(db), marker_path(copy))
    finally:
        store.close()
    with pytest.raises(StoreRefused) as caught:
        _open(copy)
    text = str(caught.value)
    assert "is behind what this server acknowledged" in text
    assert f"table {table_id} (Friday final) had 20 inputs acknowledged" in text
    assert "scorekeeper restore" in text and "move scorekeeper.db.marker" in text
    # Moving the marker away is the deliberate way to go on with what the file holds.
    os.rename(marker_path(copy), copy.parent / "kept.marker")
    with _open(copy) as store:
        assert store.overview()[0][2] == 5
    state = read_marker(marker_path(copy))
    assert state is not None and state.last[table_id] == 5


def test_a_copy_of_a_file_that_never_left_its_wal_is_refused(db: Path, tmp_path: Path) -> None:
    store = _open(db)
    try:
        store.create_table(TableConfig(game="fake", seats=("Ann",)))
        copy = tmp_path / "copy" / "scorekeeper.db"
        copy.parent.mkdir()
        shutil.copy(db, copy)
        shutil.copy(marker_path(db), marker_path(copy))
    finally:
        store.close()
    with pytest.raises(StoreRefused, match="a copy made without its -wal file"):
        _open(copy)


def test_another_store_is_refused(db: Path, tmp_path: Path) -> None:
    _played(db)
    other = tmp_path / "other" / "scorekeeper.db"
    _played(other, inputs=9)
    shutil.copy(other, db)
    with pytest.raises(StoreRefused, match="a different store from the one this server ran on"):
        _open(db)


def test_a_deleted_table_is_not_demanded_back(db: Path) -> None:
    table_id = _played(db)
    with _open(db) as store:
        store.delete_table(table_id)
    with _open(db) as store:
        assert store.table_ids() == []
    state = read_marker(marker_path(db))
    assert state is not None and state.last == {}


def test_the_marker_is_compacted_as_it_grows(db: Path) -> None:
    with _open(db) as store:
        table_id = store.create_table(TableConfig(game="fake", seats=("Ann",)))
        for _ in range(COMPACT_BYTES // 10):
            store.append(table_id, {"type": "undo"})
            assert marker_path(db).stat().st_size <= COMPACT_BYTES + 64
        last = store.overview()[0][2]
    state = read_marker(marker_path(db))
    assert state is not None and state.last == {table_id: last}


def test_adopt_makes_the_marker_match_a_restored_database(db: Path, tmp_path: Path) -> None:
    table_id = _played(db, inputs=8)
    backup = tmp_path / "backup.db"
    shutil.copy(db, backup)
    with _open(db) as store:
        for _ in range(4):
            store.append(table_id, {"type": "undo"})
    shutil.copy(backup, db)  # an older state, put back on purpose
    with pytest.raises(StoreRefused, match="had 12 inputs acknowledged, the database holds 8"):
        _open(db)
    adopt(db)
    with _open(db) as store:
        assert store.overview()[0][2] == 8


def test_a_restarted_server_keeps_its_organiser_token(db: Path) -> None:
    hub = Hub.open(db, find_game=find_test_game)
    token = hub.tokens.ensure_organiser_token(hub.token_file)
    token_file = hub.token_file
    hub.close()
    assert token and token_file is not None
    saved = token_file.read_text()
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    with pytest.raises(StoreRefused):
        Hub.open(db, find_game=find_test_game)
    assert token_file.read_text() == saved
    # Started afresh on purpose (marker moved away): the saved token still opens the console.
    marker_path(db).unlink()
    hub = Hub.open(db, find_game=find_test_game)
    try:
        assert hub.tokens.ensure_organiser_token(hub.token_file) is None
        assert token_file.read_text() == saved
        assert hub.tokens.identify(token).organiser
    finally:
        hub.close()


@pytest.mark.parametrize("seed", range(8))
def test_sqlite_page_damage_is_refused_before_use(db: Path, seed: int) -> None:
    _played(db, inputs=300)
    with sqlite3.connect(db) as conn:
        page = conn.execute("PRAGMA page_size").fetchone()[0]
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    assert pages > 4
    with db.open("r+b") as f:  # scribble over the middle of a b-tree page past the header
        f.seek(page * (pages - 2) + 100)
        f.write(random.Random(seed).randbytes(page - 200))
    with pytest.raises(StoreRefused, match=r"scorekeeper\.db is damaged") as caught:
        _open(db)
    assert "scorekeeper restore" in str(caught.value)


def test_a_second_reader_does_not_swap_the_marker_under_the_server(db: Path) -> None:
    """A command opening the store while the server runs (an export) must leave the marker
    file in place: the server's later lines would otherwise go to a replaced file."""
    server = _open(db)
    try:
        table_id = server.create_table(TableConfig(game="fake", seats=("Ann",)))
        server.append(table_id, {"type": "undo"})
        with _open(db) as reader:
            assert len(list(reader.records(table_id))) == 1
        for _ in range(4):
            server.append(table_id, {"type": "undo"})
        state = read_marker(marker_path(db))
        assert state is not None and state.last == {table_id: 5}
    finally:
        server.close()


def test_the_token_file_wins_over_an_older_stored_hash(db: Path) -> None:
    """A database put back from a backup made before the token was replaced: the token the
    organiser holds (the file) keeps working, the old one stops."""
    hub = Hub.open(db, find_game=find_test_game)
    old = hub.tokens.ensure_organiser_token(hub.token_file)
    new = hub.tokens.new_organiser_token(hub.token_file)
    # What the older database holds: the hash of the token before it was replaced.
    hub.store.set_meta(ORGANISER_META, credential(str(old)))
    assert hub.tokens.identify(str(old)).organiser
    assert hub.tokens.ensure_organiser_token(hub.token_file) is None
    try:
        assert hub.tokens.identify(new).organiser
        with pytest.raises(PermissionError):
            hub.tokens.identify(str(old))
    finally:
        hub.close()
