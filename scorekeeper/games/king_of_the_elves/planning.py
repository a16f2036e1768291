"""The planning phase's cards on the table (R-PLAN): villages laid, removals with their slides,
the discard pad, and passing the turn. Special cards and tokens are in specials.py; the
``plan``, ``searched`` and ``pay`` answers in plan_answers.py.

Turns go clockwise from the start player (R-PLAN-1); the actor does one thing and the turn passes
when it is complete (contract, "Turn ends"). Every check is on what everyone can see (the
table, counts, purchases this round); only a payment is checked against the purse, and its
refusal never states the purse.
"""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.core.outcomes import Accepted, Outcome, Rejected
from scorekeeper.core.text import plural, seat_ref
from scorekeeper.games.king_of_the_elves import ledger, piles, rounds
from scorekeeper.games.king_of_the_elves.cards import (
    kind_of,
)
from scorekeeper.games.king_of_the_elves.state import (
    BANK,
    Action,
    Planning,
    Slide,
    State,
    Village,
    evolve,
    find_village,
    purse_account,
    village_at,
    with_seat,
)
from scorekeeper.games.king_of_the_elves.words import (
    card_words,
    possessive,
    village_words,
)
from scorekeeper.games.king_of_the_elves.zones import ordinal


def planning_of(state: State) -> Planning:
    """The planning record (the phase has one)."""
    assert state.planning is not None
    return state.planning


def actor(state: State) -> int:
    """The active seat of planning."""
    assert state.active_seat is not None
    return state.active_seat


# -- turns ----------------------------------------------------------------------------------------


def pass_turn(state: State, ev: list[str], passes: int = 0) -> State:
    """The turn passes clockwise with ``passes`` in a row; N of them end planning (R-PLAN-2)."""
    pl = planning_of(state)
    state = evolve(state, planning=replace(pl, passes=passes, action=None))
    if passes >= state.n:
        return rounds.end_planning(state, ev)
    return evolve(state, active_seat=(actor(state) + 1) % state.n)


def needs_words(action: Action) -> str:
    """What an unfinished action still needs, in words ("2 more discards")."""
    if action.kind == "draw3":
        return f"{plural(action.needs, 'more discard')} on the discard pad"
    if action.kind == "search":
        return "the card put back on the discard pad"
    if action.kind == "searched":
        return "the answer about what the search found"
    return f"{seat_ref(action.seat)}'s payment of {action.amount} gold to the bank"


def unfinished(state: State, laid: bool = True) -> Rejected | None:
    """R-PLAN-1: the refusal of anything else while an action is unfinished, or None;
    ``laid``: the refused input is a card on a pad (the hint says to put it back)."""
    action = planning_of(state).action
    if action is None:
        return None
    return Rejected(
        "R-PLAN-1",
        f"{seat_ref(action.seat)} has not finished the action under way",
        f"{'put it back; ' if laid else ''}finish the action first: {needs_words(action)}",
    )


def from_hand(state: State, card: str) -> Rejected | None:
    """A card laid from the actor's hand: refused when the count says the hand is empty, or
    when the card lies on the discard pile (it did not come from a hand)."""
    s = actor(state)
    if card in state.discarded and not (
        state.options.search_fallback and kind_of(card) == "village"
    ):
        return Rejected(
            "R-PLAN-1",
            f"{card_words(card, state.deck)} lies on the discard pile",
            f"put it back on the pile; {seat_ref(s)} lays a card from the hand",
        )
    if state.seats[s].hand <= 0:
        return Rejected(
            "R-PLAN-1",
            f"{seat_ref(s)} has no card in hand, by the table's count",
            "put it back; pass, or buy a card",
        )
    return None


def _slid(state: State, seat: int) -> Slide | None:
    pl = planning_of(state)
    return next((x for x in pl.slides if x.seat == seat), None)


