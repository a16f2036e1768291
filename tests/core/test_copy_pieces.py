"""Pieces that are all public, and pieces that follow a data entry, on Toy deck
(tests/toy_deck.py): a game without secret pieces keeps card names in the refusals everyone
reads (``Game.secret_pieces``), and a table's kit check, its piece words and fake kits follow
the deck the table's options name (``Game.pieces_for``, ``Game.describe_piece_for``)."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.core.game import ORGANISER, PUBLIC
from scorekeeper.core.inputs import parse_input
from scorekeeper.core.kit import fake_kit
from scorekeeper.core.table import Table, TableConfig
from scorekeeper.errors import ConfigError
from tests.toy_deck import ToyDeck

BIG = {
    "name": "big",
    "description": "five coins",
    "cards": {"card_1": {"colour": "red", "value": 4}, "card_7": {"colour": "blue", "value": 2}},
    "coins": 5,
}


class SecretDeck(ToyDeck):
    """Toy deck as if a card could be secret: refusals shown to others say "the card"."""

    secret_pieces = True


def _table(game: ToyDeck, deck: Any = "guess", kit: dict[str, str] | None = None) -> Table:
    options = game.resolve_options({"deck": deck}, 1)
    return Table(TableConfig(game.id, ("Ann",), options, {"r1": "play"}, kit or {}), game)


def _refusal(table: Table, audience: Any) -> dict[str, str]:
    rejection: dict[str, str] = table.view(audience)["feed"][-1]["rejection"]
    return rejection


def test_a_game_without_secret_pieces_names_the_card_in_every_refusal() -> None:
    table = _table(ToyDeck())
    assert table.secret_names() is None
    for line in ("+play card_1", "+play card_1"):
        table.submit(parse_input(line))
    for audience in (PUBLIC, 0, ORGANISER):
        assert _refusal(table, audience)["reason"] == "the red card (3) is already in play"
        assert _refusal(table, audience)["hint"] == "lift the red card (3) off the play area"


def test_a_game_with_secret_pieces_names_no_card_to_the_public() -> None:
    table = _table(SecretDeck())
    for line in ("+play card_2", "+play card_2"):
        table.submit(parse_input(line))
    # The deck's words ("the blue card (5)") are hidden too, not only the fixed ones.
    assert _refusal(table, PUBLIC)["reason"] == "the card is already in play"
    assert _refusal(table, ORGANISER)["reason"] == "the blue card (5) is already in play"


def test_the_kit_check_follows_the_deck_of_the_table() -> None:
    game = ToyDeck()
    big = {"04A1B2C3D4E5F6": "coin_5", "04A1B2C3D4E5F7": "card_7"}
    table = _table(game, BIG, big)  # the big deck has five coins and a card_7
    assert game.pieces_for(table.referee.options)[-1] == "coin_5"
    with pytest.raises(ConfigError, match="card_7, coin_5"):
        _table(game, "guess", big)  # the shipped deck has three coins and no card_7


def test_the_organiser_reads_the_card_as_the_deck_prints_it() -> None:
    table = _table(ToyDeck(), BIG)
    table.submit(parse_input("+play card_7"))
    assert table.view(ORGANISER)["feed"][-1]["words"] == "the blue card (2) laid on play"


def test_an_undo_says_which_card_to_take_back_as_the_deck_prints_it() -> None:
    table = _table(ToyDeck(), BIG)
    table.submit(parse_input("+play card_7"))
    table.submit(parse_input("undo"))
    assert table.view(PUBLIC)["put_back"]["text"] == (
        "Take the blue card (2) back off the play and put it back where it came from."
    )


def test_a_fake_kit_for_a_deck_has_its_pieces() -> None:
    game = ToyDeck()
    kit = fake_kit(game, "big", game.resolve_options({"deck": BIG}, 1))
    assert sorted(kit.entries.values()) == sorted(
        ["card_1", "card_7", *(f"coin_{k}" for k in range(1, 6))]
    )
    assert "coin_5" not in fake_kit(game, "shipped").entries.values()
