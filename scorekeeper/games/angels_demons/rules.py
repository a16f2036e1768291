"""Judging sightings: a card or token arriving at or leaving a zone (see the contract doc).

``observe`` is the entry point. A card arriving while tracked elsewhere is first treated as leaving
that place; an arrival where the card already is, or a departure of a card that is not there, is
an accepted no-op. Feed lines never name a card that is in, or goes into, a hand.
"""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.core.answering import UNKNOWN_TAG, game_over, unknown_zone
from scorekeeper.core.inputs import Seen
from scorekeeper.core.outcomes import Accepted, Outcome, Rejected
from scorekeeper.core.text import plural, seat_ref
from scorekeeper.games.angels_demons import rounds, words
from scorekeeper.games.angels_demons.cards import BY_ID, IDENT, INDEX, TOKEN_NAMES
from scorekeeper.games.angels_demons.hands import idents, is_complete, is_set, item_groups
from scorekeeper.games.angels_demons.rounds import bump, left_of, loc_of, moved, priority, put
from scorekeeper.games.angels_demons.scoring import flip_matches, has_item_win
from scorekeeper.games.angels_demons.state import (
    ACT,
    DEAL,
    DRAW,
    FLIP,
    IN_ROUND,
    LAY,
    MINE,
    OUT,
    OVER,
    REFILL,
    ROUND_OVER,
    SHOW,
    TAKE,
    UNKNOWN,
    Building,
    Claim,
    GoOut,
    State,
)
from scorekeeper.games.angels_demons.words import card as the
from scorekeeper.games.angels_demons.zones import zone_map

Result = tuple[State, tuple[str, ...]]


def _ok(result: Result) -> Accepted[State]:
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


# --- departures -------------------------------------------------------------------------------


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


# --- arrivals ---------------------------------------------------------------------------------


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
