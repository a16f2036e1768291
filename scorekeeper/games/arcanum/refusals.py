"""Refusals shared by several judges (every refusal names a rule id, a reason and a hint)."""

from __future__ import annotations

from scorekeeper.core.outcomes import Rejected
from scorekeeper.core.text import seat_ref
from scorekeeper.games.arcanum.state import Owe


def owed_refusal(state: object, head: Owe, back: str) -> Rejected:
    """R-DRAW-3 (or the effect's rule): owed discards come before anything else."""
    what = f"{head.count} {head.kind or 'card'}{'s' if head.count > 1 else ''}"
    todo = f"{seat_ref(head.seat)} discards {what} on the matching discard pile"
    return Rejected(
        head.rule,
        f"{seat_ref(head.seat)} owes a discard first ({what}, {head.why})",
        f"{back}; {todo}" if back else todo,
    )
