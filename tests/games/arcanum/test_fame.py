"""Fame rows, order and awards: the rulebook's worked examples T6-T16 (rules §9)."""

from __future__ import annotations

import pytest

from scorekeeper.games.arcanum.fame import (
    ROW_AWARDS,
    WORLD_AWARDS,
    FamilyResult,
    order,
    rows,
    score_family,
)

ANITA, JENO, MARK = 0, 1, 2


def test_t6_rows_skip_after_a_tie() -> None:
    family_rows = rows({"swords": 10, "coins": 8, "wands": 8, "cups": 3})
    assert family_rows == {"swords": 1, "coins": 2, "wands": 2, "cups": 4}
    assert order(family_rows) == ("swords", "coins", "wands", "cups")


def test_t13_tie_for_the_lead() -> None:
    family_rows = rows((1, 5, 9, 9))  # a reputation tuple in SUITS order
    assert family_rows == {"swords": 4, "coins": 3, "wands": 1, "cups": 1}
    assert order(family_rows) == ("wands", "cups", "coins", "swords")


def test_all_tied_share_row_one_in_suit_order() -> None:
    family_rows = rows((0, 0, 0, 0))
    assert set(family_rows.values()) == {1}
    assert order(family_rows) == ("swords", "coins", "wands", "cups")


def test_rows_need_all_four_families() -> None:
    with pytest.raises(ValueError):
        rows({"swords": 1})


def test_t8_swords_row_one_presence_is_lost() -> None:
    result = score_family("swords", 1, {ANITA: [5], JENO: [3, 9], MARK: []})
    assert result.awards == {JENO: 16, ANITA: 8}
    assert result.places == ((JENO,), (ANITA,))
    assert MARK not in result.awards


def test_t9_coins_more_cards_beat_higher_total() -> None:
    result = score_family("coins", 2, {ANITA: [10], JENO: [13], MARK: [2, 4]})
    assert result.awards == {MARK: 12, JENO: 6, ANITA: 3}


def test_t10_wands_row_two() -> None:
    result = score_family("wands", 2, {ANITA: [8], JENO: [7], MARK: [14]})
    assert result.awards == {MARK: 12, ANITA: 6, JENO: 3}


def test_t11_cups_row_four_both_cards_count() -> None:
    result = score_family("cups", 4, {ANITA: [3, 6], JENO: [], MARK: []})
    assert result == FamilyResult("cups", 4, ((ANITA,),), {ANITA: 8})


def test_t12_phase_totals() -> None:
    results = [
        score_family("swords", 1, {ANITA: [5], JENO: [3, 9]}),
        score_family("coins", 2, {ANITA: [10], JENO: [13], MARK: [2, 4]}),
        score_family("wands", 2, {ANITA: [8], JENO: [7], MARK: [14]}),
        score_family("cups", 4, {ANITA: [3, 6]}),
    ]
    totals = {seat: sum(r.awards.get(seat, 0) for r in results) for seat in (ANITA, JENO, MARK)}
    assert totals == {ANITA: 25, JENO: 25, MARK: 24}


@pytest.mark.parametrize("row", [1, 2, 3, 4])
def test_t14_world_pays_half_and_no_presence(row: int) -> None:
    result = score_family("coins", row, {0: [9, 9], 1: [9], 2: [1]}, world=True)
    assert result.awards == {0: WORLD_AWARDS[row][0], 1: WORLD_AWARDS[row][1], 2: 0}
    assert WORLD_AWARDS[row][:2] == ROW_AWARDS[row][1:]


def test_award_table() -> None:
    assert ROW_AWARDS == {1: (16, 8, 4), 2: (12, 6, 3), 3: (10, 5, 2), 4: (8, 4, 2)}
    assert WORLD_AWARDS == {1: (8, 4, 0), 2: (6, 3, 0), 3: (5, 2, 0), 4: (4, 2, 0)}


def test_t16_pooled_tie_for_first() -> None:
    # A and B: two cards each, total 7 each; C: one card
    result = score_family("swords", 1, {0: [3, 4], 1: [5, 2], 2: [1]})
    assert result.places == ((0, 1), (2,))
    assert result.awards == {0: 12, 1: 12, 2: 4}


def test_own_place_split_shares_only_the_tied_place() -> None:
    result = score_family("swords", 1, {0: [3, 4], 1: [5, 2], 2: [1]}, split="own_place")
    assert result.awards == {0: 8, 1: 8, 2: 4}


def test_pooled_split_rounds_down() -> None:
    three = score_family("cups", 1, {0: [2], 1: [2], 2: [2]})
    assert three.awards == {0: 9, 1: 9, 2: 9}  # (16 + 8 + 4) // 3
    tied_second = score_family("cups", 2, {0: [9, 9], 1: [4], 2: [4]})
    assert tied_second.awards == {0: 12, 1: 4, 2: 4}  # (6 + 3) // 2


def test_tie_over_third_and_fourth_place() -> None:
    result = score_family("wands", 3, {0: [9, 9], 1: [9], 2: [4], 3: [4]})
    assert result.places == ((0,), (1,), (2, 3))
    assert result.awards == {0: 10, 1: 5, 2: 1, 3: 1}  # (2 + 0) // 2


def test_places_beyond_third_pay_nothing_but_are_listed() -> None:
    result = score_family("coins", 1, {0: [1, 1, 1, 1], 1: [1, 1, 1], 2: [1, 1], 3: [1]})
    assert result.awards == {0: 16, 1: 8, 2: 4, 3: 0}


def test_the_fool_is_a_card_worth_zero() -> None:
    result = score_family("swords", 1, {0: [0], 1: [], 2: [0, 0]})
    assert result.awards == {2: 16, 0: 8}


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        score_family("hearts", 1, {})
    with pytest.raises(ValueError):
        score_family("cups", 5, {})
    with pytest.raises(ValueError):
        score_family("cups", 1, {}, split="evenly")
    assert score_family("cups", 1, {}) == FamilyResult("cups", 1, (), {})
