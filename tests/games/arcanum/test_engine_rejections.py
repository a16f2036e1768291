"""One refusal per rule id: every R-PLAY, R-MIN and R-DRAW rule (and the others the engine
cites) has a situation where an input is refused with it (the table in sightings.py).

``refuse`` checks the rule id, that the reason and hint are given, and that the state is the
very same object afterwards (a rejected input changes nothing).
"""

from __future__ import annotations

import re

import pytest

from scorekeeper.core.inputs import Seen
from scorekeeper.games.arcanum import sightings
from tests.games.arcanum.test_engine_helpers import (
    end_round,
    new_ref,
    place_pawns,
    play,
    refuse,
    set_state,
    st,
    start,
)


def test_r_setup_8_setup_limits() -> None:
    ref = new_ref(3)
    play(ref, "+loc:1 pawn_swords_page", "+loc:1 pawn_coins_page")
    refuse(ref, "+loc:1 pawn_cups_page", "R-SETUP-8")
    refuse(ref, "+loc:1 pawn_swords_king", "R-SETUP-8")


def test_r_setup_9_no_cards_at_setup() -> None:
    refuse(new_ref(3), "+play swords_4", "R-SETUP-9")


def test_r_play_1_outside_phase_b_and_after_every_turn() -> None:
    ref = new_ref(3)
    place_pawns(ref)
    refuse(ref, "+play swords_4", "R-PLAY-1")  # phase A
    ref = start(3)
    set_state(ref, turn=st(ref).turn.__class__(2, 2, minor="swords_1", minor_done=True))
    refuse(ref, "+play coins_4", "R-PLAY-1")  # every seat has had its turn


def test_r_play_2_no_card_at_all() -> None:
    ref = start(3)
    set_state(ref, minors=(0, 3, 3), majors=(0, 1, 1))
    rejection = refuse(ref, "+play major_02", "R-PLAY-2")
    assert "draws 1 minor" in rejection.hint


def test_r_play_3_the_minor_comes_first_and_one_at_a_time() -> None:
    ref = start(3)
    refuse(ref, "decide 0 end_turn done", "R-PLAY-3")
    refuse(ref, "+loc:9 pawn_swords_page", "R-PLAY-3")
    play(ref, "+play swords_4")
    refuse(ref, "+play coins_4", "R-PLAY-3")


def test_r_play_4_majors() -> None:
    ref = start(3)
    play(ref, "+play major_02")
    refuse(ref, "+play major_03", "R-PLAY-4")  # a second major
    ref = start(3)
    set_state(ref, majors=(0, 1, 1))
    refuse(ref, "+play major_03", "R-PLAY-4")  # no major in hand
    ref = start(3)
    play(ref, "+play swords_4")
    refuse(ref, "+play major_03", "R-PLAY-4")  # an effect is resolving


def test_r_play_5_a_majors_move_is_not_the_minor() -> None:
    ref = start(3)
    play(
        ref,
        "+play major_00",
        "+loc:10 pawn_wands_king",
        "+minor_discard coins_2",
        "+minor_discard coins_3",
    )
    refuse(ref, "decide 0 end_turn done", "R-PLAY-5")


def test_r_min_1_a_discarded_minor_is_not_played_again() -> None:
    ref = start(3)
    play(ref, "+play swords_4", "+loc:4 pawn_swords_page", "decide 0 end_turn done")
    refuse(ref, "+play swords_4", "R-MIN-1")


def test_r_min_2_number_card_suit_and_location() -> None:
    ref = start(3)
    play(ref, "+play swords_4")
    refuse(ref, "+loc:4 pawn_cups_page", "R-MIN-2")
    refuse(ref, "+loc:9 pawn_swords_page", "R-MIN-2")


def test_r_min_3_figure_card_moves_its_own_pawn() -> None:
    ref = start(3)
    play(ref, "+play cups_queen")
    refuse(ref, "+loc:9 pawn_cups_king", "R-MIN-3")


def test_r_min_4_blocked_locations() -> None:
    ref = start(3)
    set_state(ref, blocked=frozenset({9}))
    play(ref, "+play cups_queen")
    refuse(ref, "+loc:9 pawn_cups_queen", "R-MIN-4")


def test_r_min_5_the_move_is_made_once() -> None:
    ref = start(3)
    play(ref, "+play swords_4", "+loc:4 pawn_swords_page")
    rejection = refuse(ref, "+loc:9 pawn_swords_page", "R-MIN-5")
    assert "4 Throne Room" in rejection.hint


def test_r_min_6_location_answers() -> None:
    ref = start(3)
    play(ref, "+play cups_2", "+loc:2 pawn_cups_queen")
    refuse(ref, "decide 0 artists three", "R-MIN-6")


