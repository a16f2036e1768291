"""Tournament points for one table's ranks, and the names of the points schemes and tie-breaks.

Pure arithmetic, exact with ``fractions.Fraction`` (a shared second place of 4-3-2-1 is worth
2.5 to each, never 2.4999). The ruling:

- a numbered scheme such as ``4-3-2-1`` or ``5-3-2-1`` gives a pod of n players the scheme's
  first n values, by place; places beyond the scheme's values earn 0 (a 5th player at a
  4-3-2-1 event);
- players who share a rank at their table split evenly the points of the places they cover
  (two players second at a 4-player table share 3 + 2: 2.5 each);
- ``win-draw-loss`` gives 3 to a sole winner, 1 to each of several players sharing the win,
  0 to everyone else.

Ranks are read as an order, not as numbers: 1, 1, 3 and 1, 1, 2 both mean "two share the first
place and one is third".
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

WIN_DRAW_LOSS = "win-draw-loss"
SCHEMES = ("4-3-2-1", "5-3-2-1", WIN_DRAW_LOSS)
TIE_BREAKS = ("game_points", "table_share", "opponents", "head_to_head")
DEFAULT_TIE_BREAKS = TIE_BREAKS


def scheme_values(scheme: str) -> tuple[int, ...] | None:
    """The points by place of a numbered scheme (``"4-3-2-1"`` -> (4, 3, 2, 1)); None for
    ``win-draw-loss`` or a string that is no scheme (see ``scheme_problem``)."""
    parts = scheme.split("-")
    if scheme == WIN_DRAW_LOSS or not all(part.isdigit() for part in parts):
        return None
    return tuple(int(part) for part in parts)


def scheme_problem(scheme: object) -> str | None:
    """What is wrong with a points scheme, in words; None when it is usable."""
    if scheme == WIN_DRAW_LOSS:
        return None
    values = scheme_values(scheme) if isinstance(scheme, str) else None
    if not values or any(a < b for a, b in zip(values, values[1:], strict=False)):
        return (
            f"{scheme!r} is not a points scheme: use {', '.join(SCHEMES)} or points by place "
            "from first to last, each no more than the one before (such as 6-4-2-1)"
        )
    return None


def table_points(scheme: str, ranks: Sequence[int]) -> tuple[Fraction, ...]:
    """Each player's tournament points for one table, in the order of ``ranks`` (one rank per
    player, 1 = first). See the module docstring for shared ranks."""
    order = sorted(range(len(ranks)), key=lambda i: ranks[i])
    out = [Fraction(0)] * len(ranks)
    values = scheme_values(scheme)
    start = 0
    while start < len(order):
        end = start
        while end < len(order) and ranks[order[end]] == ranks[order[start]]:
            end += 1
        group = order[start:end]  # players sharing places start+1 .. end
        if values is None:  # win-draw-loss
            share = Fraction(0) if start else Fraction(3 if len(group) == 1 else 1)
        else:
            covered = [values[place] if place < len(values) else 0 for place in range(start, end)]
            share = Fraction(sum(covered), len(group))
        for i in group:
            out[i] = share
        start = end
    return tuple(out)


def show(points: Fraction) -> str:
    """Points as people read them: 3, 3.5, 3.33 (two decimals at most, no trailing zeros)."""
    if points.denominator == 1:
        return str(points.numerator)
    text = f"{float(points):.2f}".rstrip("0").rstrip(".")
    return text
