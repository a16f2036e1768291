"""What ``scorekeeper doctor`` knows of the reader hardware: the bridge's chip-select pins (from
its config.json), the Pi's own chip-selects, and how often each reader was polled (from the
backend's counters).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from scorekeeper.errors import ConfigError

# The Pi's hardware chip-selects: SPI bus.cs -> what to check.
PI_CHIP_SELECTS = {
    (0, 0): "CE0, GPIO8",
    (0, 1): "CE1, GPIO7",
    (1, 0): "CE0 of SPI1, GPIO18",
    (1, 1): "CE1 of SPI1, GPIO17",
    (1, 2): "CE2 of SPI1, GPIO16",
}
SPI_KINDS = ("spi", "mfrc522")  # readers on the Pi's own SPI bus


def bridge_pins(path: str | None) -> list[str]:
    """The chip-select pin of each bridge reader (``GP17``...), from the bridge config file.

    Without ``path`` the config shipped in ``firmware_bridge`` is read; an unreadable file gives
    an empty list (the advice then names no pin). ConfigError when ``path`` was given and bad.
    """
    try:
        if path is not None:
            with open(path, encoding="utf-8") as fh:
                data = json.load(fh)
        else:
            from importlib import resources

            text = resources.files("firmware_bridge").joinpath("config.json").read_text("utf-8")
            data = json.loads(text)
        readers = data.get("readers") or []
        return [
            f"GP{r['cs']}" if isinstance(r.get("cs"), int) else str(r.get("cs", "?"))
            for r in readers
        ]
    except (OSError, ValueError, AttributeError, TypeError, KeyError) as exc:
        if path is not None:
            raise ConfigError(f"cannot read the bridge config {path}: {exc}") from None
        return []


def poll_interval_ms(
    kind: str, stats0: Mapping[str, Any], stats: Mapping[str, Any], elapsed: float, polled: int
) -> float | None:
    """How often each reader was polled while doctor watched, in ms (None: not known).

    ``stats0``/``stats`` are the backend's ``stats()`` before and after, ``elapsed`` the seconds
    between them and ``polled`` the readers that answered. The bridge counts single reader polls
    in its heartbeats (``polls``, with its own ``uptime_ms``); the spi backends count rounds of
    every reader (``polls``).
    """
    if kind == "serial":
        b0, b1 = stats0.get("bridge", {}), stats.get("bridge", {})
        try:
            polls = int(b1["polls"]) - int(b0["polls"])
            ms = int(b1["uptime_ms"]) - int(b0["uptime_ms"])
        except (KeyError, TypeError, ValueError):
            return None
        if polls <= 0 or ms <= 0 or polled <= 0:
            return None
        return ms * polled / polls
    if kind in SPI_KINDS:
        rounds = int(stats.get("polls", 0)) - int(stats0.get("polls", 0))
        if rounds <= 0 or elapsed <= 0:
            return None
        return elapsed * 1000.0 / rounds
    return None
