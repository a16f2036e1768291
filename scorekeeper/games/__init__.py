"""The registry of supported games. Explicit: a game is listed here, never self-registered."""

from __future__ import annotations

from scorekeeper.core.game import Game
from scorekeeper.errors import UnknownGame


def _load() -> dict[str, Game]:
    from scorekeeper.games.angels_demons import AngelsAndDemons
    from scorekeeper.games.arcanum.game import Arcanum

    games: list[Game] = [AngelsAndDemons(), Arcanum()]
    return {g.id: g for g in games}


_GAMES: dict[str, Game] | None = None


def games() -> dict[str, Game]:
    """Every registered game by id (loaded on first use, to keep start-up imports lean)."""
    global _GAMES
    if _GAMES is None:
        _GAMES = _load()
    return _GAMES


def find_game(game_id: str) -> Game:
    """The game with this id; raises UnknownGame naming the ones that exist."""
    try:
        return games()[game_id]
    except KeyError:
        known = ", ".join(sorted(games()))
        raise UnknownGame(f"no game called {game_id!r}; known games: {known}") from None
