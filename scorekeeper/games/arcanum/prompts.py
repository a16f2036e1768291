"""What the table is waiting for: the open prompts and the one-line ``waiting_for``.

Both are derived from the queue's head (and, in phase B with nothing pending, from the turn).
Neither ever names a hidden card or a card in a hand: only a seat's own private prompts
(``wheel``, ``temperance``, ``sun``, ``fool``) list its hidden cards as answers. The ``fame``
prompt is asked for every family whether or not a Fool is hidden, so nothing public tells.
"""

from __future__ import annotations

from scorekeeper.core.outcomes import Prompt
from scorekeeper.core.text import plural, seat_ref
from scorekeeper.games.arcanum import famephase, locations, majors
from scorekeeper.games.arcanum.cards import (
    FAMILY_COLOUR,
    describe,
    is_minor,
    number_of,
    pawn_for,
    suit_of,
)
from scorekeeper.games.arcanum.ops import (
    fam,
    hideable,
    major_words,
    majors_allowed,
    pawn_words,
    place,
)
from scorekeeper.games.arcanum.state import (
    OVER,
    PLAY,
    SETUP,
    Ask,
    FameWait,
    Harbour,
    Hides,
    JudgePlace,
    JudgeRemove,
    Owe,
    Pawn,
    State,
    Sun,
    SwapIn,
    Treasury,
    Wheel,
)

PRIVATE = frozenset({"wheel", "temperance", "sun", "fool"})


def ask_options(state: State, step: Ask) -> tuple[str, ...]:
    if step.id == "draw":
        return ("major", "minors")
    if step.id in locations.PROMPTS:
        return locations.options(state, step)
    return majors.options(state, step)


def ask_question(state: State, step: Ask) -> str:
    if step.id == "draw":
        return f"Phase A: does {seat_ref(step.seat)} draw 1 major or 3 minors?"
    if step.id in locations.PROMPTS:
        return locations.question(state, step)
    return majors.question(state, step)


def _names(seats: list[int]) -> str:
    return ", ".join(seat_ref(s) for s in seats)


def pending(state: State) -> tuple[Prompt, ...]:
    """The prompts open now, each with its legal answers."""
    if state.phase in (OVER, SETUP):
        return ()
    head = state.head
    if head is None:
        t = state.turn
        if state.phase == PLAY and t is not None and t.minor_done and t.major is None:
            return (
                Prompt(
                    "end_turn",
                    t.seat,
                    f"{seat_ref(t.seat)}: end the turn without a major, or play a major first?"
                    if majors_allowed(state)
                    else f"{seat_ref(t.seat)}: end the turn?",
                    ("done",),
                ),
            )
        return ()
    if isinstance(head, Ask):
        return (
            Prompt(
                head.id,
                head.seat,
                ask_question(state, head),
                ask_options(state, head),
                private=head.id in PRIVATE,
            ),
        )
    if isinstance(head, Harbour):
        return (
            Prompt("harbour", head.seats[0], locations.harbour_question(head), ("draw", "pass")),
        )
    if isinstance(head, Hides):
        if head.required:
            return ()
        return tuple(
            Prompt(
                "hide",
                s,
                f"{head.why}: {seat_ref(s)} may hide {plural(k, 'more card')} "
                f"({hideable(state, head.fool)}) on the hide strip, or pass",
                ("pass",),
            )
            for s, k in head.left
            if k > 0
        )
    if isinstance(head, Wheel):
        return tuple(
            Prompt(
                "wheel",
                s,
                f"{major_words('major_10')}: what does {seat_ref(s)} pass to the left neighbour?",
                majors.wheel_options(state, s),
                private=True,
            )
            for s, a in enumerate(head.answers)
            if a == ""
        )
    if isinstance(head, Sun):
        return tuple(
            Prompt(
                "sun",
                s,
                f"{major_words('major_19')}: which hidden card does {seat_ref(s)} "
                f"reveal? ({k} more)",
                majors.sun_options(state, s),
                private=True,
            )
            for s, k in enumerate(head.left)
            if k > 0
        )
    if isinstance(head, JudgeRemove):
        return (
            Prompt(
                "judgement",
                head.seat,
                f"{major_words('major_20')}: which pawn does "
                f"{seat_ref(head.seat)} remove to the tray? ({head.left} more)",
                majors.removable(state),
            ),
        )
    if isinstance(head, JudgePlace):
        free = tuple(str(k) for k in range(1, 11) if k not in head.used)
        return (
            Prompt(
                "judgement",
                head.seat,
                f"{major_words('major_20')}: where does "
                f"{seat_ref(head.seat)} place the {pawn_words(head.pawns[0])}?",
                free,
            ),
        )
    if isinstance(head, FameWait):
        family, row = famephase.next_family(state)
        assert state.fame is not None
        out = [
            Prompt(
                "fame",
                None,
                f"{famephase.title(state.fame.kind)}: reveal the {fam(family)} cards (row {row})",
                ("reveal",),
            )
        ]
        holder = famephase.fool_holder(state)
        if holder is not None and state.fame.fool is None:
            out.append(
                Prompt(
                    "fool",
                    holder,
                    "You hid the Fool: which family does it count "
                    "for? (it is revealed with that family; unassigned, it counts for "
                    "the last one)",
                    famephase.fool_options(state),
                    private=True,
                )
            )
        return tuple(out)
    return ()


