"""A family pawn arriving on a location or in the tray.

Setup places the 16 pawns (R-SETUP-8). In phase B a pawn moves only when a move is awaited: the
played minor's (R-MIN-2/3/4), or a major's "as the Fool" (0, III, XIV). Judgement removes pawns
to the tray and puts them back at the start of the next round (XX). Every other arrival is
refused, and the hint says where the pawn goes back: the referee still has it where it was.
"""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.core.outcomes import Accepted, Outcome, Rejected
from scorekeeper.core.text import seat_ref
from scorekeeper.games.arcanum import majors
from scorekeeper.games.arcanum.cards import (
    FAMILY_COLOUR,
    PAWNS,
    describe,
    is_minor,
    number_of,
    pawn_for,
    suit_of,
)
from scorekeeper.games.arcanum.engine import settle
from scorekeeper.games.arcanum.ops import (
    change_rep,
    fam,
    major_words,
    pawn_at,
    pawn_words,
    place,
    push,
    put,
    swap_head,
)
from scorekeeper.games.arcanum.prompts import waiting_for
from scorekeeper.games.arcanum.refusals import owed_refusal
from scorekeeper.games.arcanum.state import (
    PAWN_INDEX,
    PLAY,
    SETUP,
    TRAY,
    Effect,
    Flow,
    JudgePlace,
    JudgeRemove,
    Owe,
    Pawn,
    State,
    evolve,
)


def pawn_arrives(state: State, pawn: str, kind: str, arg: int | None) -> Outcome:
    """Judge ``pawn`` arriving at zone (``kind``, ``arg``)."""
    p = PAWN_INDEX[pawn]
    cur = state.pawns[p]
    back = f"put the {pawn_words(pawn)} back on {pawn_at(state, pawn)}"
    if cur <= 0 and cur != TRAY:
        back = f"take the {pawn_words(pawn)} off"
    if kind not in ("loc", "tray"):
        return Rejected(
            "R-SETUP-8" if state.phase == SETUP else "R-PLAY-3",
            "family pawns stand on the city's locations (or in the tray)",
            back,
        )
    target = arg if kind == "loc" and arg is not None else TRAY
    if target == cur:
        return Accepted(state)
    if state.phase == SETUP:
        return _setup(state, pawn, target)
    head = state.head
    if isinstance(head, Owe):
        return owed_refusal(state, head, back)
    if isinstance(head, Pawn):
        return _move(state, head, pawn, cur, target, back)
    if isinstance(head, JudgeRemove) and target == TRAY:
        if cur in state.blocked:
            return Rejected(
                "R-MAJ-1",
                f"{major_words('major_20')}: a pawn on a location "
                "blocked by the Tower cannot be removed",
                back,
            )
        ev: list[str] = []
        state = majors.judgement_remove(state, head, pawn, ev)
        return Accepted(settle(state, ev), tuple(ev))
    if isinstance(head, JudgePlace):
        if pawn not in head.pawns:
            return Rejected(
                "R-MAJ-1",
                f"{major_words('major_20')}: only the pawns it removed are placed now",
                back,
            )
        if target == TRAY:  # pragma: no cover - a removed pawn is in the tray already
            return Accepted(state)
        if target in head.used:
            return Rejected(
                "R-MAJ-1",
                f"{major_words('major_20')}: the removed pawns go on "
                f"different locations, and {place(state, target)} has one already",
                f"{back}; choose a location not used yet",
            )
        ev = []
        state = majors.judgement_place(state, head, pawn, target, ev)
        return Accepted(settle(state, ev), tuple(ev))
    if target == TRAY:
        return Rejected("R-MAJ-1", "only Judgement removes pawns to the tray", back)
    if cur == TRAY:
        return Rejected(
            "R-MAJ-1", "pawns removed by Judgement come back at the start of the next round", back
        )
    t = state.turn
    if state.phase == PLAY and t is not None and t.moved is not None and t.minor is not None:
        moved_pawn, loc = t.moved
        return Rejected(
            "R-MIN-5",
            f"the {describe(t.minor)} has made its move: the "
            f"{pawn_words(moved_pawn)} arrived at {place(state, loc)} and its icons "
            "were counted there",
            back,
        )
    return Rejected(
        "R-PLAY-3",
        "a pawn moves only when a played card moves it",
        f"{back}; now: {waiting_for(state)}",
    )


