"""Phase B: a card arriving on the play area (R-PLAY, R-MIN-1, R-MAJ-1).

A minor is the AP's minor, or, once the AP's minor has resolved, the next seat's (the turn ends
by itself). A major is the AP's major, at most one per turn, before or after the minor. While an
effect is being resolved nothing new is played. The minor's reputation (R-MIN-1) is counted at
once; its pawn move is then awaited (``Pawn``) unless no legal move exists (G-17).
"""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.core.outcomes import Accepted, Outcome, Rejected
from scorekeeper.core.text import seat_ref
from scorekeeper.games.arcanum import majors, rounds
from scorekeeper.games.arcanum.cards import describe, is_minor, suit_of
from scorekeeper.games.arcanum.engine import settle
from scorekeeper.games.arcanum.ops import (
    bump,
    change_rep,
    major_words,
    majors_allowed,
    minor_can_move,
    moved,
    push,
    reshuffle_for,
    take_from_deck,
)
from scorekeeper.games.arcanum.prompts import waiting_for
from scorekeeper.games.arcanum.refusals import owed_refusal
from scorekeeper.games.arcanum.state import (
    CITY,
    FAME,
    MAJOR_PILE,
    MINOR_PILE,
    PLAY,
    PLAYED,
    SETUP,
    Finish,
    Owe,
    Pawn,
    State,
    Turn,
    evolve,
)


def card_on_play(state: State, card: str) -> Outcome:
    """Judge ``card`` arriving on the play area (it is not there already)."""
    name = describe(card)
    minor = is_minor(card)
    back = f"take the {name} back"
    t = state.turn
    if state.phase == SETUP:
        return Rejected(
            "R-SETUP-9",
            "no cards are played during setup: the 16 pawns are placed first",
            f"{back}; {waiting_for(state)}",
        )
    if state.phase != PLAY or t is None:
        why = "the fame phase is under way" if state.phase == FAME else "phase B has not begun yet"
        return Rejected(
            "R-PLAY-1",
            f"cards are played in phase B, in turn: {why}",
            f"{back}; now: {waiting_for(state)}",
        )
    head = state.head
    if isinstance(head, Owe) and head.why == "hand limit":
        return owed_refusal(state, head, back)  # R-DRAW-3: nothing else until the discards
    if head is not None:  # an effect's prompts, pawn move, hides or discards (Castle …)
        return Rejected(
            "R-PLAY-3" if minor else "R-PLAY-4",
            "an effect is still being resolved: nothing new is played until it is done",
            f"{back}; now: {waiting_for(state)}",
        )
    ev: list[str] = []
    if minor and t.minor is not None:
        if t.index + 1 >= state.n:
            return Rejected(
                "R-PLAY-1",
                "every seat has had its turn this round",
                f"{back}; {seat_ref(t.seat)} "
                + ("plays a major or ends the turn" if majors_allowed(state) else "ends the turn"),
            )
        state = rounds.end_turn(state, ev)
        assert state.turn is not None
        t = state.turn
    seat = t.seat
    if minor and state.minors[seat] == 0:
        state = reshuffle_for(state, card, ev)
    loc = state.loc_of(card)
    if loc.startswith("hide:"):
        return Rejected(
            "R-DRAW-5",
            f"that card is hidden on {seat_ref(int(loc[5:]))}'s strip: "
            "hidden cards never go back to the hand",
            "put it back on the hide strip face down",
        )
    if loc in (MINOR_PILE, MAJOR_PILE):
        return Rejected(
            "R-MIN-1" if minor else "R-PLAY-4",
            f"the {name} is on the discard pile: it was played or discarded already",
            f"put it back on the discard pile; {seat_ref(seat)} plays a card from the hand",
        )
    if loc == CITY:
        return Rejected(
            "R-MAJ-1",
            "XVI The Tower lies on the city until the next round",
            "put it back on the city",
        )
    if loc.startswith("hand:") and loc != f"hand:{seat}":
        return Rejected(
            "R-PLAY-4",
            f"only the AP plays cards, and the {name} is not in {seat_ref(seat)}'s hand",
            f"{back} to the hand it came from",
        )
    if minor:
        return _minor(state, t, card, ev)
    return _major(state, t, card, ev)


def _minor(state: State, t: Turn, card: str, ev: list[str]) -> Outcome:
    seat = t.seat
    name = describe(card)
    if state.minors[seat] == 0:
        state, _ = take_from_deck(state, True, 1, ev)
        ev.append(f"{seat_ref(seat)} holds no minor: draws 1 first and plays it (R-PLAY-2)")
    else:
        state = evolve(state, minors=bump(state.minors, seat, -1))
    state = evolve(state, where=moved(state, card, PLAYED), turn=replace(t, minor=card))
    ev.append(f"{seat_ref(seat)} plays the {name}")
    state = change_rep(state, suit_of(card), 1, ev, f"the {name}")
    if minor_can_move(state, card):
        state = push(state, Pawn(card), Finish(card))
    else:
        ev.append(f"no pawn can make the {name}'s move (G-17): only its reputation counts")
        state = push(state, Finish(card))
    state = settle(state, ev)
    return Accepted(state, tuple(ev))


def _major(state: State, t: Turn, card: str, ev: list[str]) -> Outcome:
    seat = t.seat
    name = major_words(card)
    back = f"take {name} back"
    if t.major is not None:
        return Rejected(
            "R-PLAY-4",
            f"{seat_ref(seat)} has already played a major this turn ({major_words(t.major)})",
            f"{back}; {seat_ref(seat)} plays a minor",
        )
    if state.majors[seat] == 0:
        if state.minors[seat] == 0:
            return Rejected(
                "R-PLAY-2",
                f"{seat_ref(seat)} holds no card (by the referee's "
                "count): with no minor, the AP first draws 1 minor and plays it",
                f"{back}; {seat_ref(seat)} draws 1 minor and plays it",
            )
        return Rejected(
            "R-PLAY-4",
            f"{seat_ref(seat)} holds no major (by the referee's count)",
            f"{back}; {seat_ref(seat)} plays a minor",
        )
    state = evolve(
        state,
        majors=bump(state.majors, seat, -1),
        where=moved(state, card, PLAYED),
        turn=replace(t, major=card),
    )
    ev.append(f"{seat_ref(seat)} plays {name}")
    state = majors.play(state, card, seat, ev)
    state = settle(state, ev)
    return Accepted(state, tuple(ev))
