"""Arcana's card pack checks (docs/games/arcana.md, "The card pack"): a broken card is refused
with words naming the card and the field (and the line, in a file); a pack missing cards is
data with problems, per the options that need them; ``pack_of`` gives the rules' cards."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.core import data
from scorekeeper.errors import ConfigError
from scorekeeper.games.arcana import pack
from scorekeeper.games.arcana.cards import OBJECTIVES, PIECES, Effect
from scorekeeper.games.arcana.pack_data import PACK_KIND
from scorekeeper.games.arcana.state import Options

_SAMPLE = pack.load_shipped("sample")
KEPT: tuple[str, ...] = ("ferrymen_03", "ferrymen_04", "stake_002", "blades_15", "master_blades_1")
KEPT += ("objective_01", "captain_1", "badge_ferrymen", "event_01")


def sample() -> dict[str, Any]:
    """A fresh copy of the shipped sample's mapping."""
    return copy.deepcopy(_SAMPLE)


def small(**cards: Any) -> dict[str, Any]:
    """A pack of a few sample cards, with ``cards`` replacing or adding some."""
    base = sample()
    kept = {p: base["cards"][p] for p in KEPT}
    kept.update(cards)
    return {"name": "mine", "domains": base["domains"], "cards": kept}


def card(piece: str, **fields: Any) -> dict[str, Any]:
    """A sample card with some fields changed (a value None drops the field)."""
    out = dict(copy.deepcopy(_SAMPLE["cards"][piece]))
    for key, value in fields.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = value
    return out


CROSSBOW = {"wand": 0, "sword": 3, "chalice": 0, "coin": 1}


