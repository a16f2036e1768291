"""Inputs in plain words for the organiser's console and the command line
(``Game.describe_input``): card, zone and seat names, what a prompt is about and the answer's
words; never a card id, a zone id or an answer id."""

from __future__ import annotations

import re

import pytest

from scorekeeper.api.routes.previews import _words
from scorekeeper.core.game import Game
from scorekeeper.core.inputs import parse_input
from scorekeeper.core.referee import Referee
from scorekeeper.games import find_game
from scorekeeper.sim import find_world

SEATS = ("Ann", "Bea", "Cid", "Dora")


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("+discard:2 IT2p3", "the plain item T2 laid on Cid's discard row"),
        ("-talon H1b1", "the black human 1 lifted off the talon"),
        ("+wait:1 W2", "the waiting token 2 laid on Bea's waiting spot"),
        (
            "decide organiser claim pass",
            "the organiser's answer about claiming the discard: nobody claims it",
        ),
        (
            "decide 1 draw_count 2",
            "Bea's answer about how many cards were drawn after laying a set: drew 2 cards",
        ),
        (
            "decide organiser claimant 3",
            "the organiser's answer about who goes out on the claimed card: Dora",
        ),
        (
            "correct +flip D4r",
            "a correction: the red demon 4 laid on the flip pad instead of the last accepted input",
        ),
    ],
)
def test_angels_and_demons_inputs_in_words(line: str, words: str) -> None:
    game = find_game("angels-and-demons")
    assert game.describe_input(parse_input(line), SEATS) == words
    assert _words(game, SEATS, parse_input(line)) == words  # the console's undo preview


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("+hide:1 major_00", "the Fool (0) laid on Bea's hide strip"),
        ("-play swords_4", "the 4 of swords ⚔ lifted off the play area"),
        ("decide 0 end_turn done", "Ann's answer about ending the turn: end the turn"),
        ("decide 2 market minor", "Cid's answer about the Market's exchange: exchange a minor"),
        (
            "decide 1 empress swords/cups",
            "Bea's answer about the Empress's reputation change: +1 ⚔ swords, -1 ♥ cups",
        ),
    ],
)
def test_arcanum_inputs_in_words(line: str, words: str) -> None:
    assert find_game("arcanum").describe_input(parse_input(line), SEATS) == words


def test_arcanum_names_locations_from_the_state() -> None:
    game = find_game("arcanum")
    ref = Referee(game, {"board": "sample"}, 3)
    name = ref.state.cfg.names[3]
    said = game.describe_input(parse_input("decide 0 tower 4"), SEATS[:3], ref.state)
    assert said.endswith(f": 4 {name}")
    assert game.describe_input(parse_input("decide 0 tower 4"), SEATS[:3]).endswith(": location 4")


@pytest.mark.parametrize(
    ("game_id", "seats"),
    [("angels-and-demons", 4), ("arcanum", 4), ("king-of-the-elves", 4), ("arcana", 4)],
)
def test_every_input_of_a_played_game_is_described_without_ids(game_id: str, seats: int) -> None:
    game = find_game(game_id)
    ids = set(game.pieces())
    world = find_world(game_id)(seats, {}, 7)
    ref = Referee(game, {}, seats)
    count = 0
    while action := world.next_inputs():
        for inp in action:
            said = game.describe_input(inp, SEATS[:seats], ref.state)
            assert not set(re.findall(r"[A-Za-z0-9_]+", said)) & ids, said
            assert not re.search(r"\b[a-z]+_[a-z0-9_]+\b|\b[a-z]+:\d|\{seat:", said), said
            assert ref.apply(inp).accepted
            count += 1
    assert count > 100


def test_the_contract_defaults_name_what_they_can() -> None:
    """A game that gives no words of its own still gets seat names and piece names."""
    game = find_game("angels-and-demons")
    assert Game.zone_words(game, "meld:0") == "meld:0"
    assert Game.prompt_words(game, "draw_count") == "draw count"
    assert Game.answer_words(game, "claim", "pass") == "pass"
    assert game.describe_input(parse_input("undo"), SEATS) == (
        "undo: the last accepted input taken back"
    )
    assert game.describe_input(parse_input("tag +r1 04AABB"), SEATS) == (
        "tag 04AABB seen at reader r1"
    )


def test_the_command_line_prints_feed_inputs_and_answers_in_words() -> None:
    from scorekeeper.commands.table import _answer_words, _input_words

    view = {"game": "angels-and-demons", "seats": list(SEATS)}
    assert _input_words(view, "+discard:3 IT2p3") == (
        "the plain item T2 laid on Dora's discard row"
    )
    assert _input_words(view, "undo (was: +discard:3 IT2p3)") == (
        "undo: the last accepted input taken back (taking back: the plain item T2 laid on "
        "Dora's discard row)"
    )
    assert _input_words(view, "not an input") == "not an input"
    assert _input_words({"game": "chess", "seats": []}, "+talon H1b1") == "+talon H1b1"
    assert _answer_words(view, "claimant", "2") == "Cid = 2"
    assert _answer_words(view, "claim", "pass") == "nobody claims it = pass"
    arcanum = {"game": "arcanum", "seats": list(SEATS)}
    assert _answer_words(arcanum, "end_turn", "done") == "end the turn = done"
