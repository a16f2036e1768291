"""Sightings at the talon, and whether a card may be in a hand (Angels & Demons).

A card leaving the talon is a take (R-TURN-1) or a mis-turned card going back to the deck; a
card arriving is the deal (R-SETUP-4) or a refill (R-TURN-1, R-EXH). ``_in_hand``, which every
zone's arrival asks, says whether a card may be in a seat's hand; ``declare`` is a waiting token
laid on a seat's waiting spot (R-TURN-5). The dispatcher, ``rules.observe``, calls these; like
it, they are pure.
"""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.core.outcomes import Accepted, Outcome, Rejected
from scorekeeper.core.text import seat_ref
from scorekeeper.games.angels_demons import words
from scorekeeper.games.angels_demons.rounds import Result, bump, loc_of, moved
from scorekeeper.games.angels_demons.state import (
    ACT,
    DEAL,
    IN_ROUND,
    MINE,
    REFILL,
    TAKE,
    UNKNOWN,
    State,
)
from scorekeeper.games.angels_demons.words import card as the


def _ok(result: Result) -> Accepted[State]:
    """The accepted outcome of a ``rounds`` step (its state and its feed lines)."""
    return Accepted(result[0], result[1])


def _in_hand(state: State, card: str, seat: int) -> bool:
    """True when ``card`` may be in ``seat``'s hand: known taken by that seat, or unknown while
    the seat's hand holds a card the table does not know. A hand whose every card is known
    (taken from the discards, or shown on the going-out pad and taken back) holds no other: a
    card the table has never seen cannot come from it, however often cards go on and off."""
    loc = loc_of(state, card)
    mine = f"hand:{seat}"
    if loc == mine:
        return True
    return loc == UNKNOWN and state.where.count(mine) < state.hands[seat]


def _take(state: State, card: str) -> Outcome:
    """A card left the talon: a take (R-TURN-1), or a mis-turned card back to the deck."""
    talon = tuple(c for c in state.talon if c != card)
    if state.phase in (DEAL, REFILL):
        return Accepted(
            replace(
                state,
                talon=talon,
                deck=state.deck + 1,
                refill_left=state.refill_left + 1,
                where=moved(state, card, UNKNOWN),
            ),
            (),
        )
    a = state.active
    if state.phase == TAKE:
        state = replace(
            state,
            talon=talon,
            where=moved(state, card, f"hand:{a}"),
            hands=bump(state.hands, a, 1),
            taken=card,
            taken_at=state.clock,
            claim=None,
            phase=ACT,
        )
        return Accepted(state, (f"{seat_ref(a)} took a card from the talon",))
    if state.phase == ACT:
        return Rejected(
            "R-TURN-1",
            f"{seat_ref(a)} already took a card this turn",
            f"put {the(card)} back on the talon",
        )
    if state.phase == MINE:
        return Rejected(
            "R-CLAIM-3",
            "a 'mine!' set is being laid; the next turn waits for it",
            f"put {the(card)} back on the talon until the set is laid",
        )
    return Rejected(
        "R-TURN-1", "nobody takes a talon card now", f"put {the(card)} back on the talon"
    )


def _turn(state: State, card: str) -> Outcome:
    """A card arrived on the talon: the deal (R-SETUP-4) or a refill (R-TURN-1, R-EXH)."""
    n1 = state.n + 1
    if loc_of(state, card) != UNKNOWN:
        return Rejected(
            "R-TURN-1",
            "the talon is turned from the deck, and that card is not in it",
            f"take {the(card)} off the talon",
        )
    if state.phase == TAKE:
        if state.talon:
            return Rejected(
                "R-TURN-1",
                "the talon is refilled only when it is completely empty",
                f"take {the(card)} off the talon",
            )
        if state.deck < n1:
            return Rejected(
                "R-EXH-2",
                f"the deck holds only {state.deck} cards, too few to refill the talon",
                f"take {the(card)} off the talon; nobody claims "
                "the discard (pass), and the round then ends",
            )
        state = replace(state, claim=None, phase=REFILL, refill_left=n1)
    elif state.phase not in (DEAL, REFILL):
        return Rejected(
            "R-TURN-1",
            "the talon is turned only by the dealer or to refill it when empty",
            f"take {the(card)} off the talon",
        )
    left = state.refill_left - 1
    state = replace(
        state,
        talon=state.talon + (card,),
        deck=state.deck - 1,
        refill_left=left,
        where=moved(state, card, "talon"),
    )
    if left > 0:
        return Accepted(state, ())
    what = "dealt round " + str(state.round) if state.phase == DEAL else "refilled the talon"
    who = state.start if state.phase == DEAL else state.active
    state = replace(state, phase=TAKE, active=who)
    return Accepted(
        state,
        (f"{seat_ref(who)} {what}: {n1} cards turned onto the talon ({words.cards(state.talon)})",),
    )


def declare(state: State, seat: int) -> Outcome:
    """Seat ``seat`` declares "waiting for one card" (R-TURN-5); it cannot be withdrawn."""
    if seat in state.waiting:
        return Accepted(state, ())
    if state.phase not in IN_ROUND:
        rule = "R-SETUP-4" if state.phase == DEAL else "R-TURN-5"
        return Rejected(
            rule,
            "nobody can declare 'waiting' now (only during play in a round)",
            "declare after the talon is turned",
        )
    clock = state.clock + 1
    return Accepted(
        replace(state, declared=state.declared + ((seat, clock),), clock=clock),
        (f"{seat_ref(seat)} declares 'waiting for one card'",),
    )
