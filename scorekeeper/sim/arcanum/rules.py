"""The world's own Arcanum arithmetic: options, the round schedule, reputation and fame scoring.

This is an independent second implementation of the rules (docs/rules/arcanum.md): the
simulated world must not share code with the referee (``scorekeeper/games/arcanum/``) beyond the
piece ids and the board profiles, so that a cross-check compares two readings of the rules.
All functions are pure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scorekeeper.errors import ConfigError
from scorekeeper.games.arcanum.cards import SUITS

MIN_SEATS = 3
MAX_SEATS = 5
HAND_LIMIT = 7
"""R-DRAW-3: more cards than this in hand must be discarded at once."""
REP_MAX = 21
"""R-REP-1: the last space of the reputation track."""

DEFAULTS: dict[str, Any] = {
    "board": "sample",
    "length": "normal",
    "three_player_length": "by_length",
    "variant": "full",
    "devil_fame": "doubled",
    "tied_split": "pooled",
    "start_seat": 0,
}
CHOICES: dict[str, tuple[str, ...]] = {
    "length": ("normal", "long"),
    "three_player_length": ("by_length", "always_8"),
    "variant": ("full", "first_game", "simplest"),
    "devil_fame": ("doubled", "not_doubled"),
    "tied_split": ("pooled", "own_place"),
}

FAME_AWARDS: dict[int, tuple[int, int, int]] = {
    1: (16, 8, 4),
    2: (12, 6, 3),
    3: (10, 5, 2),
    4: (8, 4, 2),
}
"""R-FAME-9: dominance, influence and presence of each fame row."""


def resolve_options(options: Mapping[str, Any], seats: int) -> dict[str, Any]:
    """The table options with defaults filled in; ConfigError for anything unknown or bad."""
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise ConfigError(f"Arcanum is for {MIN_SEATS}-{MAX_SEATS} players, not {seats}")
    unknown = sorted(set(options) - set(DEFAULTS))
    if unknown:
        raise ConfigError(
            f"unknown option(s) for Arcanum: {', '.join(unknown)}; known: {', '.join(DEFAULTS)}"
        )
    out = {**DEFAULTS, **options}
    for name, allowed in CHOICES.items():
        if out[name] not in allowed:
            raise ConfigError(f"option {name!r} must be one of {', '.join(allowed)}")
    start = out["start_seat"]
    if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start < seats:
        raise ConfigError(f"option 'start_seat' must be a seat 0 … {seats - 1}, not {start!r}")
    if not isinstance(out["board"], str | Mapping):
        raise ConfigError("option 'board' is a profile name or a profile mapping")
    return out


def schedule(seats: int, length: str, three_player_length: str) -> tuple[int, tuple[int, ...]]:
    """(number of rounds, the fame rounds): R-ROUND-2/3 and G-10."""
    if seats >= 4:
        return (9, (3, 6, 9)) if length == "long" else (6, (3, 6))
    if three_player_length == "always_8" or length == "long":
        return 8, (4, 8)
    return 4, (4,)


def gain_reputation(rep: dict[str, int], family: str, amount: int) -> None:
    """Apply one reputation change in place: R-REP-2 overflow (G-4) and the floor at 0 (G-5)."""
    if amount < 0:
        rep[family] = max(0, rep[family] + amount)
        return
    new = rep[family] + amount
    if new <= REP_MAX:
        rep[family] = new
        return
    excess = new - REP_MAX
    rep[family] = REP_MAX
    for other in SUITS:
        if other != family:
            rep[other] = max(0, rep[other] - excess)


def fame_rows(rep: Mapping[str, int]) -> dict[str, int]:
    """R-FAME-2: a family's row is 1 + the number of families with strictly more reputation."""
    return {f: 1 + sum(1 for g in SUITS if rep[g] > rep[f]) for f in SUITS}


def fame_order(rep: Mapping[str, int]) -> list[str]:
    """R-FAME-3: families by row, ties in the order swords, coins, wands, cups."""
    rows = fame_rows(rep)
    return sorted(SUITS, key=lambda f: (rows[f], SUITS.index(f)))


def award_table(row: int, world: bool) -> tuple[int, int, int]:
    """The three awards of a row; the World's phase pays influence, presence and 0 (R-FAME-11)."""
    dominance, influence, presence = FAME_AWARDS[row]
    return (influence, presence, 0) if world else (dominance, influence, presence)


def ranking(values: Sequence[Sequence[int]]) -> list[list[int]]:
    """R-FAME-6: seats with at least one card, grouped by (count, total value), best first."""
    keys = {s: (len(v), sum(v)) for s, v in enumerate(values) if v}
    groups: list[list[int]] = []
    for key in sorted(set(keys.values()), reverse=True):
        groups.append([s for s in sorted(keys) if keys[s] == key])
    return groups


def score_family(
    values: Sequence[Sequence[int]], awards: Sequence[int], tied_split: str = "pooled"
) -> list[int]:
    """Every seat's award for one family (R-FAME-6/7/8, G-8).

    ``values`` holds, per seat, the values of its revealed cards of the family (the Fool as 0).
    A tied group covers as many places as it has members; ``pooled`` shares the sum of those
    places' awards, ``own_place`` only the award of the place it ties for; both round down. The
    next seat takes the place after the group; places after the third pay nothing.
    """
    out = [0] * len(values)
    place = 0
    for group in ranking(values):
        size = len(group)

        def award(p: int) -> int:
            return awards[p] if p < len(awards) else 0

        if tied_split == "own_place":
            share = award(place) // size
        else:
            share = sum(award(p) for p in range(place, place + size)) // size
        for seat in group:
            out[seat] = share
        place += size
    return out
