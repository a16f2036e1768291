"""The shipped sample pack (docs/games/arcana.md, "The card pack"): complete for every option,
in the rulebook's counts and layout, the contract's cards with its values, the rulebook's worked
examples coming out as it says on those values, and exactly what the generator writes."""

from __future__ import annotations

import importlib.util
import itertools
from collections import Counter
from pathlib import Path

import pytest

from scorekeeper.games.arcana import pack
from scorekeeper.games.arcana.cards import (
    EVENTS,
    GUILDS,
    MASTERS,
    OBJECTIVES,
    PIECES,
    STAKES,
    Card,
)

SAMPLE = pack.sample_pack()
OPTIONS = ("watch", "guild_masters", "objectives", "events", "custom_guild")


def c(piece: str) -> Card:
    got = SAMPLE.card(piece)
    assert got is not None, piece
    return got


def test_the_sample_is_complete_for_every_option_and_labelled_sample() -> None:
    mapping = pack.load_shipped("sample")
    assert mapping["sample"] is True and "Not the values of any real copy" in mapping["description"]
    for on in itertools.product((False, True), repeat=len(OPTIONS)):
        assert pack.problems(mapping, dict(zip(OPTIONS, on, strict=True))) == [], on
    assert SAMPLE.sample and SAMPLE.name == "sample" and SAMPLE is pack.sample_pack()
    assert tuple(card.id for card in SAMPLE.cards) == PIECES
    assert set(SAMPLE.domains) == {"Ogrokh", "Kraken Quay", "Old Town", "Gilded Hill"}


def test_guild_cards_follow_the_layout_and_names_differ_within_a_guild() -> None:
    for guild in GUILDS:
        cards = [c(f"{guild}_{k:02d}") for k in range(1, 21)]
        assert [x.type for x in cards] == ["agent"] * 14 + ["location"] * 3 + ["relic"] * 3
        a_cards = [k for k, x in enumerate(cards, start=1) if x.letter == "A"]
        assert a_cards == [1, 2, 3, 4, 5, 6, 7, 8, 15, 16, 18], guild
        assert len({x.name for x in cards}) == 20
        for agent in cards[:14]:
            assert max(agent.value(a) for a in ("wand", "sword", "chalice")) >= 1, agent.id
        assert all(1 <= (x.ducat or 0) <= 4 for x in cards[17:])
        assert all(x.ability is not None and x.ability.when == "play" for x in cards[14:17])
        assert all(0 <= x.vp <= 3 for x in cards)


def test_stakes_options_cards_in_the_rulebooks_counts() -> None:
    stakes = [c(p) for p in STAKES]
    assert Counter(x.type for x in stakes) == {"relic": 31, "location": 36, "citizen": 49}
    assert all(1 <= x.vp <= 5 and x.letter == "" for x in stakes)
    for x in stakes:
        assert x.threshold and all(3 <= v <= 8 for _, v in x.threshold)
        if x.type == "relic":
            assert x.ducat is not None and 1 <= x.ducat <= 4, x.id
        if x.type == "location":
            assert x.ducat is None and x.ability is not None and x.ability.when == "play", x.id
    citizen_ducats = [x.ducat for x in stakes if x.type == "citizen"]
    assert 0 < citizen_ducats.count(None) < 10
    assert all(4 <= d <= 9 for d in citizen_ducats if d is not None)
    assert sum(x.domain == "all" for x in stakes) >= 3
    watch = [c(p) for p in ("captain_1", "captain_2", *(f"constable_{k}" for k in range(1, 5)))]
    assert [x.name for x in watch] == ["Captain"] * 2 + ["Constable"] * 4
    assert all(x.type == "watch" and x.vp == 0 and x.value("sword") > 0 for x in watch)
    masters = [c(p) for p in MASTERS]
    assert all(x.ability is not None and len(x.ability.effects) == 1 for x in masters)
    assert all(x.ability is not None and x.ability.when == "use" for x in masters)
    assert 0 < sum(x.once_per_round for x in masters) < 18
    events = [c(p) for p in EVENTS]
    assert all(x.ability is not None and x.ability.when == "round" for x in events)
    for kinds in (masters, events):
        manual = [x for x in kinds if x.ability and x.ability.effect("manual")]
        assert len(manual) == 1 and manual[0].ability and manual[0].ability.text
    objectives = [c(p) for p in OBJECTIVES]
    assert all(x.objective and 2 <= x.objective[1] <= 4 and 2 <= x.vp <= 6 for x in objectives)


