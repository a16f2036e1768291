"""Zones of an Arcanum table and the default reader layout (docs/games/arcanum.md, "Zones").

``loc:1`` … ``loc:10`` (one reader per city location), ``tray`` (pawns removed by Judgement),
``play`` (the central play area), ``hide:<s>`` (seat s's hide strip), ``minor_discard`` and
``major_discard``. Each reader is named after its zone: ``loc-1``, ``tray``, ``play``,
``hide-0``, ``minor-discard``, ``major-discard``.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from types import MappingProxyType

LOC = "loc"
TRAY_ZONE = "tray"
PLAY = "play"
HIDE = "hide"
MINOR_PILE = "minor_discard"
MAJOR_PILE = "major_discard"

Where = tuple[str, int | None]
"""A zone as (kind, number): ``("loc", 4)``, ``("hide", 2)``, ``("play", None)``."""


@cache
def zone_names(n: int) -> tuple[str, ...]:
    """Every zone name at ``n`` seats."""
    return (
        tuple(f"{LOC}:{k}" for k in range(1, 11))
        + (TRAY_ZONE, PLAY)
        + tuple(f"{HIDE}:{s}" for s in range(n))
        + (MINOR_PILE, MAJOR_PILE)
    )


@cache
def zone_map(n: int) -> Mapping[str, Where]:
    """Zone name -> (kind, location number or seat or None). Read-only (it is cached)."""
    out: dict[str, Where] = {}
    for z in zone_names(n):
        kind, _, arg = z.partition(":")
        out[z] = (kind, int(arg) if arg else None)
    return MappingProxyType(out)


def layout(n: int) -> dict[str, str]:
    """The default layout: reader id -> zone name (``loc-1`` -> ``loc:1``,
    ``minor-discard`` -> ``minor_discard``)."""
    return {z.replace(":", "-").replace("_", "-"): z for z in zone_names(n)}


ZONE_WORDS = {
    LOC: "Location",
    TRAY_ZONE: "Pawn tray (Judgement)",
    PLAY: "Play area",
    HIDE: "Hide strip",
    MINOR_PILE: "Minor discard pile",
    MAJOR_PILE: "Major discard pile",
}


def describe_zone(zone: str) -> str:
    """Plain words for a zone, without its seat: ``loc:3`` -> "Location 3"."""
    kind, _, arg = zone.partition(":")
    words = ZONE_WORDS.get(kind, kind.replace("_", " ").capitalize())
    return f"{words} {arg}" if kind == LOC and arg else words


def seat_of_zone(zone: str) -> int | None:
    """The seat a zone belongs to (``hide:2`` -> 2); None for the shared ones (``loc:2`` is a
    city location, not seat 2's)."""
    kind, _, arg = zone.partition(":")
    return int(arg) if kind == HIDE and arg.isdigit() else None
