"""Seats and table options for seeded Arcana games: a spread of every option of the contract
(docs/games/arcana.md, "Options"), shared by the world's tests and the cross-check so that both
play the same games."""

from __future__ import annotations

import random
from typing import Any


def setup(seed: int) -> tuple[int, dict[str, Any]]:
    """Seats (2..4, in turn) and options for game ``seed``."""
    seats = 2 + seed % 3
    return seats, options(seed, seats)


def options(seed: int, seats: int) -> dict[str, Any]:
    """Table options for game ``seed`` at ``seats``: at every seat count half the games on the
    defaults (seeds 0-2, 6-8, …: ``setup`` turns the seats with ``seed % 3``, so the halves
    must not), the rest with each option on in about half of them and each gap option's other
    choice in a share, so that a few hundred games cover every one and their mixtures."""
    rng = random.Random(f"arcana-spread-{seed}")
    opts: dict[str, Any] = {"pack": "sample", "start_seat": rng.randrange(seats)}
    if (seed // 3) % 2 == 0:
        return opts
    for name in ("custom_guild", "objectives", "watch", "guild_masters", "events", "set_aside"):
        if rng.random() < 0.5:
            opts[name] = True
    if rng.random() < 0.4:
        opts["watch_call"] = "extra"
    if rng.random() < 0.4:
        opts["master_limit"] = rng.choice(["once_per_round", "unlimited"])
    if rng.random() < 0.4:
        opts["late_princes_games"] = "this_round"
    if rng.random() < 0.4:
        opts["leftovers"] = "returned"
    if rng.random() < 0.4:
        opts["tie_breakers"] = "any_at_district"
    if rng.random() < 0.4:
        opts["harlequin_in_bribes"] = True
    return opts
