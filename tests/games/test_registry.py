"""The game registry: explicit, and each game's code loaded only when that game is asked for."""

from __future__ import annotations

import subprocess
import sys

import pytest

from scorekeeper.errors import UnknownGame
from scorekeeper.games import find_game, game_ids, games


def test_every_registered_game_is_found_by_its_id() -> None:
    assert game_ids() == ("angels-and-demons", "arcanum", "king-of-the-elves", "arcana")
    assert list(games()) == list(game_ids())
    for game_id in game_ids():
        assert find_game(game_id).id == game_id
        assert find_game(game_id) is find_game(game_id)  # one instance per game


def test_an_unknown_game_names_the_known_ones() -> None:
    with pytest.raises(
        UnknownGame, match="known games: angels-and-demons, arcana, arcanum, king-of-the-elves"
    ):
        find_game("chess")


def test_one_game_does_not_load_the_others() -> None:
    """A table of Angels & Demons never imports Arcanum's code (memory on a Pi Zero)."""
    probe = (
        "import sys\n"
        "from scorekeeper.games import find_game, game_ids\n"
        "game_ids()\n"
        "assert not any(m.startswith('scorekeeper.games.') for m in sys.modules), 'ids'\n"
        "find_game('angels-and-demons')\n"
        "loaded = [m for m in sys.modules if m.startswith('scorekeeper.games.arcanum')]\n"
        "assert not loaded, loaded\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
