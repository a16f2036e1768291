"""Conformance is the gate (issue 12, point 5): a game registered without what every game needs
fails the suite, naming what is missing.

Every registered game has a simulated world (the conformance test, the cross-checks, the demo and
the perturbation check play it), a players' rules reference in docs/rules/ with its shipped copy
(served at /rules/<game>), a table picture (webui/games/<game>.js, what the TV draws) and a
registry of its rule ids (tests/games/test_rule_registry.py checks its contents).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.core.game import Game
from scorekeeper.core.snapshot import SnapshotError
from scorekeeper.games import find_game, game_ids
from scorekeeper.sim import has_world

ROOT = Path(__file__).resolve().parents[1]


def missing(game_id: str, root: Path = ROOT) -> list[str]:
    """What the game ``game_id`` lacks of what every registered game must have, in words."""
    out = []
    if not has_world(game_id):
        out.append("a simulated world (scorekeeper/sim/, registered in scorekeeper.sim.WORLDS)")
    for path, what in (
        (f"docs/rules/{game_id}.md", "a players' rules reference"),
        (f"scorekeeper/rulebook/{game_id}.md", "the rules reference's shipped copy"),
        (f"webui/games/{game_id}.js", "a table picture"),
    ):
        if not (root / path).is_file():
            out.append(f"{what} ({path})")
    package = Path(type(find_game(game_id)).__module__.replace(".", "/")).parent
    if not (root / package / "rule_ids.py").is_file():
        out.append(f"a registry of its rule ids ({package}/rule_ids.py)")
    return out + contract_gaps(find_game(game_id))


def contract_gaps(game: Game[Any]) -> list[str]:
    """What ``game``'s class lacks of the contract beyond its abstract methods: the state type
    it names (``Game[State]``), without which ``Game.restore`` cannot build a state, and a
    first state that round-trips through its record form."""
    try:
        game.state_type()
    except TypeError:
        return [f"the state class it plays on, named in its class line ({game.name}(Game[State]))"]
    state = game.new_game(game.resolve_options(None, game.min_seats), game.min_seats)
    try:
        back = game.restore(json.loads(json.dumps(game.snapshot(state))))
    except SnapshotError as exc:
        back = exc
    if back != state:
        return [f"a state that comes back equal from its record (Game.snapshot/restore): {back}"]
    return []


@pytest.mark.parametrize("game_id", game_ids())
def test_every_registered_game_has_what_every_game_needs(game_id: str) -> None:
    assert not missing(game_id), f"{game_id} is registered but lacks: " + "; ".join(
        missing(game_id)
    )


def test_the_gate_names_what_is_missing(tmp_path: Path) -> None:
    """Against an empty checkout every file is missing: the gate can fail, and says what."""
    game_id = game_ids()[0]
    found = missing(game_id, root=tmp_path)
    assert any("players' rules reference" in m for m in found)
    assert any("table picture" in m for m in found)
    assert any("registry of its rule ids" in m for m in found)


def test_the_gate_names_a_game_without_a_state_type_or_record() -> None:
    """A game that names no state class, or whose state does not survive its record, is
    missing part of the contract."""
    from tests.toy_gold import Gold, GoldState

    assert contract_gaps(Gold()) == []
    methods = {k: v for k, v in vars(Gold).items() if not k.startswith("__")}
    untyped = type("Untyped", (Game,), methods)()
    assert "state class" in contract_gaps(untyped)[0]

    class Forgetful(Gold):
        def restore(self, record: Any) -> GoldState:
            return super().restore(record).__class__(n=1, rounds=1)

    assert "comes back equal" in contract_gaps(Forgetful())[0]