def test_the_contracts_cards_have_the_contracts_values() -> None:
    def arcana(piece: str) -> tuple[int, int, int]:
        return (c(piece).value("wand"), c(piece).value("sword"), c(piece).value("chalice"))

    named = {
        "ferrymen_01": ("Merchant of Krak", (0, 1, 2)),
        "ferrymen_02": ("Funeral", (0, 2, 3)),
        "ferrymen_03": ("Crossbowman", (0, 3, 0)),
        "usurers_01": ("Pale One", (0, 3, 0)),
        "usurers_02": ("Lord Treasurer", (6, 0, 0)),
        "usurers_03": ("Necromancer", (0, 0, 3)),
        "blades_01": ("Long-staff", (1, 1, 2)),
    }
    for piece, (name, values) in named.items():
        assert (c(piece).name, arcana(piece), c(piece).letter) == (name, values, "A"), piece
    barhan = c("ferrymen_18")
    assert (barhan.name, barhan.type, barhan.ducat, barhan.letter) == (
        "Barhan sword",
        "relic",
        4,
        "A",
    )
    house = c("blades_15")
    assert house.name == "House of Penitence" and house.ability is not None
    assert house.ability.effects[0].args == (("draw", 2), ("keep", 1))
    assert (c("stake_001").name, c("stake_001").type, c("stake_001").threshold) == (
        "Sword",
        "relic",
        (("sword", 4),),
    )
    ayane = c("stake_002")
    assert (ayane.type, ayane.threshold, ayane.ducat, ayane.domain) == (
        "citizen",
        (("sword", 5),),
        7,
        "Old Town",
    )
    harlequin = c("stake_003")
    assert harlequin.type == "citizen" and harlequin.majors == ("sword", "wand", "chalice")
    assert harlequin.threshold == (("sword", 5), ("wand", 5), ("chalice", 5))
    assert harlequin.ability is not None and harlequin.ability.when == "results"
    assert [e.kind for e in harlequin.ability.effects] == ["copy_agent"]
    four, five, six = c("stake_004"), c("stake_005"), c("stake_006")
    assert (four.type, four.majors, five.type, five.majors) == (
        "relic",
        ("wand",),
        "citizen",
        ("wand",),
    )
    assert (six.type, six.majors) == ("relic", ("sword",))
    ties = {g: c(f"badge_{g}").ability for g in GUILDS}
    expected = {
        "ferrymen": (("arcanum", ("wand",)), ("stake_type", ())),
        "thieves": (("arcanum", ()), ("stake_type", ("relic",))),
        "blades": (("arcanum", ("sword",)), ("stake_type", ())),
        "fortune_tellers": (("arcanum", ("chalice",)), ("stake_type", ())),
        "usurers": (("arcanum", ()), ("stake_type", ("citizen",))),
        "architects": (("arcanum", ()), ("stake_type", ("location",))),
    }
    for guild, ability in ties.items():
        assert ability is not None and ability.when == "always"
        assert [(e.kind, e.args) for e in ability.effects] == [("tie_win", expected[guild])]


def _sum(arcanum: str, *pieces: str) -> int:
    return sum(c(p).value(arcanum) for p in pieces)


def test_the_worked_examples_come_out_as_the_rulebook_says() -> None:
    sword = c("stake_001").threshold_in("sword")
    assert sword == 4
    assert _sum("sword", "ferrymen_03", "ferrymen_02") == 5 >= sword  # T1: Ferrymen win
    assert _sum("sword", "usurers_01") == 3 < sword
    assert _sum("sword", "ferrymen_02") == 2 < sword  # T2: nobody
    bribe = c("ferrymen_18").ducat or 0
    assert bribe + _sum("sword", "ferrymen_01", "ferrymen_02") == 7 == c("stake_002").ducat  # T3
    assert bribe + _sum("sword", "ferrymen_02") == 6  # T4: short, then Merchant of Krak makes 7
    assert _sum("chalice", "ferrymen_02", "ferrymen_01") == 5  # T6: Ferrymen in chalice
    assert _sum("wand", "usurers_02") == 6  # T6: Usurers in wand, thresholds 5: both qualify
    assert c("usurers_03").value("chalice") * 2 == 6  # T7: the Harlequin copies the Necromancer
    assert c("blades_01").value("chalice") == 2  # T7: Long-staff
    # T8: a wand relic; T9: a wand citizen, a sword relic. The Ferrymen and the Thieves tie
    # at each with their starting agents, and the badges decide (or cancel) as the rulebook says.
    ferry_wand, thief_wand = ("ferrymen_05", "ferrymen_06"), ("thieves_08", "thieves_01")
    assert (c("stake_004").type, c("stake_004").threshold) == ("relic", (("wand", 3),))
    assert _sum("wand", "ferrymen_05") == _sum("wand", "thieves_08") == 3  # both qualify
    assert (c("stake_005").type, c("stake_005").threshold) == ("citizen", (("wand", 4),))
    assert _sum("wand", *ferry_wand) == _sum("wand", *thief_wand) == 4
    assert (c("stake_006").type, c("stake_006").threshold) == ("relic", (("sword", 3),))
    assert _sum("sword", "ferrymen_03") == _sum("sword", "thieves_06") == 3
    assert _sum("wand", "ferrymen_06") == _sum("wand", "thieves_01") == 1 < 3  # a tie below
    objectives = {c(p).objective for p in OBJECTIVES}
    assert ("Ogrokh", 3) in objectives and ("Kraken Quay", 2) in objectives  # T18


def test_the_file_is_what_the_generator_writes() -> None:
    path = Path(__file__).resolve().parents[3] / "tools/arcana_sample_pack.py"
    spec = importlib.util.spec_from_file_location("arcana_sample_pack", path)
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    assert tool.OUT.read_text(encoding="utf-8") == tool.text()
    assert tool.build() == pack.load_shipped("sample")


@pytest.mark.parametrize("guild", GUILDS)
def test_a_starting_deck_can_reach_a_threshold(guild: str) -> None:
    agents = [c(f"{guild}_{k:02d}") for k in range(1, 9)]
    for arcanum in ("wand", "sword", "chalice"):
        best = sorted((a.value(arcanum) for a in agents), reverse=True)
        assert sum(best[:3]) >= 5, (guild, arcanum)  # three agents reach a middling stake


def test_the_json_a_table_plays_from_is_the_checked_yaml() -> None:
    # pack.load_shipped reads packs/sample.json (no schema models, no YAML parser: memory on a
    # Pi); it must be exactly what the YAML gives once checked.
    import json

    from scorekeeper.core import data
    from scorekeeper.games.arcana import pack, pack_data

    ready = json.loads((pack.PACKS_DIR / "sample.json").read_text(encoding="utf-8"))
    assert ready == data.from_file(pack_data.PACK_KIND, pack.PACKS_DIR / "sample.yaml")
    assert pack_data.load_shipped("sample") == ready  # the data kind's samples read the twin
    assert pack.load_shipped("sample") == ready
