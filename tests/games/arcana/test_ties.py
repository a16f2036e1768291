"""Arcana's winner of a district (R-RES-3, R-TIE, R-MULTI-2, G-10, G-11) on the rulebook's
examples T-1, T-2, T-6, T-8, T-9 and T-10, the tie-breakers that apply (badges, masters,
agents, events) and the `any_at_district` reading of G-10."""

from __future__ import annotations

import pytest

from scorekeeper.games.arcana import sums, ties
from scorekeeper.games.arcana.state import Options, State
from tests.games.arcana.test_sums import T1, at, results, table

FERRY_THIEVES = ("ferrymen", "thieves")


def winner(
    state: State, did: str, declared: dict[int, str] | None = None
) -> tuple[int | None, str]:
    """The district's winner and reason, as ``ties.settle`` gives them to results.py."""
    arcana, got, won, reason = ties.settle(state, did, declared or {}, {})
    assert got == results(state, did, declared)
    assert arcana == sums.counted_arcana(state, did, declared or {})
    return won, reason


def test_t1_t2_the_highest_qualifying_sum_wins() -> None:
    assert winner(table(agents={"c": T1}), "c") == (0, "{seat:0} wins with 5 against 3")
    assert winner(table(agents={"c": T1[1:]}), "c") == (None, "nobody reaches 4")
    alone = table(agents={"c": T1[:2]})
    assert winner(alone, "c") == (0, "{seat:0} wins with 5, alone there")


def test_t10_highest_of_several_qualifiers() -> None:
    got = ties.decide({0: 6, 1: 5, 2: 2}, {0: 4, 1: 4, 2: 4}, frozenset(), "tied_only", (0, 1, 2))
    assert got == (0, "{seat:0} wins with 6 against 5")


@pytest.mark.parametrize(
    ("threshold", "expected"),
    [(5, 1), (6, 1), (7, None)],
)
def test_t6_harlequin_won_in_different_arcana(threshold: int, expected: int | None) -> None:
    cards = (at("ferrymen_02", 0), at("ferrymen_01", 0), at("usurers_02", 1))
    state = table(stakes={"a": "stake_003"}, agents={"a": cards}, harlequin=threshold)
    got, reason = winner(state, "a", {0: "chalice", 1: "wand"})
    assert got == expected
    if expected is None:
        assert reason == "nobody reaches 7"


def test_g11_qualify_on_the_threshold_of_the_arcanum_declared() -> None:
    # the highest sum wins across arcana, but only a seat over its own threshold qualifies
    got = ties.decide({0: 5, 1: 6}, {0: 4, 1: 7}, frozenset(), "tied_only", (0, 1))
    assert got == (0, "{seat:0} wins with 5; {seat:1} has 6 but needs 7")
    got = ties.decide({0: 5, 1: 6}, {0: 4}, frozenset(), "tied_only", (0, 1))
    assert got == (0, "{seat:0} wins with 5; {seat:1} has 6 but declared none")
    # a seat that declared none has no threshold
    assert ties.decide({0: 0, 1: 3}, {1: 4}, frozenset(), "tied_only", (0, 1)) == (
        None,
        "nobody reaches 4",
    )
    assert ties.decide({0: 3, 1: 3}, {0: 4, 1: 5}, frozenset(), "tied_only", (0, 1)) == (
        None,
        "nobody reaches the threshold of the arcanum they declared",
    )


WANDS = (at("ferrymen_04", 0), at("thieves_01", 1))
SWORDS = (at("ferrymen_03", 0), at("ferrymen_01", 0), at("thieves_02", 1))


def test_t8_both_tie_breakers_apply_and_cancel() -> None:
    state = table(FERRY_THIEVES, stakes={"a": "stake_004"}, agents={"a": WANDS})
    assert results(state, "a") == {0: 4, 1: 4}
    assert ties.tie_breakers(state, "a", "wand") == {0, 1}
    assert winner(state, "a") == (
        None,
        "{seat:0} and {seat:1} tie at 4; {seat:0}'s and {seat:1}'s tie-breakers cancel: "
        "nobody wins",
    )


