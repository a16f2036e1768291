"""Helpers for the Arcanum engine tests: a referee with short flows (no tests in this file).

``start(n)`` gives a referee in round 1, phase B: the 16 pawns placed (``LAYOUT``) and each seat
has hidden one card (``ROUND1_HIDES``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.core.referee import Referee
from scorekeeper.games.arcanum import Arcanum
from scorekeeper.games.arcanum.cards import PAWNS
from scorekeeper.games.arcanum.state import State
from tests.driving import play as play  # re-exported for the tests of this game
from tests.driving import refuse as refuse

GAME = Arcanum()

LAYOUT: dict[str, int] = {}
"""A legal setup: swords and coins pawns of one figure share locations 1-4, wands and cups
5-8 (page, knight, queen, king); locations 9 and 10 stay empty."""
for _i, _p in enumerate(PAWNS):
    _suit, _fig = divmod(_i, 4)
    LAYOUT[_p] = _fig + 1 + (4 if _suit >= 2 else 0)

ROUND1_HIDES = ("cups_6", "cups_7", "cups_8", "cups_9", "cups_10")


def new_ref(n: int = 4, **options: Any) -> Referee:
    """A fresh referee for ``n`` seats with these options."""
    return Referee(GAME, options, n)


def st(ref: Referee) -> State:
    """The referee's current Arcanum state."""
    state = ref.state
    assert isinstance(state, State)
    return state


def place_pawns(ref: Referee, layout: Mapping[str, int] | None = None) -> tuple[str, ...]:
    """Setup: all 16 pawns arrive on their locations."""
    layout = dict(LAYOUT if layout is None else layout)
    return play(ref, *(f"+loc:{loc} {p}" for p, loc in layout.items()))


def start(
    n: int = 4,
    hides: tuple[str, ...] | None = None,
    layout: Mapping[str, int] | None = None,
    **options: Any,
) -> Referee:
    """A referee in round 1's phase B (pawns placed, round-1 hides made)."""
    ref = new_ref(n, **options)
    place_pawns(ref, layout)
    cards = ROUND1_HIDES[:n] if hides is None else hides
    play(ref, *(f"+hide:{s} {c}" for s, c in enumerate(cards)))
    return ref


def prompt_ids(ref: Referee) -> list[str]:
    return [p.id for p in GAME.pending(ref.state)]


def options_of(ref: Referee, prompt: str) -> tuple[str, ...]:
    return next(p.options for p in GAME.pending(ref.state) if p.id == prompt)


def public(ref: Referee) -> dict[str, Any]:
    return GAME.view(ref.state, "public")


def set_state(ref: Referee, **changes: Any) -> None:
    """Replace parts of the referee's state (for a test's starting position)."""
    from dataclasses import replace

    ref.restart_from(replace(st(ref), **changes))


def jump(ref: Referee, **changes: Any) -> tuple[str, ...]:
    """Replace parts of the state, then let the automatic steps run (a test's position)."""
    from scorekeeper.games.arcanum.engine import settle
    from scorekeeper.games.arcanum.state import evolve

    ev: list[str] = []
    ref.restart_from(settle(evolve(st(ref), **changes), ev))
    return tuple(ev)


def end_round(ref: Referee) -> tuple[str, ...]:
    """Skip to the last turn of the round (its minor resolved) and end it: the next round, or
    the fame phase first in a fame round."""
    from scorekeeper.games.arcanum.state import Turn

    s = st(ref)
    last = (s.start + s.n - 1) % s.n
    set_state(
        ref, turn=Turn(last, s.n - 1, minor="swords_1", minor_done=True), queue=(), phase="play"
    )
    return play(ref, f"decide {last} end_turn done")


def turn_of(ref: Referee, seat: int, **turn: Any) -> None:
    """Make it ``seat``'s turn (nothing played yet unless ``turn`` says so)."""
    from scorekeeper.games.arcanum.state import Turn

    s = st(ref)
    index = (seat - s.start) % s.n
    set_state(ref, turn=Turn(seat, index, **turn), queue=(), phase="play")