def slide_refusal(state: State, seat: int) -> Rejected | None:
    slide = _slid(state, seat)
    if slide is None:
        return None
    v = village_at(state, seat, slide.to)
    words = card_words(slide.card, state.deck) if v is None else village_words(v)
    return Rejected(
        "R-PLAN-3",
        f"{words} has not been moved to its new pad yet",
        f"put it back; first move {words} one pad right, onto the {ordinal(slide.to)} village pad",
    )


def played(state: State, card: str, ev: list[str], what: str) -> State:
    """A card left the actor's hand for the table: hand −1, the run of passes broken, the turn
    passes."""
    s = actor(state)
    state = with_seat(state, s, hand=state.seats[s].hand - 1)
    ev.append(what)
    return pass_turn(state, ev)


# -- villages -------------------------------------------------------------------------------------


def lay_village(state: State, seat: int, slot: int, card: str) -> Outcome:
    """A village card arrives on ``seat``'s village pad ``slot`` (R-PLAN-3, G-10)."""
    where = find_village(state, card)
    if where is not None:
        return _village_again(state, seat, slot, card, where)
    refusal = unfinished(state)
    if refusal is not None:
        return refusal
    villages = state.seats[seat].villages
    if len(villages) >= state.capacity:
        room = [
            possessive(s) for s in range(state.n) if len(state.seats[s].villages) < state.capacity
        ]
        return Rejected(
            "R-PLAN-3",
            f"{possessive(seat)} principality is full ({plural(state.capacity, 'village')})",
            "lay it in a principality with room: " + ", ".join(room)
            if room
            else "keep it: every principality is full",
        )
    refusal = slide_refusal(state, seat)
    if refusal is not None:
        return refusal
    if slot != len(villages) + 1:
        nxt = len(villages) + 1
        where_words = "" if nxt == 1 else f", left of the {ordinal(nxt - 1)}"
        return Rejected(
            "R-PLAN-3",
            f"the {ordinal(slot)} village pad is not {possessive(seat)} next free place",
            f"lay it on the {ordinal(nxt)} village pad{where_words}",
        )
    refusal = from_hand(state, card)
    if refusal is not None:
        return refusal
    village = Village(card, state.deck.terrain(card), state.deck.value(card))
    state = with_seat(state, seat, villages=(*villages, village))
    if card in state.discarded:  # search_fallback: a village taken off the discard pile
        state = evolve(state, discarded=state.discarded - {card})
    ev: list[str] = []
    s = actor(state)
    whose = f"{possessive(s)} own" if seat == s else possessive(seat)
    what = f"{seat_ref(s)} lays {village_words(village)} in {whose} principality"
    return Accepted(played(state, card, ev, what), tuple(ev))


def _village_again(
    state: State, seat: int, slot: int, card: str, where: tuple[int, int]
) -> Outcome:
    """A village already on the table seen on a village pad: the same place (nothing changes),
    its new place after a slide (the slide is confirmed), or refused."""
    if where == (seat, slot):
        pl = planning_of(state) if state.planning is not None else None
        if pl is not None and any(x.card == card for x in pl.slides):
            slides = tuple(x for x in pl.slides if x.card != card)
            v = village_at(state, seat, slot)
            assert v is not None
            return Accepted(
                evolve(state, planning=replace(pl, slides=slides)),
                (f"{village_words(v, seat)} is on its new pad",),
            )
        return Accepted(state)
    v = village_at(state, *where)
    assert v is not None
    return Rejected(
        "R-PLAN-3",
        f"{village_words(v, where[0])} belongs on {possessive(where[0])} "
        f"{ordinal(where[1])} village pad",
        f"put it back on {possessive(where[0])} {ordinal(where[1])} village pad",
    )


# -- the discard pad ------------------------------------------------------------------------------


