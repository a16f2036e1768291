"""The world's own card knowledge and scoring, checked against the spec's worked examples."""

from __future__ import annotations

from scorekeeper.sim.angels_demons.cards import (
    ALL_CARDS,
    IDENTITIES,
    flips_to_make,
    identity,
    is_complete,
    is_set,
    round_gain,
    sets_in,
    waits,
)


def _c(text: str) -> list[str]:
    """Card ids written as one space-separated string."""
    return text.split()


BASIC = {"go_out_base": 1, "basic_red_bonus": 1, "plain_item_points": 1}
ADV = {**BASIC, "red17_counts_itself": True}


def test_catalogue() -> None:
    assert len(ALL_CARDS) == 100 == len(set(ALL_CARDS))
    assert len(IDENTITIES) == 25
    assert sum(c.endswith("r") for c in ALL_CARDS) == 21
    assert identity("H5r") == "H5" and identity("IT2c") == "IT2"


def test_shapes_t2() -> None:
    assert is_complete(_c("H5b1 H5b2 A1b1 A2b1 A3b1 D7b1 D7b2 D7r"))
    assert is_complete(_c("H5b1 H5r IT1p1 IT1p2 IT1c A5b1 A6b1 A7b1"))
    assert not is_set(_c("H6b1 H7b1 H1b1"))
    assert not is_set(_c("A2b1 H3b1 A4b1"))
    assert not is_set(_c("IT1p1 IT2p1 IT3p1"))
    assert not is_complete(_c("H1b1 H1b2 H2b1 H2b2 H3b1 H3b2 H4b1 A1b1"))
    assert not is_complete(_c("H1b1 H1b2 A2b1 A2b2 D3b1 D3b2 IT4p1 IT4p2"))  # four pairs
    assert waits(_c("H5b1 A1b1 A2b1 A3b1 D7b1 D7b2 D7r")) == ["H5"]
    assert sorted(waits(_c("H5b1 H5b2 A1b1 A2b1 D7b1 D7b2 D7r"))) == ["A3"]
    assert len(sets_in(_c("H5b1 H6b1 H7b1 H7b2 H7r"))) == 2


def test_scoring_t9_basic() -> None:
    deck = ["IT2p1", "D6b2", "H5b3"]  # popped from the end: H5, D6, then IT2 scores 0
    hand = _c("H5b1 H5b2 A1b1 A2b1 A3b1 A6b1 A6b2 A6b3")
    melds = [["D4b1", "D5r", "D6b1"]]
    flips = flips_to_make([*hand, *melds[0]], deck)
    assert flips == ["H5b3", "D6b2", "IT2p1"] and deck == []
    assert round_gain(hand, melds, flips, BASIC, advanced=False) == 5


def test_scoring_t10_to_t13_advanced() -> None:
    hand = _c("H2r H2b1 H3b1 H4b1 H5b1 H6r H6b1 H6b2")
    assert round_gain(hand, [], ["D5b1"], ADV, advanced=True) == 5
    assert round_gain(hand, [], ["D5b1"], BASIC, advanced=False) == 3
    hand11 = _c("A4r A4b1 A1b1 A2b1 A3b1 A5b1 A6b1 A7b1")
    assert round_gain(hand11, [["IT2p1", "IT2p2", "IT2p3"]], ["A4b2", "H1b1"], ADV, True) == 11
    hand12 = _c("D1r D2b1 D3b1 H5b1 H5b2 A4b1 A4b2 A4b3")
    assert round_gain(hand12, [], [], ADV, True) == 3
    assert round_gain(hand12, [], [], {**ADV, "red17_counts_itself": False}, True) == 1
    laid = [["H1b1", "H2b1", "H3r"], ["A5b1", "A5b2", "A5b3"], ["D7b1", "D7b2", "D7b3"]]
    hand13 = _c("H4b1 H4b2 A1b1 A2b1 A3b1 D2b1 D3b1 D4b1")
    assert round_gain(hand13, laid, ["D7r", "IT1p1"], ADV, True) == 6
