"""What the table is waiting for: the open prompts and the one-line ``waiting_for``.

Nothing here depends on a purse (contract, "Nothing public depends on a purse"): the answers
offered come from what everyone can see. No prompt is private: the amounts in them are public.
"""

from __future__ import annotations

from scorekeeper.core.outcomes import Prompt
from scorekeeper.core.text import seat_ref
from scorekeeper.games.king_of_the_elves import journey
from scorekeeper.games.king_of_the_elves.plan_answers import plan_options
from scorekeeper.games.king_of_the_elves.planning import actor
from scorekeeper.games.king_of_the_elves.state import PLANNING, TRAVEL, State, village_at
from scorekeeper.games.king_of_the_elves.words import possessive, village_words

PLAN_QUESTION = (
    "{who}'s planning turn: lay a village or a special card, remove one of your villages, or choose"
)


def pending(state: State) -> tuple[Prompt, ...]:
    """The prompts open now, each with its legal answers."""
    if state.phase == TRAVEL:
        return journey.journey_prompts(state)
    if state.phase != PLANNING or state.planning is None:
        return ()
    s = actor(state)
    action = state.planning.action
    if action is None:
        return (Prompt("plan", s, PLAN_QUESTION.format(who=seat_ref(s)), plan_options(state)),)
    if action.kind == "searched":
        return (
            Prompt(
                "searched",
                s,
                f"Did {seat_ref(s)} find a village (in the draw pile, else the discard pile)?",
                ("found", "none"),
            ),
        )
    if action.kind == "pay":
        return (
            Prompt(
                "pay",
                s,
                f"{seat_ref(s)} pays {action.amount} gold to the bank for {action.about}",
                ("pay",),
            ),
        )
    return ()


def _slides(state: State) -> list[str]:
    assert state.planning is not None
    out = []
    for slide in state.planning.slides:
        v = village_at(state, slide.seat, slide.to)
        if v is not None:
            out.append(f"Move {village_words(v, slide.seat)} and its cards one pad to the right")
    return out


def waiting_for(state: State) -> str:
    """One plain-language line: what the table waits for now."""
    if state.over:  # the result: every purse is public now (R-END-8)
        best = max(seat.purse for seat in state.seats)
        kings = " and ".join(seat_ref(s) for s in state.winners)
        crown = "share the crown" if len(state.winners) > 1 else "is King of the Elves"
        return f"The game is over: {kings} {crown} with {best} gold"
    if state.phase == TRAVEL:
        names = tuple(seat_ref(s) for s in range(state.n))  # keep the markers for the table
        return journey.journey_waiting(state, names) or "The next journey"
    if state.planning is None:
        return ""
    s = actor(state)
    action = state.planning.action
    if action is None:
        line = PLAN_QUESTION.format(who=seat_ref(s))
    elif action.kind == "draw3":
        seen = 4 - action.needs
        line = f"{seat_ref(s)} discards 4 cards on the discard pad ({seen} seen)"
    elif action.kind == "search":
        line = f"{seat_ref(s)} puts one card from the hand on the discard pad"
    elif action.kind == "searched":
        line = f"{seat_ref(s)} says whether the search found a village"
    else:
        line = (
            f"{seat_ref(s)} confirms on {possessive(s)} phone: {action.amount} gold to the bank "
            f"for {action.about}"
        )
    return "; ".join([*_slides(state), line])
