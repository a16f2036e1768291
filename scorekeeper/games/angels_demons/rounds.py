"""Round bookkeeping: starting a game or round, ending a round, end of game, small state helpers.

Every function is pure: it takes a State and returns a new one (plus feed lines where useful).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TypeVar

from scorekeeper.core.text import seat_ref
from scorekeeper.games.angels_demons import scoring
from scorekeeper.games.angels_demons.cards import INDEX
from scorekeeper.games.angels_demons.state import (
    DEAL,
    OVER,
    ROUND_OVER,
    TAKE,
    UNKNOWN,
    Opts,
    RoundResult,
    State,
)

T = TypeVar("T")

HAND_SIZE = 7
EMPTY_WHERE: tuple[str, ...] = (UNKNOWN,) * len(INDEX)


def put(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """A copy of ``items`` with ``items[index]`` replaced."""
    return items[:index] + (value,) + items[index + 1 :]


def bump(items: tuple[int, ...], index: int, delta: int) -> tuple[int, ...]:
    """A copy of ``items`` with ``delta`` added at ``index``."""
    return put(items, index, items[index] + delta)


def moved(state: State, card: str, loc: str) -> tuple[str, ...]:
    """The card locations with ``card`` now at ``loc``."""
    return put(state.where, INDEX[card], loc)


def loc_of(state: State, card: str) -> str:
    """Where the referee knows ``card`` to be ("" when unknown)."""
    return state.where[INDEX[card]]


def left_of(state: State, seat: int) -> int:
    """The left neighbour of ``seat`` (D-10)."""
    return (seat + 1) % state.n


def priority(state: State, discarder: int) -> tuple[int, ...]:
    """Every seat but ``discarder``, from the discarder's left onward (D-10)."""
    return tuple((discarder + k) % state.n for k in range(1, state.n))


def fresh_round(
    opts: Opts,
    n: int,
    round_no: int,
    start: int,
    scores: tuple[int, ...],
    go_outs: tuple[int, ...],
    history: tuple[RoundResult, ...],
) -> State:
    """The state right after the deal of round ``round_no``: hands dealt, talon not yet turned."""
    return State(
        opts=opts,
        n=n,
        phase=DEAL,
        round=round_no,
        start=start,
        active=start,
        where=EMPTY_WHERE,
        talon=(),
        deck=100 - HAND_SIZE * n,
        hands=(HAND_SIZE,) * n,
        melds=((),) * n,
        discards=((),) * n,
        refill_left=n + 1,
        scores=scores,
        go_outs=go_outs,
        history=history,
    )


def new_state(opts: Opts, n: int) -> State:
    """The state before the first input (R-SETUP-1..5)."""
    return fresh_round(opts, n, 1, opts.start_seat, (0,) * n, (0,) * n, ())


def next_round(state: State) -> State:
    """Start the next round: the start seat moves left, scores carry over (R-SETUP-1/5)."""
    return fresh_round(
        state.opts,
        state.n,
        state.round + 1,
        left_of(state, state.start),
        state.scores,
        state.go_outs,
        state.history,
    )


def winners(state: State) -> tuple[int, ...]:
    """R-END-2: the highest score wins; a tie is shared, or settled by go-outs (A-15)."""
    top = max(state.scores)
    best = [s for s in range(state.n) if state.scores[s] == top]
    if state.opts.tie_break == "most_go_outs" and len(best) > 1:
        most = max(state.go_outs[s] for s in best)
        best = [s for s in best if state.go_outs[s] == most]
    return tuple(best)


Result = tuple[State, tuple[str, ...]]


def close_round(state: State, result: RoundResult, events: tuple[str, ...]) -> Result:
    """Record ``result`` and check the end of the game (R-END-1); else wait for the next deal."""
    state = replace(
        state,
        history=state.history + (result,),
        claim=None,
        building=None,
        may_show=None,
        taken=None,
        phase=ROUND_OVER,
    )
    opts = state.opts
    reached = opts.target_points > 0 and max(state.scores) >= opts.target_points
    last = opts.max_rounds > 0 and state.round >= opts.max_rounds
    if reached or last:
        won = winners(state)
        state = replace(state, phase=OVER, winners=won)
        names = ", ".join(f"{seat_ref(s)}" for s in won)
        why = "target reached" if reached else "last round played"
        return state, events + (f"the game is over ({why}): {names} won",)
    dealer = left_of(state, state.start)
    return state, events + (
        f"round {state.round} is over; {seat_ref(dealer)} deals the next round",
    )


def exhaust(state: State, events: tuple[str, ...] = ()) -> Result:
    """R-EXH-2: the deck is too short; the round ends with no points and counts as played."""
    line = f"the deck holds only {state.deck} cards: round {state.round} ends with no points"
    return close_round(state, RoundResult(state.round, "exhausted"), events + (line,))


def settle(state: State, events: tuple[str, ...]) -> Result:
    """After a turn passes: an empty talon that the deck cannot refill ends the round (R-EXH)."""
    if state.phase == TAKE and state.claim is None and not state.talon and state.deck < state.n + 1:
        return exhaust(state, events)
    return state, events


def item_win(state: State, seat: int, events: tuple[str, ...]) -> Result:
    """R-ADV-6: ``seat`` wins the whole game at once."""
    result = RoundResult(state.round, "item_win", seat=seat)
    state = replace(
        state,
        history=state.history + (result,),
        phase=OVER,
        winners=(seat,),
        claim=None,
        building=None,
        may_show=None,
        held_draw=None,
    )
    return state, events + (
        f"{seat_ref(seat)} wins the game at once: three item sets and a conditional item (R-ADV-6)",
    )


def score_go_out(state: State, events: tuple[str, ...]) -> Result:
    """Score the finished go-out (R-SCORE-1..4, R-ADV-1..5) and close the round."""
    going = state.going
    assert going is not None and going.seat is not None
    seat, opts = going.seat, state.opts
    laid = state.melds[seat]
    result = RoundResult(
        state.round,
        "out",
        seat=seat,
        via=going.via,
        discarder=going.claim.discarder if going.claim else None,
        hand=going.cards,
        base=opts.go_out_base,
        reds=scoring.red_bonuses(opts, laid, going.cards),
        items=scoring.item_points(opts, laid, going.cards),
        flips=going.flips,
    )
    total = result.gain
    scores = bump(state.scores, seat, total)
    line = (
        f"{seat_ref(seat)} scores {total}: base {result.base}, red cards "
        f"{sum(p for _, p in result.reds)}, items {result.items}, flips "
        f"{sum(m for _, m in result.flips)}"
    )
    events = events + (line,)
    if opts.advanced and going.claim is not None:
        d = going.claim.discarder
        lost = min(total, scores[d])
        scores = bump(scores, d, -lost)
        result = replace(result, penalty=lost)
        events = events + (f"{seat_ref(d)} discarded the winning card and loses {lost} (R-ADV-5)",)
    state = replace(state, scores=scores, go_outs=bump(state.go_outs, seat, 1))
    return close_round(state, result, events)
