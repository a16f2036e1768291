"""The store: tables, append/records/replay round trips, pragmas, errors, settings and kits.

The store's behaviour is tested on SQLite and PostgreSQL alike (the ``store_url`` fixture of
tests/store/conftest.py); what is about SQLite files (pragmas, locks, a corrupt file) on SQLite.
"""

from __future__ import annotations

import gc
import re
import sqlite3
import threading
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.core.game import ORGANISER, PUBLIC
from scorekeeper.core.inputs import Decision, Seen, Sighting, Undo
from scorekeeper.core.kit import Kit
from scorekeeper.core.table import Table, TableConfig
from scorekeeper.errors import ConfigError, EnrollmentError, NotFound, StoreError
from scorekeeper.store import Store, sqlite_url
from scorekeeper.store.chain import GENESIS, link
from tests.fakes import FakeGame
from tests.store.conftest import run_sql

UIDS = {f"0400000{i}": f"C{i}" for i in range(1, 10)}


def make_config(name: str = "test table") -> TableConfig:
    return TableConfig(
        game="fake",
        seats=("ann", "bob"),
        layout={"r1": "hand", "r2": "play"},
        kit=dict(UIDS),
        name=name,
    )


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "state" / "scorekeeper.db"


@pytest.fixture
def store(store_url: str) -> Iterator[Store]:
    """A new store on each backend in turn."""
    s = Store(store_url)
    yield s
    s.close()


@pytest.fixture
def sqlite_store(db_path: Path) -> Iterator[Store]:
    """A new store in a SQLite file (for what is about SQLite files)."""
    s = Store(sqlite_url(str(db_path)))
    yield s
    s.close()


INPUTS = [
    Sighting("r1", "04000001", True),
    Sighting("r2", "04000002", True),
    Sighting("r2", "0BADBEEF", True),  # unknown tag: logged, rejected
    Seen("play", "C3", True),
    Decision(0, "anything", "yes"),  # the fake game rejects every decision
    Undo(),
    Sighting("r2", "04000004", True),
]


def test_creates_tables(store: Store) -> None:
    a = store.create_table(make_config("a"))
    b = store.create_table(make_config("b"))
    assert (a, b) == ("t1", "t2")
    assert store.table_ids() == ["t1", "t2"]
    assert store.config(a) == make_config("a")
    assert store.status(a) == "created"
    store.set_status(a, "running")
    assert store.status(a) == "running"
    assert store.status(b) == "created"


class _Pack(dict[str, Any]):
    """A config option's mapping that can be watched for being freed (a plain dict cannot)."""


def test_a_stored_config_is_not_kept_in_memory(store: Store) -> None:
    # SQLAlchemy's compiled cache keeps the first statement of each shape, literal values and
    # all: a config written into the statement stayed in memory as long as the store ran.
    written = []
    for name in ("a", "b"):
        pack = _Pack(cards={"c1": {"name": name}})
        written.append(weakref.ref(pack))
        config = TableConfig(game="fake", seats=("ann",), options={"pack": pack}, name=name)
        table_id = store.create_table(config)
        store.replace_config(table_id, config)
        assert store.config(table_id).options == {"pack": {"cards": {"c1": {"name": name}}}}
        del pack, config
    gc.collect()
    assert [ref() for ref in written] == [None, None]
    with pytest.raises(NotFound, match="t9"):
        store.replace_config("t9", make_config())


def test_pragmas_are_set_on_every_connection(db_path: Path, sqlite_store: Store) -> None:
    assert db_path.exists()  # and its folder was created
    store = sqlite_store
    assert store.pragma("journal_mode") == "wal"
    assert store.pragma("synchronous") == 2  # FULL
    with Store(sqlite_url(str(db_path))) as second:
        assert second.pragma("journal_mode") == "wal"
        assert second.pragma("synchronous") == 2
    raw = sqlite3.connect(db_path)
    try:  # WAL is a property of the file, visible to any connection
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        raw.close()


def test_append_records_replay_round_trip(store_url: str, store: Store) -> None:
    game = FakeGame()
    table_id = store.create_table(make_config())
    live = Table(store.config(table_id), game, log=store.sink(table_id))
    for inp in INPUTS:
        live.submit(inp)
    records = list(store.records(table_id))
    assert [seq for seq, _ in records] == list(range(1, len(INPUTS) + 1))
    assert [rec for _, rec in records] == [inp.to_record() for inp in INPUTS]

    with Store(store_url) as reopened:
        loaded = reopened.load_table(table_id, game)
        for audience in (PUBLIC, ORGANISER, 0, 1):
            assert loaded.view(audience) == live.view(audience)
        assert loaded.state == live.state
        # the loaded table appends to the store and carries on numbering
        loaded.submit(Sighting("r2", "04000005", True))
        assert [s for s, _ in reopened.records(table_id)][-1] == len(INPUTS) + 1


def test_seq_is_per_table(store: Store) -> None:
    a = store.create_table(make_config())
    b = store.create_table(make_config())
    assert [store.append(a, {"type": "undo"}) for _ in range(3)] == [1, 2, 3]
    assert store.append(b, {"type": "undo"}) == 1
    assert store.append(a, {"type": "undo"}) == 4


