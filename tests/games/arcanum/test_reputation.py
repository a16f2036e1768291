"""The reputation track: overflow pushes the others back (R-REP-2, G-4), floor at 0 (G-5)."""

from __future__ import annotations

import pytest

from scorekeeper.games.arcanum.reputation import START, TOP, as_dict, change, get


def test_t15_overflow_pushes_the_others_back_by_the_excess() -> None:
    assert change((19, 5, 1, 0), "swords", 4) == (21, 3, 0, 0)


def test_gain_to_exactly_the_top_pushes_nobody() -> None:
    assert change((19, 5, 1, 2), "swords", 2) == (21, 5, 1, 2)


def test_gain_at_the_top_pushes_by_the_whole_gain() -> None:
    assert change((3, 21, 9, 1), "coins", 3) == (0, 21, 6, 0)


def test_loss_floors_at_zero_and_moves_nobody_else() -> None:
    assert change((0, 4, 2, 7), "swords", -1) == (0, 4, 2, 7)
    assert change((1, 4, 2, 7), "cups", -10) == (1, 4, 2, 0)
    assert change((1, 4, 2, 7), "wands", -1) == (1, 4, 1, 7)


def test_zero_change_and_plain_gain() -> None:
    rep = (1, 2, 3, 4)
    assert change(rep, "wands", 0) is rep
    assert change(START, "cups", 5) == (0, 0, 0, 5)
    assert TOP == 21


def test_reading_and_unknown_family() -> None:
    rep = (10, 8, 8, 3)
    assert as_dict(rep) == {"swords": 10, "coins": 8, "wands": 8, "cups": 3}
    assert get(rep, "cups") == 3
    with pytest.raises(ValueError, match="not a family"):
        change(rep, "hearts", 1)
    with pytest.raises(ValueError):
        get(rep, "hearts")
