"""Replication through the store, on SQLite and PostgreSQL: ids given by a hub, the append
listener, raw records, insert-once receipt and the high-water mark."""

from __future__ import annotations

import logging
import random
from collections.abc import Iterator
from typing import Any

import pytest

from scorekeeper.core.table import TableConfig
from scorekeeper.errors import ConfigError, NotFound, StoreError
from scorekeeper.store import Store
from scorekeeper.store.chain import GENESIS, BrokenChain, link


def config(name: str = "") -> TableConfig:
    return TableConfig(game="fake", seats=("ann", "bob"), name=name)


RECORDS: list[dict[str, Any]] = [
    {"input": "sighting", "reader": "r1", "uid": "04000001", "present": True},
    {"input": "seen", "zone": "play", "piece": "Ä ✓", "n": 1.5},
    {"input": "undo"},
    {"input": "decision", "seat": 0, "answers": {"b": [1, 2], "a": None}},
    {"input": "sighting", "reader": "r2", "uid": "0BADBEEF", "present": False},
]


@pytest.fixture
def memory() -> Iterator[Store]:
    """An in-memory SQLite store: the other end of a replication."""
    store = Store("sqlite://")
    try:
        yield store
    finally:
        store.close()


def test_a_table_id_given_by_a_hub_is_checked_and_kept(any_store: Store) -> None:
    assert any_store.create_table(config(), "spring26-g12") == "spring26-g12"
    assert any_store.config("spring26-g12").name == "Table spring26-g12"
    assert any_store.append("spring26-g12", RECORDS[0]) == 1
    assert any_store.create_table(config()) == "t1"  # numbering goes on as before
    with pytest.raises(ConfigError, match="a table with id spring26-g12 exists"):
        any_store.create_table(config(), "spring26-g12")
    for bad in ("", "Upper", "-lead", "a_b", "x" * 33, "t 1"):
        with pytest.raises(ConfigError, match="cannot be a table id"):
            any_store.create_table(config(), bad)
    assert any_store.table_ids() == ["spring26-g12", "t1"]
    any_store.delete_table("t1")
    with pytest.raises(ConfigError, match="t1 belonged to a deleted table"):
        any_store.create_table(config(), "t1")


