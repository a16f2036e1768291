"""Hand shapes (T-2), sets (D-2..D-4) and waiting hands (D-6)."""

from __future__ import annotations

import pytest

from scorekeeper.games.angels_demons.hands import (
    idents,
    is_complete,
    is_set,
    item_groups,
    winning_identities,
)


def ids(text: str) -> list[str]:
    """Identities from the spec's notation ("H5 H5r IT1c" -> H5 H5 IT1)."""
    out = []
    for word in text.split():
        if word.startswith("IT"):
            out.append(word[:3])
        else:
            out.append(word[:2])
    return out


@pytest.mark.parametrize(
    "hand",
    [
        "H5 H5 A1 A2 A3 D7 D7 D7r",
        "H5 H5r IT1 IT1 IT1c A5 A6 A7",
        "A1 A1 A1 A2 A3 A4 A5 A6",  # A1 A1 / A1 A2 A3 / A4 A5 A6
        "H1 H2 H3 H1 H2 H3 H4 H4",
    ],
)
def test_complete_hands(hand: str) -> None:
    assert is_complete(ids(hand))


@pytest.mark.parametrize(
    "hand",
    [
        "H5 H5 A1 A1 D2 D2 IT1 IT1",  # four pairs (T-2)
        "H6 H7 H1 H5 H5 A1 A2 A3",  # 6-7-1 does not wrap
        "A2 H3 A4 H5 H5 D1 D2 D3",  # mixed kinds
        "IT1 IT2 IT3 H5 H5 D1 D2 D3",  # items never run
        "H5 H5 A1 A2 A3 D7 D7",  # seven cards
    ],
)
def test_incomplete_hands(hand: str) -> None:
    assert not is_complete(ids(hand))


def test_sets_t2() -> None:
    assert not is_set(ids("H6 H7 H1"))
    assert not is_set(ids("A2 H3 A4"))
    assert not is_set(ids("IT1 IT2 IT3"))
    assert is_set(ids("IT1 IT1 IT1c"))
    assert is_set(ids("D7 D5 D6"))
    assert is_set(ids("H5 H5r H5"))
    assert not is_set(ids("H5 H5"))


def test_waiting_hands() -> None:
    assert winning_identities(ids("A2 A3 A4 D6 D6 D6 H5")) == ("H5",)
    assert set(winning_identities(ids("H5 H5 A1 A2 A3 D6 D7"))) == {"D5"}
    assert winning_identities(ids("H1 H1 H1 H1 A1 A5 D7")) == ()
    assert winning_identities(ids("H1 H2")) == ()


def test_item_groups_and_idents() -> None:
    assert idents(["H5r", "IT2p1"]) == ["H5", "IT2"]
    assert item_groups([("IT1c", "IT1p1", "IT1p2"), ("H1b1", "H2b1", "H3b1")]) == 1
