"""One refusal per rule id: rejected with its id, a reason and a hint, and changing nothing."""

from __future__ import annotations

from scorekeeper.games.angels_demons.state import OUT
from tests.games.angels_demons.helpers import new_ref, play, refuse, state
from tests.games.angels_demons.script import Script


def dealt(n: int = 4, **options: object) -> Script:
    s = Script(n, reserved=["H5b1", "H5b2", "H5b3", "H6b1", "H7b1", "A1b1", "A1b2"], **options)
    s.deal("H6b1")
    return s


def test_setup_4_nothing_before_the_talon_is_turned() -> None:
    ref = new_ref(2)
    play(ref, "+talon A1b1")
    refuse(ref, "+discard:0 H5b1", "R-SETUP-4")
    refuse(ref, "decide 0 waiting yes", "R-SETUP-4")


def test_turn_1_take_and_refill_rules() -> None:
    s = dealt()
    refuse(s.ref, "+talon H5b1", "R-TURN-1")  # talon not empty
    refuse(s.ref, "+discard:0 H5b1", "R-TURN-1")  # discard before taking
    s.take()
    refuse(s.ref, "-talon H6b1", "R-TURN-1")  # a second take


def test_turn_3_only_the_active_seat_discards_and_laid_sets_stay() -> None:
    s = dealt()
    refuse(s.ref, "+discard:2 H5b1", "R-TURN-3")
    refuse(s.ref, "+meld:2 H5b1", "R-TURN-3")
    s.lay(["H5b1", "H6b1", "H7b1"], draw=None, take="H6b1")
    refuse(s.ref, "decide 0 draw_count 3", "R-TURN-3")
    play(s.ref, "decide 0 draw_count 2")
    refuse(s.ref, "-meld:0 H5b1", "R-TURN-3")


def test_d4_not_a_set() -> None:
    s = dealt()
    s.take("H6b1")
    play(s.ref, "+meld:0 H5b1", "+meld:0 H6b1")
    refuse(s.ref, "+meld:0 A1b1", "D-4")
    play(s.ref, "-meld:0 H5b1", "-meld:0 H6b1")  # taken back: the turn goes on
    assert state(s.ref).phase == "act" and state(s.ref).hands[0] == 8


def test_turn_5_waiting_cannot_be_withdrawn() -> None:
    s = dealt()
    refuse(s.ref, "decide 0 waiting no", "R-TURN-5")
    refuse(s.ref, "decide organiser waiting yes", "R-TURN-5")
    refuse(s.ref, "+wait:0 H5b1", "R-TURN-5")
    refuse(s.ref, "+talon W1", "R-TURN-5")


def test_claim_refusals() -> None:
    s = dealt()
    s.idle(discard="H5b1")
    refuse(s.ref, "+meld:2 A1b1", "R-CLAIM-1")  # not the card just discarded
    refuse(s.ref, "+meld:0 H5b1", "R-CLAIM-3")  # the discarder's own discard
    refuse(s.ref, "+out H5b1", "R-CLAIM-2")  # nobody declared waiting
    s.take()
    refuse(s.ref, "-discard:0 H5b1", "R-CLAIM-1")  # the window is closed
    refuse(s.ref, "+meld:2 H5b1", "R-CLAIM-1")


def test_out_refusals() -> None:
    s = dealt()
    refuse(s.ref, "+out H5b1", "R-OUT-1")  # not right after taking
    s.lay(["H5b1", "H6b1", "H7b1"], draw=1, take="H6b1")
    s.idle_until(0)
    s.take()
    refuse(s.ref, "+out A1b1", "R-OUT-1")  # 7 cards in hand after drawing only 1 (R-TURN-4)
    refuse(s.ref, "+out H6b1", "R-OUT-2")  # laid cards do not count


def test_claimant_needs_a_prompt_answer() -> None:
    s = Script(3, reserved=["H5b1", "A1b1"])
    s.deal()
    play(s.ref, "decide 1 waiting yes", "decide 2 waiting yes")
    s.idle(discard="H5b1")
    play(s.ref, "+out H5b1", *(f"+out {c}" for c in s.fresh(6)))
    assert state(s.ref).phase == OUT
    refuse(s.ref, "+out A1b1", "R-CLAIM-2")  # 8th card before saying who claims


def test_flip_refusals() -> None:
    s = dealt()
    refuse(s.ref, "+flip A1b1", "R-SCORE-3")


def test_table_refusals() -> None:
    s = dealt()
    refuse(s.ref, "decide 0 draw_count 2", "TABLE-NO-PROMPT")
    refuse(s.ref, "decide organiser claim pass", "TABLE-NO-PROMPT")
    refuse(s.ref, "decide organiser claimant 1", "TABLE-NO-PROMPT")
    refuse(s.ref, "+nowhere A1b1", "TABLE-UNKNOWN-READER")
    refuse(s.ref, "+talon XX9", "TABLE-UNKNOWN-TAG")
    s.lay(["H5b1", "H6b1", "H7b1"], draw=None, take="H6b1")
    refuse(s.ref, "decide 1 draw_count 2", "TABLE-WRONG-SEAT")
    refuse(s.ref, "decide 7 waiting yes", "TABLE-WRONG-SEAT")
    refuse(s.ref, "decide organiser claim maybe", "TABLE-NO-PROMPT")
