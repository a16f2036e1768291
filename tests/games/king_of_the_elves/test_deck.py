"""The deck manifest as a data kind: the shipped assumed manifest exactly as the contract's
table, the checks naming the field (and the line in a file), problems of a partial manifest, and
the CSV form's round trip."""

from __future__ import annotations

import pytest

from scorekeeper.core import data
from scorekeeper.errors import ConfigError
from scorekeeper.games.king_of_the_elves import deck, deck_data
from scorekeeper.games.king_of_the_elves.game import KingOfTheElves

CONTRACT = {  # the contract's table: terrain, first card, values
    "lake": (1, (7, 7, 6, 5)),
    "river": (5, (2, 2, 3, 4)),
    "desert": (9, (6, 6, 5, 4)),
    "mountain": (13, (5, 5, 4, 6, 3)),
    "forest": (18, (4, 4, 3, 5, 2)),
    "plain": (23, (3, 3, 2, 4)),
}


def test_the_assumed_manifest_is_the_contracts_table() -> None:
    manifest = deck.load_shipped("assumed")
    assert manifest["sample"] and manifest["assumed"] and deck.problems(manifest) == []
    expected = {
        f"village_{first + i:02d}": {"terrain": terrain, "value": value}
        for terrain, (first, values) in CONTRACT.items()
        for i, value in enumerate(values)
    }
    assert manifest["villages"] == expected
    assert sum(manifest["travel"].values()) == 64 and manifest["travel"]["raft"] == 10
    assert manifest["special"] == {
        "gold": 6,
        "thief": 6,
        "fallen_tree": 5,
        "sea_monster": 3,
        "escort": 5,
        "turnaround": 5,
    }
    assert deck.deck_of(manifest).total == 120
    assert deck_data.DECK_KIND.sample_word == "assumed"
    entry = data.sample(deck_data.DECK_KIND, "assumed")
    assert entry.sample and entry.problems() == []


def test_the_json_a_table_plays_from_is_the_checked_yaml() -> None:
    # deck.load_shipped reads decks/assumed.json (no schema models, no YAML parser: memory on
    # a Pi); it must be exactly what the YAML gives once checked (deck_data.ready_text's
    # docstring says how to write it again).
    twin = deck.DECKS_DIR / "assumed.json"
    assert twin.read_text(encoding="utf-8") == deck_data.ready_text("assumed")
    manifest = deck_data.load_shipped("assumed")  # always from the YAML
    assert deck.load_shipped("assumed") == manifest
    assert data.sample(deck_data.DECK_KIND, "assumed").data == manifest
    # An unchanged shipped manifest is taken as it is when options are resolved again: the
    # same mapping, key order too, as checking it would give.
    checked = deck.from_mapping(manifest)
    assert checked == manifest and list(checked) == list(manifest)
    game = KingOfTheElves()
    by_name = game.resolve_options({"deck": "assumed"}, 3)
    again = game.resolve_options(by_name, 3)
    assert again == by_name and list(again["deck"]) == list(manifest)


def test_pieces_follow_the_manifest_counts_in_enrollment_order() -> None:
    game = KingOfTheElves()
    pieces = game.pieces()
    assert len(pieces) == 144 and len(set(pieces)) == 144
    assert pieces[0] == "village_01" and pieces[26] == "giant_pig_1"
    assert pieces[-1] == "token_f4" and "raft_10" in pieces and "sea_monster_3" in pieces
    manifest = deck.load_shipped("assumed")
    fewer = {**manifest, "travel": {**manifest["travel"], "raft": 9, "dragon": 10}}
    other = game.pieces_for({"deck": fewer})
    assert "raft_10" not in other and "dragon_10" in other


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"villages": {"village_27": {"terrain": "lake", "value": 7}}}, "village_27"),
        ({"villages": {"village_01": {"terrain": "swamp", "value": 7}}}, "terrain"),
        ({"villages": {"village_01": {"terrain": "lake", "value": 8}}}, "value"),
        ({"travel": {"raft": 0}}, "raft"),
        ({"travel": {"boat": 3}}, "boat"),
        (
            {
                "special": {
                    "gold": 7,
                    "thief": 6,
                    "fallen_tree": 5,
                    "sea_monster": 3,
                    "escort": 5,
                    "turnaround": 5,
                }
            },
            "31",
        ),  # fmt: skip
    ],
)
def test_checks_name_the_field(change: dict[str, object], words: str) -> None:
    base = {"name": "mine", "description": ""}
    with pytest.raises(ConfigError) as err:
        deck.from_mapping({**base, **change})
    assert words in str(err.value)


def test_a_file_error_names_the_line() -> None:
    text = "name: mine\nvillages:\n  village_01: {terrain: lake, value: 7}\n"
    text += "  village_02: {terrain: lake, value: nine}\n"
    with pytest.raises(ConfigError) as err:
        data.from_yaml(deck_data.DECK_KIND, text, "mine.yaml")
    assert "mine.yaml" in str(err.value) and "4" in str(err.value)


def test_a_partial_manifest_is_data_with_problems_and_cannot_start_a_table() -> None:
    partial = deck.from_mapping(
        {"name": "half", "villages": {"village_01": {"terrain": "lake", "value": 7}}}
    )
    found = deck.problems(partial)
    assert len(found) == 3 and "25 of the 26" in found[0]
    with pytest.raises(ConfigError, match="cannot start a table"):
        KingOfTheElves().resolve_options({"deck": partial}, 3)


def test_csv_round_trip_and_bad_rows() -> None:
    manifest = deck.load_shipped("assumed")
    text = data.to_csv(deck_data.DECK_KIND, manifest)
    assert text.splitlines()[0] == "card,terrain,value,type,count,description"
    back = data.from_csv(deck_data.DECK_KIND, text, "deck.csv", "assumed")
    assert {k: back[k] for k in ("villages", "travel", "special", "description")} == {
        k: manifest[k] for k in ("villages", "travel", "special", "description")
    }
    for bad, words in (
        ("card,terrain,value,type,count\nvillage_01,lake,7,raft,2\n", "each row"),
        ("card,terrain,value,type,count\nvillage_01,lake,x,,\n", "whole number"),
        ("card,terrain,value,type,count\n,,,boat,2\n", "no card type"),
        ("card,terrain,value,type,count\n,,,raft,2\n,,,raft,3\n", "twice"),
    ):
        with pytest.raises(ConfigError, match=words):
            data.from_csv(deck_data.DECK_KIND, bad, "bad.csv", "bad")
