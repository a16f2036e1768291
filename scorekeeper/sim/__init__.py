"""Simulated tables: full-information worlds with bots that emit a real table's inputs.

The registry is explicit and lazy: ``WORLDS`` maps a game id to the dotted path of its world
class, and nothing is imported until ``find_world`` asks for it (no import side effects, lean
start-up on a Pi).
"""

from __future__ import annotations

from importlib import import_module

from scorekeeper.errors import UnknownGame
from scorekeeper.sim.world import World

WORLDS: dict[str, str] = {
    "angels-and-demons": "scorekeeper.sim.angels_demons.world:AngelsDemonsWorld",
    "arcanum": "scorekeeper.sim.arcanum.world:ArcanumWorld",
    "king-of-the-elves": "scorekeeper.sim.king_of_the_elves.world:KingOfTheElvesWorld",
    "arcana": "scorekeeper.sim.arcana.world:ArcanaWorld",
}


def has_world(game_id: str) -> bool:
    """True when a simulated world is registered for the game ``game_id``."""
    return game_id in WORLDS


def find_world(game_id: str) -> type[World]:
    """The world class for ``game_id``; raises UnknownGame naming the games that have one."""
    try:
        path = WORLDS[game_id]
    except KeyError:
        known = ", ".join(sorted(WORLDS))
        raise UnknownGame(
            f"no simulated world for {game_id!r}; worlds exist for: {known}"
        ) from None
    module, _, name = path.partition(":")
    cls = getattr(import_module(module), name)
    if not (isinstance(cls, type) and issubclass(cls, World)):  # pragma: no cover - registry bug
        raise TypeError(f"{path} is not a World")
    return cls


__all__ = ["WORLDS", "World", "find_world", "has_world"]
