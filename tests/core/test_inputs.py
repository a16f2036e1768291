"""Inputs round-trip through their one-line form and their log record."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.core.inputs import (
    Correct,
    Decision,
    InputSyntaxError,
    Seen,
    Sighting,
    Undo,
    input_from_record,
    parse_input,
)

word = st.text(
    alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456789:_-", min_size=1, max_size=12
).filter(lambda w: w[0] not in "+-")
seen = st.builds(Seen, word, word, st.booleans())
decision = st.builds(Decision, st.one_of(st.none(), st.integers(0, 9)), word, word)
sighting = st.builds(Sighting, word, word, st.booleans())
any_input = st.one_of(
    seen, decision, sighting, st.just(Undo()), st.builds(Correct, st.one_of(seen, decision))
)


@given(any_input)
def test_round_trip_through_string(inp: object) -> None:
    assert parse_input(inp.to_str()) == inp  # type: ignore[attr-defined]


@given(any_input)
def test_round_trip_through_record(inp: object) -> None:
    assert input_from_record(inp.to_record()) == inp  # type: ignore[attr-defined]


def test_readable_forms() -> None:
    assert Seen("talon", "H5r", True).to_str() == "+talon H5r"
    assert Decision(None, "claim", "pass").to_str() == "decide organiser claim pass"
    assert Sighting("meld-2", "04A1B2C3", False).to_str() == "tag -meld-2 04A1B2C3"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "talon H5",
        "decide x claim pass",
        "+ H5",
        "correct undo",
        "tag meld-2 04A1",
        "decide 1 claim",
    ],
)
def test_garbage_is_refused_with_the_text(text: str) -> None:
    with pytest.raises(InputSyntaxError):
        parse_input(text)


@pytest.mark.parametrize(
    "record",
    [
        {},
        {"type": "seen"},
        {"type": "warp"},
        {"type": "decision", "seat": "x", "prompt": "a", "answer": "b"},
        {"type": "correct", "replacement": {"type": "undo"}},
    ],
)
def test_bad_records_are_refused(record: dict[str, object]) -> None:
    with pytest.raises(InputSyntaxError):
        input_from_record(record)
