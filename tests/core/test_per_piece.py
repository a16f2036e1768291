"""core/per_piece.py: the questions a data kind asks about a piece while a copy is tagged, read
from a pydantic model's fields (words, and choices from a Literal, an enum class, an optional
bounded number), answers matched by value or label and checked by the field, and the answers
kept in the store's settings across sessions."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

import pytest
from pydantic import BaseModel, Field

from scorekeeper.core.data_kind import PerPiece, piece_type
from scorekeeper.core.per_piece import AnswerBook, answer_value, check_answers, questions
from tests.fakes import MemoryMeta
from tests.toy_deck import DECK_KIND


class Suit(StrEnum):
    CUPS = "cups"
    SWORDS = "swords"


class Face(BaseModel):
    suit: Suit = Field(..., title="suit", json_schema_extra={"x-labels": {"cups": "Cups"}})
    size: Literal["big", "small"] = Field(..., title="size", description="how big it is")
    worth: int | None = Field(None, ge=0, le=3, title="worth", description="its number")
    name: str = Field(..., title="printed name", description="the words on it")


PER_PIECE = PerPiece(asks=lambda p: True, model=Face, build=lambda a, c: {})


def test_the_questions_come_from_the_model_s_fields() -> None:
    suit, size, worth, name = questions(PER_PIECE)
    assert suit.choices == (("cups", "Cups"), ("swords", "swords"))  # an enum class, labelled
    assert (size.title, size.help, size.choice_words()) == ("size", "how big it is", "big, small")
    assert worth.choice_words() == "a whole number from 0 to 3"  # optional, bounded
    assert (name.title, name.choices) == ("printed name", ())


def test_answers_are_matched_by_value_or_label_and_checked() -> None:
    suit, size, worth, name = questions(PER_PIECE)
    assert answer_value(PER_PIECE, suit, "CUPS") is Suit.CUPS
    assert answer_value(PER_PIECE, worth, " 2 ") == 2
    assert answer_value(PER_PIECE, name, "Ace of cups") == "Ace of cups"
    with pytest.raises(ValueError, match="'huge' is not a size; answer big, small"):
        answer_value(PER_PIECE, size, "huge")
    with pytest.raises(ValueError, match="the printed name is missing"):
        check_answers(PER_PIECE, {"suit": "cups", "size": "big", "worth": 1})


def test_answers_are_kept_in_the_store_and_types_counted() -> None:
    store = MemoryMeta()
    AnswerBook(store, DECK_KIND, "club").put("card_1", {"colour": "red", "value": 2})
    again = AnswerBook(store, DECK_KIND, "club")  # a later session
    assert again.answers == {"card_1": {"colour": "red", "value": 2}}
    assert again.unanswered(["card_1", "coin_1", "card_2"]) == ["card_2"]
    again.forget("card_1")
    assert AnswerBook(store, DECK_KIND, "club").answers == {}
    assert [piece_type(p) for p in ("raft_10", "village_05", "token_a1")] == [
        "raft",
        "village",
        "token_a1",
    ]
