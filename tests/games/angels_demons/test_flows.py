"""Table flows through the Referee: deal, turns, claims, waiting, exhaustion, going out, end."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from scorekeeper.core.game import ORGANISER, PUBLIC
from scorekeeper.core.inputs import Seen, Undo
from scorekeeper.games.angels_demons.state import ACT, DRAW, FLIP, OUT, OVER, ROUND_OVER, TAKE
from tests.games.angels_demons.helpers import GAME, new_ref, play, refuse, state
from tests.games.angels_demons.script import Script

OUT_HAND_T9 = ["H5b1", "H5b2", "A1b1", "A2b1", "A3b1", "A6b1", "A6b2", "A6b3"]


def test_t1_deal_counts() -> None:
    for n, deck in ((4, 67), (3, 75), (2, 83)):
        s = Script(n)
        s.deal()
        st = state(s.ref)
        assert (st.deck, len(st.talon), st.hands) == (deck, n + 1, (7,) * n)
        assert st.phase == TAKE and st.active == 0


def test_deal_takes_back_a_misturned_card_and_start_seat() -> None:
    ref = new_ref(3, start_seat=2)
    play(ref, "+talon H1b1", "-talon H1b1", "+talon H2b1", "+talon H3b1", "+talon H4b1")
    assert state(ref).phase != TAKE
    play(ref, "+talon H5b1")
    st = state(ref)
    assert st.phase == TAKE and st.active == 2 and st.deck == 75 and "H1b1" not in st.talon


def test_take_discard_and_claim_window_closed_by_pass_and_take() -> None:
    s = Script(4)
    s.deal("H1b1", "H2b1", "H3b1")
    events = play(s.ref, "-talon H1b1")
    assert events == ("{seat:0} took a card from the talon",)
    st = state(s.ref)
    assert GAME.secrets(st, 0) == frozenset({"H1b1"}) and st.hands[0] == 8
    assert "H1b1" not in json.dumps(GAME.view(st, PUBLIC))
    assert "H1b1" not in json.dumps(GAME.view(st, 1))
    assert GAME.view(st, 0)["taken"] == ["H1b1"]
    assert GAME.view(st, ORGANISER)["taken"]["0"] == ["H1b1"]
    play(s.ref, "+discard:0 D7b1")
    st = state(s.ref)
    assert st.claim is not None and st.active == 1 and st.discards[0] == ("D7b1",)
    assert [p.id for p in GAME.pending(st)][0] == "claim"
    assert "claim" in GAME.waiting_for(st) and GAME.waiting_for(st).startswith("{seat:1}: take")
    play(s.ref, "decide organiser claim pass")
    assert state(s.ref).claim is None
    # "+discard:1 X" while X is on the talon: take X, then discard it.
    events = play(s.ref, "+discard:1 H2b1")
    assert events == ("{seat:1} took a card from the talon", "{seat:1} discarded the black human 2")
    assert state(s.ref).claim is not None
    play(s.ref, "-talon H3b1")
    st = state(s.ref)
    assert st.claim is None and st.active == 2 and st.phase == ACT


def test_noop_sightings() -> None:
    s = Script(2)
    s.deal("H1b1", "H2b1", "H3b1")
    before = state(s.ref)
    play(s.ref, "+talon H1b1", "-meld:0 A1b1", "-discard:1 A1b1", "-wait:0 W1")
    assert state(s.ref) == before


def test_t3_lay_set_and_draw_count() -> None:
    s = Script(4, reserved=["H5b1", "H6b1", "H7b1"])
    s.deal("H6b1")
    s.idle_until(3)
    deck = state(s.ref).deck
    s.lay(["H5b1", "H6b1", "H7b1"], draw=None, take="H6b1")
    st = state(s.ref)
    assert st.phase == DRAW and st.hands[3] == 5 and st.melds[3] == (("H5b1", "H6b1", "H7b1"),)
    assert [(p.id, p.seat, p.private) for p in GAME.pending(st)][0] == ("draw_count", 3, True)
    play(s.ref, "decide 3 draw_count 2")
    st = state(s.ref)
    assert (st.hands[3], st.deck, st.active, st.claim, st.phase) == (7, deck - 2, 0, None, TAKE)


def test_always2_draws_without_prompt() -> None:
    s = Script(2, reserved=["H5b1", "H6b1", "H7b1"], post_set_draw="always2")
    s.deal()
    s.lay(["H5b1", "H6b1", "H7b1"], draw=None)
    st = state(s.ref)
    assert st.phase == TAKE and st.hands[0] == 7 and st.active == 1


def test_t6_mine_and_t7_left_neighbour() -> None:
    s = Script(4, reserved=["D3b1", "D3b2", "D3b3", "H2b1", "H2b2", "H2b3"])
    s.deal()
    s.idle(discard="D3b1")
    deck = state(s.ref).deck
    events = play(s.ref, "+meld:2 D3b1", "+meld:2 D3b2", "+meld:2 D3b3")
    assert "{seat:2} calls 'mine!' on the black demon 3" in events
    st = state(s.ref)
    assert st.melds[2] == (("D3b1", "D3b2", "D3b3"),) and st.hands[2] == 7
    assert st.deck == deck - 2 and st.active == 1 and st.discards[0] == () and st.phase == TAKE
    # T-7: seat 1 discards, seat 2 (its left neighbour) claims and then plays its own turn.
    s.idle(discard="H2b1")
    play(s.ref, "+meld:2 H2b1", "+meld:2 H2b2", "+meld:2 H2b3")
    st = state(s.ref)
    assert st.active == 2 and st.phase == TAKE and len(st.melds[2]) == 2
    s.take()
    assert state(s.ref).phase == ACT


def test_t4_waiting_lock() -> None:
    s = Script(4, reserved=["D2b1", "H7b1", "H7b2", "H7b3", "A6b1"])
    s.deal("H7b1", "A1b1", "D2b1")
    play(s.ref, "decide 1 waiting yes")
    assert state(s.ref).waiting == frozenset({1})
    s.idle(discard="H7b2")
    refuse(s.ref, "+meld:1 H7b2", "R-CLAIM-3")  # a waiting seat calls no "mine!"
    s.take("D2b1")
    refuse(s.ref, "+meld:1 H7b3", "R-TURN-5")  # nor lays a set
    refuse(s.ref, "+discard:1 A6b1", "R-TURN-5")
    play(s.ref, "+discard:1 D2b1")
    play(s.ref, "+wait:1 W2")  # the token seen again changes nothing
    refuse(s.ref, "decide 1 waiting yes", "TABLE-NO-PROMPT")  # no longer asked
    assert state(s.ref).declared == ((1, 1),)


def _empty_talon_at_seat1(deck: int) -> Script:
    s = Script(3, reserved=["H5b1", "H6b1", "H7b1"])
    s.deal()
    for _ in range(4):
        s.idle()
    s.patch(deck=deck)
    st = state(s.ref)
    assert st.active == 1 and not st.talon and st.claim is not None
    return s


def test_t8_exhaustion_after_exact_refill() -> None:
    s = _empty_talon_at_seat1(4)
    s.lay(["H5b1", "H6b1", "H7b1"], draw=None)
    assert state(s.ref).deck == 0
    events = play(s.ref, "decide 1 draw_count 2")
    st = state(s.ref)
    assert st.phase == ROUND_OVER and st.history[-1].end == "exhausted"
    assert st.scores == (0, 0, 0) and any("no points" in e for e in events)
    # the next round: the start seat moves left, everything is reset
    s.deal()
    st = state(s.ref)
    assert (st.round, st.start, st.active, st.deck, st.discards) == (2, 1, 1, 75, ((),) * 3)


def test_t8_draw_zero_keeps_playing_with_empty_deck() -> None:
    s = _empty_talon_at_seat1(4)
    s.lay(["H5b1", "H6b1", "H7b1"], draw=0)
    st = state(s.ref)
    assert st.phase == TAKE and st.deck == 0 and st.hands[1] == 5


def test_t8_variant_short_deck_ends_round_after_pass() -> None:
    s = _empty_talon_at_seat1(3)
    refuse(s.ref, "+talon D1b1", "R-EXH-2")
    play(s.ref, "decide organiser claim pass")
    st = state(s.ref)
    assert st.phase == ROUND_OVER and st.history[-1].end == "exhausted" and st.round == 1


def _t9_setup(**options: Any) -> Script:
    s = Script(4, reserved=["D4b1", "D5r", "D6b1", *OUT_HAND_T9], **options)
    s.deal("D6b1", "A1b2", "A1b3", "A2b2", "H5b2")
    s.lay(["D4b1", "D5r", "D6b1"], draw=2, take="D6b1")
    for _ in range(3):
        s.idle()
    s.take("H5b2")
    return s


def test_t9_go_out_by_self_draw_with_flips() -> None:
    s = _t9_setup()
    play(s.ref, *(f"+out {c}" for c in OUT_HAND_T9))
    st = state(s.ref)
    assert st.phase == FLIP and GAME.waiting_for(st).startswith("flip")
    assert play(s.ref, "+flip H5b3") == ("flip: the black human 5, 2 matches, flip again",)
    play(s.ref, "-flip H5b3", "+flip D6b2", "+flip IT2p1")
    st = state(s.ref)
    result = st.history[-1]
    assert st.scores == (5, 0, 0, 0) and result.gain == 5 and result.via == "self"
    assert result.reds == (("D5r", 1),) and result.flips[-1] == ("IT2p1", 0)
    assert st.go_outs == (1, 0, 0, 0) and st.phase == ROUND_OVER
    view = GAME.view(st, PUBLIC)
    json.dumps(view)
    assert view["history"][0]["gain"] == 5


def test_go_out_refusals_keep_state() -> None:
    s = _t9_setup()
    bad = ["H5b1", "H5b2", "A1b1", "A2b1", "A3b1", "A6b1", "A6b2", "H1b3"]
    play(s.ref, *(f"+out {c}" for c in bad[:7]))
    refuse(s.ref, "+out H1b3", "R-OUT-1")
    refuse(s.ref, "+out D4b1", "R-OUT-2")
    # taking cards back off the pad returns to the turn
    play(s.ref, *(f"-out {c}" for c in bad[:7]))
    st = state(s.ref)
    assert st.phase == ACT and st.hands[0] == 8 and st.going is None


def test_undo_through_referee() -> None:
    s = Script(2)
    s.deal("H1b1")
    before = state(s.ref)
    play(s.ref, "-talon H1b1")
    assert s.ref.apply(Undo()).accepted
    assert state(s.ref) == before


def _claim_setup(mode: str) -> Script:
    hand = ["H5b2", "A1b1", "A2b1", "A3b1", "D6b1", "D6b2", "D6b3"]
    return Script(4, reserved=[*hand, "H5b1", "D6r", "A1b2", "A2b2", "A3b2", "IT1p1"], mode=mode)


def test_t15_go_out_on_claim_with_penalty() -> None:
    s = _claim_setup("advanced")
    s.deal()
    s.take()
    play(s.ref, "decide 0 waiting yes")
    play(s.ref, f"+discard:0 {state(s.ref).taken}")
    s.idle()
    s.patch(scores=(0, 0, 4, 0))
    s.idle(discard="H5b1")
    events = play(s.ref, "+out H5b1")
    assert events == ("{seat:0} claims the black human 5 to go out",)
    play(s.ref, *(f"+out {c}" for c in ["H5b2", "A1b1", "A2b1", "A3b1", "D6b1", "D6b2", "D6b3"]))
    play(s.ref, "+flip D6r", "+flip A2b2", "+flip A3b2", "+flip IT1p1")
    st = state(s.ref)
    assert st.scores == (6, 0, 0, 0) and st.history[-1].penalty == 4
    assert st.history[-1].discarder == 2 and st.history[-1].via == "claim"


def test_claim_in_basic_game_has_no_penalty_and_needs_declaration_first() -> None:
    s = _claim_setup("basic")
    s.deal()
    s.idle()
    s.idle(discard="H5b1")
    refuse(s.ref, "+out H5b1", "R-CLAIM-2")
    play(s.ref, "decide 0 waiting yes")
    refuse(s.ref, "+out H5b1", "R-CLAIM-2")  # declared after the discard


def test_t5_claimant_prompt_in_priority_order() -> None:
    s = Script(4, reserved=["A4b1"])
    s.deal()
    play(s.ref, "decide 0 waiting yes", "decide 3 waiting yes")
    s.idle()  # seat 0 (waiting) discards what it took
    s.idle(discard="A4b1")  # seat 1 discards A4
    play(s.ref, "+out A4b1")
    st = state(s.ref)
    prompt = next(p for p in GAME.pending(st) if p.id == "claimant")
    assert prompt.options == ("3", "0") and st.phase == OUT
    refuse(s.ref, "decide organiser claimant 1", "R-CLAIM-2")
    play(s.ref, "decide organiser claimant 3")
    st = state(s.ref)
    assert st.going is not None and st.going.seat == 3


def test_t14_discard_restriction() -> None:
    hand = ["A2b1", "A3b1", "A4b1", "D6b1", "D6b2", "D6b3", "H5b1"]
    for mode in ("advanced", "basic"):
        s = Script(4, reserved=[*hand, "H5b2", "IT3p1", "H5r", "H5b3"], mode=mode)
        s.deal("H5b2", "IT3p1")
        s.idle(take="H5b2")
        s.idle_until(0)
        s.take("IT3p1")
        play(s.ref, "decide 0 waiting yes", "+discard:0 IT3p1")
        assert state(s.ref).discards[0] == ("H5b2", "IT3p1")
        s.refill("H5b3")
        s.idle(discard="H5r")  # seat 1 discards H5r
        if mode == "basic":
            play(s.ref, "+out H5r", *(f"+out {c}" for c in hand))
            assert state(s.ref).phase == FLIP
            continue
        refuse(s.ref, "+out H5r", "R-ADV-4")
        play(s.ref, "decide organiser claim pass")
        s.idle_until(0)
        s.take("H5b3")  # self-draw is unaffected by the restriction
        play(s.ref, *(f"+out {c}" for c in [*hand, "H5b3"]))
        assert state(s.ref).phase == FLIP


def _item_setup(timing: str, show_in_group: bool = False) -> Script:
    groups = [["IT1p1", "IT1p2", "IT1p3"], ["IT2p1", "IT2p2", "IT2p3"]]
    last = ["IT4c", "IT4p1", "IT4p2"] if show_in_group else ["IT4p1", "IT4p2", "IT4p3"]
    s = Script(
        4,
        reserved=[c for g in groups for c in g] + ["IT4c", "IT4p1", "IT4p2", "IT4p3"],
        mode="advanced",
        item_win_timing=timing,
    )
    s.deal()
    for g in groups:
        s.idle_until(2)
        s.lay(g, draw=2)
    s.idle_until(2)
    s.lay(last, draw=None)
    return s


def test_t16_item_win_on_lay() -> None:
    s = _item_setup("on_lay")
    assert state(s.ref).phase == DRAW and state(s.ref).may_show == 2
    play(s.ref, "+out IT4c")
    st = state(s.ref)
    assert st.phase == OVER and st.winners == (2,) and st.history[-1].end == "item_win"
    assert GAME.is_over(st)
    s2 = _item_setup("on_lay", show_in_group=True)
    assert state(s2.ref).winners == (2,)


def test_t16_item_win_not_shown_goes_on() -> None:
    s = _item_setup("on_lay")
    play(s.ref, "decide 2 draw_count 2")
    st = state(s.ref)
    assert st.phase == TAKE and st.may_show is None
    refuse(s.ref, "+out IT4c", "R-OUT-1")


def test_t16_item_win_on_go_out_timing() -> None:
    s = _item_setup("on_go_out", show_in_group=True)
    assert state(s.ref).phase == DRAW  # no win when laying
    play(s.ref, "decide 2 draw_count 2")
    s.idle_until(2)
    taken = s.take()
    play(s.ref, *(f"+out {c}" for c in [taken, *s.complete_with(taken)]))
    st = state(s.ref)
    assert st.phase == OVER and st.winners == (2,) and st.history[-1].end == "item_win"


def test_t17_target_and_max_rounds() -> None:
    s = _t9_setup(target_points=3)
    play(s.ref, *(f"+out {c}" for c in OUT_HAND_T9))
    play(s.ref, "+flip H5b3", "+flip D6b2", "+flip IT2p1")
    st = state(s.ref)
    assert st.phase == OVER and st.winners == (0,)
    assert "won" in GAME.waiting_for(st)
    result = s.ref.apply(Seen("talon", "H1b1", True))
    assert result.rejection is not None and result.rejection.rule == "TABLE-GAME-OVER"


def test_t17_last_round_shared_and_most_go_outs() -> None:
    for tie_break, winners in (("shared", (0, 1, 2)), ("most_go_outs", (1,))):
        s = _empty_talon_at_seat1(3)
        s.patch(
            opts=replace(state(s.ref).opts, max_rounds=1, tie_break=tie_break),
            scores=(4, 4, 4),
            go_outs=(1, 2, 1),
        )
        play(s.ref, "decide organiser claim pass")
        st = state(s.ref)
        assert st.phase == OVER and st.winners == winners