def test_r_min_7_the_played_minor_goes_to_the_minor_pile() -> None:
    ref = start(3)
    play(ref, "+play swords_4")
    refuse(ref, "+major_discard swords_4", "R-MIN-7")
    refuse(ref, "+hide:0 swords_4", "R-MIN-7")


def test_r_draw_1_draw_answers() -> None:
    ref = start(3)
    end_round(ref)
    refuse(ref, "decide 1 draw four", "R-DRAW-1")
    refuse(ref, "decide 2 draw minors", "R-DRAW-1")  # seat 1 draws first
    ref = start(3, variant="first_game")
    end_round(ref)
    refuse(ref, "decide 1 draw major", "R-DRAW-1")  # no choice in rounds 1-2


def test_r_draw_2_round_one_draws_at_once() -> None:
    ref = new_ref(3)
    place_pawns(ref)
    refuse(ref, "decide 0 draw major", "R-DRAW-2")


def test_r_draw_3_hand_limit_and_piles() -> None:
    ref = start(3)
    end_round(ref)
    set_state(ref, minors=(3, 6, 4))
    play(ref, "decide 1 draw minors")
    refuse(ref, "decide 2 draw major", "R-DRAW-3")
    refuse(ref, "+major_discard coins_2", "R-DRAW-3")
    ref = start(3)
    refuse(ref, "+minor_discard coins_2", "R-DRAW-3")  # nobody owes a discard


def test_r_draw_4_exactly_one_hide_in_phase_a() -> None:
    ref = new_ref(3)
    place_pawns(ref)
    play(ref, "+hide:0 coins_2")
    rejection = refuse(ref, "+hide:0 coins_3", "R-DRAW-4")
    assert "coins_3" not in rejection.reason + rejection.hint
    assert "3 of coins" not in rejection.reason + rejection.hint
    refuse(ref, "+hide:1 major_07", "R-DRAW-4")
    ref = start(3)
    refuse(ref, "+hide:0 coins_3", "R-DRAW-4")  # no hide asked in phase B


def test_r_draw_5_hidden_cards_stay_hidden() -> None:
    ref = start(3)
    refuse(ref, "+play cups_6", "R-DRAW-5")
    refuse(ref, "+minor_discard cups_7", "R-DRAW-5")
    refuse(ref, "+hide:0 cups_8", "R-DRAW-5")
    play(ref, "-hide:0 cups_6", "+hide:0 cups_6")  # looked at and put back: nothing changes


def test_r_maj_1_major_effects() -> None:
    ref = start(3)
    play(ref, "+play major_03", "+loc:9 pawn_swords_page", "decide 0 hide pass")
    refuse(ref, "decide 0 empress cups/cups", "R-MAJ-1")
    refuse(ref, "+tray pawn_cups_page", "R-MAJ-1")


def test_r_fame_3_and_4() -> None:
    ref = start(3)
    set_state(ref, round=4)
    end_round(ref)
    refuse(ref, "decide 0 fame skip", "R-FAME-3")
    refuse(ref, "decide 0 fool swords", "R-FAME-4")


def test_r_var_2_no_majors_in_the_simplest_game() -> None:
    ref = start(3, variant="simplest")
    refuse(ref, "+play major_02", "R-VAR-2")


@pytest.mark.parametrize(
    "line, rule",
    [
        ("decide 0 market none", "TABLE-NO-PROMPT"),
        ("decide 0 judgement 3", "TABLE-NO-PROMPT"),
        ("+nowhere swords_4", "TABLE-UNKNOWN-READER"),
        ("+play swords_15", "TABLE-UNKNOWN-TAG"),
    ],
)
def test_table_rules(line: str, rule: str) -> None:
    refuse(start(3), line, rule)


def test_wrong_seat_and_departures() -> None:
    ref = start(3)
    play(ref, "+play swords_4", "+loc:4 pawn_swords_page")
    refuse(ref, "decide 2 end_turn done", "TABLE-WRONG-SEAT")
    before = ref.state
    assert ref.apply(Seen("play", "swords_4", False)).accepted
    assert ref.state == before


def test_every_rule_of_the_table_is_tested_here() -> None:
    doc = sightings.__doc__ or ""
    table = doc[doc.index("rule       refused input") :]
    rules = set(re.findall(r"^(R-[A-Z]+-\d+|TABLE-[A-Z-]+)\s", table, re.MULTILINE))
    with open(__file__, encoding="utf-8") as f:
        text = f.read()
    missing = sorted(r for r in rules if f'"{r}"' not in text)
    assert not missing, missing
    for family, count in (("R-PLAY-", 5), ("R-MIN-", 7), ("R-DRAW-", 5)):
        for k in range(1, count + 1):
            assert f"{family}{k}" in rules
