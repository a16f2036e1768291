"""Phase A after round 1: draws (R-DRAW-1), the hand limit (R-DRAW-3, T1), reshuffles
(R-DECK-1) and the beginner variants' draws (R-VAR-1/2)."""

from __future__ import annotations

from scorekeeper.games.arcanum.state import CARD_INDEX, DRAW, HIDE, MINOR_PILE, UNSEEN
from tests.games.arcanum.test_engine_helpers import (
    GAME,
    end_round,
    new_ref,
    options_of,
    place_pawns,
    play,
    prompt_ids,
    public,
    refuse,
    set_state,
    st,
    start,
)


def test_round_two_draws_seat_by_seat_from_the_new_start_seat() -> None:
    ref = start(4)
    end_round(ref)
    state = st(ref)
    assert state.round == 2 and state.start == 1 and state.phase == DRAW
    prompts = GAME.pending(ref.state)
    assert [(p.id, p.seat, p.options) for p in prompts] == [("draw", 1, ("major", "minors"))]
    refuse(ref, "decide 2 draw minors", "R-DRAW-1")  # not seat 2's turn to draw
    refuse(ref, "decide 1 draw two", "R-DRAW-1")
    before = st(ref).majors[1]
    events = play(ref, "decide 1 draw major")
    assert st(ref).majors[1] == before + 1 and "draws 1 major" in events[0]
    play(ref, "decide organiser draw minors", "decide 3 draw minors", "decide 0 draw minors")
    assert st(ref).phase == HIDE


def test_t1_hand_limit_discard_before_hiding() -> None:
    ref = start(3)
    end_round(ref)  # round 2, start seat 1
    set_state(ref, minors=(3, 4, 4), majors=(1, 1, 1))  # seat 1 holds 5 cards
    play(ref, "decide 1 draw minors")
    state = st(ref)
    assert state.hand(1) == 8
    assert public(ref)["owed"] == [{"seat": 1, "count": 1}]
    assert prompt_ids(ref) == []
    assert "discard 1 card (hand limit)" in GAME.waiting_for(ref.state)
    refuse(ref, "decide 2 draw minors", "R-DRAW-3")  # everything else waits
    refuse(ref, "+hide:1 swords_3", "R-DRAW-3")
    refuse(ref, "+major_discard swords_3", "R-DRAW-3")  # a minor on the major pile
    events = play(ref, "+minor_discard swords_3")
    assert "discards the 3 of swords" in events[0]
    assert st(ref).hand(1) == 7 and public(ref)["discards"]["minor"] == ["swords_3"]
    play(ref, "decide 2 draw major", "decide 0 draw minors")
    play(ref, "+hide:0 coins_2", "+hide:1 coins_3", "+hide:2 coins_4")
    state = st(ref)
    assert state.hand(1) == 6 and len(state.hidden(1)) == 2  # T1: 5 + 3 - 1 - 1 = 6


def test_discard_of_a_kind_the_seat_does_not_hold_is_refused() -> None:
    ref = start(3)
    end_round(ref)
    set_state(ref, minors=(3, 7, 4), majors=(1, 0, 1))
    play(ref, "decide 1 draw minors")
    assert public(ref)["owed"] == [{"seat": 1, "count": 3}]
    refuse(ref, "+major_discard major_05", "R-DRAW-3")  # seat 1 holds no major
    play(ref, "+minor_discard wands_2", "+minor_discard wands_3", "+minor_discard wands_4")
    assert st(ref).hand(1) == 7 and public(ref)["owed"] == []


def test_no_discard_owed_is_refused() -> None:
    ref = start(3)
    refuse(ref, "+minor_discard swords_9", "R-DRAW-3")
    refuse(ref, "+major_discard major_07", "R-DRAW-3")


def test_reshuffle_when_the_deck_runs_out_r_deck_1() -> None:
    ref = start(3)
    end_round(ref)
    state = st(ref)
    pile = ("swords_2", "swords_3", "coins_5")
    where = list(state.where)
    for c in pile:
        where[CARD_INDEX[c]] = MINOR_PILE
    set_state(ref, deck_minor=1, pile_minor=pile, where=tuple(where))
    events = play(ref, "decide 1 draw minors")
    state = st(ref)
    assert any("shuffled into a new deck" in e for e in events)
    assert state.deck_minor == 1 and state.pile_minor == ()
    assert all(state.loc_of(c) == UNSEEN for c in pile)
    # both empty: the draw is skipped
    set_state(ref, deck_minor=0)
    events = play(ref, "decide 2 draw minors")
    assert "draws nothing" in events[0] and st(ref).minors == state.minors


def test_round_one_has_no_draw_choice_r_draw_2() -> None:
    ref = new_ref(3)
    place_pawns(ref)
    refuse(ref, "decide 0 draw minors", "R-DRAW-2")


def test_first_game_draws_r_var_1() -> None:
    ref = new_ref(3, variant="first_game")
    place_pawns(ref)
    state = st(ref)
    assert state.minors == (4, 4, 4) and state.majors == (0, 0, 0)
    assert state.deck_major == 22
    play(ref, "+hide:0 coins_2", "+hide:1 coins_3", "+hide:2 coins_4")
    refuse(ref, "+play major_05", "R-PLAY-4")  # nobody holds a major
    end_round(ref)  # round 2: 3 minors each, no choice
    state = st(ref)
    assert state.phase == HIDE and state.minors == (6, 6, 6)
    refuse(ref, "decide 1 draw major", "R-DRAW-1")
    play(ref, "+hide:0 coins_5", "+hide:1 coins_6", "+hide:2 coins_7")
    end_round(ref)  # round 3: the choice is back
    assert prompt_ids(ref) == ["draw"] and options_of(ref, "draw") == ("major", "minors")


def test_simplest_draws_r_var_2() -> None:
    ref = new_ref(4, variant="simplest")
    place_pawns(ref)
    state = st(ref)
    assert state.majors == (0, 0, 0, 0) and public(ref)["decks"]["major"] == 0
    refuse(ref, "+hide:0 major_00", "R-VAR-2")  # no Fool in the simplest game
    play(ref, *(f"+hide:{s} coins_{s + 2}" for s in range(4)))
    end_round(ref)
    assert st(ref).phase == HIDE and st(ref).minors == (6, 6, 6, 6)
