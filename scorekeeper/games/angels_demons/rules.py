"""Judging sightings: a card or token arriving at or leaving a zone (see the contract doc).

``observe`` is the entry point. A card arriving while tracked elsewhere is first treated as leaving
that place; an arrival where the card already is, or a departure of a card that is not there, is
an accepted no-op. Feed lines never name a card that is in, or goes into, a hand.

This module is the dispatcher: ``observe``, and the departures and arrivals it routes by zone
kind. Each zone family is judged in its own module: the talon and the hand (talon_rules.py),
discards and claims (claim_rules.py), melds and sets (meld_rules.py), going out and flips
(out_rules.py). ``declare``, ``draw`` and ``claimants`` are still imported from here.
"""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.core.answering import UNKNOWN_TAG, game_over, unknown_zone
from scorekeeper.core.inputs import Seen
from scorekeeper.core.outcomes import Accepted, Outcome, Rejected
from scorekeeper.core.text import seat_ref
from scorekeeper.games.angels_demons import rounds, words
from scorekeeper.games.angels_demons.cards import BY_ID, INDEX, TOKEN_NAMES
from scorekeeper.games.angels_demons.claim_rules import _discard, claimants
from scorekeeper.games.angels_demons.meld_rules import _meld, _unmeld, draw
from scorekeeper.games.angels_demons.out_rules import _flip, _out, _unout
from scorekeeper.games.angels_demons.rounds import loc_of, moved
from scorekeeper.games.angels_demons.state import DEAL, OVER, ROUND_OVER, SHOW, State
from scorekeeper.games.angels_demons.talon_rules import _in_hand, _ok, _take, _turn, declare
from scorekeeper.games.angels_demons.words import card as the
from scorekeeper.games.angels_demons.zones import zone_map

__all__ = ["claimants", "declare", "draw", "observe"]


def observe(state: State, seen: Seen) -> Outcome:
    """Judge one sighting; see the module docstring."""
    if state.phase == OVER:
        return game_over()
    info = zone_map(state.n).get(seen.zone)
    if info is None:
        return unknown_zone(seen.zone, zone_map(state.n))
    kind, seat = info
    piece = seen.piece
    if piece not in INDEX and piece not in TOKEN_NAMES:
        return Rejected(
            UNKNOWN_TAG,
            f"{piece!r} is not an Angels & Demons piece",
            f"take it off {words.zone(seen.zone)}",
        )
    if state.may_show is not None:
        shower = state.may_show
        if (
            seen.present
            and kind == "out"
            and piece in INDEX
            and BY_ID[piece].conditional_item
            and _in_hand(state, piece, shower)
        ):
            state = replace(state, where=moved(state, piece, "out"))
            return _ok(rounds.item_win(state, shower, (f"{seat_ref(shower)} shows {the(piece)}",)))
        if state.phase == SHOW and not seen.present:
            return Accepted(state, ())  # cards lifted while the table waits change nothing
        if state.phase == SHOW:
            return Rejected(
                "R-ADV-6",
                f"{seat_ref(shower)} may win with a conditional item first",
                f"take {the(piece)} back; {seat_ref(shower)} shows a conditional "
                "item on the going-out pad, or says there is no item to show",
            )
        state = replace(state, may_show=None)
    if piece in TOKEN_NAMES:
        if not seen.present:
            return Accepted(state, ())
        if kind != "wait" or seat is None:
            return Rejected(
                "R-TURN-5",
                "a waiting token belongs on a seat's waiting spot",
                f"take {the(piece)} off {words.zone(seen.zone)}",
            )
        return declare(state, seat)
    if state.phase == ROUND_OVER:
        if not seen.present:
            return Accepted(state, ())
        if kind != "talon":
            return Rejected(
                "R-SETUP-4",
                "the round is over: the next round starts with the talon",
                f"take {the(piece)} back; the dealer turns {state.n + 1} cards onto the talon",
            )
        return _arrive(rounds.next_round(state), kind, seat, seen.zone, piece)
    if seen.present:
        return _arrive(state, kind, seat, seen.zone, piece)
    return _leave(state, kind, seat, seen.zone, piece)


def _leave(state: State, kind: str, seat: int | None, zone: str, card: str) -> Outcome:
    if loc_of(state, card) != zone:
        return Accepted(state, ())
    if kind == "talon":
        return _take(state, card)
    if kind == "discard":
        assert seat is not None  # every discard zone belongs to a seat
        claim = state.claim
        if claim is not None and claim.card == card and claim.discarder == seat:
            return Accepted(state, ())  # on its way to a claim: judged where it lands
        return Rejected(
            "R-CLAIM-1",
            f"{the(card)} is not the card just discarded and cannot be claimed",
            f"put {the(card)} back in {seat_ref(seat)}'s discard row",
        )
    if kind == "meld":
        return _unmeld(state, card)
    if kind == "out":
        return _unout(state, card)
    return Accepted(state, ())  # flip pad: each flipped card is lifted off again


def _arrive(state: State, kind: str, seat: int | None, zone: str, card: str) -> Outcome:
    loc = loc_of(state, card)
    if loc == zone:
        return Accepted(state, ())
    if state.phase == DEAL and kind != "talon":
        return Rejected(
            "R-SETUP-4",
            f"the talon must hold {state.n + 1} cards before play starts",
            f"take {the(card)} off {words.zone(zone)}; turn the talon first",
        )
    if (
        kind == "out"
        and loc.startswith("meld:")
        and (state.building is None or card not in state.building.cards)
    ):
        return Rejected(
            "R-OUT-2",
            "laid sets do not count toward the complete hand: all 8 cards must come from the hand",
            f"put {the(card)} back in the meld area",
        )
    events: tuple[str, ...] = ()
    if loc and not loc.startswith("hand:"):
        claim = state.claim
        claimable = claim is not None and card == claim.card and loc == f"discard:{claim.discarder}"
        if not claimable:
            lkind, lseat = zone_map(state.n)[loc]
            left = _leave(state, lkind, lseat, loc, card)
            if isinstance(left, Rejected):
                return left
            state, events = left.state, left.events
    if kind == "talon":
        out = _turn(state, card)
    elif kind == "discard":
        assert seat is not None
        out = _discard(state, seat, card)
    elif kind == "meld":
        assert seat is not None
        out = _meld(state, seat, card)
    elif kind == "out":
        out = _out(state, card)
    elif kind == "flip":
        out = _flip(state, card)
    else:
        out = Rejected(
            "R-TURN-5",
            "only a waiting token goes on a waiting spot",
            f"take {the(card)} off {words.zone(zone)}",
        )
    if isinstance(out, Accepted) and events:
        return Accepted(out.state, events + out.events)
    return out
