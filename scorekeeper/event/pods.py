"""How many players sit at each table of a round: pod sizes from the game's seat range.

Pure arithmetic (invariant 2): no clock, no randomness. The ruling, shared by seating and by
the console's preview of a round:

- byes only when no split of every player exists, and then as few as possible;
- no table further from the preferred size (4 unless the event says otherwise, clamped into
  the game's range) than it must be: a 4-player game of 10 players sits 4+3+3, not 4+4+2;
- among those, as many tables of the preferred size as possible, then the rest as near to it
  as possible (the smallest total distance), then the fewest tables.

Examples for Arcanum (3-5 seats): 10 players -> 4+3+3, 6 -> 3+3, 7 -> 4+3, 9 -> 5+4,
11 -> 4+4+3, 2 -> no pod and 2 byes. King of the Elves (2-6 seats): 10 -> 4+3+3. Arcana
(2-4 seats): 5 -> 3+2, 1 player -> 1 bye.
"""

from __future__ import annotations

from functools import lru_cache

from scorekeeper.errors import ScorekeeperError

DEFAULT_PREFERRED = 4


class SeatingError(ScorekeeperError, ValueError):
    """A round cannot be seated as asked (seat range, tables, results not final...)."""


def _check_range(min_seats: int, max_seats: int) -> None:
    if not 1 <= min_seats <= max_seats:
        raise SeatingError(
            f"a pod needs a seat range such as 3-5, not {min_seats}-{max_seats}: "
            "the smallest pod must be at least 1 and at most the largest"
        )


def pod_sizes(min_seats: int, max_seats: int, preferred: int | None = None) -> tuple[int, ...]:
    """Every allowed pod size, in order of preference: the preferred size (default 4, clamped
    into ``min_seats..max_seats``) first, then by distance from it, larger first on a tie."""
    _check_range(min_seats, max_seats)
    want = DEFAULT_PREFERRED if preferred is None else preferred
    want = min(max(want, min_seats), max_seats)
    return tuple(
        sorted(range(min_seats, max_seats + 1), key=lambda size: (abs(size - want), -size))
    )


@lru_cache(maxsize=4096)
def _best_split(total: int, sizes: tuple[int, ...], preferred: int) -> tuple[int, ...] | None:
    """The best split of ``total`` players into pods of ``sizes``: the most pods of the
    preferred size, then the smallest total distance from it, then the fewest pods; None when
    there is none."""
    best: dict[int, tuple[int, int, int, tuple[int, ...]]] = {0: (0, 0, 0, ())}
    for count in range(1, total + 1):
        options = []
        for size in sizes:
            if size > count or (count - size) not in best:
                continue
            exact, distance, pods, parts = best[count - size]
            options.append(
                (
                    exact - (size == preferred),
                    distance + abs(size - preferred),
                    pods + 1,
                    (*parts, size),
                )
            )
        if options:
            best[count] = min(options, key=lambda option: option[:3])
    found = best.get(total)
    return None if found is None else found[3]


def split(
    n_players: int, min_seats: int, max_seats: int, preferred: int | None = None
) -> tuple[tuple[int, ...], int]:
    """The pod sizes for ``n_players`` (largest first) and the number of byes, by the ruling in
    this module's docstring. ``n_players`` may be 0 (no pod, no bye)."""
    if n_players < 0:
        raise SeatingError(f"a round cannot seat {n_players} players")
    sizes = pod_sizes(min_seats, max_seats, preferred)
    want = sizes[0]
    for seated in range(n_players, -1, -1):  # fewest byes first
        for reach in range(max_seats - min_seats + 1):  # no pod further from the size wanted
            near = tuple(size for size in sizes if abs(size - want) <= reach)
            found = _best_split(seated, near, want)
            if found is not None:
                return tuple(sorted(found, reverse=True)), n_players - seated
    raise AssertionError("unreachable: 0 players always split")  # pragma: no cover
