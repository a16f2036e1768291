"""A round's bookkeeping: its start (R-ROUND-4), phase A (R-DRAW), phase B's turns, its end
(R-ROUND-5) and the end of the game (R-END).

These run as ``Flow`` steps from the queue, so each happens exactly when the steps before it
(draws, owed discards, hides, a fame phase) are done.
"""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.core.text import seat_ref
from scorekeeper.games.arcanum.cards import TOWER, is_minor
from scorekeeper.games.arcanum.ops import clockwise, hideable, moved, push, swap_head, to_pile
from scorekeeper.games.arcanum.state import (
    CITY,
    DRAW,
    HIDE,
    MAJOR_PILE,
    OVER,
    PLAY,
    ROUND_START,
    Ask,
    Draw,
    FameBegin,
    Flow,
    Hides,
    JudgePlace,
    State,
    Turn,
    evolve,
)


def draw_choice(state: State) -> bool:
    """True when phase A asks each seat ``draw`` (1 major or 3 minors) this round (R-DRAW-1,
    R-VAR-1/2)."""
    variant = state.cfg.variant
    if state.round == 1 or variant == "simplest":
        return False
    return variant == "full" or state.round >= 3


def flow(state: State, what: str, ev: list[str]) -> State:
    """Run one bookkeeping step (its step is already off the queue)."""
    if what == "begin_round":
        return _begin_round(state, ev)
    if what == "phase_a":
        return _phase_a(state, ev)
    if what == "begin_hides":
        return _begin_hides(state, ev)
    if what == "begin_play":
        ev.append(f"Phase B: {seat_ref(state.start)} plays first")
        return evolve(state, phase=PLAY, turn=Turn(state.start, 0))
    if what == "end_round":
        return _end_round(state, ev)
    raise ValueError(what)  # pragma: no cover


def _begin_round(state: State, ev: list[str]) -> State:
    """R-ROUND-4: the Tower is discarded, Judgement's pawns come back, then phase A."""
    ev.append(
        f"Round {state.round} of {state.cfg.rounds} begins; {seat_ref(state.start)} is the "
        "start player"
    )
    state = evolve(state, phase=ROUND_START, turn=None)
    if state.tower:
        state = evolve(
            state,
            where=moved(state, TOWER, MAJOR_PILE),
            pile_major=state.pile_major + (TOWER,),
            tower=False,
        )
        ev.append("XVI The Tower goes to the major discard pile: nothing is blocked any more")
    state = evolve(state, blocked=frozenset())
    steps: list[Flow | JudgePlace] = []
    if state.judgement is not None:
        seat, pawns = state.judgement
        steps.append(JudgePlace(seat, pawns))
    steps.append(Flow("phase_a"))
    return push(state, *steps)


def _phase_a(state: State, ev: list[str]) -> State:
    """Phase A's draws, seat by seat from the start seat (R-DRAW-1/2, R-VAR-1/2)."""
    state = evolve(state, phase=DRAW)
    order = clockwise(state, state.start)
    steps: list[Draw | Ask | Flow]
    if state.round == 1:
        majors = 1 if state.cfg.variant == "full" else 0
        steps = [Draw(s, 4, majors) for s in order]
    elif draw_choice(state):
        steps = [Ask("draw", s) for s in order]
    else:
        steps = [Draw(s, 3) for s in order]
    return push(state, *steps, Flow("begin_hides"))


def _begin_hides(state: State, ev: list[str]) -> State:
    """R-DRAW-4: every seat hides exactly one card (a minor or the Fool), in any order."""
    ev.append(f"Phase A: every seat hides 1 card ({hideable(state)})")
    order = clockwise(state, state.start)
    step = Hides(
        tuple((s, 1) for s in order), True, "R-DRAW-4", "phase A", state.cfg.variant != "simplest"
    )
    return push(evolve(state, phase=HIDE), step, Flow("begin_play"))


def draw_answer(state: State, step: Ask, choice: str) -> State:
    """Phase A: ``major`` (1 major) or ``minors`` (3 minors)."""
    return swap_head(state, Draw(step.seat, 0, 1) if choice == "major" else Draw(step.seat, 3))


def finish(state: State, card: str, ev: list[str]) -> State:
    """A played card has resolved (R-MIN-7, R-MAJ-1): to its discard pile, the Tower to the
    city. The turn ends by itself once the AP has played both a minor and a major."""
    t = state.turn
    assert t is not None
    if is_minor(card):
        state = to_pile(state, card)
        t = replace(t, minor_done=True)
    elif card == TOWER:
        state = evolve(state, where=moved(state, TOWER, CITY), tower=True)
        t = replace(t, major_done=True)
        ev.append("XVI The Tower lies on the city until the next round")
    else:
        state = to_pile(state, card)
        t = replace(t, major_done=True)
    state = evolve(state, turn=t)
    if t.minor_done and t.major_done:
        return end_turn(state, ev)
    return state


def end_turn(state: State, ev: list[str]) -> State:
    """The AP's turn is over: the next seat's turn, or the end of the card play."""
    t = state.turn
    assert t is not None
    if t.index + 1 < state.n:
        nxt = (t.seat + 1) % state.n
        ev.append(f"{seat_ref(nxt)}'s turn")
        return evolve(state, turn=Turn(nxt, t.index + 1))
    state = evolve(state, turn=None)
    if state.round in state.cfg.fame_rounds:
        if state.cfg.devil_fame == "not_doubled":
            state = evolve(state, devil=None)
        return push(state, FameBegin("regular"), Flow("end_round"))
    return push(state, Flow("end_round"))


def _end_round(state: State, ev: list[str]) -> State:
    """R-ROUND-5: the start player passes left, the round marker moves; or the game ends."""
    state = evolve(state, devil=None, start=(state.start + 1) % state.n, turn=None)
    if state.round >= state.cfg.rounds:
        winners = winners_of(state)
        names = ", ".join(seat_ref(s) for s in winners)
        verb = "wins" if len(winners) == 1 else "share the win"
        ev.append(f"The game is over: {names} {verb} with {state.vp[winners[0]]} VP")
        return evolve(state, phase=OVER, winners=winners)
    return push(evolve(state, round=state.round + 1), Flow("begin_round"))


def winners_of(state: State) -> tuple[int, ...]:
    """R-END-2/3: the most VP; tied, the most cards in hand; still tied, they share."""
    best = max(state.vp)
    tied = [s for s in range(state.n) if state.vp[s] == best]
    if len(tied) > 1:
        most = max(state.hand(s) for s in tied)
        tied = [s for s in tied if state.hand(s) == most]
    return tuple(tied)
