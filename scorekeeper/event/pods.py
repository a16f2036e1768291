"""How many players sit at each table of a round: pod sizes from the game's seat range.

Pure arithmetic (invariant 2): no clock, no randomness. The ruling, shared by seating and by
the console's preview of a round:

- as many pods of the preferred size as possible (4 unless the event says otherwise, clamped
  into the game's range);
- the rest made of the allowed sizes nearest the preferred one (the smallest total distance
  from it; on a tie, fewer and so larger pods);
- byes only when no split of every player exists, and then as few as possible.

Examples for Arcanum (3-5 seats): 10 players -> 4+3+3, 6 -> 3+3, 7 -> 4+3, 9 -> 5+4,
11 -> 4+4+3, 2 -> no pod and 2 byes. For Arcana (2-4 seats): 1 player -> 1 bye.
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
def _rest_split(rest: int, sizes: tuple[int, ...], preferred: int) -> tuple[int, ...] | None:
    """The best split of ``rest`` players into ``sizes`` other than ``preferred``: the smallest
    total distance from ``preferred``, then the fewest pods; None when there is none."""
    best: dict[int, tuple[int, int, tuple[int, ...]]] = {0: (0, 0, ())}
    for total in range(1, rest + 1):
        options = []
        for size in sizes:
            if size == preferred or size > total or (total - size) not in best:
                continue
            distance, count, parts = best[total - size]
            options.append((distance + abs(size - preferred), count + 1, (*parts, size)))
        if options:
            best[total] = min(options, key=lambda option: (option[0], option[1]))
    found = best.get(rest)
    return None if found is None else found[2]


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
        for count in range(seated // want, -1, -1):  # most pods of the preferred size first
            rest = _rest_split(seated - count * want, sizes, want)
            if rest is not None:
                return tuple(sorted((*rest, *[want] * count), reverse=True)), n_players - seated
    raise AssertionError("unreachable: 0 players always split")  # pragma: no cover
