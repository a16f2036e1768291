"""Playing a minor (R-MIN-1..7, T2-T5, G-17, R-PLAY-2) and the turn's flow (R-PLAY-1..5)."""

from __future__ import annotations

from scorekeeper.games.arcanum.state import PAWN_INDEX, Turn
from tests.games.arcanum.test_engine_helpers import (
    GAME,
    play,
    prompt_ids,
    public,
    refuse,
    set_state,
    st,
    start,
)


def rep(ref) -> dict[str, int]:  # type: ignore[no-untyped-def]
    return public(ref)["reputation"]


def test_t2_number_card() -> None:
    ref = start(4)
    events = play(ref, "+play swords_4")
    assert rep(ref)["swords"] == 1 and "⚔ swords +1" in events[1]
    assert public(ref)["turn"] == {"seat": 0, "minor": "swords_4", "major": None, "stage": "move"}
    assert "blue (⚔ swords) pawn to 4 Throne Room" in GAME.waiting_for(ref.state)
    play(ref, "+loc:4 pawn_swords_king")  # already at 4: changes nothing
    refuse(ref, "+loc:4 pawn_coins_knight", "R-MIN-2")  # not blue
    refuse(ref, "+loc:5 pawn_swords_page", "R-MIN-2")  # not location 4
    refuse(ref, "+play coins_5", "R-PLAY-3")  # an effect is being resolved
    events = play(ref, "+loc:4 pawn_swords_page")
    state = st(ref)
    assert state.pawns[PAWN_INDEX["pawn_swords_page"]] == 4
    assert rep(ref)["swords"] == 2  # 1 sword icon at 4
    assert any("draws 2 minors" in e for e in events)  # Throne Room
    assert state.minors[0] == 3 - 1 + 2
    assert public(ref)["discards"]["minor"] == ["swords_4"]  # R-MIN-7
    play(ref, "+minor_discard swords_4")  # the physical confirmation changes nothing
    assert prompt_ids(ref) == ["end_turn"]


def test_t3_figure_card() -> None:
    ref = start(4)
    play(ref, "+play coins_queen")
    assert rep(ref)["coins"] == 1
    refuse(ref, "+loc:7 pawn_coins_king", "R-MIN-3")
    refuse(ref, "+loc:7 pawn_swords_queen", "R-MIN-3")
    play(ref, "+loc:3 pawn_coins_queen")  # where it is: no move yet
    assert "yellow queen pawn" in GAME.waiting_for(ref.state)
    play(ref, "+loc:7 pawn_coins_queen")
    assert rep(ref)["coins"] == 1 + 1 + 2  # 1 coins icon + 2 queen icons at 7 Treasury
    assert "Treasury" in GAME.waiting_for(ref.state)


def test_t4_knight_to_the_castle() -> None:
    ref = start(4)
    play(ref, "+play swords_knight", "+loc:10 pawn_swords_knight")
    assert rep(ref)["swords"] == 5  # (a) 1 + 2 knight + 2 sword icons


def test_t5_page_to_the_castle() -> None:
    ref = start(4)
    play(ref, "+play wands_page", "+loc:10 pawn_wands_page")
    assert rep(ref)["wands"] == 2  # (a) 1 + 1 wand icon


def test_negative_icons_take_reputation_away() -> None:
    ref = start(4)
    play(ref, "+play swords_6", "+loc:6 pawn_swords_queen")
    assert rep(ref)["swords"] == 0  # +1, then the -1 sword icon at 6 Fields
    play(ref, "decide 0 fields done")


def test_no_legal_move_g17() -> None:
    ref = start(4)
    set_state(ref, blocked=frozenset({4}))
    events = play(ref, "+play swords_4")
    assert any("G-17" in e for e in events)
    assert rep(ref)["swords"] == 1 and prompt_ids(ref) == ["end_turn"]
    # every blue pawn already at n
    ref = start(4)
    pawns = list(st(ref).pawns)
    for p in ("pawn_swords_page", "pawn_swords_knight", "pawn_swords_queen", "pawn_swords_king"):
        pawns[PAWN_INDEX[p]] = 9
    set_state(ref, pawns=tuple(pawns))
    play(ref, "+play swords_9")
    assert prompt_ids(ref) == ["end_turn"]


def test_blocked_and_tray_pawns_do_not_move_r_min_4() -> None:
    ref = start(4)
    set_state(ref, blocked=frozenset({2}))
    play(ref, "+play swords_4")
    refuse(ref, "+loc:4 pawn_swords_knight", "R-MIN-4")  # out of blocked 2
    play(ref, "+loc:4 pawn_swords_queen")
    ref = start(4)
    set_state(ref, blocked=frozenset({9}))
    play(ref, "+play coins_knight")
    refuse(ref, "+loc:9 pawn_coins_knight", "R-MIN-4")
    refuse(ref, "+tray pawn_coins_knight", "R-MIN-4")


def test_no_minor_in_hand_draws_one_first_r_play_2() -> None:
    ref = start(3)
    set_state(ref, minors=(0, 3, 3))
    deck = st(ref).deck_minor
    events = play(ref, "+play cups_2")
    assert any("R-PLAY-2" in e for e in events)
    state = st(ref)
    assert state.minors[0] == 0 and state.deck_minor == deck - 1


def test_turn_flow_end_turn_next_minor_and_both_cards() -> None:
    ref = start(3)
    refuse(ref, "decide 0 end_turn done", "R-PLAY-3")  # the minor first
    play(ref, "+play swords_4", "+loc:4 pawn_swords_page")
    assert prompt_ids(ref) == ["end_turn"]
    refuse(ref, "decide 1 end_turn done", "TABLE-WRONG-SEAT")
    play(ref, "decide 0 end_turn done")
    assert st(ref).turn == Turn(1, 1)
    # seat 1: minor, then seat 2's minor ends seat 1's turn by itself
    play(ref, "+play coins_knight", "+loc:9 pawn_coins_knight", "decide 1 hide pass")
    events = play(ref, "+play wands_queen")
    assert "{seat:2}'s turn" in events
    t = st(ref).turn
    assert t is not None and t.seat == 2 and t.minor == "wands_queen"
    play(ref, "+loc:3 pawn_wands_queen", "decide 0 harbour pass", "decide 1 harbour pass")
    # a major after the minor ends the turn by itself: the round's last turn -> round 2
    refuse(ref, "+play swords_2", "R-PLAY-1")  # every seat has had its turn
    play(ref, "+play major_02")
    state = st(ref)
    assert state.round == 2 and state.vp[2] == 3


def test_major_before_the_minor_and_r_play_5() -> None:
    ref = start(3)
    play(ref, "+play major_00")  # the Fool: move as the Fool
    refuse(ref, "+play swords_3", "R-PLAY-3")  # the move is awaited
    play(ref, "+loc:9 pawn_cups_king")  # 9 Ballroom: icons cups 1 + king 1; may hide
    assert rep(ref)["cups"] == 2  # no +1 for a suit (G-14)
    play(ref, "decide 0 hide pass")
    refuse(ref, "decide 0 end_turn done", "R-PLAY-5")
    refuse(ref, "+play major_02", "R-PLAY-4")  # a second major
    play(
        ref,
        "+play swords_3",
        "+loc:3 pawn_swords_page",
        "decide 1 harbour pass",
        "decide 2 harbour pass",
    )
    assert st(ref).turn == Turn(1, 1)  # minor + major: the turn ended by itself
