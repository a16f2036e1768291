"""Fame-phase arithmetic (R-FAME): rows from reputation, scoring order, one family's awards.

Pure functions only: the referee decides when a phase happens and which cards are revealed;
this module says what they are worth. Values follow the award table R-FAME-9 and the World's
halved table R-FAME-11; tied players share as the ``tied_split`` table option says (G-8).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scorekeeper.games.arcanum.cards import SUITS

ROW_AWARDS: dict[int, tuple[int, int, int]] = {
    1: (16, 8, 4),
    2: (12, 6, 3),
    3: (10, 5, 2),
    4: (8, 4, 2),
}
"""Row -> (dominance, influence, presence) of a regular fame phase (R-FAME-9)."""

WORLD_AWARDS: dict[int, tuple[int, int, int]] = {
    1: (8, 4, 0),
    2: (6, 3, 0),
    3: (5, 2, 0),
    4: (4, 2, 0),
}
"""Row -> (dominance, influence, presence) of the World's special phase (R-FAME-11)."""

SPLITS = ("pooled", "own_place")
"""The ``tied_split`` options: pool the covered places (G-8, default) or share one place."""


def rows(rep: Mapping[str, int] | Sequence[int]) -> dict[str, int]:
    """Each family's fame row: 1 + the number of families with strictly more reputation.

    Tied families share a row and the rows after them stay empty (R-FAME-2). ``rep`` is a
    ``{family: n}`` mapping or a reputation tuple in ``SUITS`` order.
    """
    values = dict(rep) if isinstance(rep, Mapping) else dict(zip(SUITS, rep, strict=True))
    if set(values) != set(SUITS):
        raise ValueError(f"reputation must give all four families: {', '.join(SUITS)}")
    return {f: 1 + sum(1 for g in SUITS if values[g] > values[f]) for f in SUITS}


def order(family_rows: Mapping[str, int]) -> tuple[str, ...]:
    """The order families are scored in: by row, same-row families swords, coins, wands, cups
    (R-FAME-3)."""
    return tuple(sorted(family_rows, key=lambda f: (family_rows[f], SUITS.index(f))))


@dataclass(frozen=True)
class FamilyResult:
    """What one family's scoring gave.

    ``places`` lists the seats that revealed at least one card, best first, tied seats in one
    group (seats in a group in ascending order). ``awards`` maps every such seat to its VP
    (0 allowed, for places past the third or the World's presence).
    """

    family: str
    row: int
    places: tuple[tuple[int, ...], ...]
    awards: dict[int, int]


def _award(table: tuple[int, int, int], place: int) -> int:
    """The award of a 1-based place; places beyond the third pay nothing (R-FAME-7)."""
    return table[place - 1] if 1 <= place <= len(table) else 0


def score_family(
    family: str,
    row: int,
    holdings: Mapping[int, Sequence[int]],
    *,
    world: bool = False,
    split: str = "pooled",
) -> FamilyResult:
    """Rank the seats that revealed cards of ``family`` and pay the row's awards.

    ``holdings`` maps a seat to the values of the cards it revealed for this family (the Fool
    counts 0); seats with no card take no place, so an award nobody qualifies for is lost
    (R-FAME-7). More cards rank first, then the higher total; equal on both is a tie
    (R-FAME-6). A tied group covering places p … q shares: ``pooled`` the sum of those
    places' awards, ``own_place`` the award of place p; divided by the group size, rounded
    down (R-FAME-8, G-8). The next group takes the place after the group.
    """
    if family not in SUITS:
        raise ValueError(f"{family!r} is not a family; families: {', '.join(SUITS)}")
    table_of = WORLD_AWARDS if world else ROW_AWARDS
    if row not in table_of:
        raise ValueError(f"a fame row is 1 to 4, not {row}")
    if split not in SPLITS:
        raise ValueError(f"tied split must be one of {', '.join(SPLITS)}, not {split!r}")
    table = table_of[row]
    keys = {seat: (len(values), sum(values)) for seat, values in holdings.items() if values}
    ranked = sorted(keys, key=lambda seat: (-keys[seat][0], -keys[seat][1], seat))
    groups: list[tuple[int, ...]] = []
    for seat in ranked:
        if groups and keys[groups[-1][0]] == keys[seat]:
            groups[-1] = (*groups[-1], seat)
        else:
            groups.append((seat,))
    awards: dict[int, int] = {}
    place = 1
    for group in groups:
        size = len(group)
        if split == "pooled":
            pot = sum(_award(table, p) for p in range(place, place + size))
        else:
            pot = _award(table, place)
        for seat in group:
            awards[seat] = pot // size
        place += size
    return FamilyResult(family=family, row=row, places=tuple(groups), awards=awards)