def _setup(state: State, pawn: str, target: int) -> Outcome:
    """R-SETUP-8: at most 2 pawns per location, never two of one colour."""
    p = PAWN_INDEX[pawn]
    hint = f"put the {pawn_words(pawn)} on another location"
    if target == TRAY:
        return Rejected("R-SETUP-8", "at setup every pawn stands on a location", hint)
    there = [q for q, loc in enumerate(state.pawns) if loc == target and q != p]
    if len(there) >= 2:
        return Rejected(
            "R-SETUP-8",
            f"{place(state, target)} already holds 2 pawns (at most 2 per location at setup)",
            hint,
        )
    family = suit_of(pawn)
    same = [PAWNS[q] for q in there if suit_of(PAWNS[q]) == family]
    if same:
        return Rejected(
            "R-SETUP-8",
            f"{place(state, target)} already holds the "
            f"{pawn_words(same[0])}: never two pawns of one colour on a location "
            "at setup",
            hint,
        )
    state = evolve(state, pawns=put(state.pawns, p, target))
    ev = [f"the {pawn_words(pawn)} stands on {place(state, target)}"]
    if all(loc > 0 for loc in state.pawns):
        ev.append("All 16 pawns are placed")
        state = settle(push(state, Flow("begin_round")), ev)
    return Accepted(state, tuple(ev))


def _move(state: State, head: Pawn, pawn: str, cur: int, target: int, back: str) -> Outcome:
    """The awaited pawn move: the minor's (R-MIN-2/3/4) or a major's "as the Fool"."""
    card = head.card
    blocked = state.blocked
    if is_minor(card):
        name = describe(card)
        if target == TRAY:
            return Rejected("R-MIN-4", "a minor's move never takes a pawn to the tray", back)
        n = number_of(card)
        if n is not None:
            family = suit_of(card)
            if suit_of(pawn) != family:
                return Rejected(
                    "R-MIN-2",
                    f"the {name} moves a {FAMILY_COLOUR[family]} "
                    f"({fam(family)}) pawn, not the {pawn_words(pawn)}",
                    f"{back}; move a {FAMILY_COLOUR[family]} pawn to {place(state, n)}",
                )
            if target != n:
                return Rejected(
                    "R-MIN-2",
                    f"the {name} moves its pawn to {place(state, n)}",
                    f"{back}; move a {FAMILY_COLOUR[family]} pawn to {place(state, n)}",
                )
        elif pawn != pawn_for(card):
            return Rejected(
                "R-MIN-3",
                f"the {name} moves the {pawn_words(pawn_for(card))} only",
                f"{back}; move the {pawn_words(pawn_for(card))} to another location",
            )
        if cur == TRAY:
            return Rejected("R-MIN-4", "a pawn removed by Judgement cannot move", back)
        if cur in blocked or target in blocked:
            where = place(state, cur if cur in blocked else target)
            return Rejected(
                "R-MIN-4", f"{where} is blocked by the Tower: no pawn moves into or out of it", back
            )
    else:
        name = major_words(card)
        if target == TRAY:
            return Rejected(
                "R-MAJ-1", f"{name} moves a pawn to another location, not to the tray", back
            )
        if cur == TRAY:
            return Rejected("R-MAJ-1", f"{name}: a pawn removed by Judgement cannot move", back)
        if cur in blocked or target in blocked:
            where = place(state, cur if cur in blocked else target)
            return Rejected(
                "R-MAJ-1",
                f"{name}: {where} is blocked by the Tower, no pawn moves into or out of it",
                back,
            )
    ev: list[str] = []
    t = state.turn
    assert t is not None
    state = evolve(state, pawns=put(state.pawns, PAWN_INDEX[pawn], target))
    line = f"{seat_ref(t.seat)} moves the {pawn_words(pawn)} to {place(state, target)}"
    gain = state.cfg.gains[target - 1][PAWN_INDEX[pawn]]
    icons: list[str] = []
    state = change_rep(state, suit_of(pawn), gain, icons, "from icons", paren=False)
    ev.append(f"{line}: {icons[0]}" if icons else f"{line}: no icon of its family or figure")
    t = replace(t, moved=(pawn, target)) if is_minor(card) else replace(t, major_moved=True)
    state = swap_head(evolve(state, turn=t), Effect(target))
    return Accepted(settle(state, ev), tuple(ev))
