"""The ten location effects (rules §5, R-MIN-6) and the prompts they ask.

A location's effect is named by the board profile. ``apply`` runs it for the AP: it changes VP
at once and pushes the steps that follow (draws, prompts, hides, discards) to the queue's front.
Refusals about a location's effect cite R-MIN-6.
"""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.core.text import seat_ref
from scorekeeper.games.arcanum.cards import SUITS
from scorekeeper.games.arcanum.ops import (
    ap,
    change_rep,
    fam,
    gain_vp,
    hideable,
    majors_allowed,
    others,
    place,
    pop,
    push,
    swap_head,
)
from scorekeeper.games.arcanum.state import (
    Ask,
    Draw,
    Harbour,
    Hides,
    Owe,
    State,
    Treasury,
)

RULE = "R-MIN-6"
PROMPTS = ("artists", "harbour", "market", "fields", "cathedral")


def may_hide(state: State, seat: int) -> bool:
    """True when ``seat`` could hide something (a minor, or possibly the Fool)."""
    return state.minors[seat] > 0 or (state.majors[seat] > 0 and state.cfg.variant != "simplest")


def hide_step(
    state: State, seat: int, count: int, rule: str, why: str, required: bool = False
) -> Hides:
    """A hide of up to ``count`` cards by ``seat`` (a minor or the Fool, G-15)."""
    return Hides(((seat, count),), required, rule, why, state.cfg.variant != "simplest")


def apply(state: State, loc: int, ev: list[str]) -> State:
    """The effect of location ``loc`` for the AP (the head step is already off the queue)."""
    if loc in state.blocked:  # pragma: no cover - moves into blocked locations are refused
        return state
    effect = state.cfg.effects[loc - 1]
    a = ap(state)
    where = place(state, loc)
    src = f"location:{effect}"  # the VP source (State.vp_sources)
    if effect == "wizard_tower":
        state = gain_vp(state, a, 1, ev, where, src)
        return push(state, Draw(a, 0, 1)) if majors_allowed(state) else state
    if effect == "artists_quarter":
        if majors_allowed(state):
            return push(state, Ask("artists", a))
        return push(state, Draw(a, 2))
    if effect == "harbor":
        return push(state, Draw(a, 1), Harbour(others(state, a)))
    if effect == "throne_room":
        return push(state, Draw(a, 2))
    if effect == "market":
        state = gain_vp(state, a, 2, ev, where, src)
        return push(state, Ask("market", a))
    if effect == "fields":
        state = gain_vp(state, a, 1, ev, where, src)
        return push(state, Ask("fields", a, ()))
    if effect == "treasury":
        if state.deck_minor == 0 and not state.pile_minor:
            ev.append(f"{where}: the minor deck and its discard pile are empty, nothing to hide")
            return state
        return push(state, Treasury(a))
    if effect == "cathedral":
        state = gain_vp(state, a, state.cfg.cathedral_vp, ev, where, src)
        return push(state, Ask("cathedral", a))
    if effect == "ballroom":
        if not may_hide(state, a):
            ev.append(f"{where}: {seat_ref(a)} has no card to hide")
            return state
        return push(state, hide_step(state, a, 1, RULE, "Ballroom"))
    if effect == "castle":
        return push(state, *(Owe(s, 1, "", RULE, "Castle") for s in others(state, a)))
    raise ValueError(f"unknown location effect {effect!r}")  # pragma: no cover


# --- prompts ----------------------------------------------------------------------------------


def options(state: State, step: Ask) -> tuple[str, ...]:
    """The legal answers to a location's prompt."""
    a = step.seat
    if step.id == "artists":
        return ("major", "minors")
    if step.id == "market":
        out = ["none"]
        if majors_allowed(state) and state.majors[a] > 0:
            out.append("major")
        if state.minors[a] > 0:
            out.append("minor")
        return tuple(out)
    if step.id == "fields":
        done = set(step.arg)
        adjust = [f"{f}{d}" for f in SUITS if f not in done for d in ("+1", "-1")]
        return (*adjust, "done")
    if step.id == "cathedral":
        return ("hide", "draw") if may_hide(state, a) else ("draw",)
    raise ValueError(step.id)  # pragma: no cover


def question(state: State, step: Ask) -> str:
    """The prompt's question (names no hidden card)."""
    who = seat_ref(step.seat)
    if step.id == "artists":
        return f"Artists' Quarter: does {who} draw 1 major or 2 minors?"
    if step.id == "market":
        offers = options(state, step)
        ways = [
            w
            for k, w in (
                ("major", "discard a major to draw 1 major"),
                ("minor", "discard a minor to draw 2 minors"),
            )
            if k in offers
        ]
        return f"Market: does {who} {', or '.join(ways + ['make no exchange'])}?"
    if step.id == "fields":
        done = ", ".join(fam(f) for f in step.arg)
        extra = f" (done: {done})" if done else ""
        return (
            f"Fields: {who} changes a family's reputation by +1 or -1, each family at most "
            f"once{extra}, or is done"
        )
    if step.id == "cathedral":
        if "hide" not in options(state, step):
            return f"Cathedral: {who} has nothing to hide and draws 2 minors"
        return f"Cathedral: does {who} hide 1 card ({hideable(state)}) or draw 2 minors?"
    raise ValueError(step.id)  # pragma: no cover


def harbour_question(step: Harbour) -> str:
    return f"Harbour: does {seat_ref(step.seats[0])} draw 1 minor, or pass?"


def answer(state: State, step: Ask, choice: str, ev: list[str]) -> State:
    """Apply a legal answer to a location prompt (``step`` is the queue's head)."""
    a = step.seat
    if step.id == "artists":
        return swap_head(state, Draw(a, 0, 1) if choice == "major" else Draw(a, 2))
    if step.id == "market":
        if choice == "none":
            ev.append(f"{seat_ref(a)} makes no exchange at the Market")
            return pop(state)
        if choice == "major":
            return swap_head(state, Owe(a, 1, "major", RULE, "Market"), Draw(a, 0, 1))
        return swap_head(state, Owe(a, 1, "minor", RULE, "Market"), Draw(a, 2))
    if step.id == "fields":
        if choice == "done":
            return pop(state)
        family, amount = choice[:-2], int(choice[-2:])
        state = change_rep(state, family, amount, ev, f"Fields, by {seat_ref(a)}")
        done = step.arg + (family,)
        if len(done) == len(SUITS):
            return pop(state)
        return swap_head(state, replace(step, arg=done))
    if step.id == "cathedral":
        if choice == "draw":
            return swap_head(state, Draw(a, 2))
        return swap_head(state, hide_step(state, a, 1, RULE, "Cathedral", required=True))
    raise ValueError(step.id)  # pragma: no cover


def harbour_answer(state: State, step: Harbour, choice: str, ev: list[str]) -> State:
    """A seat answers the Harbour's question (clockwise from the AP)."""
    seat = step.seats[0]
    rest = Harbour(step.seats[1:], step.drawn + (choice == "draw"))
    if choice == "draw":
        return swap_head(state, Draw(seat, 1), rest)
    ev.append(f"{seat_ref(seat)} passes at the Harbour")
    return swap_head(state, rest)


def harbour_done(state: State, step: Harbour, ev: list[str]) -> State:
    """Everyone answered: the AP draws one extra minor per ``draw`` (head already popped)."""
    if step.drawn:
        return push(state, Draw(ap(state), step.drawn))
    ev.append(f"nobody else drew at the Harbour: {seat_ref(ap(state))} draws no extra minor")
    return state
