"""The store's data table (game data entries such as board profiles), and the schema-3 migration
that moves the board profiles a schema-2 store kept as meta strings into it."""

from __future__ import annotations

import gc
import json
import sqlite3
import weakref
from pathlib import Path
from typing import Any

from scorekeeper.core import data
from scorekeeper.games.arcanum.board_data import BOARD_KIND
from scorekeeper.games.arcanum.boards import find_profile
from scorekeeper.store import Store, sqlite_url
from scorekeeper.store.store import SCHEMA_VERSION
from tests.store.conftest import before_migrations


def _sql(db: Path, statement: str, *args: object) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as conn:
        return conn.execute(statement, args).fetchall()


def test_entries_are_saved_replaced_listed_and_deleted_per_game_and_kind(store_url: str) -> None:
    with Store(store_url) as store:
        store.save_data("g", "board", "b", {"name": "b", "n": 1})
        store.save_data("g", "board", "a", {"name": "a"})
        store.save_data("g", "deck", "a", {"name": "other kind"})
        store.save_data("h", "board", "a", {"name": "other game"})
        store.save_data("g", "board", "b", {"name": "b", "n": 2})  # replaced
        assert store.data_names("g", "board") == ["a", "b"]
        assert store.data("g", "board", "b") == {"name": "b", "n": 2}
        assert store.data("g", "deck", "a") == {"name": "other kind"}
        assert store.data("g", "board", "nowhere") is None
        assert store.delete_data("g", "board", "a") is True
        assert store.delete_data("g", "board", "a") is False
        assert store.data_names("g", "board") == ["b"] and store.data_names("h", "board") == ["a"]
    with Store(store_url) as store:  # durable across opens
        assert store.data("g", "board", "b") == {"name": "b", "n": 2}


class _Cards(dict[str, Any]):
    """An entry's mapping that can be watched for being freed (a plain dict cannot)."""


def test_a_saved_entry_is_not_kept_in_memory(store_url: str) -> None:
    # SQLAlchemy's compiled cache keeps the first statement of each shape with its literal
    # values: an entry written into the statement (a whole card pack) stayed in memory.
    with Store(store_url) as store:
        saved = []
        for n in (1, 2):  # the first save inserts, the second replaces
            cards = _Cards(c1={"n": n})
            saved.append(weakref.ref(cards))
            store.save_data("g", "pack", "mine", {"name": "mine", "cards": cards})
            del cards
        gc.collect()
        assert [ref() for ref in saved] == [None, None]
        assert store.data("g", "pack", "mine") == {"name": "mine", "cards": {"c1": {"n": 2}}}


def test_a_schema_2_store_gets_its_board_profiles_moved_into_the_data_table(
    tmp_path: Path,
) -> None:
    db = tmp_path / "var" / "scorekeeper.db"
    club = {**find_profile("sample").to_mapping(), "name": "club", "sample": False}
    half = {"name": "half", "locations": {"10": {"icons": {"knight": 2}}}}
    with Store(sqlite_url(str(db))) as store:
        store.set_meta("organiser-note", "kept")
    # Written the old way: no data table, the profiles as meta strings with their index.
    _sql(db, "DROP TABLE data")
    before_migrations(db, "2")
    for key, value in (
        ("board:club", json.dumps(club)),
        ("board:half", json.dumps(half)),
        ("board:broken", "{not json"),
        ("boards", json.dumps(["broken", "club", "half"])),
    ):
        _sql(db, "INSERT INTO meta (key, value) VALUES (?, ?)", key, value)

    with Store(sqlite_url(str(db))) as store:
        assert store.get_meta("schema_version") == SCHEMA_VERSION == "5"
        assert store.data_names("arcanum", "board") == ["club", "half"]
        assert json.loads(json.dumps(store.data("arcanum", "board", "club"))) == json.loads(
            json.dumps(club)
        )
        assert store.get_meta("board:club") is None and store.get_meta("boards") is None
        assert store.get_meta("board:broken") == "{not json"  # unreadable: left, not lost
        assert store.get_meta("organiser-note") == "kept"
        listed = {e.name: e for e in data.entries(BOARD_KIND, store)}
        assert listed["club"].stored and not listed["club"].problems()
        assert listed["half"].problems() and set(listed) == {"known", "sample", "club", "half"}
    with Store(sqlite_url(str(db))) as store:  # a second open moves nothing again
        assert store.data_names("arcanum", "board") == ["club", "half"]
