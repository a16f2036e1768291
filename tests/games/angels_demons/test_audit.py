"""Audit checks of the advanced red-card conditions (R-ADV-1, A-10) at the scoring level."""

from __future__ import annotations

from scorekeeper.games.angels_demons.scoring import has_item_win, red_bonuses
from scorekeeper.games.angels_demons.state import Opts

ADV = Opts(mode="advanced")
NOT_ITSELF = Opts(mode="advanced", red17_counts_itself=False)


def test_red_1_without_counting_itself_is_met_by_another_1_7_or_item() -> None:
    hand = ["H1r", "H2b1", "H3b1", "A5b1", "A5b2", "D4b1", "D4b2", "D4b3"]
    assert red_bonuses(NOT_ITSELF, [], hand) == (("H1r", 0),)
    for other in (["A1b1", "A1b2", "A1b3"], ["A7b1", "A7b2", "A7b3"], ["IT2p1", "IT2p2", "IT2p3"]):
        assert red_bonuses(NOT_ITSELF, [other], hand) == (("H1r", 2),)  # laid cards count too


def test_two_reds_with_the_same_condition_both_score() -> None:
    hand = ["H1r", "H2b1", "H3b1", "A7r", "A7b1", "A7b2", "D4b1", "D4b2"]
    assert red_bonuses(ADV, [], hand) == (("H1r", 2), ("A7r", 2))
    assert red_bonuses(NOT_ITSELF, [], hand) == (("H1r", 2), ("A7r", 2))  # each meets the other's


def test_red_3_5_counts_laid_sets_only() -> None:
    hand = ["H3r", "H4b1", "H5r", "A1b1", "A1b2", "A1b3", "D2b1", "D2b2"]
    laid = [["A6b1", "A6b2", "A6b3"], ["D7b1", "D7b2", "D7b3"]]
    assert red_bonuses(ADV, laid, hand) == (("H3r", 0), ("H5r", 0))
    assert red_bonuses(ADV, [*laid, ["IT1p1", "IT1p2", "IT1p3"]], hand) == (("H3r", 2), ("H5r", 2))


def test_item_win_needs_three_laid_item_groups_and_a_conditional() -> None:
    groups = [["IT1p1", "IT1p2", "IT1p3"], ["IT2p1", "IT2p2", "IT2p3"]]
    assert not has_item_win(groups, ["IT3p1", "IT3p2", "IT3p3", "IT4c"])
    assert has_item_win([*groups, ["IT3p1", "IT3p2", "IT3p3"]], ["IT4c"])
    assert not has_item_win([*groups, ["IT3p1", "IT3p2", "IT3p3"]], ["IT4p1"])
