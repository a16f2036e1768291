"""The King of the Elves bots: seeded, legal and roughly sensible choices for every decision.

The world asks a bot only among legal options (it passes them in, already checked against the
rules); the bots add the randomness that makes many seeds cover every action, special card and
journey rule of the contract (docs/games/king-of-the-elves.md), with a taste for gold: villages
in their own principality first, gold cards on their own villages, thieves and obstacles on the
others', purchases when rich, draw 3 when the hand is poor; on a journey they go as far as the
hand allows, with escorts, turnarounds and teleports when those help.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from scorekeeper.sim.draws import pick as pick
from scorekeeper.sim.draws import weighted as weighted


@dataclass(frozen=True, slots=True)
class Temper:
    """How eagerly the bots take optional actions (weights and probabilities)."""

    lay_village: float = 3.0
    """Planning weight: lay a village in one's own principality (when there is room)."""
    lay_elsewhere: float = 0.25
    """Planning weight: lay a spare village in another principality."""
    gold: float = 2.0
    thief: float = 1.5
    obstacle: float = 1.2
    buy: float = 1.0
    draw3: float = 0.8
    remove: float = 0.35
    pass_: float = 0.8
    """Planning weight of a pass; it grows with every turn the phase has lasted."""
    patience: int = 10
    """Planning turns per seat after which a bot that may pass always does."""
    early_stop: float = 0.02
    """The chance, before each move, of stopping a journey that could go on."""
    unfinished: float = 0.03
    """Lay the first card of a move of two or more, then stop (G-25: it goes back)."""
    turnaround: float = 0.7
    """Play a turnaround when the way on is closed and the way back is open."""
    teleport: float = 0.6
    """Teleport (with the variant) when the way on is closed."""
    escort: float = 0.85
    """Play an escort before entering a principality with a thief or obstacle."""
    organiser: float = 0.05
    """The organiser answers a seat's prompt for it."""


def least_useful(
    rng: random.Random, cards: Sequence[str], count: int, worth: Callable[[str], float]
) -> list[str]:
    """The ``count`` cards of ``cards`` a bot minds least giving up (a little noise in it)."""
    ranked = sorted(cards, key=lambda c: worth(c) + rng.random() * 1.5)
    return ranked[:count]


def choose_move(
    rng: random.Random, moves: Sequence[tuple[str, int]], held: Callable[[str], int]
) -> tuple[str, int]:
    """A move (type, cards) among the affordable ones: the fewest cards, then the type the hand
    holds most of (it can spare them), ties at random."""
    return min(moves, key=lambda m: (m[1], -held(m[0]), rng.random()))