def test_t9_one_tie_breaker_wins_the_tie() -> None:
    citizen = table(FERRY_THIEVES, stakes={"a": "stake_005"}, agents={"a": WANDS})
    assert ties.tie_breakers(citizen, "a", "wand") == {0}
    assert winner(citizen, "a") == (
        0,
        "{seat:0} wins the tie at 4 (the Ferrymen's badge: the arcanum counted is wand)",
    )
    relic = table(FERRY_THIEVES, stakes={"a": "stake_006"}, agents={"a": SWORDS})
    assert ties.tie_breakers(relic, "a", "sword") == {1}
    assert winner(relic, "a") == (
        1,
        "{seat:1} wins the tie at 4 (the Thieves' badge: the stake is a relic)",
    )
    # a tie below the threshold: a tie-breaker never lifts a seat over it (R-TIE-1)
    low = table(FERRY_THIEVES, stakes={"a": "stake_002"}, agents={"a": SWORDS})
    assert winner(low, "a") == (None, "nobody reaches 5")
    # a tie where no tie-breaker applies
    sword_citizen = table(FERRY_THIEVES, stakes={"a": "stake_010"}, agents={"a": SWORDS})
    assert winner(sword_citizen, "a") == (
        None,
        "{seat:0} and {seat:1} tie at 4 and no tie-breaker settles it: nobody wins",
    )


def wand_relic_three(mode: str = "tied_only") -> State:
    """Ferrymen (Oarsman, wand 4) and Usurers (Moneylender, wand 4) tied at a wand relic; the
    Thieves there with wand 0, their badge applying all the same (the stake is a relic)."""
    cards = (
        at("ferrymen_04", 0),
        at("usurers_01", 1),
        at("usurers_04", 1),
        at("thieves_02", 2),
    )
    return table(
        ("ferrymen", "usurers", "thieves"),
        stakes={"a": "stake_004"},
        agents={"a": cards},
        options=Options(tie_breakers=mode),
    )


def test_g10_only_the_tied_seats_tie_breakers_count_by_default() -> None:
    tied = wand_relic_three()
    assert results(tied, "a") == {0: 4, 1: 4, 2: 0}
    assert ties.tie_breakers(tied, "a", "wand") == {0, 2}
    assert winner(tied, "a")[0] == 0
    # any_at_district: the Thieves' tie-breaker applies there too, and the two cancel
    assert winner(wand_relic_three("any_at_district"), "a") == (
        None,
        "{seat:0} and {seat:1} tie at 4; {seat:0}'s and {seat:2}'s tie-breakers cancel: "
        "nobody wins",
    )
    # a lone tie-breaker of a seat not in the tie settles nothing in either mode
    for mode in ("tied_only", "any_at_district"):
        assert ties.decide({0: 4, 1: 4, 2: 1}, {0: 4, 1: 4, 2: 4}, {2}, mode) == (
            None,
            "{seat:0} and {seat:1} tie at 4 and no tie-breaker settles it: nobody wins",
        )


def test_tie_breakers_of_agents_and_masters_not_events() -> None:
    # the Pilot (an agent) wins ties in chalice where it lies; the Blades' master always does
    cards = (at("ferrymen_06", 0), at("ferrymen_02", 0), at("blades_01", 1), at("blades_01", 1))
    state = table(
        ("ferrymen", "blades"),
        stakes={"a": "stake_007"},
        agents={"a": cards},
        seats={1: {"master": "master_blades_1"}},
        event="event_03",
    )
    assert ties.tie_breakers(state, "a", "chalice") == {0, 1}
    reasons = ties.tie_reasons(state, "a", "chalice")
    assert reasons[0] == "the Pilot: the arcanum counted is chalice"
    assert reasons[1] == "the Blades' guild master: the arcanum counted is chalice"
    # in sword neither applies, and the event's tie_win applies to nobody
    assert ties.tie_breakers(state, "a", "sword") == frozenset()


def test_declared_arcana_decide_which_tie_breakers_apply() -> None:
    cards = (at("ferrymen_04", 0), at("usurers_04", 1))
    state = table(stakes={"a": "stake_003"}, agents={"a": cards}, harlequin=4)
    # the Ferrymen's badge applies only to the seat counting wand
    arcana = sums.counted_arcana(state, "a", {0: "wand", 1: "wand"})
    assert ties.tie_breakers(state, "a", "wand", arcana=arcana) == {0}
    arcana = sums.counted_arcana(state, "a", {0: "sword", 1: "wand"})
    assert ties.tie_breakers(state, "a", "wand", arcana=arcana) == frozenset()
    assert winner(state, "a", {0: "wand", 1: "wand"})[0] == 0


def test_t7_settle_with_the_harlequins_copy() -> None:
    cards = (at("stake_003", 1), at("usurers_03", 1), at("blades_01", 0))
    state = table(("blades", "usurers"), stakes={"b": "stake_007"}, agents={"b": cards})
    assert ties.settle(state, "b", {}, {"stake_003": "usurers_03"}) == (
        {0: "chalice", 1: "chalice"},
        {0: 2, 1: 6},
        1,
        "{seat:1} wins with 6 against 2",
    )
    # copying nothing the Usurers have 3 of the Chapel's 4: nobody
    assert ties.settle(state, "b", {}, {"stake_003": ""})[2:] == (None, "nobody reaches 4")
