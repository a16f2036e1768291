"""Arcanum piece ids, values and plain-word descriptions (contract "Pieces")."""

from __future__ import annotations

import pytest

from scorekeeper.games.arcanum import cards


def test_piece_counts_and_enrollment_order() -> None:
    assert len(cards.MAJORS) == 22 and cards.MAJORS[0] == cards.FOOL == "major_00"
    assert cards.MAJORS[-1] == "major_21" and cards.TOWER == "major_16"
    assert len(cards.MINORS) == 56 and len(cards.PAWNS) == 16
    assert cards.MINORS[:3] == ("swords_1", "swords_2", "swords_3")
    assert cards.MINORS[10:14] == ("swords_page", "swords_knight", "swords_queen", "swords_king")
    assert cards.MINORS[14] == "coins_1" and cards.MINORS[-1] == "cups_king"
    assert cards.PAWNS[0] == "pawn_swords_page" and cards.PAWNS[-1] == "pawn_cups_king"
    assert cards.CARD_IDS == cards.MAJORS + cards.MINORS
    assert cards.PIECES == cards.CARD_IDS + cards.PAWNS
    assert len(set(cards.PIECES)) == 94


def test_kinds() -> None:
    assert cards.is_major("major_00") and not cards.is_major("major_22")
    assert cards.is_minor("coins_queen") and not cards.is_minor("coins_11")
    assert cards.is_pawn("pawn_cups_page") and not cards.is_pawn("pawn_cups_4")
    assert cards.is_card("major_05") and cards.is_card("wands_7")
    assert not cards.is_card("pawn_wands_king") and not cards.is_card("joker")


def test_values() -> None:
    assert [cards.value_of(f"cups_{r}") for r in cards.RANKS] == list(range(1, 15))
    assert cards.value_of("coins_queen") == 13 and cards.value_of(cards.FOOL) == 0
    with pytest.raises(ValueError):
        cards.value_of("major_01")
    with pytest.raises(ValueError):
        cards.value_of("pawn_swords_king")


def test_suits_ranks_numbers_figures() -> None:
    assert cards.suit_of("swords_4") == "swords" and cards.suit_of("pawn_cups_king") == "cups"
    assert cards.rank_of("coins_10") == "10" and cards.rank_of("coins_knight") == "knight"
    assert cards.number_of("swords_4") == 4 and cards.number_of("wands_page") is None
    assert cards.figure_of("wands_page") == "page" and cards.figure_of("wands_9") is None
    assert cards.figure_of("pawn_coins_queen") == "queen"
    assert cards.pawn_for("coins_queen") == "pawn_coins_queen"
    for bad in ("major_03", "pawn_x", "swords_11"):
        with pytest.raises(ValueError):
            cards.suit_of(bad)
    with pytest.raises(ValueError):
        cards.pawn_for("coins_3")
    with pytest.raises(ValueError):
        cards.rank_of("pawn_coins_queen")


def test_major_names_and_numerals() -> None:
    assert cards.MAJOR_NAMES["major_00"] == "The Fool"
    assert cards.MAJOR_NAMES["major_08"] == "Strength"
    assert cards.MAJOR_NAMES["major_11"] == "Justice"
    assert cards.MAJOR_NAMES["major_21"] == "The World"
    assert [cards.numeral(m) for m in ("major_00", "major_04", "major_09", "major_14")] == [
        "0",
        "IV",
        "IX",
        "XIV",
    ]
    assert cards.numeral("major_19") == "XIX" and cards.numeral("major_21") == "XXI"
    with pytest.raises(ValueError):
        cards.numeral("swords_1")


def test_describe_in_plain_words_with_symbols() -> None:
    assert cards.describe("swords_4") == "4 of swords ⚔"
    assert cards.describe("coins_queen") == "queen of coins ◉"
    assert cards.describe("major_00") == "the Fool (0)"
    assert cards.describe("major_16") == "XVI The Tower"
    assert cards.describe("pawn_swords_knight") == "blue knight pawn (swords ⚔)"
    assert cards.describe("pawn_cups_page") == "red page pawn (cups ♥)"
    assert cards.family_name("wands") == "wands ⚚"
    with pytest.raises(ValueError):
        cards.describe("pawn_purple_king")
    with pytest.raises(ValueError):
        cards.family_name("hearts")


def test_family_colours_and_symbols_cover_every_suit() -> None:
    assert tuple(cards.FAMILY_COLOUR) == cards.SUITS == tuple(cards.FAMILY_SYMBOL)
    assert len(set(cards.FAMILY_SYMBOL.values())) == 4
