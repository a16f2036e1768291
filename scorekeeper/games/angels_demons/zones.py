"""Zones of the Angels & Demons table and the default reader layout (read from ``zones.yaml``)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any

import yaml

from scorekeeper.errors import ConfigError


def _templates() -> tuple[str, ...]:
    text = resources.files(__package__).joinpath("zones.yaml").read_text(encoding="utf-8")
    data: Any = yaml.safe_load(text)
    try:
        return tuple(str(z) for z in data["zones"])
    except (KeyError, TypeError) as exc:
        raise ConfigError(f"bad zone list: {exc}", path="zones.yaml") from exc


TEMPLATES = _templates()


@cache
def zone_names(n: int) -> tuple[str, ...]:
    """Every zone name at ``n`` seats, in the data file's order."""
    out: list[str] = []
    for t in TEMPLATES:
        if "{seat}" in t:
            out.extend(t.format(seat=s) for s in range(n))
        else:
            out.append(t)
    return tuple(out)


@cache
def zone_map(n: int) -> Mapping[str, tuple[str, int | None]]:
    """Zone name -> (kind, seat or None): ``meld:2`` -> ("meld", 2). Read-only (it is cached)."""
    out: dict[str, tuple[str, int | None]] = {}
    for z in zone_names(n):
        kind, _, seat = z.partition(":")
        out[z] = (kind, int(seat) if seat else None)
    return MappingProxyType(out)


def layout(n: int) -> dict[str, str]:
    """The default layout: reader id (zone with '-' for ':') -> zone name."""
    return {z.replace(":", "-"): z for z in zone_names(n)}
