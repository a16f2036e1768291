"""``python -m tests.toy_serve ARGS``: the ``scorekeeper`` command with the toy games of the
tests registered beside the real ones, for browser tests of platform features that no
registered game uses yet (tests/browser/conftest.py's ``toy_server``). Never shipped."""

from __future__ import annotations

import importlib
import sys
from typing import Any

from scorekeeper import games
from scorekeeper.cli import main
from scorekeeper.core.game import Game

#: Toy game id -> "module:Class".
TOYS = {"toy-purse": "tests.toy_gold:Purse", "toy-deck": "tests.toy_deck:ToyDeck"}


def _maker(path: str) -> Any:
    def make() -> Game[Any]:
        module, _, name = path.partition(":")
        game: Game[Any] = getattr(importlib.import_module(module), name)()
        return game

    return make


def register() -> None:
    """Add every toy to the registry of this process."""
    for game_id, path in TOYS.items():
        games._REGISTRY[game_id] = _maker(path)


if __name__ == "__main__":
    register()
    sys.exit(main())
