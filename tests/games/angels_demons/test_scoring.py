"""Scoring of going-out hands: T-9 .. T-13 as pure functions, plus options."""

from __future__ import annotations

from scorekeeper.games.angels_demons.scoring import (
    flip_matches,
    gain,
    has_item_win,
    item_points,
    red_bonuses,
)
from scorekeeper.games.angels_demons.state import Opts

BASIC = Opts()
ADV = Opts(mode="advanced")


def test_t9_basic() -> None:
    laid = [("D4b1", "D5r", "D6b1")]
    hand = ["H5b1", "H5b2", "A1b1", "A2b1", "A3b1", "A6b1", "A6b2", "A6b3"]
    assert red_bonuses(BASIC, laid, hand) == (("D5r", 1),)
    assert [flip_matches(c, laid, hand) for c in ("H5b3", "D6b2", "IT2p1")] == [2, 1, 0]
    assert gain(BASIC, laid, hand, ["H5b3", "D6b2", "IT2p1"]) == 5


def test_t10_advanced_two_six_and_basic() -> None:
    hand = ["H2r", "H2b1", "H3b1", "H4b1", "H5b1", "H6r", "H6b1", "H6b2"]
    assert red_bonuses(ADV, [], hand) == (("H2r", 2), ("H6r", 2))
    assert gain(ADV, [], hand, ["D5b1"]) == 5
    assert gain(BASIC, [], hand, ["D5b1"]) == 3


def test_t11_red_four_and_items() -> None:
    laid = [("IT2p1", "IT2p2", "IT2p3")]
    hand = ["A4r", "A4b1", "A1b1", "A2b1", "A3b1", "A5b1", "A6b1", "A7b1"]
    assert red_bonuses(ADV, laid, hand) == (("A4r", 5),)
    assert item_points(ADV, laid, hand) == 3
    assert gain(ADV, laid, hand, ["A4b2", "H1b1"]) == 11


def test_t12_red_one_and_alternative() -> None:
    hand = ["D1r", "D2b1", "D3b1", "H5b1", "H5b2", "A4b1", "A4b2", "A4b3"]
    assert gain(ADV, [], hand) == 3
    assert gain(Opts(mode="advanced", red17_counts_itself=False), [], hand) == 1


def test_t13_three_laid_sets() -> None:
    laid = [("H1b1", "H2b1", "H3r"), ("A5b1", "A5b2", "A5b3"), ("D7b1", "D7b2", "D7b3")]
    hand = ["H4b1", "H4b2", "A1b1", "A2b1", "A3b1", "D2b1", "D3b1", "D4b1"]
    assert red_bonuses(ADV, laid, hand) == (("H3r", 2),)
    assert red_bonuses(ADV, laid[:2], hand) == (("H3r", 0),)
    assert gain(ADV, laid, hand, ["D7r", "IT1p1"]) == 6


def test_conditional_items_score_nothing_and_options() -> None:
    hand = ["IT1c", "IT1p1", "IT1p2"]
    assert item_points(ADV, [], hand) == 2
    assert item_points(Opts(plain_item_points=3), [], hand) == 6
    assert red_bonuses(Opts(basic_red_bonus=2), [], ["H1r"]) == (("H1r", 2),)


def test_item_win_condition() -> None:
    laid = [("IT1p1", "IT1p2", "IT1p3"), ("IT2p1", "IT2p2", "IT2p3"), ("IT4p1", "IT4p2", "IT4p3")]
    assert has_item_win(laid, ["IT4c"])
    assert not has_item_win(laid, ["H1b1"])
    assert not has_item_win(laid[:2], ["IT4c"])
