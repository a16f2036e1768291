"""The Arcanum bots: seeded, legal and roughly sensible choices for every decision a player makes.

The world asks a bot only for choices that are legal (it passes the legal options in); the bots
add the randomness that makes many seeds cover every major, location and prompt of the contract
(docs/games/arcanum.md), with a mild taste for VP and for the families they have hidden cards of.
A bot looks only at its own hand and hidden cards and at the public table.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from scorekeeper.games.arcanum.cards import FOOL, SUITS, is_minor, suit_of, value_of
from scorekeeper.sim.draws import pick as pick

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Temper:
    """How eagerly the bots take optional actions (probabilities in 0..1)."""

    major_draw: float = 0.45
    """Phase A: draw a major rather than 3 minors."""
    major_first: float = 0.2
    """Start a turn with a major (answering the previous turn's ``end_turn`` if need be)."""
    major_after: float = 0.6
    """Play a major after the minor."""
    end_turn: float = 0.35
    """Close a turn with ``end_turn done`` even when the next minor would close it."""
    hide_fool: float = 0.4
    """Hide the Fool rather than a minor when hiding."""
    optional_hide: float = 0.65
    """Use a hide an effect offers (Ballroom, Magician, Emperor, Hermit, Moon, World)."""
    greed: float = 0.5
    """Pick the pawn move or major worth the most VP instead of a random one."""
    harbour_draw: float = 0.5
    fool_assign: float = 0.7
    """Assign a hidden Fool before the last family is revealed."""
    by_decision: float = 0.5
    """Answer a Tower block or a Judgement pawn by decision rather than by a sighting."""
    organiser: float = 0.08
    """The organiser answers a seat's public prompt for it."""
    fields_most: int = 3
    """Fields: adjust at most this many families before ``done`` (4 = every family)."""


def best(rng: random.Random, items: Sequence[T], worth: Callable[[T], float]) -> T:
    """The item with the highest worth, ties broken at random."""
    return max(items, key=lambda x: worth(x) + rng.random() * 0.01)


def choose_draw(rng: random.Random, temper: Temper, majors_left: bool) -> str:
    """Phase A (R-DRAW-1): ``major`` or ``minors``."""
    return "major" if majors_left and rng.random() < temper.major_draw else "minors"


def choose_discard(rng: random.Random, minors: Sequence[str], majors: Sequence[str]) -> str:
    """A card to give up (hand limit, Castle, Chariot, Judgement): a spare major or a low minor."""
    spare = [m for m in majors if m != FOOL]
    if spare and (not minors or rng.random() < 0.35):
        return pick(rng, spare)
    if minors:
        return min(minors, key=lambda c: value_of(c) + rng.random() * 6)
    return pick(rng, list(majors))


def choose_hide(
    rng: random.Random, temper: Temper, minors: Sequence[str], has_fool: bool, forced: bool
) -> str | None:
    """A card to hide (a minor or the Fool, G-15), or None to pass when the hide is optional."""
    if not forced and rng.random() >= temper.optional_hide:
        return None
    if has_fool and (not minors or rng.random() < temper.hide_fool):
        return FOOL
    if not minors:
        return None
    ranked = sorted(minors, key=lambda c: value_of(c) + rng.random() * 4, reverse=True)
    return pick(rng, ranked[:3])


def choose_move(
    rng: random.Random, temper: Temper, moves: Sequence[T], worth: Callable[[T], float]
) -> T:
    """A pawn move (or a card with its move): the most valuable one, or any."""
    if rng.random() < temper.greed:
        return best(rng, moves, worth)
    return pick(rng, moves)


def choose_major(
    rng: random.Random,
    temper: Temper,
    playable: Sequence[str],
    first: bool,
    worth: Callable[[str], float],
) -> str | None:
    """A major to play now, or None: before the minor seldom, after it often."""
    if not playable or rng.random() >= (temper.major_first if first else temper.major_after):
        return None
    if rng.random() < temper.greed / 3:
        return best(rng, playable, worth)
    return pick(rng, playable)


def family_interest(hidden: Sequence[str]) -> dict[str, int]:
    """How much a bot cares for each family: its hidden cards of that suit."""
    care = dict.fromkeys(SUITS, 0)
    for card in hidden:
        if is_minor(card):
            care[suit_of(card)] += 1
    return care


def choose_family(rng: random.Random, hidden: Sequence[str]) -> str:
    """A family to raise: weighted toward the suits the bot has hidden."""
    care = family_interest(hidden)
    return rng.choices(SUITS, weights=[1 + 2 * care[f] for f in SUITS])[0]


def choose_empress(rng: random.Random, hidden: Sequence[str]) -> tuple[str, str]:
    """III: a family to raise and a different one to lower."""
    up = choose_family(rng, hidden)
    care = family_interest(hidden)
    others = [f for f in SUITS if f != up]
    down = min(others, key=lambda f: care[f] + rng.random() * 2)
    return up, down


def choose_fields(
    rng: random.Random, hidden: Sequence[str], most: int = 3
) -> list[tuple[str, int]]:
    """Fields: up to ``most`` families, each adjusted once by +1 or -1, in the bot's order."""
    care = family_interest(hidden)
    families = list(SUITS)
    rng.shuffle(families)
    count = rng.randint(0, most)
    return [(f, 1 if care[f] or rng.random() < 0.5 else -1) for f in families[:count]]


def choose_artists(rng: random.Random) -> str:
    return "major" if rng.random() < 0.5 else "minors"


def choose_market(rng: random.Random, can_major: bool, can_minor: bool) -> str:
    """Market: ``none``, ``major`` or ``minor`` (only exchanges the AP can make)."""
    options = ["none"] + (["major"] if can_major else []) + (["minor"] if can_minor else [])
    return pick(rng, options)


def choose_cathedral(rng: random.Random, can_hide: bool) -> str:
    return "hide" if can_hide and rng.random() < 0.5 else "draw"


def choose_harbour(rng: random.Random, temper: Temper) -> bool:
    return rng.random() < temper.harbour_draw


def choose_wheel(rng: random.Random, minors: Sequence[str], majors: Sequence[str]) -> list[str]:
    """X: the (up to) two cards a seat passes left."""
    hand = [*minors, *majors]
    rng.shuffle(hand)
    return hand[:2]


def choose_death(rng: random.Random, minors: Sequence[str]) -> list[str]:
    """XIII: one or two minors to discard for as many majors."""
    count = rng.randint(1, min(2, len(minors)))
    return sorted(minors, key=lambda c: value_of(c) + rng.random() * 6)[:count]


def choose_temperance(
    rng: random.Random, hidden_minors: Sequence[str], hand_minors: Sequence[str]
) -> tuple[list[str], list[str]]:
    """XIV: hidden minors to take back and as many hand minors to hide instead (maybe none)."""
    most = min(2, len(hidden_minors), len(hand_minors))
    count = rng.randint(0, most) if most else 0
    back = rng.sample(list(hidden_minors), count)
    forth = sorted(hand_minors, key=lambda c: value_of(c) + rng.random() * 6, reverse=True)
    return back, forth[:count]


def choose_tower(rng: random.Random) -> list[int]:
    """XVI: one to three locations under the card (G-18)."""
    first = rng.randint(1, 10)
    blocks = [first]
    for _ in range(rng.choice((0, 0, 1, 2))):
        nxt = min(10, max(1, blocks[-1] + rng.choice((-1, 1))))
        if nxt not in blocks:
            blocks.append(nxt)
    return blocks


def choose_sun(rng: random.Random, hidden: Sequence[str]) -> list[str]:
    """XIX: the three hidden cards a seat with more than three reveals (G-20: the owner picks)."""
    return rng.sample(list(hidden), 3)


def choose_judgement(rng: random.Random, removable: Sequence[str]) -> list[str]:
    """XX: three pawns to take off the board (all there are, when fewer can be taken)."""
    return rng.sample(list(removable), min(3, len(removable)))


def choose_fool_turn(
    rng: random.Random, temper: Temper, hidden: Sequence[str], order: Sequence[str]
) -> int | None:
    """The fame step (index into ``order``) at which to assign a hidden Fool, or None (last)."""
    if rng.random() >= temper.fool_assign:
        return None
    care = family_interest(hidden)
    return best(rng, range(len(order)), lambda i: care[order[i]] + rng.random())
