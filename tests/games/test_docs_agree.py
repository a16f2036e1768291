"""The game docs name the keys of each finished round's (or fame phase's) ``history`` entry as
the views give them: the docs once said a round records "how it ended" where the key is ``end``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from scorekeeper.core.referee import Referee
from scorekeeper.games import find_game
from scorekeeper.sim import find_world

DOCS = Path(__file__).resolve().parents[2] / "docs" / "games"


def _documented_keys(doc: str) -> set[str]:
    """The top-level keys of the first ``{...}`` after "`history`" in a game doc."""
    text = (DOCS / doc).read_text(encoding="utf-8")
    start = text.index("{", text.index("`history`"))
    keys, word, depth = set(), "", 0
    for ch in text[start + 1 :]:
        if ch in "{[":
            depth += 1
        elif ch in "}]":
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and ch == ",":
            keys.add(word)
            word = ""
        elif depth == 0 and ch == ":":
            word += "\0"  # the key ends here
        elif depth == 0 and "\0" not in word:
            word += ch
    keys.add(word)
    return {re.sub(r"\s+", "", k.split("\0")[0]) for k in keys}


def _history(game_id: str, seats: int) -> list[dict[str, Any]]:
    game = find_game(game_id)
    world = find_world(game_id)(seats, {}, 5)
    ref = Referee(game, {}, seats)
    while action := world.next_inputs():
        for inp in action:
            assert ref.apply(inp).accepted
    history: list[dict[str, Any]] = game.view(ref.state, "public")["history"]
    assert history
    return history


def test_angels_and_demons_history_keys_are_documented() -> None:
    keys = _documented_keys("angels-and-demons.md")
    assert "end" in keys
    for entry in _history("angels-and-demons", 3):
        assert set(entry) == keys
        assert entry["end"] in ("out", "exhausted", "item_win")


def test_arcanum_history_keys_are_documented() -> None:
    keys = _documented_keys("arcanum.md")
    for entry in _history("arcanum", 4):
        assert set(entry) == keys


def test_king_of_the_elves_history_keys_are_documented() -> None:
    """Each finished journey's entry: the keys the contract's `history` row names."""
    keys = _documented_keys("king-of-the-elves.md")
    assert {"round", "seat", "collected", "paid", "bonus"} <= keys
    for entry in _history("king-of-the-elves", 4):
        assert set(entry) == keys


def test_arcana_history_keys_are_documented() -> None:
    """Each resolved district's entry (and each stake won at once): the contract's keys."""
    keys = _documented_keys("arcana.md")
    assert {"round", "district", "stake", "sums", "winner", "reason", "immediate"} <= keys
    for entry in _history("arcana", 3):
        assert set(entry) == keys
