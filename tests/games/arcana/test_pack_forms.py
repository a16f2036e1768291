"""Arcana's card pack through the generic data routes' helpers (core/data.py): the data kind's
words, the YAML and CSV forms both ways, a CSV row that is no card, and the terminal's words."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from scorekeeper.core import data
from scorekeeper.errors import ConfigError
from scorekeeper.games.arcana import pack
from scorekeeper.games.arcana.pack_csv import CSV_COLUMNS
from scorekeeper.games.arcana.pack_data import PACK_KIND

_SAMPLE = pack.load_shipped("sample")
HEADER = "card,name,type,guild,domain,wand,sword,chalice,coin,major,threshold,vp,letter,"
HEADER += "once_per_round,objective_domain,objective_count,ability,description"


def test_the_kind_is_the_contracts_and_the_sample_is_labelled_sample() -> None:
    assert (PACK_KIND.game, PACK_KIND.kind, PACK_KIND.option) == ("arcana", "pack", "pack")
    assert (PACK_KIND.title, PACK_KIND.noun, PACK_KIND.sample_word) == (
        "Card packs",
        "card pack",
        "sample",
    )
    entry = data.sample(PACK_KIND, "sample")
    assert entry.sample and entry.label == "sample card pack 'sample'"
    summary = entry.summary()
    assert summary["complete"] and summary["problems"] == [] and summary["sample"]
    assert "made up" in summary["sample_note"] and "Not the values" in entry.description
    shown = PACK_KIND.show(entry) if PACK_KIND.show else ""
    assert shown.startswith("sample card pack 'sample': A made-up pack")
    assert "  stake_002: Ayane: citizen, Old Town, wand 2 sword 5 chalice 1 coin 7, " in shown
    assert "incomplete" not in shown and "cannot offer" not in shown


def test_yaml_round_trip_one_line_per_card() -> None:
    text = data.export(PACK_KIND, _SAMPLE, "yaml")
    assert text.count("\n") == 6 + 304  # name, sample, description (2 lines), domains, cards:
    assert "  blades_15: {name: House of Penitence, type: location, guild: blades" in text
    back = data.from_yaml(PACK_KIND, text, "sample.yaml")
    assert back == _SAMPLE


def test_csv_round_trip_one_row_per_card() -> None:
    text = data.export(PACK_KIND, _SAMPLE, "csv")
    lines = text.splitlines()
    assert lines[0] == HEADER and tuple(HEADER.split(",")) == CSV_COLUMNS
    assert len(lines) == 1 + 304
    assert lines[1 + 6 + 120 + 2].startswith(  # stake_003: the Harlequin
        "stake_003,Harlequin,citizen,,Kraken Quay,5,5,5,'-,sword|wand|chalice,5|5|5,3,,,,,"
        '"{when: results, copy_agent: {}}"'
    )
    back = data.from_csv(PACK_KIND, text, "sample.csv", "ours")
    assert back == {**_SAMPLE, "name": "ours", "sample": False}


def test_a_csv_from_a_spreadsheet_is_checked_card_by_card() -> None:
    head = "card,name,type,guild,wand,sword,chalice,coin,vp,letter,ability\n"
    good = head + "ferrymen_03,Crossbowman,agent,ferrymen,0,3,0,1,0,A,\n"
    got = data.from_csv(PACK_KIND, good, "mine.csv", "mine")
    assert got["cards"] == {
        "ferrymen_03": {
            "name": "Crossbowman",
            "type": "agent",
            "guild": "ferrymen",
            "values": {"wand": 0, "sword": 3, "chalice": 0, "coin": 1},
            "vp": 0,
            "letter": "A",
        }
    }
    assert pack.problems(got)  # one card of 304: it cannot start a table
    for bad, words in (
        (head + ",Crossbowman,agent,ferrymen,0,3,0,1,0,A,\n", "mine.csv:2: each row is one card"),
        (good + good.splitlines()[1] + "\n", "mine.csv:3: ferrymen_03 is listed twice"),
        (
            head + 'blades_15,House,location,blades,1,0,2,-,1,A,"{when: play, draw"\n',
            "mine.csv:2: blades_15: ability is not a YAML mapping on one line",
        ),
        (
            head + "ferrymen_03,Crossbowman,agent,ferrymen,0,x,0,1,0,A,\n",
            "ferrymen_03 (Crossbowman): values.sword 'x' is not a whole number or -",
        ),
        (
            head + 'blades_15,House,location,blades,1,0,2,-,1,A,"{when: use, draw: {n: 1}}"\n',
            "blades_15 (House): ability.when is 'use' but a location's ability acts at play",
        ),
    ):
        with pytest.raises(ConfigError) as err:
            data.from_csv(PACK_KIND, bad, "mine.csv", "mine")
        assert words in str(err.value)


def test_the_data_editors_text_boxes_are_read_as_the_card_means() -> None:
    """The console's form sends a value as text and an ability as its JSON on one line."""
    house = {
        "name": "House of Penitence",
        "type": "location",
        "guild": "blades",
        "values": {"wand": "1", "sword": "0", "chalice": "2", "coin": "-"},
        "vp": 1,
        "letter": "A",
        "ability": '{"when": "play", "draw_keep": {"draw": 2, "keep": 1}}',
    }
    body = {"name": "mine", "domains": [], "cards": {"blades_15": house}}
    got = data.from_body(PACK_KIND, {"data": body})
    assert got["cards"]["blades_15"] == _SAMPLE["cards"]["blades_15"]
    schema = data.schema(PACK_KIND)["$defs"]["CardModel"]["properties"]
    assert schema["ability"]["anyOf"][0] == {"type": "string"}
    none = {**house, "ability": "none"}
    assert (
        "ability"
        not in data.from_mapping(PACK_KIND, {**body, "cards": {"blades_15": none}}, "")["cards"][
            "blades_15"
        ]
    )
    with pytest.raises(ConfigError, match=r"blades_15 \(House of Penitence\): ability must be"):
        data.from_mapping(
            PACK_KIND, {**body, "cards": {"blades_15": {**house, "ability": "x"}}}, ""
        )