@pytest.mark.parametrize(
    ("cards", "words"),
    [
        (
            {"stake_002": card("stake_002", threshold={"sword": 6})},
            "stake_002 (Ayane): threshold in sword is 6 but its sword value is 5",
        ),
        (
            {"ferrymen_03": card("ferrymen_03", values={**CROSSBOW, "sword": "x"})},
            "ferrymen_03 (Crossbowman): values.sword 'x' is not a whole number or -",
        ),
        (
            {"ferrymen_03": card("ferrymen_03", values={"wand": 0, "sword": 3, "chalice": 0})},
            "ferrymen_03 (Crossbowman): values.coin is missing",
        ),
        ({"ferrymen_21": card("ferrymen_03")}, "'ferrymen_21' is no card of Arcana's copy"),
        (
            {"stake_002": card("stake_002", type="agent")},
            "stake_002 (Ayane): type is 'agent' but this card is relic or location or citizen",
        ),
        (
            {"ferrymen_03": card("ferrymen_03", guild="thieves")},
            "ferrymen_03 (Crossbowman): guild is 'thieves' but this is a Ferrymen card",
        ),
        (
            {"stake_002": card("stake_002", domain="Atlantis")},
            "stake_002 (Ayane): domain 'Atlantis' is not among the pack's domains",
        ),
        (
            {"stake_002": card("stake_002", major=["coin"], threshold=None)},
            "stake_002 (Ayane): major 'coin' is not wand, sword or chalice (coin is only",
        ),
        (
            {
                "stake_002": card(
                    "stake_002",
                    values={"wand": "-", "sword": 5, "chalice": 1, "coin": 7},
                    major=["wand"],
                    threshold=None,
                )
            },
            "stake_002 (Ayane): major wand has no number: its wand value is -",
        ),
        (
            {"stake_002": card("stake_002", letter="A")},
            "stake_002 (Ayane): letter: a citizen prints no letter",
        ),
        (
            {"ferrymen_03": card("ferrymen_03", letter="C")},
            "ferrymen_03 (Crossbowman): letter is 'C': a guild card is A (starting deck) or B",
        ),
        (
            {"blades_15": card("blades_15", ability={"when": "play", "teleport": {}})},
            "blades_15 (House of Penitence): ability.teleport is not in the vocabulary",
        ),
        (
            {"blades_15": card("blades_15", ability={"when": "always", "draw": {"n": 1}})},
            "blades_15 (House of Penitence): ability.when is 'always' but a location's "
            "ability acts at play",
        ),
        (
            {"blades_15": card("blades_15", ability={"when": "play", "draw_keep": {"draw": 2}})},
            "blades_15 (House of Penitence): ability.draw_keep.keep is missing",
        ),
        (
            {
                "blades_15": card(
                    "blades_15", ability={"when": "play", "draw_keep": {"draw": 1, "keep": 2}}
                )
            },
            "ability.draw_keep keeps more cards than it draws",
        ),
        (
            {"blades_15": card("blades_15", ability={"when": "play", "draw": {"n": "two"}})},
            "blades_15 (House of Penitence): ability.draw.n 'two' is not a whole number",
        ),
        (
            {"blades_15": card("blades_15", ability={"when": "play", "if_stake": "badge"})},
            "ability.if_stake must be relic, location, citizen",
        ),
        (
            {"master_blades_1": card("master_blades_1", ability={"when": "use", "manual": {}})},
            "master_blades_1 (Marshal of Blades): ability.manual.text is missing",
        ),
        (
            {"badge_ferrymen": card("badge_ferrymen", ability={"when": "always", "tie_win": {}})},
            "ability.tie_win needs arcanum or stake_type",
        ),
        (
            {
                "badge_ferrymen": card(
                    "badge_ferrymen", ability={"when": "always", "draw": {"n": 1}}
                )
            },
            "ability.draw does not act at always",
        ),
        (
            {"event_01": card("event_01", ability=None)},
            "event_01 (Festival of Lanterns): ability is missing",
        ),
        (
            {"objective_01": card("objective_01", objective={"domain": "Atlantis", "count": 3})},
            "objective_01 (Exotic Blood Gardens): objective.domain is 'Atlantis'",
        ),
        (
            {"objective_01": card("objective_01", objective={"domain": "Ogrokh", "count": 0})},
            "objective.count '0' is not a whole number from 1 to 20",
        ),
        (
            {"ferrymen_03": card("ferrymen_03", once_per_round=True)},
            "ferrymen_03 (Crossbowman): once_per_round is only for guild masters",
        ),
        (
            {"ferrymen_04": card("ferrymen_04", name="Crossbowman")},
            "ferrymen_04 (Crossbowman): name is also ferrymen_03's",
        ),
        ({"captain_1": card("captain_1", vp=2)}, "captain_1 (Captain): vp: a watch card carries"),
        ({"ferrymen_03": card("ferrymen_03", name=None)}, "ferrymen_03: name is missing"),
        ({"ferrymen_03": card("ferrymen_03", colour="red")}, "unknown field 'colour'"),
    ],
)
def test_a_broken_card_is_refused_naming_the_card_and_the_field(
    cards: dict[str, Any], words: str
) -> None:
    with pytest.raises(ConfigError) as err:
        pack.from_mapping(small(**cards))
    assert words in str(err.value)


def test_the_small_pack_itself_is_valid_and_lists_what_is_missing() -> None:
    checked = pack.from_mapping(small())
    assert list(checked["cards"]) == [p for p in PIECES if p in KEPT]
    found = pack.problems(checked)
    assert any(line.startswith("guild cards: 117 of the 120") for line in found)
    assert any(line.startswith("stakes: 115 of the 116") for line in found)


def test_a_file_names_the_line_of_the_broken_field() -> None:
    text = data.to_yaml(PACK_KIND, small())
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.lstrip().startswith("stake_002:"))
    lines[at] = lines[at].replace("threshold: {sword: 5}", "threshold: {sword: 6}")
    with pytest.raises(ConfigError) as err:
        data.from_yaml(PACK_KIND, "\n".join(lines), "mine.yaml")
    said = str(err.value)
    assert f"mine.yaml:{at + 1}" in said and "threshold in sword is 6" in said


def test_problems_follow_the_options_that_need_the_cards() -> None:
    full = sample()
    no_objectives = {
        **full,
        "cards": {p: c for p, c in full["cards"].items() if p not in OBJECTIVES},
    }
    checked = pack.from_mapping(no_objectives)
    assert pack.problems(checked) == []
    assert pack.problems(checked, {"watch": True, "events": True, "guild_masters": True}) == []
    with_objectives = pack.problems(checked, {"objectives": True})
    assert with_objectives == [
        "objectives: 24 of the 24 are not recorded (objective_01, objective_02, objective_03 …)"
    ]
    assert pack.problems(checked, Options(objectives=True)) == with_objectives
    assert list(pack.missing_for_options(checked)) == ["objectives"]
    assert pack.missing_for_options(full) == {}


