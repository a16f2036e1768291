"""The world's own rules arithmetic against worked examples of the rulebook (fame rows and
awards: T6, T8-T16) and the option/schedule rules (R-ROUND-2/3, G-10)."""

from __future__ import annotations

import pytest

from scorekeeper.errors import ConfigError
from scorekeeper.games.arcanum.cards import FOOL, SUITS
from scorekeeper.sim.arcanum.rules import (
    award_table,
    fame_order,
    fame_rows,
    gain_reputation,
    resolve_options,
    schedule,
    score_family,
)
from scorekeeper.sim.arcanum.world import ArcanumWorld

ANITA, JENO, MARK = 0, 1, 2


def test_t6_rows_skip_after_a_tie() -> None:
    rep = {"swords": 10, "coins": 8, "wands": 8, "cups": 3}
    assert fame_rows(rep) == {"swords": 1, "coins": 2, "wands": 2, "cups": 4}
    assert fame_order(rep) == ["swords", "coins", "wands", "cups"]


def test_t8_swords_row_1() -> None:
    awards = score_family([[5], [3, 9], []], award_table(1, world=False))
    assert awards == [8, 16, 0]  # presence (4) is not given: nobody is third


def test_t9_coins_count_beats_value() -> None:
    assert score_family([[10], [13], [2, 4]], award_table(2, world=False)) == [3, 6, 12]


def test_t10_wands_same_row_same_values() -> None:
    assert score_family([[8], [7], [14]], award_table(2, world=False)) == [6, 3, 12]


def test_t11_cups_row_4_reveal_all() -> None:
    assert score_family([[1, 6], [], []], award_table(4, world=False)) == [8, 0, 0]


def test_t12_phase_totals_through_the_world() -> None:
    """T6-T12 played by the world's fame phase: 25, 25, 24; reputation reset, cards discarded."""
    world = ArcanumWorld(3, {}, 0)
    world.round = 3  # not the last round: the game goes on
    world.rep = {"swords": 10, "coins": 8, "wands": 8, "cups": 3}
    world.hidden = [
        ["swords_5", "coins_10", "wands_8", "cups_1", "cups_6"],
        ["swords_3", "swords_9", "coins_queen", "wands_7"],
        ["coins_2", "coins_4", "wands_king"],
    ]
    actions = list(world.fame_phase("regular"))
    reveals = [i for a in actions for i in a if getattr(i, "prompt", None) == "fame"]
    assert len(reveals) == 4
    assert world.vp == [25, 25, 24]
    entry = world.history[-1]
    assert entry["totals"] == [25, 25, 24] and entry["kind"] == "regular"
    assert [f["family"] for f in entry["families"]] == ["swords", "coins", "wands", "cups"]
    assert world.rep == dict.fromkeys(SUITS, 0) and not any(world.hidden)
    assert "cups_6" in world.minor_discard and not world.over


def test_t13_tie_for_the_lead() -> None:
    rep = {"swords": 1, "coins": 5, "wands": 9, "cups": 9}
    assert fame_rows(rep) == {"swords": 4, "coins": 3, "wands": 1, "cups": 1}
    assert fame_order(rep) == ["wands", "cups", "coins", "swords"]


def test_t14_world_halves() -> None:
    assert [award_table(r, world=True) for r in (1, 2, 3, 4)] == [
        (8, 4, 0),
        (6, 3, 0),
        (5, 2, 0),
        (4, 2, 0),
    ]
    assert [award_table(r, world=False) for r in (1, 2, 3, 4)] == [
        (16, 8, 4),
        (12, 6, 3),
        (10, 5, 2),
        (8, 4, 2),
    ]
    assert score_family([[3], [2], [1]], award_table(1, world=True)) == [8, 4, 0]


def test_t14_world_phase_keeps_reputation_and_cards() -> None:
    world = ArcanumWorld(3, {}, 0)
    world.round = 2
    world.rep = {"swords": 4, "coins": 2, "wands": 0, "cups": 0}
    world.hidden = [["swords_2"], ["swords_3", "coins_5"], ["cups_4"]]
    world.revealed[1].add("swords_3")
    list(world.fame_phase("world"))
    # swords row 1: 8 and 4; coins row 2: 6; wands and cups share row 3: cups pays 5
    assert world.vp == [4, 14, 5]
    assert world.rep == {"swords": 4, "coins": 2, "wands": 0, "cups": 0}
    assert world.hidden == [["swords_2"], ["swords_3", "coins_5"], ["cups_4"]]
    assert not any(world.revealed)  # the Sun's reveals end
    assert world.history[-1]["kind"] == "world"


@pytest.mark.parametrize("seed", range(6))
def test_the_fool_counts_once_with_value_0(seed: int) -> None:
    """R-FAME-4: assigned by its holder's ``fool`` answer, or to the last family."""
    world = ArcanumWorld(3, {}, seed)
    world.round = 1
    world.rep = {"swords": 3, "coins": 2, "wands": 1, "cups": 0}
    world.hidden = [[FOOL], ["cups_2"], []]
    actions = list(world.fame_phase("regular"))
    fools = [i for a in actions for i in a if getattr(i, "prompt", None) == "fool"]
    family = fools[0].answer if fools else "cups"
    assert len(fools) <= 1 and (not fools or fools[0].seat == 0)
    # seat 1's cups_2 is alone in cups (row 4, 8) unless the Fool joins it: 2 beats 0, 8 and 4
    expected = {"swords": [16, 8, 0], "coins": [12, 8, 0], "wands": [10, 8, 0], "cups": [4, 8, 0]}[
        family
    ]
    assert world.vp == expected
    assert FOOL in world.major_discard


def test_t15_overflow_pushes_the_others_back() -> None:
    rep = {"swords": 19, "coins": 5, "wands": 1, "cups": 0}
    gain_reputation(rep, "swords", 4)
    assert rep == {"swords": 21, "coins": 3, "wands": 0, "cups": 0}
    gain_reputation(rep, "coins", -5)
    assert rep["coins"] == 0


def test_t16_tied_split() -> None:
    awards = award_table(1, world=False)
    assert score_family([[5], [5], [1]], awards) == [12, 12, 4]
    assert score_family([[5], [5], [1]], awards, "own_place") == [8, 8, 4]
    # three tied for second: pooled (8 + 4 + 0) // 3, own place 8 // 3
    assert score_family([[9, 9], [5], [5], [5]], awards) == [16, 4, 4, 4]
    assert score_family([[9, 9], [5], [5], [5]], awards, "own_place") == [16, 2, 2, 2]


def test_schedule() -> None:
    assert schedule(4, "normal", "by_length") == (6, (3, 6))
    assert schedule(5, "long", "by_length") == (9, (3, 6, 9))
    assert schedule(3, "normal", "by_length") == (4, (4,))
    assert schedule(3, "long", "by_length") == (8, (4, 8))
    assert schedule(3, "normal", "always_8") == (8, (4, 8))


def test_options() -> None:
    opts = resolve_options({}, 4)
    assert opts["board"] == "sample" and opts["tied_split"] == "pooled"
    for bad in ({"nope": 1}, {"variant": "easy"}, {"start_seat": 4}):
        with pytest.raises(ConfigError):
            resolve_options(bad, 4)
    with pytest.raises(ConfigError):
        resolve_options({}, 2)
