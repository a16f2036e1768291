"""The game registry: explicit, and each game's code loaded only when that game is asked for."""

from __future__ import annotations

import json
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


def test_a_game_reads_only_shipped_entries_itself_and_as_its_data_kind_would() -> None:
    # Game.needs_data_entry spares the hub a game's data kinds (their file models and the YAML
    # parser: memory on a Pi). It may say no only for an option no kind selects, or for a
    # shipped entry's name that resolve_options reads to the very mapping the kind gives.
    from scorekeeper.core import data

    left_to_the_game = []
    for game in games().values():
        kinds = {k.option: k for k in game.data_kinds() if k.option is not None}
        for option in game.options:
            kind = kinds.get(option.name)
            if kind is None:
                assert not game.needs_data_entry(option.name, option.default), option.name
                continue
            assert game.needs_data_entry(option.name, "a-saved-one"), option.name
            assert game.needs_data_entry(option.name, {"name": "uploaded"}), option.name
            for name in data.sample_files(kind):
                if game.needs_data_entry(option.name, name):
                    continue
                left_to_the_game.append(game.id)
                entry = data.resolve_option(kind, name)
                by_name = game.resolve_options({option.name: name}, game.max_seats)
                by_kind = game.resolve_options({option.name: entry}, game.max_seats)
                assert json.dumps(by_name) == json.dumps(by_kind), (game.id, name)
    assert {"arcana", "king-of-the-elves"} <= set(left_to_the_game)
