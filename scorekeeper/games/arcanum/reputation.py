"""The reputation track (R-REP): four family counters from 0 to 21.

A reputation is a plain tuple in ``SUITS`` order; every change returns a new one. Changes are
applied one at a time (R-REP-4), so callers apply a list of changes in the order they happen.
"""

from __future__ import annotations

from scorekeeper.games.arcanum.cards import SUITS

Reputation = tuple[int, int, int, int]
"""Reputation of swords, coins, wands, cups (``SUITS`` order)."""

START: Reputation = (0, 0, 0, 0)
TOP = 21


def _index(family: str) -> int:
    try:
        return SUITS.index(family)
    except ValueError:
        raise ValueError(f"{family!r} is not a family; families: {', '.join(SUITS)}") from None


def change(rep: Reputation, family: str, amount: int) -> Reputation:
    """``rep`` after ``family`` gains (or, when negative, loses) ``amount``.

    A gain past 21 stops at 21 and every other family moves back by the excess, never below 0
    (R-REP-2, G-4). A loss stops at 0 and never moves anyone else (R-REP-3, G-5).
    """
    i = _index(family)
    if amount == 0:
        return rep
    values = list(rep)
    new = values[i] + amount
    if new > TOP:
        excess = new - TOP
        values = [max(0, v - excess) for v in values]
        values[i] = TOP
    else:
        values[i] = max(0, new)
    return (values[0], values[1], values[2], values[3])


def get(rep: Reputation, family: str) -> int:
    """One family's reputation."""
    return rep[_index(family)]


def as_dict(rep: Reputation) -> dict[str, int]:
    """``{swords: n, coins: n, wands: n, cups: n}``, as the public view shows it."""
    return dict(zip(SUITS, rep, strict=True))
