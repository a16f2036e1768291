"""The Angels & Demons bots: simple, seeded choices for every decision a player makes.

The bots play legal, reasonable moves with some randomness so that many seeds cover every path
of the contract (self-draw, claims, "mine!", sets, waiting, exhaustion). They never cheat: each
choice looks only at the bot's own hand, its own laid sets and the public table.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from scorekeeper.sim.angels_demons.cards import (
    CODE,
    is_complete,
    is_item,
    partners_for,
    sets_in,
    waits,
)


@dataclass(frozen=True, slots=True)
class Temper:
    """How eagerly the bots take optional actions (probabilities in 0..1)."""

    lay: float = 0.3
    lay_items: float = 0.9
    mine: float = 0.5
    declare: float = 0.8
    token: float = 0.3
    draw_two: float = 0.8
    idle_pass: float = 0.1
    item_love: int = 0
    """Extra worth of an item card when taking and discarding (collectors chase R-ADV-6)."""


def usefulness(card: str, others: Sequence[str]) -> int:
    """A rough worth of keeping ``card`` next to ``others``: copies and near neighbours count."""
    code = CODE[card]
    worth = 0
    for o in others:
        gap = abs(CODE[o] - code)
        if gap == 0:
            worth += 4
        elif code < 100 and gap <= 2:  # numbered codes of different kinds are >= 3 apart
            worth += 3 - gap
    return worth


def _worth(card: str, others: Sequence[str], item_love: int) -> float:
    return usefulness(card, others) + (item_love if is_item(card) else 0)


def choose_take(
    rng: random.Random, hand: Sequence[str], talon: Sequence[str], waiting: bool, item_love: int = 0
) -> tuple[str, bool]:
    """The talon card to take and whether the bot then goes out with it (R-TURN-1/2)."""
    if len(hand) == 7:
        winners = [c for c in talon if is_complete([*hand, c])]
        if winners:
            return rng.choice(winners), True
    if waiting:
        return rng.choice(list(talon)), False
    scored = sorted(talon, key=lambda c: _worth(c, hand, item_love) + rng.random(), reverse=True)
    return scored[0], False


def choose_discard(rng: random.Random, hand: Sequence[str], item_love: int = 0) -> str:
    """The least useful card of ``hand``, preferring a discard that leaves a waiting hand."""
    ranked = sorted(
        hand, key=lambda c: _worth(c, [o for o in hand if o != c], item_love) + rng.random()
    )
    if len(hand) == 8:
        for card in ranked[:3]:
            rest = [c for c in hand if c != card]
            if waits(rest):
                return card
    return ranked[0]


def choose_lay(
    rng: random.Random, hand: Sequence[str], temper: Temper, advanced: bool
) -> tuple[str, str, str] | None:
    """A set to lay from ``hand`` (R-TURN-3 option a), or None to discard instead."""
    options = sets_in(hand)
    if not options:
        return None
    items = [s for s in options if all(is_item(c) for c in s)]
    if advanced and items and rng.random() < temper.lay_items:
        return rng.choice(items)
    if rng.random() < temper.lay:
        return rng.choice(options)
    return None


def choose_mine(
    rng: random.Random, card: str, hand: Sequence[str], temper: Temper, advanced: bool
) -> tuple[str, str] | None:
    """Two hand cards to lay with a discarded ``card`` by "mine!" (R-CLAIM-3), or None."""
    pairs = partners_for(card, hand)
    if not pairs:
        return None
    eager = temper.lay_items if advanced and is_item(card) else temper.mine
    return rng.choice(pairs) if rng.random() < eager else None


def choose_draw_count(rng: random.Random, temper: Temper) -> int:
    """How many cards to draw after laying a set: mostly 2, sometimes 0 or 1 (A-5)."""
    if rng.random() < temper.draw_two:
        return 2
    return rng.choice((0, 1))
