"""The game object: registry, pieces, zones, layout, options."""

from __future__ import annotations

import pytest

from scorekeeper.core.inputs import Sighting
from scorekeeper.core.table import Table, TableConfig
from scorekeeper.errors import ConfigError
from scorekeeper.games import find_game
from scorekeeper.games.angels_demons import AngelsAndDemons
from tests.games.angels_demons.helpers import GAME, state


def test_registry_and_identity() -> None:
    game = find_game("angels-and-demons")
    assert isinstance(game, AngelsAndDemons)
    assert (game.name, game.min_seats, game.max_seats) == ("Angels & Demons", 2, 4)


def test_pieces_and_descriptions() -> None:
    pieces = GAME.pieces()
    assert len(pieces) == 104 and len(set(pieces)) == 104
    assert pieces[:4] == ("H1b1", "H1b2", "H1b3", "H1r") and pieces[-5:] == (
        "IT4p3",
        "W1",
        "W2",
        "W3",
        "W4",
    )
    assert GAME.describe_piece("A5r") == "red angel 5"
    assert GAME.describe_piece("H5b2") == "black human 5"
    assert GAME.describe_piece("IT2p1") == "plain item T2"
    assert GAME.describe_piece("IT2c") == "conditional item T2"
    assert GAME.describe_piece("W1") == "waiting token 1"


def test_zones_and_layout() -> None:
    assert GAME.zones(2) == (
        "talon",
        "meld:0",
        "meld:1",
        "discard:0",
        "discard:1",
        "out",
        "flip",
        "wait:0",
        "wait:1",
    )
    layout = GAME.default_layout(4)
    assert layout["meld-2"] == "meld:2" and layout["talon"] == "talon" and len(layout) == 15


def test_options_defaults_depend_on_players() -> None:
    for n, target, rounds in ((2, 24, 6), (3, 18, 6), (4, 12, 8)):
        opts = GAME.resolve_options({}, n)
        assert (opts["target_points"], opts["max_rounds"]) == (target, rounds)
    opts = GAME.resolve_options({"target_points": 0, "mode": "advanced"}, 3)
    assert opts["target_points"] == 0 and opts["max_rounds"] == 6
    assert opts["mode"] == "advanced" and opts["post_set_draw"] == "choice"
    assert opts["red17_counts_itself"] is True and opts["item_win_timing"] == "on_lay"
    assert opts["tie_break"] == "shared" and opts["start_seat"] == 0
    for bad in ({"mode": "expert"}, {"start_seat": 3}, {"max_rounds": -1}, {"colour": 1}):
        with pytest.raises(ConfigError):
            GAME.resolve_options(bad, 3)
    with pytest.raises(ConfigError):
        GAME.resolve_options({}, 5)


def test_a_table_with_the_default_layout() -> None:
    kit = {f"uid{i}": p for i, p in enumerate(GAME.pieces())}
    uid = {p: u for u, p in kit.items()}
    table = Table(
        TableConfig("angels-and-demons", ("Ann", "Bea"), layout=GAME.default_layout(2), kit=kit),
        GAME,
    )
    for card in ("H1b1", "H2b1", "H3b1"):
        assert table.submit(Sighting("talon", uid[card], True)).accepted
    assert table.submit(Sighting("wait-1", uid["W2"], True)).accepted
    st = state(table.referee)
    assert st.waiting == frozenset({1}) and st.deck == 83
    view = table.view("public")
    assert view["waiting_for"] == "Ann: take a card from the talon"
