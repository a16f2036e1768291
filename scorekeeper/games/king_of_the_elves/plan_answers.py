"""The planning phase's answers (R-PLAN-4 … 7, R-PLAN-14, G-13 … 16): ``plan`` (pass, buy,
draw 3, search), ``searched`` (search_fallback's house rule) and ``pay`` (a removal's cost with
``money: phones``).

Which answers ``plan`` offers depends only on what everyone can see (a village in the
principality, purchases this round, hand sizes and pile counts), never on the purse: ``buy`` is
offered to a seat that cannot pay, and then refused (G-13).
"""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.core.outcomes import Accepted, Outcome, Rejected
from scorekeeper.core.text import seat_ref
from scorekeeper.games.king_of_the_elves import ledger, piles
from scorekeeper.games.king_of_the_elves.planning import (
    actor,
    pass_turn,
    pay_removal,
    planning_of,
)
from scorekeeper.games.king_of_the_elves.state import (
    Action,
    State,
    escrow_account,
    evolve,
    purse_account,
    with_seat,
)
from scorekeeper.games.king_of_the_elves.words import price

MAX_BUYS = 3
DRAW3_DRAWS = 3
DRAW3_DISCARDS = 4


def _drawable(state: State) -> int:
    return state.draw_pile + state.discard_pile


def plan_options(state: State) -> tuple[str, ...]:
    """The ``plan`` answers offered to the actor now (contract, "Planning")."""
    seat = state.seats[actor(state)]
    out: list[str] = []
    if seat.villages or seat.stranded:
        out.append("pass")
    if seat.bought < MAX_BUYS:
        out.append("buy")
    if seat.hand + min(DRAW3_DRAWS, _drawable(state)) >= DRAW3_DISCARDS:
        out.append("draw3")
    if not seat.villages and not seat.stranded:
        out.append("search")
    return tuple(out)


def not_offered(state: State, answer: str) -> Rejected | None:
    """The refusal of a ``plan`` answer that is not offered now, with its rule (None for an
    answer that is no ``plan`` answer at all)."""
    s = actor(state)
    if answer == "pass":
        return Rejected(
            "R-PLAN-14",
            f"{seat_ref(s)} has no village yet and cannot pass",
            "lay a village, or search for one",
        )
    if answer == "buy":
        return Rejected(
            "R-PLAN-6",
            f"{seat_ref(s)} has bought three cards this round already",
            "pass, or draw 3 and discard 4",
        )
    if answer == "draw3":
        return Rejected(
            "G-15",
            f"{seat_ref(s)} would hold fewer than 4 cards to discard after drawing",
            "pass, buy, or another action",
        )
    if answer == "search":
        return Rejected(
            "R-PLAN-4",
            f"{seat_ref(s)}'s principality holds a village: no search",
            "lay a village, pass, or another action",
        )
    return None


def answer_plan(state: State, answer: str) -> Outcome:
    """Apply an offered ``plan`` answer."""
    s = actor(state)
    ev: list[str] = []
    if answer == "pass":
        ev.append(f"{seat_ref(s)} passes")
        return Accepted(pass_turn(state, ev, planning_of(state).passes + 1), tuple(ev))
    if answer == "buy":
        return _buy(state, s)
    if answer == "draw3":
        state, drawn = piles.draw(state, DRAW3_DRAWS)
        state = with_seat(state, s, hand=state.seats[s].hand + drawn)
        pl = planning_of(state)
        action = Action(s, "draw3", needs=DRAW3_DISCARDS)
        state = evolve(state, planning=replace(pl, action=action, passes=0))
        ev.append(f"{seat_ref(s)} draws {drawn} and discards 4 on the discard pad")
        return Accepted(state, tuple(ev))
    assert answer == "search"
    pl = planning_of(state)
    if state.options.search_fallback:
        action = Action(s, "searched")
        ev.append(f"{seat_ref(s)} shows the hand and searches the draw pile for a village")
        return Accepted(evolve(state, planning=replace(pl, action=action, passes=0)), tuple(ev))
    ev.append(f"{seat_ref(s)} shows the hand and takes a village from the draw pile")
    return Accepted(_took_village(state, s, from_draw=True), tuple(ev))


def _took_village(state: State, s: int, from_draw: bool) -> State:
    """The searcher took a village (unseen) from a pile: hand +1; then one card goes back on
    the discard pad, none from an empty hand (G-16)."""
    had = state.seats[s].hand
    if from_draw:
        state, _ = piles.draw(state, 1)
    else:
        state = evolve(state, discard_pile=max(0, state.discard_pile - 1))
    state = with_seat(state, s, hand=had + 1)
    pl = planning_of(state)
    if had == 0:
        state = evolve(state, planning=replace(pl, passes=0))
        return pass_turn(state, [])
    return evolve(state, planning=replace(pl, action=Action(s, "search", needs=1), passes=0))


def _buy(state: State, s: int) -> Outcome:
    """R-PLAN-6, R-PLAN-7: the top card for 1, 2, then 3 gold, set aside in escrow."""
    cost = price(state.seats[s].bought)
    if _drawable(state) == 0:
        return Rejected(
            "G-14",
            "the draw pile and the discard pile are both empty: there is nothing to buy",
            "pass, or another action",
        )
    if not ledger.can_pay(state, s, cost):
        return Rejected(
            "G-13",
            f"{seat_ref(s)} cannot pay the {cost} gold this card costs "
            "(gold set aside for purchases does not count)",
            "pass, or draw 3 and discard 4",
        )
    state = ledger.move(
        state,
        purse_account(s),
        escrow_account(s),
        cost,
        "buy",
        f"{seat_ref(s)}'s purchase {state.seats[s].bought + 1} this round",
    )
    state, _ = piles.draw(state, 1)
    seat = state.seats[s]
    state = with_seat(state, s, hand=seat.hand + 1, bought=seat.bought + 1)
    ev = [f"{seat_ref(s)} buys the top card and sets {cost} gold aside"]
    return Accepted(pass_turn(state, ev), tuple(ev))


def answer_searched(state: State, answer: str) -> Outcome:
    """search_fallback's answer: ``found`` (from the draw pile while it holds any card, else the
    discard pile: the referee cannot tell which) or ``none`` (the seat passes without a village
    and makes no journey this round)."""
    s = actor(state)
    if answer == "found":
        state = evolve(state, planning=replace(planning_of(state), action=None))
        from_draw = state.draw_pile > 0 or state.discard_pile == 0
        return Accepted(
            _took_village(state, s, from_draw), (f"{seat_ref(s)} takes a village from a pile",)
        )
    state = with_seat(state, s, stranded=True)
    ev = [f"{seat_ref(s)} finds no village anywhere: no journey this round, passes from now on"]
    state = evolve(state, planning=replace(planning_of(state), action=None))
    return Accepted(pass_turn(state, ev, planning_of(state).passes + 1), tuple(ev))


def answer_pay(state: State) -> Outcome:
    """``money: phones``: the actor confirms a removal's cost; the turn passes."""
    pl = planning_of(state)
    action = pl.action
    assert action is not None and action.kind == "pay"
    ev: list[str] = []
    state = evolve(state, planning=replace(pl, action=None))
    state = pay_removal(state, action.seat, action.amount, action.about, ev)
    return Accepted(pass_turn(state, ev), tuple(ev))