def waiting_for(state: State) -> str:
    """One plain line: what the table is waiting for now."""
    if state.phase == OVER:
        names = _names(list(state.winners))
        return f"the game is over: {names} {'won' if len(state.winners) == 1 else 'share the win'}"
    if state.phase == SETUP:
        placed = sum(1 for loc in state.pawns if loc > 0)
        return (
            f"setup: place the 16 family pawns on the locations ({placed} placed so far; at "
            "most 2 per location, never two of one colour)"
        )
    head = state.head
    if head is None:
        t = state.turn
        if t is None:  # pragma: no cover - every other phase has a head
            return ""
        if t.minor is None:
            if not majors_allowed(state):  # simplest game, first game rounds 1-2 (R-VAR)
                return f"{seat_ref(t.seat)}: play a minor on the play area"
            return (
                f"{seat_ref(t.seat)}: play a minor on the play area (a major before or after "
                "it is optional)"
            )
        line = (
            f"{seat_ref(t.seat)}: play a major, or end the turn"
            if majors_allowed(state)
            else f"{seat_ref(t.seat)}: end the turn"
        )
        if t.index + 1 < state.n:
            line += f"; or {seat_ref((t.seat + 1) % state.n)} plays a minor to start the next turn"
        return line
    if isinstance(head, Owe):
        what = plural(head.count, head.kind or "card")
        return f"{seat_ref(head.seat)}: discard {what} ({head.why}) on the matching discard pile"
    if isinstance(head, Ask):
        return ask_question(state, head)
    if isinstance(head, Harbour):
        return locations.harbour_question(head)
    if isinstance(head, Hides):
        seats = [s for s, k in head.left if k > 0]
        if head.required and head.rule == "R-DRAW-4":
            return (
                f"phase A: each seat hides 1 card ({hideable(state, head.fool)}) on its hide "
                f"strip; waiting for {_names(seats)}"
            )
        if head.required:
            return (
                f"{_names(seats)}: hide 1 card ({hideable(state, head.fool)}) on the hide strip "
                f"({head.why})"
            )
        return (
            f"{head.why}: {_names(seats)} may hide a card ({hideable(state, head.fool)}) on "
            "the hide strip, or pass"
        )
    if isinstance(head, Pawn):
        return _pawn_line(state, head)
    if isinstance(head, Treasury):
        return (
            f"{seat_ref(head.seat)}: draw 1 minor and hide it at once on the hide strip (Treasury)"
        )
    if isinstance(head, SwapIn):
        return (
            f"{seat_ref(head.seat)}: hide {plural(head.left, 'minor')} from the hand on the "
            f"hide strip ({major_words('major_14')})"
        )
    if isinstance(head, Wheel):
        seats = [s for s, a in enumerate(head.answers) if a == ""]
        return f"{major_words('major_10')}: {_names(seats)} choose what to pass to the left"
    if isinstance(head, Sun):
        seats = [s for s, k in enumerate(head.left) if k > 0]
        return f"{major_words('major_19')}: {_names(seats)} choose hidden cards to reveal"
    if isinstance(head, JudgeRemove):
        return (
            f"{seat_ref(head.seat)}: remove {plural(head.left, 'more pawn')} to the tray "
            f"({major_words('major_20')})"
        )
    if isinstance(head, JudgePlace):
        return (
            f"{seat_ref(head.seat)}: place the {pawn_words(head.pawns[0])} on a location "
            f"not used yet ({major_words('major_20')})"
        )
    if isinstance(head, FameWait):
        family, row = famephase.next_family(state)
        assert state.fame is not None
        return f"{famephase.title(state.fame.kind)}: reveal the {fam(family)} cards (row {row})"
    return ""  # pragma: no cover


def _pawn_line(state: State, head: Pawn) -> str:
    assert state.turn is not None
    who = seat_ref(state.turn.seat)
    card = head.card
    if not is_minor(card):
        return f"{who}: move any pawn to another location ({major_words(card)})"
    n = number_of(card)
    if n is not None:
        family = suit_of(card)
        return (
            f"{who}: move a {FAMILY_COLOUR[family]} ({fam(family)}) pawn to {place(state, n)} "
            f"(the {describe(card)})"
        )
    return f"{who}: move the {pawn_words(pawn_for(card))} to another location"