def test_seq_continues_after_reopen(store_url: str, store: Store) -> None:
    a = store.create_table(make_config())
    store.append(a, {"type": "undo"})
    store.close()
    with Store(store_url) as again:
        assert again.append(a, {"type": "undo"}) == 2


def test_two_stores_on_one_database_do_not_reuse_a_seq(store_url: str, store: Store) -> None:
    a = store.create_table(make_config())
    with Store(store_url) as other:
        assert store.append(a, {"type": "undo"}) == 1
        assert other.append(a, {"type": "undo"}) == 2
        assert store.append(a, {"type": "undo"}) == 3  # its cached seq collided: reloaded


def test_append_is_thread_safe(store: Store) -> None:
    a = store.create_table(make_config())
    got: list[int] = []
    lock = threading.Lock()

    def work(n: int) -> None:
        for i in range(40):
            seq = store.append(a, {"type": "decision", "seat": n, "prompt": "p", "answer": str(i)})
            with lock:
                got.append(seq)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(got) == list(range(1, 161))
    assert [s for s, _ in store.records(a)] == list(range(1, 161))


def test_missing_table_is_not_found(store: Store) -> None:
    for call in (
        lambda: store.config("t9"),
        lambda: store.status("t9"),
        lambda: store.append("t9", {"type": "undo"}),
        lambda: store.records("t9"),
        lambda: store.set_status("t9", "ended"),
    ):
        with pytest.raises(NotFound, match="t9"):
            call()


def test_bad_status_is_refused(store: Store) -> None:
    a = store.create_table(make_config())
    with pytest.raises(ConfigError, match="running"):
        store.set_status(a, "finished")


def test_load_table_refuses_another_game(store: Store) -> None:
    a = store.create_table(TableConfig(game="other", seats=("x",)))
    with pytest.raises(ConfigError, match="other"):
        store.load_table(a, FakeGame())


def test_damaged_records_are_named(store_url: str, store: Store) -> None:
    a = store.create_table(make_config())
    store.append(a, {"type": "undo"})
    store.append(a, {"type": "no such input"})
    with pytest.raises(StoreError, match=r"record 2 of table t1 is not an input"):
        store.load_table(a, FakeGame())
    # Not JSON at all (SQLite), or JSON that is not what was written (PostgreSQL's json type
    # refuses anything else): damage either way.
    bad = "not json{" if store_url.startswith("sqlite") else '{"type": "undo "}'
    run_sql(store_url, "UPDATE log SET record = :r WHERE seq = 1", r=bad)
    with pytest.raises(
        StoreError,
        match=rf"{re.escape(store.where)}: the log of table t1 is damaged from record 1 on",
    ):
        list(store.records(a))
    # A record whose checksum was written with it, but that is no JSON object: still named.
    chain = link(GENESIS, a, 1, "[1]")
    run_sql(store_url, "UPDATE log SET record = :r, chain = :c WHERE seq = 1", r="[1]", c=chain)
    with pytest.raises(StoreError, match=r"record 1 of table t1 is damaged: not a JSON object"):
        list(store.records(a))


def test_corrupt_file_is_a_store_error_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "junk.db"
    path.write_bytes(b"this is not a database, just some text pretending to be one\n" * 50)
    with pytest.raises(StoreError, match=r"junk\.db.*not a database"):
        Store(sqlite_url(str(path)))


def test_locked_database_is_a_store_error(db_path: Path, sqlite_store: Store) -> None:
    store = sqlite_store
    a = store.create_table(make_config())
    store.close()
    locker = sqlite3.connect(db_path)
    locker.execute("BEGIN EXCLUSIVE")
    try:
        with (
            Store(sqlite_url(str(db_path)), timeout=0.05) as second,
            pytest.raises(StoreError, match=r"scorekeeper\.db.*locked"),
        ):
            second.append(a, {"type": "undo"})
    finally:
        locker.rollback()
        locker.close()


def test_closed_store_refuses_work(store: Store) -> None:
    store.close()
    store.close()
    with pytest.raises(StoreError, match="closed"):
        store.table_ids()


def test_meta(store: Store) -> None:
    assert store.get_meta("organiser_token") is None
    store.set_meta("organiser_token", "abc")
    store.set_meta("organiser_token", "def")
    assert store.get_meta("organiser_token") == "def"


def test_kits(store: Store) -> None:
    assert store.kits() == []
    store.save_kit("club", "fake", {"04:00:00:01": "C1", "04000002": "C2"})
    store.save_kit("home", "fake", {})
    assert store.kits() == ["club", "home"]
    assert store.kit("club") == Kit("club", "fake", {"04000001": "C1", "04000002": "C2"})
    store.save_kit("club", "fake", {"04000003": "C3"})
    assert store.kit("club").entries == {"04000003": "C3"}
    with pytest.raises(NotFound, match="nope"):
        store.kit("nope")
    with pytest.raises(EnrollmentError, match="already tagged"):
        store.save_kit("bad", "fake", {"04000001": "C1", "04000002": "C1"})
    with pytest.raises(ConfigError):
        store.save_kit("bad name", "fake", {})


def test_memory_store() -> None:
    with Store("sqlite://") as mem:
        a = mem.create_table(make_config())
        assert mem.append(a, {"type": "undo"}) == 1
        assert list(mem.records(a)) == [(1, {"type": "undo"})]
