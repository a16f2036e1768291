"""Sightings at the meld areas: sets laid on one's turn and 'mine!' claims (Angels & Demons).

``_meld`` judges a card arriving in a meld area, ``_grow`` adds it to the set being laid (the
third card completes and checks it, D-4), ``_unmeld`` a card taken back off a set still being
laid; ``draw`` is the deck draw after a set (R-TURN-3, R-CLAIM-3, R-EXH-2/3), also answered by a
decision (decisions.py).
"""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.core.outcomes import Accepted, Outcome, Rejected
from scorekeeper.core.text import seat_ref
from scorekeeper.games.angels_demons import rounds, words
from scorekeeper.games.angels_demons.claim_rules import _claim_withdrawn
from scorekeeper.games.angels_demons.hands import idents, is_set, item_groups
from scorekeeper.games.angels_demons.rounds import Result, bump, left_of, moved, put
from scorekeeper.games.angels_demons.scoring import has_item_win
from scorekeeper.games.angels_demons.state import ACT, DRAW, LAY, MINE, SHOW, TAKE, Building, State
from scorekeeper.games.angels_demons.talon_rules import _in_hand, _ok
from scorekeeper.games.angels_demons.words import card as the


def _unmeld(state: State, card: str) -> Outcome:
    """A card left a meld area: only a set still being laid can be taken back."""
    b = state.building
    if b is None or card not in b.cards:
        return Rejected(
            "R-TURN-3",
            "laid sets stay on the table until the round ends",
            f"put {the(card)} back in the meld area",
        )
    rest = tuple(c for c in b.cards if c != card)
    if b.claim is not None and card == b.claim.card:
        if rest:
            return Rejected(
                "R-CLAIM-3",
                "take your own cards back before the claimed one",
                f"put {the(card)} back in the meld area",
            )
        return _claim_withdrawn(
            replace(state, building=None),
            b.claim,
            f"{seat_ref(b.seat)} takes back the 'mine!' claim",
        )
    state = replace(
        state,
        where=moved(state, card, f"hand:{b.seat}"),
        hands=bump(state.hands, b.seat, 1),
        building=Building(b.seat, rest, b.claim),
    )
    if not rest and b.claim is None:
        state = replace(state, building=None, phase=ACT)
    return Accepted(state, ())


def _meld(state: State, seat: int, card: str) -> Outcome:
    """A card arrived in a meld area: a set laid on one's turn, or a "mine!" claim."""
    b = state.building
    if state.phase in (LAY, MINE) and b is not None and b.seat == seat:
        if not _in_hand(state, card, seat):
            return Rejected(
                "R-TURN-3",
                f"{the(card)} is not in {seat_ref(seat)}'s hand",
                f"take {the(card)} off the meld area",
            )
        return _grow(state, b, card)
    claim = state.claim
    if state.phase == TAKE and claim is not None and card == claim.card:
        if seat == claim.discarder:
            return Rejected(
                "R-CLAIM-3",
                "a seat cannot claim its own discard",
                f"put {the(card)} back in {seat_ref(seat)}'s discard row",
            )
        if seat in state.waiting:
            return Rejected(
                "R-CLAIM-3",
                f"{seat_ref(seat)} declared waiting and cannot call 'mine!'",
                f"put {the(card)} back in {seat_ref(claim.discarder)}'s discard row; "
                "a waiting seat may claim it only to go out (put it on the "
                "going-out pad)",
            )
        if state.hands[seat] < 2:
            return Rejected(
                "R-CLAIM-3",
                f"{seat_ref(seat)} holds fewer than 2 cards",
                f"put {the(card)} back in {seat_ref(claim.discarder)}'s discard row",
            )
        d = claim.discarder
        state = replace(
            state,
            discards=put(state.discards, d, tuple(c for c in state.discards[d] if c != card)),
            where=moved(state, card, f"meld:{seat}"),
            claim=None,
            phase=MINE,
            building=Building(seat, (card,), claim),
        )
        return Accepted(state, (f"{seat_ref(seat)} calls 'mine!' on {the(card)}",))
    if state.phase == ACT and seat == state.active:
        if seat in state.waiting:
            return Rejected(
                "R-TURN-5",
                f"{seat_ref(seat)} declared waiting and may not lay sets",
                f"take {the(card)} back; discard the card just taken or go out",
            )
        if not _in_hand(state, card, seat):
            return Rejected(
                "R-TURN-3",
                f"{the(card)} is not in {seat_ref(seat)}'s hand",
                f"take {the(card)} off the meld area",
            )
        state = replace(state, phase=LAY, building=Building(seat, ()))
        assert state.building is not None
        return _grow(state, state.building, card)
    if claim is not None and state.phase == TAKE:
        return Rejected(
            "R-CLAIM-1",
            "only the card just discarded can be claimed",
            f"take {the(card)} off {seat_ref(seat)}'s meld area",
        )
    return Rejected(
        "R-TURN-3",
        f"{seat_ref(seat)} cannot lay a set now: sets are laid by the active "
        "seat after taking, or by 'mine!'",
        f"take {the(card)} off {seat_ref(seat)}'s meld area",
    )


def _grow(state: State, b: Building, card: str) -> Outcome:
    """Add a hand card to the set being laid; the third card completes and checks it (D-4)."""
    cards = b.cards + (card,)
    if len(cards) == 3 and not is_set(idents(cards)):
        return Rejected(
            "D-4",
            f"{words.cards(cards)} is not a set",
            f"take {the(card)} back: a set is 3 of one identity or a run n, n+1, n+2 of one kind",
        )
    seat = b.seat
    state = replace(
        state,
        where=moved(state, card, f"meld:{seat}"),
        hands=bump(state.hands, seat, -1),
        building=Building(seat, cards, b.claim),
    )
    if len(cards) < 3:
        return Accepted(state, ())
    melds = put(state.melds, seat, state.melds[seat] + (cards,))
    state = replace(state, melds=melds, building=None)
    events: tuple[str, ...] = (f"{seat_ref(seat)} laid {words.cards(cards)}",)
    opts = state.opts
    if opts.advanced and opts.item_win_timing == "on_lay":
        if has_item_win(melds[seat], ()):
            return _ok(rounds.item_win(state, seat, events))
        if item_groups(melds[seat]) >= 3:
            state = replace(state, may_show=seat)
    automatic = None
    if b.claim is not None:
        automatic = state.active
    elif opts.post_set_draw == "always2":
        automatic = left_of(state, seat)
    if automatic is None:
        return Accepted(replace(state, phase=DRAW), events)
    if state.may_show is not None and state.deck < 2:
        # The draw would end the round (R-EXH-2) before the seat could show a conditional item
        # from its hand, but the item win comes first (R-ADV-6, T-16): ask before drawing.
        return Accepted(replace(state, phase=SHOW, held_draw=(seat, 2, automatic)), events)
    return _ok(draw(state, seat, 2, automatic, events))


def draw(state: State, seat: int, count: int, next_active: int, events: tuple[str, ...]) -> Result:
    """``seat`` draws ``count`` deck cards after a set (R-TURN-3 option a, R-CLAIM-3, R-EXH-2/3)."""
    if state.deck < count:
        return rounds.exhaust(state, events)
    state = replace(
        state,
        hands=bump(state.hands, seat, count),
        deck=state.deck - count,
        phase=TAKE,
        active=next_active,
        taken=None,
        building=None,
    )
    if count:
        events = events + (f"{seat_ref(seat)} drew from the deck",)
    return rounds.settle(state, events)