def test_listeners_hear_each_append_as_stored_and_a_failing_one_fails_nothing(
    any_store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    table = any_store.create_table(config())
    heard: list[tuple[str, int, str, str]] = []

    def broken(*_args: object) -> None:
        raise RuntimeError("listener bug")

    any_store.add_append_listener(broken)
    any_store.add_append_listener(lambda *args: heard.append(args))
    with caplog.at_level(logging.ERROR, logger="scorekeeper.store.log"):
        for record in RECORDS:
            any_store.append(table, record)
    assert heard == [(table, *raw) for raw in any_store.raw_records(table)]
    assert [seq for _t, seq, _x, _c in heard] == [1, 2, 3, 4, 5]
    failed = [r for r in caplog.records if "append listener failed" in r.getMessage()]
    assert [(r.table_id, r.seq) for r in failed] == [(table, n) for n in range(1, 6)]  # type: ignore[attr-defined]
    assert [r for _s, r in any_store.records(table)] == RECORDS


def test_raw_records_read_after_a_seq_up_to_a_limit(any_store: Store) -> None:
    table = any_store.create_table(config())
    for record in RECORDS:
        any_store.append(table, record)
    every = any_store.raw_records(table)
    assert [seq for seq, _t, _c in every] == [1, 2, 3, 4, 5]
    previous = GENESIS
    for seq, text, chain in every:  # the text and chain as the chain covers them
        assert chain == link(previous, table, seq, text)
        previous = chain
    assert any_store.raw_records(table, after_seq=2, limit=2) == every[2:4]
    assert any_store.raw_records(table, after_seq=5) == []
    with pytest.raises(NotFound):
        any_store.raw_records("t9")


def test_a_replica_gets_the_same_log_in_any_order_once(any_store: Store, memory: Store) -> None:
    """Both ways: the backend under test as the origin, then as the replica."""
    for table, origin, replica in (("g1", any_store, memory), ("g2", memory, any_store)):
        origin.create_table(config(), table)
        replica.create_table(config(), table)
        for record in RECORDS:
            origin.append(table, record)
        rows = origin.raw_records(table)
        shuffled = rows[1:] + rows[:2]  # out of order, record 2 twice
        random.Random(4).shuffle(shuffled)
        assert replica.receive(table, shuffled) == 5
        assert replica.receive(table, rows) == 0  # a duplicate delivery changes nothing
        assert replica.raw_records(table) == rows
        assert list(replica.records(table)) == list(origin.records(table))
        assert replica.high_water(table) == 5


def test_received_text_is_kept_byte_for_byte(any_store: Store) -> None:
    """Text no json.dumps would write (spacing, key order, escapes) still checks its chain:
    PostgreSQL's json type must keep it as given."""
    table = any_store.create_table(config(), "g1")
    texts = ['{"b":1,  "a" : [1.50, "\\u00e9"]}', '{ "input" :"undo" }']
    chain1 = link(GENESIS, table, 1, texts[0])
    chain2 = link(chain1, table, 2, texts[1])
    assert any_store.receive(table, [(2, texts[1], chain2), (1, texts[0], chain1)]) == 2
    assert any_store.raw_records(table) == [(1, texts[0], chain1), (2, texts[1], chain2)]
    assert [seq for seq, _r in any_store.records(table)] == [1, 2]
    assert any_store.append(table, {"input": "undo"}) == 3  # the chain goes on from seq 2
    assert [seq for seq, _r in any_store.records(table)] == [1, 2, 3]


def test_high_water_stops_at_the_first_gap(any_store: Store, memory: Store) -> None:
    table = memory.create_table(config())
    for n in range(12):
        memory.append(table, {"input": "undo", "n": n})
    rows = {seq: (seq, text, chain) for seq, text, chain in memory.raw_records(table)}
    any_store.create_table(config())
    assert any_store.high_water(table) == 0
    any_store.receive(table, [rows[n] for n in (2, 3, 5, 6, 9)])
    assert any_store.high_water(table) == 0  # record 1 is missing
    with pytest.raises(BrokenChain, match="record 1 is missing"):
        list(any_store.records(table))
    any_store.receive(table, [rows[1]])
    assert any_store.high_water(table) == 3
    any_store.receive(table, [rows[4], rows[7], rows[8]])
    assert any_store.high_water(table) == 9
    assert any_store.raw_records(table, after_seq=9) == []
    any_store.receive(table, [rows[n] for n in (12, 10, 11)])
    assert any_store.high_water(table) == 12
    with pytest.raises(NotFound):
        any_store.high_water("t9")


def test_bad_rows_are_refused_in_words_and_nothing_is_stored(any_store: Store) -> None:
    table = any_store.create_table(config())
    good = (1, '{"input": "undo"}', link(GENESIS, table, 1, '{"input": "undo"}'))
    for bad, words in (
        ((0, "{}", "c"), "not a number from 1"),
        ((2, "[1]", "c"), "not a JSON object"),
        ((2, "{no", "c"), "not a JSON object"),
        ((2, "{}", None), "has no text or chain"),
        ((2, "{}"), "is not \\(seq, text, chain\\)"),
    ):
        with pytest.raises(StoreError, match=words):
            any_store.receive(table, [good, bad])  # type: ignore[list-item]
        assert any_store.high_water(table) == 0
    with pytest.raises(NotFound):
        any_store.receive("t9", [good])
    assert any_store.receive(table, []) == 0


def test_many_games_are_received_in_one_go_and_their_runs_read_back(
    any_store: Store, memory: Store
) -> None:
    """What a hub's ingest does with a drain: several games' rows (duplicates, gaps, a game
    the store lacks) inserted once, then each game's run of records above a seq (and where
    its gap ends) read together."""
    rows: dict[str, list[tuple[int, str, str]]] = {}
    for game in ("g1", "g2"):
        memory.create_table(config(), game)
        any_store.create_table(config(), game)
        for n in range(6):
            memory.append(game, {"input": "undo", "n": n})
        rows[game] = memory.raw_records(game)
    got = any_store.receive_many(
        {"g1": rows["g1"][:3] + rows["g1"][4:5], "g2": rows["g2"][1:2], "g9": rows["g1"][:1]}
    )
    assert got == {"g1": 4, "g2": 1, "g9": None}  # g9 was never created: its rows are not kept
    assert any_store.receive_many({"g1": rows["g1"], "g2": rows["g2"][:2]}) == {"g1": 2, "g2": 1}
    assert any_store.raw_records("g1") == rows["g1"]  # the same log, each record once
    assert any_store.high_water("g2") == 2
    assert list(any_store.records("g1")) == list(memory.records("g1"))
    runs = any_store.runs_after({"g1": 1, "g2": 0, "g9": 0}, limit=3)
    assert runs == {"g1": (rows["g1"][1:4], None), "g2": (rows["g2"][:2], None), "g9": ([], None)}
    any_store.receive_many({"g2": [rows["g2"][4]]})  # g2 holds 1, 2 and 5: 3..4 missing
    assert any_store.runs_after({"g2": 0}) == {"g2": (rows["g2"][:2], 5)}
    assert any_store.runs_after({"g2": 2}) == {"g2": ([], 5)}  # only where the gap ends
    chains = any_store.chains({"g1": [1, 6, 9], "g2": [3, 5], "g9": [1]})
    assert chains == {
        ("g1", 1): rows["g1"][0][2],
        ("g1", 6): rows["g1"][5][2],
        ("g2", 5): rows["g2"][4][2],
    }
    bad = (7, "[1]", "c")
    with pytest.raises(StoreError, match="not a JSON object"):
        any_store.receive_many({"g2": rows["g2"][2:3], "g1": [bad]})
    assert any_store.high_water("g2") == 2  # nothing stored for any game
    assert any_store.receive_many({}) == {}
    assert any_store.runs_after({}) == {} and any_store.chains({}) == {}


def test_rows_received_and_the_runs_read_in_one_transaction(
    any_store: Store, memory: Store
) -> None:
    """``receive_and_read``: the read sees the rows the same call inserts and the rows stored
    before (another hub's), and answers what ``runs_after`` answers after the commit; a bad
    row stores nothing and reads nothing."""
    memory.create_table(config(), "g1")
    any_store.create_table(config(), "g1")
    for n in range(6):  # texts with quotes, a backslash and letters beyond ASCII
        memory.append("g1", {"input": "undo", "n": n, "said": 'Zoë "won" \\ ☃'})
    rows = memory.raw_records("g1")
    any_store.receive_many({"g1": rows[3:4]})  # another hub stored record 4
    news, runs = any_store.receive_and_read({"g1": rows[1:3]}, {"g1": 0}, limit=10)
    assert news == {"g1": 2}
    assert runs == {"g1": ([], 2)}  # record 1 is missing: the gap ends before 2
    news, runs = any_store.receive_and_read({"g1": rows[:1] + rows[5:6]}, {"g1": 0}, limit=10)
    assert news == {"g1": 2}
    assert runs == {"g1": (rows[:4], 6)} == any_store.runs_after({"g1": 0}, limit=10)
    with pytest.raises(StoreError, match="not a JSON object"):
        any_store.receive_and_read({"g1": [rows[4], (9, "[1]", "c")]}, {"g1": 0})
    assert any_store.runs_after({"g1": 4}) == {"g1": ([], 6)}  # record 5 was not stored
    assert any_store.raw_records("g1") == rows[:4] + rows[5:]  # each text as the table's
