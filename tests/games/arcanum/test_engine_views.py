"""Options (the board, lengths, variants, start seat), the views' keys and secrets, and undo."""

from __future__ import annotations

import json

import pytest

from scorekeeper.core.game import ORGANISER, PUBLIC
from scorekeeper.core.inputs import Undo
from scorekeeper.errors import ConfigError
from scorekeeper.games.arcanum.boards import resolve_board
from tests.games.arcanum.test_engine_helpers import GAME, play, public, st, start

PUBLIC_KEYS = {
    "phase",
    "round",
    "rounds",
    "fame_rounds",
    "start_seat",
    "active_seat",
    "reputation",
    "pawns",
    "blocked",
    "tower",
    "judgement",
    "devil",
    "decks",
    "discards",
    "seats",
    "turn",
    "owed",
    "fame",
    "history",
    "board",
    "winners",
    "over",
    "options",
}


def test_game_attributes_and_zones() -> None:
    assert (GAME.id, GAME.name, GAME.min_seats, GAME.max_seats) == ("arcanum", "Arcanum", 3, 5)
    assert [o.name for o in GAME.options] == [
        "board",
        "length",
        "three_player_length",
        "variant",
        "devil_fame",
        "tied_split",
        "start_seat",
    ]
    assert GAME.options[0].ask
    assert len(GAME.pieces()) == 94
    layout = GAME.default_layout(3)
    assert layout["loc-1"] == "loc:1" and layout["hide-2"] == "hide:2"
    assert layout["minor-discard"] == "minor_discard" and layout["tray"] == "tray"
    assert set(layout.values()) == set(GAME.zones(3))
    assert GAME.describe_piece("pawn_swords_knight").startswith("blue knight pawn")


def test_board_option_names_or_mappings_resolve_to_the_whole_profile() -> None:
    opts = GAME.resolve_options({}, 4)
    assert opts["board"]["name"] == "sample" and opts["board"]["cathedral_gain"] == {"vp": 1}
    mapping = resolve_board("sample").to_mapping()
    mapping["name"] = "ours"
    mapping["sample"] = False
    mapping["cathedral_gain"] = {"vp": 3}
    opts = GAME.resolve_options({"board": mapping}, 3)
    state = GAME.new_game(opts, 3)
    assert state.cfg.cathedral_vp == 3 and GAME.view(state, PUBLIC)["board"] == {
        "name": "ours",
        "sample": False,
    }
    json.dumps(GAME.view(state, PUBLIC))  # JSON-able
    # resolved options are self-contained: resolving them again gives the same
    assert GAME.resolve_options(opts, 3) == opts
    with pytest.raises(ConfigError, match="cannot start a table"):
        GAME.resolve_options({"board": "known"}, 4)
    with pytest.raises(ConfigError):
        GAME.resolve_options({"board": "no-such-board"}, 4)
    with pytest.raises(ConfigError, match="start_seat"):
        GAME.resolve_options({"start_seat": 4}, 4)
    with pytest.raises(ConfigError):
        GAME.resolve_options({"variant": "easy"}, 4)
    with pytest.raises(ConfigError):
        GAME.resolve_options({}, 6)


def test_public_view_keys_and_private_additions() -> None:
    ref = start(4)
    view = GAME.view(ref.state, PUBLIC)
    assert set(view) == PUBLIC_KEYS
    assert view["seats"][0] == {
        "seat": 0,
        "vp": 0,
        "vp_sources": {},
        "hand": 4,
        "hidden": 1,
        "revealed": [],
    }
    assert view["turn"] == {"seat": 0, "minor": None, "major": None, "stage": "minor"}
    mine = GAME.view(ref.state, 1)["seats"]
    assert mine[1]["minors"] == 3 and mine[1]["majors"] == 1
    assert mine[1]["hidden_cards"] == ["cups_7"] and "minors" not in mine[0]
    org = GAME.view(ref.state, ORGANISER)["seats"]
    assert [s["hidden_cards"] for s in org] == [["cups_6"], ["cups_7"], ["cups_8"], ["cups_9"]]
    text = json.dumps(view)
    assert not any(c in text for c in ("cups_6", "cups_7", "cups_8", "cups_9"))
    for seat in range(4):
        others = json.dumps(GAME.view(ref.state, (seat + 1) % 4))
        assert not any(c in others for c in GAME.secrets(ref.state, seat))
    with pytest.raises(ValueError):
        GAME.view(ref.state, 7)


def test_no_public_sign_of_a_hidden_fool() -> None:
    with_fool = start(3, hides=("major_00", "cups_7", "cups_8"))
    without = start(3, hides=("cups_6", "cups_7", "cups_8"))
    for ref in (with_fool, without):
        play(ref, "+play swords_4", "+loc:4 pawn_swords_page")
    a, b = public(with_fool), public(without)
    for key in ("phase", "turn", "owed", "fame", "decks", "discards"):
        assert a[key] == b[key]
    assert [p for p in GAME.pending(with_fool.state) if not p.private] == [
        p for p in GAME.pending(without.state) if not p.private
    ]
    assert GAME.waiting_for(with_fool.state) == GAME.waiting_for(without.state)


def test_undo_returns_the_same_state() -> None:
    ref = start(4)
    before = ref.state
    play(ref, "+play coins_10", "+loc:10 pawn_coins_page", "+minor_discard swords_2")
    middle = ref.state
    play(ref, "+major_discard major_03")
    assert ref.apply(Undo()).accepted
    assert ref.state == middle
    for _ in range(3):
        assert ref.apply(Undo()).accepted
    assert ref.state == before
    assert st(ref).turn is not None and st(ref).turn.minor is None  # type: ignore[union-attr]
