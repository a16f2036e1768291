"""Sightings at the discard rows, and the claims on a discard (Angels & Demons).

``_discard`` judges a card arriving in a discard row (R-TURN-1, R-TURN-3, R-TURN-5);
``_claim_withdrawn`` puts a claimed discard back in its row when a 'mine!' set or a claim to go
out is taken back; ``claimants`` says which seats may go out on a discard (R-CLAIM-2, R-ADV-4).
A card leaving a discard row is judged by the dispatcher (``rules._leave``).
"""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.core.outcomes import Accepted, Outcome, Rejected
from scorekeeper.core.text import seat_ref
from scorekeeper.games.angels_demons.cards import IDENT
from scorekeeper.games.angels_demons.rounds import bump, left_of, moved, priority, put
from scorekeeper.games.angels_demons.state import ACT, TAKE, Claim, State
from scorekeeper.games.angels_demons.talon_rules import _in_hand
from scorekeeper.games.angels_demons.words import card as the


def _discard(state: State, seat: int, card: str) -> Outcome:
    """A card arrived in a discard row: the active seat's discard (R-TURN-3 option b, R-TURN-5)."""
    if state.phase == ACT and seat == state.active:
        if not _in_hand(state, card, seat):
            return Rejected(
                "R-TURN-3",
                f"{the(card)} is not in {seat_ref(seat)}'s hand",
                f"take {the(card)} off the discard row and put it back",
            )
        if _locked_this_turn(state, seat) and card != state.taken:
            return Rejected(
                "R-TURN-5",
                f"{seat_ref(seat)} is waiting and must discard the card it just took",
                f"take {the(card)} back; discard the card taken this turn, or go out with it",
            )
        clock = state.clock + 1
        state = replace(
            state,
            discards=put(state.discards, seat, state.discards[seat] + (card,)),
            where=moved(state, card, f"discard:{seat}"),
            hands=bump(state.hands, seat, -1),
            clock=clock,
            claim=Claim(seat, card, clock),
            active=left_of(state, seat),
            phase=TAKE,
            taken=None,
        )
        return Accepted(state, (f"{seat_ref(seat)} discarded {the(card)}",))
    if state.phase == TAKE and seat == state.active:
        return Rejected(
            "R-TURN-1",
            f"{seat_ref(seat)} must take a talon card before discarding",
            f"take {the(card)} back into your hand and take a talon card first",
        )
    return Rejected(
        "R-TURN-3",
        f"{seat_ref(seat)} cannot discard now: only the active seat discards, after taking",
        f"take {the(card)} off {seat_ref(seat)}'s discard row",
    )


def _locked_this_turn(state: State, seat: int) -> bool:
    """Whether ``seat`` must discard the card it just took (R-TURN-5).

    Ruling (the spec says "at any time" but a waiting hand has 7 cards): a declaration made
    after this turn's take binds from the next take, so the seat may first discard the card
    that does not fit its waiting hand.
    """
    if state.taken is None:
        return False
    return any(s == seat and at <= state.taken_at for s, at in state.declared)


def _claim_withdrawn(state: State, claim: Claim, event: str) -> Outcome:
    """The claimed discard went back to its row: the claim window is open again."""
    d = claim.discarder
    return Accepted(
        replace(
            state,
            claim=claim,
            phase=TAKE,
            discards=put(state.discards, d, state.discards[d] + (claim.card,)),
            where=moved(state, claim.card, f"discard:{d}"),
        ),
        (event,),
    )


def claimants(state: State, claim: Claim) -> tuple[int, ...] | Rejected:
    """Seats that may go out on ``claim``'s card, in priority order (R-CLAIM-2, R-ADV-4)."""
    before = {s for s, at in state.declared if at < claim.at}
    seats = [s for s in priority(state, claim.discarder) if s in before]
    hint = (
        f"put {the(claim.card)} back in {seat_ref(claim.discarder)}'s discard row; "
        "'mine!' sets go to a meld area"
    )
    if not seats:
        return Rejected("R-CLAIM-2", "nobody declared waiting before this discard", hint)
    seats = [s for s in seats if state.hands[s] == 7]
    if not seats:
        return Rejected("R-OUT-1", "no waiting seat holds 7 cards, so none can go out", hint)
    if state.opts.advanced:
        ident = IDENT[claim.card]
        seats = [s for s in seats if all(IDENT[c] != ident for c in state.discards[s])]
        if not seats:
            return Rejected(
                "R-ADV-4", f"every waiting seat has a {ident} in its own discard row", hint
            )
    return tuple(seats)
