"""Zones of a King of the Elves table and the default reader layout (contract, "Zones").

Per seat s: ``village_k:s`` (the village in slot k, and an obstacle laid across it) and
``attach_k:s`` (beside it: its gold and thief cards), k = 1, 2 (and 3 with two players); shared:
``road`` (the travel phase's tap pad) and ``discard`` (the planning phase's tap pad). Readers are
named after their zone with ``-`` for ``:`` and ``_``: ``village-1-2`` -> ``village_1:2``.
"""

from __future__ import annotations

from functools import cache

VILLAGE = "village"
ATTACH = "attach"
ROAD = "road"
DISCARD = "discard"

_ORDINAL = {1: "first", 2: "second", 3: "third"}


def slots_for(seats: int) -> int:
    """Village pads per principality: 3 with two players (R-PLAN-16, whatever the option: an
    unused third pad costs nothing), else 2."""
    return 3 if seats == 2 else 2


@cache
def zone_names(seats: int) -> tuple[str, ...]:
    """Every zone name at ``seats`` seats: seat by seat (village and attachment pad per slot),
    then ``road`` and ``discard``."""
    out: list[str] = []
    for s in range(seats):
        for k in range(1, slots_for(seats) + 1):
            out += [f"{VILLAGE}_{k}:{s}", f"{ATTACH}_{k}:{s}"]
    return (*out, ROAD, DISCARD)


def layout(seats: int) -> dict[str, str]:
    """The default layout: reader id -> zone name."""
    return {z.replace(":", "-").replace("_", "-"): z for z in zone_names(seats)}


def parse(zone: str) -> tuple[str, int, int] | None:
    """A zone as ``(kind, slot, seat)``: ``("village", 1, 2)``, ``("road", 0, -1)``; None for a
    name that is no zone of this game (the table checks it against its seat count)."""
    if zone in (ROAD, DISCARD):
        return zone, 0, -1
    head, colon, seat = zone.partition(":")
    kind, _, slot = head.rpartition("_")
    if not colon or not seat.isdigit() or kind not in (VILLAGE, ATTACH):
        return None
    if slot not in ("1", "2", "3"):
        return None
    return kind, int(slot), int(seat)


def ordinal(slot: int) -> str:
    """A slot in words: "first", "second", "third"."""
    return _ORDINAL.get(slot, f"slot {slot}")


def describe_zone(zone: str) -> str:
    """Plain words for a zone without its seat, as printed on its pad: "First village",
    "Beside the first village", "Road pad", "Discard pad"."""
    where = parse(zone)
    if where is None:
        return zone
    kind, slot, _ = where
    if kind == VILLAGE:
        return f"{ordinal(slot).capitalize()} village"
    if kind == ATTACH:
        return f"Beside the {ordinal(slot)} village"
    return "Road pad" if kind == ROAD else "Discard pad"


def pad_of(kind: str, slot: int, seat: int) -> str:
    """The zone name of a pad: ``pad_of("attach", 2, 0)`` -> ``attach_2:0``."""
    return f"{kind}_{slot}:{seat}"
