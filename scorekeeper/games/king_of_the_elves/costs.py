"""The travel cost table (R-TRAVEL-6, R-TRAVEL-9) and the path of a journey (R-TRAVEL-3 … 5,
G-8, G-9, G-24): pure functions on primitives, no state.

The path: seats 0 … N−1 sit clockwise; ``counts[s]`` is how many villages seat s's principality
holds, its slots 1 … counts[s] met in that order going clockwise. The traveller's castle lies
between the right neighbour's last village and the traveller's own slot 1: going clockwise from
the castle the first village is one's own slot 1. The castle is not a stop (G-8): with
``ring_closed`` the path runs through it, without it the path ends there (None). A principality
with no village (possible only with the house rule of G-16) is passed over.
"""

from __future__ import annotations

from collections.abc import Sequence

from scorekeeper.games.king_of_the_elves.cards import TRAVEL_TYPES, TYPE_WORDS

# Directions, as journey.py names them (journey.py imports this module, not the reverse).
CLOCKWISE = 1

# R-TRAVEL-6: how many cards of one type reach a village of each terrain (absent: it cannot).
# Elfenland's transport chart, as the rulebook's worked figures confirm (T-COST-1 … 3).
COSTS: dict[str, dict[str, int]] = {
    "giant_pig": {"forest": 1, "plain": 1},
    "elfcycle": {"mountain": 2, "forest": 1, "plain": 1},
    "magic_cloud": {"mountain": 1, "forest": 2, "plain": 2},
    "unicorn": {"desert": 2, "mountain": 1, "forest": 1},
    "troll_wagon": {"desert": 2, "mountain": 2, "forest": 2, "plain": 1},
    "dragon": {"desert": 1, "mountain": 1, "forest": 2, "plain": 1},
    "raft": {"lake": 2, "river": 1},
}


def cost(travel_type: str, terrain: str, surcharge: bool = False) -> int | None:
    """The cards of ``travel_type`` a move to a ``terrain`` village takes (R-TRAVEL-6), one more
    with ``surcharge`` (an obstacle that hinders, R-TRAVEL-9); None when the type cannot go."""
    base = COSTS.get(travel_type, {}).get(terrain)
    if base is None:
        return None
    return base + 1 if surcharge else base


def costs_for(terrain: str, surcharge: bool = False) -> tuple[tuple[str, int], ...]:
    """The types that reach ``terrain`` and how many cards each takes, in the table's order."""
    found = ((t, cost(t, terrain, surcharge)) for t in TRAVEL_TYPES)
    return tuple((t, n) for t, n in found if n is not None)


def type_name(travel_type: str, count: int = 1) -> str:
    """A travel type's bare name, singular or plural: "raft", "rafts"."""
    word = TYPE_WORDS.get(travel_type, travel_type.replace("_", " "))
    return word if count == 1 else word + "s"


def a_card(kind: str) -> str:
    """One card of a type with its article: "a raft", "an elfcycle", "a unicorn", "an escort"
    (the article by sound: "unicorn" starts with a consonant sound)."""
    word = TYPE_WORDS.get(kind, kind.replace("_", " "))
    sounds_vowel = word[:1] in "aeio" or (word[:1] == "u" and not word.startswith("uni"))
    return f"{'an' if sounds_vowel else 'a'} {word}"


def _or_list(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} or {items[-1]}"


def costs_words(terrain: str, surcharge: bool = False) -> str:
    """What reaches a ``terrain`` village, grouped by count: "1 giant pig, 1 elfcycle or 1
    unicorn, or 2 magic clouds, troll wagons or dragons" (a forest, no obstacle)."""
    groups: dict[int, list[str]] = {}
    for travel_type, n in costs_for(terrain, surcharge):
        groups.setdefault(n, []).append(travel_type)
    parts = []
    for n in sorted(groups):
        if n == 1:
            parts.append(_or_list([f"1 {type_name(t)}" for t in groups[n]]))
        else:
            parts.append(f"{n} " + _or_list([type_name(t, n) for t in groups[n]]))
    return ", or ".join(parts)


def _crosses_castle(traveller: int, n: int, left: int) -> bool:
    """Whether the seat boundary between ``left`` and ``left + 1`` (clockwise) is the
    traveller's castle: it lies between the right neighbour and the traveller."""
    return (left + 1) % n == traveller


def next_village(
    counts: Sequence[int],
    traveller: int,
    at: tuple[int, int] | None,
    direction: int,
    ring_closed: bool = True,
) -> tuple[int, int] | None:
    """The village a journey reaches next, as ``(seat, slot)``, or None when there is none.

    ``at`` None is the castle (before the first visit); otherwise the village stood at. The next
    village is the neighbour of ``at`` in ``direction`` (R-TRAVEL-5, G-24); past the castle the
    path goes on only with ``ring_closed`` (G-8); with two players both neighbours are the same
    seat and the same rule gives G-9's path. None also when no principality holds a village.
    """
    n = len(counts)
    if n == 0:
        return None
    if at is None:
        # From the castle: clockwise to one's own slot 1 (or the first principality holding a
        # village); counterclockwise (never asked by the rules) to the right neighbour's last.
        seat = traveller if direction == CLOCKWISE else (traveller - 1) % n
        for _ in range(n):
            if counts[seat] > 0:
                return (seat, 1) if direction == CLOCKWISE else (seat, counts[seat])
            seat = (seat + direction) % n
        return None
    seat, slot = at
    if direction == CLOCKWISE:
        if slot < counts[seat]:
            return (seat, slot + 1)
        for _ in range(n):
            if _crosses_castle(traveller, n, seat) and not ring_closed:
                return None
            seat = (seat + 1) % n
            if counts[seat] > 0:
                return (seat, 1)
        return None
    if slot > 1:
        return (seat, slot - 1)
    for _ in range(n):
        previous = (seat - 1) % n
        if _crosses_castle(traveller, n, previous) and not ring_closed:
            return None
        seat = previous
        if counts[seat] > 0:
            return (seat, counts[seat])
    return None


def crosses_castle(
    counts: Sequence[int], traveller: int, at: tuple[int, int] | None, direction: int
) -> bool:
    """Whether the way from ``at`` to the next village (ring closed) passes the traveller's
    castle: the point where ``ring_closed: false`` ends the path (G-8)."""
    if at is None:
        return False
    return next_village(counts, traveller, at, direction, True) is not None and (
        next_village(counts, traveller, at, direction, False) is None
    )


def path(
    counts: Sequence[int], traveller: int, ring_closed: bool = True
) -> tuple[tuple[int, int], ...]:
    """The clockwise path from the castle, each village once (for views and tests)."""
    out: list[tuple[int, int]] = []
    place = next_village(counts, traveller, None, CLOCKWISE, ring_closed)
    while place is not None and place not in out:
        out.append(place)
        place = next_village(counts, traveller, place, CLOCKWISE, ring_closed)
    return tuple(out)
