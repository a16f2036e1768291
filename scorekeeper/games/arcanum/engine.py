"""The queue runner: after every accepted input, automatic steps run until one needs a person.

``settle`` pops and runs automatic steps (draws, location effects, finished cards, fame-phase
starts, round bookkeeping) and tidies the waiting head: a discard owed by a seat with no card,
an optional hide by a seat with nothing to hide, or a Judgement with no pawn left to remove is
dropped, so the table is never asked for something impossible.
"""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.core.text import seat_ref
from scorekeeper.games.arcanum import famephase, locations, majors, rounds
from scorekeeper.games.arcanum.locations import may_hide
from scorekeeper.games.arcanum.ops import draw, pop, swap_head
from scorekeeper.games.arcanum.state import (
    Draw,
    Effect,
    FameBegin,
    Finish,
    Flow,
    Harbour,
    Hides,
    JudgeRemove,
    Owe,
    State,
    Step,
)


def settle(state: State, ev: list[str]) -> State:
    """Run automatic steps until the head waits for an input (or the queue is empty)."""
    while state.queue:
        head = state.queue[0]
        kind = type(head)
        if kind is Flow:
            assert isinstance(head, Flow)
            state = rounds.flow(pop(state), head.what, ev)
        elif kind is Draw:
            assert isinstance(head, Draw)
            state = draw(pop(state), head.seat, head.minors, head.majors, ev)
        elif kind is Effect:
            assert isinstance(head, Effect)
            state = locations.apply(pop(state), head.loc, ev)
        elif kind is Finish:
            assert isinstance(head, Finish)
            state = rounds.finish(pop(state), head.card, ev)
        elif kind is FameBegin:
            assert isinstance(head, FameBegin)
            state = famephase.begin(pop(state), head.kind, ev)
        elif kind is Harbour and not head.seats:  # type: ignore[union-attr]
            assert isinstance(head, Harbour)
            state = locations.harbour_done(pop(state), head, ev)
        else:
            tidied = _tidy(state, head, ev)
            if tidied is None:
                return state
            state = tidied
    return state


def _tidy(state: State, head: Step, ev: list[str]) -> State | None:
    """A changed state when the waiting head cannot or need not be waited for; else None."""
    if isinstance(head, Owe):
        have = {"minor": state.minors, "major": state.majors}.get(head.kind)
        avail = have[head.seat] if have is not None else state.hand(head.seat)
        if avail <= 0:
            if head.why != "hand limit":
                ev.append(f"{seat_ref(head.seat)} has no card to discard ({head.why})")
            return pop(state)
        if head.count > avail:
            return swap_head(state, replace(head, count=avail))
        return None
    if isinstance(head, Hides) and not head.required:
        left = tuple((s, k if k > 0 and may_hide(state, s) else 0) for s, k in head.left)
        if not any(k for _, k in left):
            return pop(state)
        return None if left == head.left else swap_head(state, replace(head, left=left))
    if isinstance(head, Hides) and head.rule == "R-DRAW-4":
        # phase A: a seat with no card at all and no minor left to draw cannot hide (G-16)
        if state.deck_minor or state.pile_minor:
            return None
        left = tuple((s, 0 if k and state.hand(s) == 0 else k) for s, k in head.left)
        if left == head.left:
            return None
        for s, k in head.left:
            if k and state.hand(s) == 0:
                ev.append(
                    f"{seat_ref(s)} holds no card and no minor is left to draw: it hides "
                    "nothing this round"
                )
        return swap_head(state, replace(head, left=left)) if any(k for _, k in left) else pop(state)
    if isinstance(head, Hides):
        # a required hide outside phase A (the Cathedral): only while the seat can hide
        ((seat, k),) = head.left
        return None if k > 0 and may_hide(state, seat) else pop(state)
    if isinstance(head, JudgeRemove) and not majors.removable(state):
        ev.append("Judgement: no pawn can be removed")
        return pop(state)
    return None