def on_discard(state: State, card: str) -> Outcome:
    """A card on the discard pad while planning: a draw 3's discard, a search's put-back card,
    or a removal (a village of the actor's own principality)."""
    if card in state.discarded:
        return Accepted(state)  # counted already
    pl = planning_of(state)
    action = pl.action
    where = find_village(state, card)
    on_table = where is not None or _special_place(state, card) is not None
    if action is not None and action.kind in ("draw3", "search"):
        if on_table:
            rule = "R-PLAN-5" if action.kind == "draw3" else "R-PLAN-4"
            return Rejected(
                rule,
                f"{card_words(card, state.deck)} lies on the table, not in a hand",
                f"put it back; discard {'4 cards' if action.kind == 'draw3' else 'a card'} "
                "from your hand",
            )
        return _discarded(state, card, action)
    refusal = unfinished(state)
    if refusal is not None:
        return refusal
    if where is not None:
        return remove_village(state, *where)
    if on_table:
        return Rejected(
            "R-PLAN-13",
            f"{card_words(card)} leaves the table only with its village",
            "put it back on its pad",
        )
    return Rejected(
        "R-PLAN-5",
        f"{seat_ref(actor(state))} is not discarding now",
        "put it back; to discard, choose 'Draw 3 cards, then discard 4' first",
    )


def _special_place(state: State, card: str) -> tuple[int, int] | None:
    for s, seat in enumerate(state.seats):
        for k, v in enumerate(seat.villages, start=1):
            if any(x.card == card for x in v.specials()):
                return s, k
    return None


def _discarded(state: State, card: str, action: Action) -> Outcome:
    s = action.seat
    state = piles.to_discard(with_seat(state, s, hand=state.seats[s].hand - 1), (card,))
    ev = [f"{seat_ref(s)} discards {card_words(card, state.deck)}"]
    left = action.needs - 1
    if left > 0:
        pl = planning_of(state)
        return Accepted(
            evolve(state, planning=replace(pl, action=replace(action, needs=left))), tuple(ev)
        )
    return Accepted(pass_turn(state, ev), tuple(ev))


def remove_village(state: State, seat: int, slot: int) -> Outcome:
    """R-PLAN-13 with G-10 … 12: the actor removes a village of their own principality, with its
    special cards, for 2 gold plus 1 per special card."""
    s = actor(state)
    village = village_at(state, seat, slot)
    assert village is not None
    if seat != s:
        return Rejected(
            "R-PLAN-13",
            f"{village_words(village, seat)} is not {possessive(s)} to remove",
            f"put it back on its pad; only {seat_ref(seat)} may remove it",
        )
    specials = village.specials()
    cost = 2 + len(specials)
    if not ledger.can_pay(state, s, cost):
        return Rejected(
            "G-12",
            f"{seat_ref(s)} cannot pay the {cost} gold the removal costs "
            "(gold set aside for purchases does not count)",
            "put it back; pass, or draw 3 and discard 4",
        )
    villages = state.seats[s].villages
    rest = villages[: slot - 1] + villages[slot:]
    state = with_seat(state, s, villages=rest)
    state = piles.to_discard(state, (village.card, *(x.card for x in specials)))
    pl = planning_of(state)
    slides = tuple(x for x in pl.slides if x.seat != s)
    slides += tuple(Slide(s, v.card, k) for k, v in enumerate(rest, start=1) if k >= slot)
    state = evolve(state, planning=replace(pl, slides=slides, passes=0))
    about = village_words(village, s)
    ev = [
        f"{seat_ref(s)} removes {about}"
        + (f" with {plural(len(specials), 'special card')}" if specials else "")
        + ("; every token on it goes back to its owner" if specials else "")
    ]
    if state.options.money == "phones":
        pl = planning_of(state)
        action = Action(s, "pay", amount=cost, about=about)
        return Accepted(evolve(state, planning=replace(pl, action=action)), tuple(ev))
    state = pay_removal(state, s, cost, about, ev)
    return Accepted(pass_turn(state, ev), tuple(ev))


def pay_removal(state: State, s: int, cost: int, about: str, ev: list[str]) -> State:
    """The removal's cost from the purse to the bank (R-PLAN-13, G-12)."""
    state = ledger.move(state, purse_account(s), BANK, cost, "remove", about)
    ev.append(f"{seat_ref(s)} pays the bank {cost} gold for {about}")
    return state
