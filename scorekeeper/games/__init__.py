"""The registry of supported games. Explicit: a game is listed here, never self-registered.

Each game's code is imported the first time that game is asked for, not before: a table of one
game never loads the others (a Pi Zero has 512 MB, and imports are slow there).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from scorekeeper.core.game import Game
from scorekeeper.errors import UnknownGame


def _angels_and_demons() -> Game[Any]:
    from scorekeeper.games.angels_demons import AngelsAndDemons

    return AngelsAndDemons()


def _arcanum() -> Game[Any]:
    from scorekeeper.games.arcanum.game import Arcanum

    return Arcanum()


def _arcana() -> Game[Any]:
    from scorekeeper.games.arcana.game import Arcana

    return Arcana()


def _king_of_the_elves() -> Game[Any]:
    from scorekeeper.games.king_of_the_elves.game import KingOfTheElves

    return KingOfTheElves()


#: Every supported game: its id and how to make it, in the order games are listed.
_REGISTRY: dict[str, Callable[[], Game[Any]]] = {
    "angels-and-demons": _angels_and_demons,
    "arcanum": _arcanum,
    "king-of-the-elves": _king_of_the_elves,
    "arcana": _arcana,
}
_LOADED: dict[str, Game[Any]] = {}

#: The game ``scorekeeper demo`` and ``make demo`` play when none is named: the first listed.
DEFAULT_GAME: str = next(iter(_REGISTRY))


def game_ids() -> tuple[str, ...]:
    """Every registered game's id, without loading any game's code."""
    return tuple(_REGISTRY)


def find_game(game_id: str) -> Game[Any]:
    """The game with this id (its code loaded on first use); raises UnknownGame naming the
    ones that exist."""
    game = _LOADED.get(game_id)
    if game is not None:
        return game
    make = _REGISTRY.get(game_id)
    if make is None:
        known = ", ".join(sorted(_REGISTRY))
        raise UnknownGame(f"no game called {game_id!r}; known games: {known}")
    game = make()
    if game.id != game_id:  # a registry line that names the wrong class
        raise AssertionError(f"the registry's {game_id!r} makes the game {game.id!r}")
    _LOADED[game_id] = game
    return game


def games() -> dict[str, Game[Any]]:
    """Every registered game by id, in registry order. Loads every game's code: for a list of
    ids alone, use ``game_ids``."""
    return {game_id: find_game(game_id) for game_id in _REGISTRY}