def test_an_incomplete_pack_shows_what_it_lacks_and_which_options_it_cannot_offer() -> None:
    partial = copy.deepcopy(_SAMPLE)
    for piece in ("stake_116", "event_12"):
        del partial["cards"][piece]
    checked: dict[str, Any] = data.from_mapping(PACK_KIND, partial, "test")
    entry = data.Entry(PACK_KIND, "half", checked, stored=True)
    assert entry.problems() == ["stakes: 1 of the 116 are not recorded (stake_116)"]
    shown = PACK_KIND.show(entry) if PACK_KIND.show else ""
    assert "  incomplete: stakes: 1 of the 116 are not recorded (stake_116)" in shown
    assert "  cannot offer events: events: 1 of the 12 are not recorded (event_12)" in shown


def test_the_schema_says_every_field_in_words_and_labels_every_choice() -> None:
    """What the console's data editor builds its form from (as tests/api/test_data_routes.py
    asks of every kind's schema)."""
    schema = data.schema(PACK_KIND)
    assert schema["title"] == "Card packs" and "made up" in schema["description"]
    fields = [
        (f"{where}.{name}", prop)
        for where, node in [("", schema), *schema.get("$defs", {}).items()]
        for name, prop in node.get("properties", {}).items()
    ]
    assert len(fields) > 20
    for path, prop in fields:
        assert prop.get("title") and prop.get("description"), path
        for member in [prop, *prop.get("anyOf", []), prop.get("items", {})]:
            if "enum" in member:
                labels = prop.get("x-labels") or member.get("x-labels")
                assert labels and set(member["enum"]) <= set(labels), path
