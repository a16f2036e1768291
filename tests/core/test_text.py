"""Seat markers in a game's text become the players' names at the table."""

from __future__ import annotations

from scorekeeper.core.text import render_seats, seat_ref


def test_markers_become_names_and_unknown_seats_stay_numbered() -> None:
    text = f"{seat_ref(1)} claims {seat_ref(0)}'s discard; {seat_ref(7)} does not exist"
    assert render_seats(text, ["Ann", "Bea"]) == "Bea claims Ann's discard; seat 7 does not exist"


def test_text_without_markers_is_returned_as_is() -> None:
    assert render_seats("{not a seat} 5 cards", ["Ann"]) == "{not a seat} 5 cards"


def test_with_article_does_not_double_the() -> None:
    from scorekeeper.core.text import with_article

    assert with_article("the Fool (0)") == "the Fool (0)"
    assert with_article("4 of swords ⚔") == "the 4 of swords ⚔"
    # a major named by its number reads as its title: never "the IX The Hermit"
    assert with_article("IX The Hermit") == "IX The Hermit"
    assert with_article("XIII Death") == "XIII Death"
    assert with_article("Wizard's Tower") == "the Wizard's Tower"
