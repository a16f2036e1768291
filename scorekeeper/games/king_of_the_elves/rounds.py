"""Rounds: the new game, the deal, the end of planning, who travels next, the end of a round and
of the game (R-SETUP-5 … 10, R-PLAN-2, R-PLAN-7, R-TRAVEL-1, R-END-1 … 8, G-14, G-22, G-26).

``after_journey`` is called by the decisions and sightings dispatchers whenever travel.py
returns a state whose journey has ended (``journey`` None in the travel phase): travel.py never
imports this module (no cycle).
"""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.core.text import plural, seat_ref
from scorekeeper.games.king_of_the_elves import ledger, piles
from scorekeeper.games.king_of_the_elves.state import (
    BANK,
    OVER,
    PLANNING,
    TRAVEL,
    Deck,
    Options,
    Planning,
    SeatState,
    State,
    escrow_account,
    evolve,
    purse_account,
    seat_with,
)

FIRST_DEAL = 10
LATER_DEAL = 8


def rounds_for(n: int) -> int:
    """Rounds in a game of ``n`` players: min(N, 5) (R-SETUP-8)."""
    return min(n, 5)


def new_state(n: int, options: Options, deck: Deck) -> State:
    """The state before the first input: every purse filled from the bank (R-SETUP-5), round
    1's deal of 10 counted (R-SETUP-10), planning open for the first start player."""
    state = State(
        n=n,
        options=options,
        deck=deck,
        phase=PLANNING,
        round=1,
        rounds=rounds_for(n),
        start_seat=options.start_seat,
        active_seat=options.start_seat,
        seats=tuple(SeatState(crest=options.crests[s]) for s in range(n)),
        draw_pile=deck.total,
        planning=Planning(),
    )
    for s in range(n):
        state = ledger.move(
            state,
            BANK,
            purse_account(s),
            options.starting_gold,
            "start",
            f"{seat_ref(s)}'s starting purse",
        )
    return piles.deal(state, FIRST_DEAL)


def end_planning(state: State, ev: list[str]) -> State:
    """R-PLAN-2 met: every escrow goes to the bank (R-PLAN-7) and the travel phase begins with
    the start player's journey (R-TRAVEL-1)."""
    for s in range(state.n):
        escrow = state.seats[s].escrow
        if escrow:
            state = ledger.move(
                state,
                escrow_account(s),
                BANK,
                escrow,
                "buy_paid",
                f"{seat_ref(s)}'s {plural(state.seats[s].bought, 'purchase')} this round",
            )
            ev.append(f"{seat_ref(s)}'s {escrow} gold set aside for purchases goes to the bank")
    ev.append("Everyone passed: planning is over, the journeys begin")
    state = evolve(state, phase=TRAVEL, planning=None)
    return _next_traveller(state, state.start_seat, ev)


def _next_traveller(state: State, first: int, ev: list[str]) -> State:
    """Start the journey of the first seat from ``first`` clockwise that has not travelled
    this round (a seat stranded by G-16's house rule makes none); none left: end the round."""
    from scorekeeper.games.king_of_the_elves import travel

    for i in range(state.n):
        s = (first + i) % state.n
        seat = state.seats[s]
        if seat.travelled:
            continue
        if seat.stranded:
            seats = list(state.seats)
            seats[s] = seat_with(seat, travelled=True)
            state = evolve(state, seats=tuple(seats))
            ev.append(f"{seat_ref(s)} makes no journey this round")
            continue
        state = evolve(state, active_seat=s)
        ev.append(f"{seat_ref(s)}'s journey begins")
        return evolve(state, journey=travel.new_journey(state, s))
    return end_round(state, ev)


def after_journey(state: State, ev: list[str]) -> State:
    """The traveller's journey has ended (travel.py set ``journey`` None, ``travelled`` True):
    the next seat clockwise travels, or the round ends (R-END-1)."""
    if state.phase != TRAVEL or state.journey is not None:
        return state
    last = state.active_seat if state.active_seat is not None else state.start_seat
    return _next_traveller(state, (last + 1) % state.n, ev)


def end_round(state: State, ev: list[str]) -> State:
    """R-END-2 … 6: tokens back, the table swept onto the discard pile, the piles shuffled
    together, the dragon figure to the left; then the next round's deal, or the end of the
    game (R-END-7, R-END-8)."""
    swept = tuple(
        card
        for seat in state.seats
        for v in seat.villages
        for card in (v.card, *(x.card for x in v.specials()))
    )
    state = piles.refill(piles.to_discard(state, swept))
    seats = tuple(
        replace(
            seat,
            villages=(),
            placed=0,
            bought=0,
            escrow=0,
            travelled=False,
            stranded=False,
        )
        for seat in state.seats
    )
    state = evolve(state, seats=seats, journey=None)
    if state.round >= state.rounds:
        return game_over(state, ev)
    start = (state.start_seat + 1) % state.n
    ev.append(
        f"Round {state.round} is over: tokens back, the table cleared; "
        f"{seat_ref(start)} takes the dragon and deals 8 cards each"
    )
    state = evolve(
        state,
        round=state.round + 1,
        start_seat=start,
        active_seat=start,
        phase=PLANNING,
        planning=Planning(),
    )
    return piles.deal(state, LATER_DEAL)


def game_over(state: State, ev: list[str]) -> State:
    """R-END-8: the most gold wins; tied players share the win (G-22)."""
    best = max(seat.purse for seat in state.seats)
    winners = tuple(s for s, seat in enumerate(state.seats) if seat.purse == best)
    names = " and ".join(seat_ref(s) for s in winners)
    ev.append(f"The game is over: {names} {'win' if len(winners) > 1 else 'wins'} with {best} gold")
    return evolve(state, phase=OVER, active_seat=None, planning=None, winners=winners)
