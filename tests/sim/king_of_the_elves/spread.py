"""Seats and table options for seeded King of the Elves games: a spread of every option of the
contract (docs/games/king-of-the-elves.md, "Options"), shared by the world's tests and the
cross-check so that both play the same games."""

from __future__ import annotations

import random
from typing import Any

CRESTS = "abcdef"


def setup(seed: int) -> tuple[int, dict[str, Any]]:
    """Seats (2..6, in turn) and options for game ``seed``."""
    seats = 2 + seed % 5
    return seats, options(seed, seats)


def options(seed: int, seats: int) -> dict[str, Any]:
    """Table options for game ``seed`` at ``seats``: each non-default value in a share of the
    games, so that a few hundred games cover every one and their mixtures."""
    rng = random.Random(f"elves-spread-{seed}")
    opts: dict[str, Any] = {"start_seat": rng.randrange(seats)}
    if rng.random() < 0.3:
        opts["starting_gold"] = 12
    if rng.random() < 0.3:
        opts["money"] = "phones"
    if rng.random() < 0.4:
        opts["teleport"] = True
    if seats == 2 and rng.random() < 0.3:
        opts["two_player_villages"] = 2
    if rng.random() < 0.3:
        opts["crests"] = "".join(rng.sample(CRESTS, seats))
    if rng.random() < 0.25:
        opts["ring_closed"] = False
    if rng.random() < 0.25:
        opts["own_principality_is_entered"] = False
    if rng.random() < 0.25:
        opts["escort_mid_principality"] = True
    if rng.random() < 0.3:
        opts["token_limit"] = "on_table"
    if rng.random() < 0.3:
        opts["search_fallback"] = True
    return opts
