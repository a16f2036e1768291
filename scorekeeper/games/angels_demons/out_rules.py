"""Sightings at the going-out pad and the flip pad (Angels & Demons).

``_out`` judges a card arriving on the going-out pad (R-OUT-1..3, R-CLAIM-2): a seat going out
on its turn, or a discard claimed to go out; ``_complete`` checks the 8th card's hand, then the
item win, then starts the flips; ``_unout`` a card taken back off the pad while the hand is
shown; ``_flip`` a scoring flip (R-SCORE-3, R-EXH-4).
"""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.core.outcomes import Accepted, Outcome, Rejected
from scorekeeper.core.text import plural, seat_ref
from scorekeeper.games.angels_demons import rounds, words
from scorekeeper.games.angels_demons.claim_rules import _claim_withdrawn, claimants
from scorekeeper.games.angels_demons.hands import idents, is_complete
from scorekeeper.games.angels_demons.rounds import bump, loc_of, moved, put
from scorekeeper.games.angels_demons.scoring import flip_matches, has_item_win
from scorekeeper.games.angels_demons.state import ACT, FLIP, OUT, TAKE, UNKNOWN, GoOut, State
from scorekeeper.games.angels_demons.talon_rules import _in_hand, _ok
from scorekeeper.games.angels_demons.words import card as the


def _unout(state: State, card: str) -> Outcome:
    """A card left the going-out pad: while the hand is being shown it goes back."""
    g = state.going
    if state.phase != OUT or g is None or card not in g.cards:
        return Accepted(state, ())
    rest = tuple(c for c in g.cards if c != card)
    if g.claim is not None and card == g.claim.card:
        if rest:
            return Rejected(
                "R-OUT-1",
                "take the hand cards off the pad before the claimed one",
                f"put {the(card)} back on the going-out pad",
            )
        return _claim_withdrawn(
            replace(state, going=None), g.claim, "the claim to go out is taken back"
        )
    if g.seat is None:
        return Accepted(
            replace(state, going=replace(g, cards=rest), where=moved(state, card, UNKNOWN)), ()
        )
    state = replace(
        state,
        going=replace(g, cards=rest),
        hands=bump(state.hands, g.seat, 1),
        where=moved(state, card, f"hand:{g.seat}"),
    )
    if not rest:
        state = replace(state, going=None, phase=ACT)
    return Accepted(state, ())


def _out(state: State, card: str) -> Outcome:
    """A card arrived on the going-out pad (R-OUT-1..3, R-CLAIM-2)."""
    g = state.going
    if state.phase == OUT and g is not None:
        if g.seat is not None and not _in_hand(state, card, g.seat):
            return Rejected(
                "R-OUT-1",
                f"{the(card)} is not in {seat_ref(g.seat)}'s hand",
                f"take {the(card)} off the going-out pad",
            )
        if g.seat is None and not any(_in_hand(state, card, c) for c in g.candidates):
            return Rejected(
                "R-OUT-1",
                f"{the(card)} is not in the claimant's hand",
                f"take {the(card)} off the going-out pad",
            )
        cards = g.cards + (card,)
        if len(cards) == 8:
            if g.seat is None:
                return Rejected(
                    "R-CLAIM-2",
                    "say first which waiting seat goes out",
                    f"take {the(card)} back and say which waiting player goes out",
                )
            return _complete(state, g, cards, card)
        hands = state.hands if g.seat is None else bump(state.hands, g.seat, -1)
        return Accepted(
            replace(
                state, going=replace(g, cards=cards), hands=hands, where=moved(state, card, "out")
            ),
            (),
        )
    if state.phase == ACT:
        a = state.active
        if state.hands[a] < 8:
            return Rejected(
                "R-OUT-1",
                f"{seat_ref(a)} holds {state.hands[a]} cards, not 8, and cannot "
                "go out this round (R-TURN-4)",
                f"take {the(card)} off the going-out pad",
            )
        if not _in_hand(state, card, a):
            return Rejected(
                "R-OUT-1",
                f"{the(card)} is not in {seat_ref(a)}'s hand",
                f"take {the(card)} off the going-out pad",
            )
        state = replace(
            state,
            phase=OUT,
            going=GoOut(a, "self", (card,)),
            hands=bump(state.hands, a, -1),
            where=moved(state, card, "out"),
        )
        return Accepted(state, (f"{seat_ref(a)} is going out",))
    claim = state.claim
    if state.phase == TAKE and claim is not None and card == claim.card:
        seats = claimants(state, claim)
        if isinstance(seats, Rejected):
            return seats
        d = claim.discarder
        who = seats[0] if len(seats) == 1 else None
        state = replace(
            state,
            discards=put(state.discards, d, tuple(c for c in state.discards[d] if c != card)),
            where=moved(state, card, "out"),
            claim=None,
            phase=OUT,
            going=GoOut(who, "claim", (card,), claim, seats),
        )
        if who is None:
            return Accepted(
                state,
                (f"{the(card)} is claimed to go out: which of {words.seats(seats)} claims it?",),
            )
        return Accepted(state, (f"{seat_ref(who)} claims {the(card)} to go out",))
    return Rejected(
        "R-OUT-1",
        "nobody can go out now: a seat goes out right after taking a "
        "talon card, or on a discard it claims",
        f"take {the(card)} off the going-out pad",
    )


