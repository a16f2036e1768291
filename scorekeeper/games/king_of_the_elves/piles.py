"""The draw and discard piles, as counts: drawing with G-14's refill, and the deal (G-26).

The referee never sees the draw pile (R-SETUP-11): it counts it. The discard pile's cards lie
face up and every one was seen on a tap pad (or swept off the table), so ``State.discarded``
names them; the count is ``State.discard_pile``. Hazard: with ``search_fallback`` a village may
be taken from the discard pile unseen, so the count can be below the names' number until the
pile is next shuffled away; code counts with ``discard_pile``, never ``len(discarded)``.
"""

from __future__ import annotations

from scorekeeper.games.king_of_the_elves.state import State, evolve, with_seat


def refill(state: State) -> State:
    """G-14: the discard pile shuffled into a new draw pile (R-END-6 does the same)."""
    return evolve(
        state,
        draw_pile=state.draw_pile + state.discard_pile,
        discard_pile=0,
        discarded=frozenset(),
    )


def draw(state: State, count: int) -> tuple[State, int]:
    """Take up to ``count`` cards off the draw pile, refilling it from the discard pile when it
    runs out (G-14): the new state and how many were drawn (fewer only when both piles ran
    out). Hands are not changed here: the caller adds the cards to a hand."""
    drawn = min(count, state.draw_pile)
    state = evolve(state, draw_pile=state.draw_pile - drawn)
    if drawn < count and state.discard_pile:
        state = refill(state)
        more = min(count - drawn, state.draw_pile)
        state = evolve(state, draw_pile=state.draw_pile - more)
        drawn += more
    return state, drawn


def deal(state: State, each: int) -> State:
    """The deal (R-SETUP-10): ``each`` cards to every hand from the draw pile, refilled once
    from the discard pile (G-14); when both run short the cards go one at a time clockwise from
    the start player (G-26), so the first seats in that order get one more."""
    n = state.n
    state, total = draw(state, each * n)
    base, extra = divmod(total, n)
    for i in range(n):
        s = (state.start_seat + i) % n
        state = with_seat(state, s, hand=state.seats[s].hand + base + (1 if i < extra else 0))
    return state


def to_discard(state: State, cards: tuple[str, ...]) -> State:
    """``cards`` (seen, or swept off the table) put on the discard pile, face up."""
    if not cards:
        return state
    return evolve(
        state,
        discard_pile=state.discard_pile + len(cards),
        discarded=state.discarded | frozenset(cards),
    )
