"""The two ways the simulated worlds' bots draw from their world's seeded ``random.Random``:
a uniform pick and a weighted one. One place for both, so every world's choices draw the same
numbers from its rng (a changed draw would change every seeded game and its golden scripts)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def pick(rng: random.Random, items: Sequence[T]) -> T:
    """A uniform choice (kept in one place so every choice draws from the world's rng)."""
    return items[rng.randrange(len(items))]


def weighted(rng: random.Random, options: Sequence[tuple[float, T]]) -> T:
    """One of ``options`` (weight, item) with probability by weight; the first if all are 0."""
    total = sum(w for w, _ in options)
    roll = rng.random() * total
    for w, item in options:
        roll -= w
        if roll < 0:
            return item
    return options[0][1]