def _complete(state: State, g: GoOut, cards: tuple[str, ...], card: str) -> Outcome:
    """The 8th card is on the pad: check the hand, then the item win, then flips."""
    assert g.seat is not None
    seat = g.seat
    if g.via == "self" and state.taken is not None and state.taken not in cards:
        return Rejected(
            "R-OUT-1",
            "the card just taken must be among the 8 cards",
            f"take {the(card)} back; show the whole hand with the card just taken",
        )
    if not is_complete(idents(cards)):
        return Rejected(
            "R-OUT-1",
            "these 8 cards are not one pair and two sets (R-OUT-2: laid sets do not count)",
            f"take {the(card)} back; take the hand back and play on",
        )
    state = replace(
        state,
        going=replace(g, cards=cards),
        hands=bump(state.hands, seat, -1),
        where=moved(state, card, "out"),
        taken=None,
    )
    events: tuple[str, ...] = (f"{seat_ref(seat)} goes out with {words.cards(cards)}",)
    if state.opts.advanced and has_item_win(state.melds[seat], cards):
        return _ok(rounds.item_win(state, seat, events))
    if state.deck == 0:
        return _ok(rounds.score_go_out(state, events + ("the deck is empty: no flips",)))
    return Accepted(replace(state, phase=FLIP), events + ("flip the top deck card",))


def _flip(state: State, card: str) -> Outcome:
    """A scoring flip (R-SCORE-3, R-EXH-4): flips stop after a 0 or when the deck is empty."""
    g = state.going
    if state.phase != FLIP or g is None or g.seat is None:
        return Rejected(
            "R-SCORE-3",
            "cards are flipped only after a go-out",
            f"take {the(card)} off the flip pad",
        )
    if loc_of(state, card) != UNKNOWN:
        return Rejected(
            "R-SCORE-3",
            f"{the(card)} is not from the deck",
            f"take {the(card)} off the flip pad; flip the top deck card",
        )
    matches = flip_matches(card, state.melds[g.seat], g.cards)
    state = replace(
        state,
        going=replace(g, flips=g.flips + ((card, matches),)),
        deck=state.deck - 1,
        where=moved(state, card, "flip"),
    )
    line = f"flip: {the(card)}, {plural(matches, 'match', 'matches')}"
    if matches and state.deck:
        return Accepted(state, (line + ", flip again",))
    return _ok(rounds.score_go_out(state, (line,)))