def test_problems_hold_the_rulebooks_counts() -> None:
    full = sample()
    full["cards"]["ferrymen_04"] = card("ferrymen_04", letter="B")  # 10 A, 10 B
    stake = full["cards"]["stake_001"]  # a relic written as a citizen: 30 relics, 50 citizens
    full["cards"]["stake_001"] = {**stake, "type": "citizen"}
    found = pack.problems(pack.from_mapping(full))
    assert found == [
        "Ferrymen: 10 letter A, 10 letter B; a guild has 11 letter A, 9 letter B",
        "stakes: 30 relics, 36 locations, 50 citizens; the copy has 31 relics, 36 locations, "
        "49 citizens",
    ]


def test_pack_of_gives_the_rules_cards_in_the_copys_order() -> None:
    rules = pack.pack_of(_SAMPLE)
    assert rules is pack.pack_of(copy.deepcopy(_SAMPLE))  # cached by the mapping's JSON
    assert tuple(c.id for c in rules.cards) == PIECES and rules.sample
    crossbow = rules.card("ferrymen_03")
    assert crossbow is not None
    assert (crossbow.name, crossbow.type, crossbow.guild, crossbow.letter) == (
        "Crossbowman",
        "agent",
        "ferrymen",
        "A",
    )
    assert crossbow.values == (0, 3, 0, 1) and crossbow.value("sword") == 3
    ayane = rules.card("stake_002")
    assert ayane is not None and ayane.threshold == (("sword", 5),) and ayane.ducat == 7
    assert ayane.domain == "Old Town" and ayane.letter == "" and ayane.vp == 2
    house = rules.card("blades_15")
    assert house is not None and house.ducat is None and house.ability is not None
    assert house.ability.effects == (Effect("draw_keep", (("draw", 2), ("keep", 1))),)
    # defaults filled, lists as tuples, fields sorted by name
    tunnel = rules.card("thieves_16")
    assert tunnel is not None and tunnel.ability is not None
    assert tunnel.ability.effects[0].args == (("from", "any"), ("to", "any"), ("whose", "own"))
    badge = rules.card("badge_ferrymen")
    assert badge is not None and badge.ability is not None
    assert badge.ability.effects[0].args == (("arcanum", ("wand",)), ("stake_type", ()))


def test_an_abilitys_effects_and_conditions_keep_their_order() -> None:
    ability = {"when": "play", "if_stake": "citizen", "draw": {"n": 1}, "extra_action": {}}
    ability |= {"text": "Draw a card, then act again."}
    mapping = small(blades_16=card("blades_16", ability=ability))
    rules = pack.pack_of(pack.from_mapping(mapping))
    got = rules.card("blades_16")
    assert got is not None and got.ability is not None
    assert [e.kind for e in got.ability.effects] == ["draw", "extra_action"]
    assert got.ability.conditions == (("if_stake", "citizen"),)
    assert got.ability.text == "Draw a card, then act again."
    manual = rules.card("master_blades_1")
    assert manual is not None and manual.once_per_round
    event = pack.pack_of(_SAMPLE).card("event_11")
    assert event is not None and event.ability is not None
    assert event.ability.text.startswith("No agent may be laid")  # a manual's words


def test_the_contracts_example_is_a_pack_and_holds_the_samples_cards() -> None:
    doc = Path(__file__).resolve().parents[3] / "docs/games/arcana.md"
    text = doc.read_text(encoding="utf-8").split("## The card pack", 1)[1]
    example = text.split("```yaml\n", 1)[1].split("```", 1)[0]
    got = data.from_yaml(PACK_KIND, example, "docs/games/arcana.md")
    assert list(got["cards"]) == ["blades_15", "ferrymen_03", "stake_002"]  # the copy's order
    for piece, fields in got["cards"].items():
        assert fields == _SAMPLE["cards"][piece], piece
