"""Zones of an Arcana table, the districts per seat count and the default reader layout
(docs/games/arcana.md, "Zones").

Per district x (``a`` … ``d``, and ``n`` the neutral one): ``stake_<x>`` (its face-up stake)
and ``agents_<x>`` (its agent area). Per seat s: ``discard:<s>`` (the tap pad in front of its
discard pile) and ``badge:<s>`` (its badge, master, objectives and set-aside stakes). Shared:
``event``. Readers are named after their zone with ``-`` for ``:`` and ``_``.
"""

from __future__ import annotations

from functools import cache

from scorekeeper.core.text import seat_ref
from scorekeeper.games.arcana.names import district_words
from scorekeeper.games.arcana.state import NEUTRAL

STAKE = "stake"
AGENTS = "agents"
DISCARD = "discard"
BADGE = "badge"
EVENT = "event"

FRIENDLY = "friendly"
NEUTRAL_RELATION = "neutral"
ENEMY = "enemy"

# G-1 … G-3: the districts other than the neutral one and the seats each is friendly to.
_TABLE: dict[int, tuple[tuple[str, tuple[int, ...]], ...]] = {
    2: (("a", (0,)), ("b", (0,)), ("c", (1,)), ("d", (1,))),
    3: (("a", (0, 1)), ("b", (1, 2)), ("c", (2, 0))),
    4: (("a", (0, 1)), ("b", (1, 2)), ("c", (2, 3)), ("d", (3, 0))),
}


def district_table(seats: int) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Every district at ``seats`` seats as ``(id, friends)``, the lettered ones first and the
    neutral one (friendly to nobody) last (G-1 … G-3). KeyError outside 2 … 4 seats."""
    return (*_TABLE[seats], (NEUTRAL, ()))


def district_ids(seats: int) -> tuple[str, ...]:
    """The district ids at ``seats`` seats, ``n`` last."""
    return tuple(did for did, _ in district_table(seats))


def friends_of(seats: int, did: str) -> tuple[int, ...]:
    """The seats district ``did`` is friendly to (none for the neutral one)."""
    return dict(district_table(seats))[did]


def relation(seats: int, seat: int, did: str) -> str:
    """What district ``did`` is to ``seat``: "friendly", "neutral" or "enemy" (G-1 … G-3)."""
    if did == NEUTRAL:
        return NEUTRAL_RELATION
    return FRIENDLY if seat in friends_of(seats, did) else ENEMY


@cache
def zone_names(seats: int) -> tuple[str, ...]:
    """Every zone at ``seats`` seats: each district's stake and agents pads, each seat's
    discard and badge pads, then the event pad (read only with ``events``)."""
    out: list[str] = []
    for did in district_ids(seats):
        out += [f"{STAKE}_{did}", f"{AGENTS}_{did}"]
    for s in range(seats):
        out += [f"{DISCARD}:{s}", f"{BADGE}:{s}"]
    return (*out, EVENT)


def layout(seats: int) -> dict[str, str]:
    """The default layout: reader id -> zone name (``stake-a`` -> ``stake_a``, ``discard-2``
    -> ``discard:2``)."""
    return {z.replace(":", "-").replace("_", "-"): z for z in zone_names(seats)}


def parse(zone: str) -> tuple[str, str, int] | None:
    """A zone as ``(kind, district, seat)``: ``("stake", "a", -1)``, ``("discard", "", 2)``,
    ``("event", "", -1)``; None for a name that is no zone of this game. The caller checks the
    district and seat against the table."""
    if zone == EVENT:
        return EVENT, "", -1
    head, colon, seat = zone.partition(":")
    if colon:
        if head in (DISCARD, BADGE) and seat.isdigit():
            return head, "", int(seat)
        return None
    kind, _, did = zone.partition("_")
    if kind in (STAKE, AGENTS) and did in ("a", "b", "c", "d", NEUTRAL):
        return kind, did, -1
    return None


def describe_zone(zone: str) -> str:
    """A zone in plain words without its seat, as printed on its pad: "District A's stake",
    "The neutral district's agents", "Discard pad", "Badge pad", "Event pad"."""
    where = parse(zone)
    if where is None:
        return zone
    kind, did, _ = where
    if kind in (STAKE, AGENTS):
        words = f"{district_words(did)}'s {'stake' if kind == STAKE else 'agents'}"
        return words[:1].upper() + words[1:]
    return {DISCARD: "Discard pad", BADGE: "Badge pad", EVENT: "Event pad"}[kind]


def zone_words(zone: str) -> str:
    """A zone as people name it, a seat's with its ``seat_ref`` marker: "district A's stake",
    "the neutral district's agents", "{seat:0}'s discard pad", "{seat:1}'s badge", "the event
    pad"."""
    where = parse(zone)
    if where is None:
        return zone
    kind, did, seat = where
    if kind == DISCARD:
        return f"{seat_ref(seat)}'s discard pad"
    if kind == BADGE:
        return f"{seat_ref(seat)}'s badge"
    if kind == EVENT:
        return "the event pad"
    return f"{district_words(did)}'s {'stake' if kind == STAKE else 'agents'}"


def stake_zone(did: str) -> str:
    """The stake pad of district ``did``."""
    return f"{STAKE}_{did}"


def agents_zone(did: str) -> str:
    """The agent pad of district ``did``."""
    return f"{AGENTS}_{did}"


def discard_zone(seat: int) -> str:
    """Seat ``seat``'s discard pad."""
    return f"{DISCARD}:{seat}"


def badge_zone(seat: int) -> str:
    """Seat ``seat``'s badge pad."""
    return f"{BADGE}:{seat}"
