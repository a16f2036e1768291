"""core/yaml_model.py: YAML checked by a pydantic model, refused with file, line and field."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ConfigDict, Field, ValidationInfo, field_validator

from scorekeeper.core.yaml_model import (
    FileModel,
    Flag,
    Native,
    Problem,
    Scalar,
    Text,
    read_yaml,
    to_native,
    validate_data,
    validate_yaml,
)
from scorekeeper.errors import ConfigError, ScriptError


class Location(FileModel):
    name: Text
    icons: list[Text] = []
    big: Flag = False


class Board(FileModel):
    model_config = ConfigDict(extra="forbid", title="board")
    game: Text = Field(description="the id of the game this board is for")
    seats: int | None = None
    readers: dict[str, Text] = {}
    locations: list[Location] = []
    extra: Native = None

    @field_validator("readers")
    @classmethod
    def _zones(cls, readers: dict[str, str], info: ValidationInfo) -> dict[str, str]:
        zones = (info.context or {}).get("zones", ())
        for reader, zone in readers.items():
            if zones and zone not in zones:
                raise Problem(f"there is no zone {zone!r}", reader)
        return readers


def refusal(text: str, **kw: Any) -> ConfigError:
    with pytest.raises(ConfigError) as caught:
        validate_yaml(Board, text, "mats/b.yaml", **kw)
    return caught.value


def test_valid_file_reads_ints_and_keeps_uids_as_text() -> None:
    board = validate_yaml(
        Board,
        "game: g\nseats: 4\nreaders:\n  12345678: a\n  0x04AB: b\n  0412: c\n",
        "b.yaml",
    )
    assert board.seats == 4
    assert list(board.readers) == ["12345678", "0x04AB", "0412"]
    assert all(type(k) is str for k in board.readers)


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("game: g\nseats: four\n", 2, "seats must be a whole number, not 'four'"),
        (
            "game: g\nseat: 4\n",
            2,
            "unknown key 'seat'; a board has game, seats, readers, locations, extra",
        ),
        ("seats: 4\n", 1, "missing 'game:' (the id of the game this board is for)"),
        ("game: ''\n", 1, "game is empty"),
        ("game:\n", 1, "game is empty"),
        ("game: [a, b]\n", 1, "game must be a single value, not a list or mapping"),
        ("- a\n", 1, "the board must be a mapping (key: value lines)"),
        ("game: g\nreaders: [a]\n", 2, "readers must be a mapping (key: value lines)"),
        ("game: g\nlocations: here\n", 2, "locations must be a list (lines starting with '- ')"),
    ],
)
def test_messages_name_line_and_field(text: str, line: int, message: str) -> None:
    exc = refusal(text)
    assert (exc.path, exc.line, exc.message) == ("mats/b.yaml", line, message)
    assert str(exc) == f"mats/b.yaml:{line}: {message}"


def test_empty_file_says_what_it_needs() -> None:
    exc = refusal("# nothing yet\n")
    assert exc.message == "the board file is empty; it needs game:"


def test_nested_lists_and_mappings_are_named_as_read() -> None:
    base = "game: g\nlocations:\n  - name: a\n  - name: b\n"
    exc = refusal(base + "    icons: [x, {y: 1}]\n")
    assert (exc.line, exc.message) == (
        5,
        "location 2, icon 2 must be a single value, not a list or mapping",
    )
    exc = refusal(base + "    colour: red\n")
    assert (exc.line, exc.message) == (
        5,
        "location 2: unknown key 'colour'; a location has name, icons, big",
    )
    exc = refusal("game: g\nlocations:\n  - name: a\n  - icons: []\n")
    assert (exc.line, exc.message) == (4, "location 2: missing 'name:'")
    exc = refusal("game: g\nreaders:\n  r1: a\n  r2: {z: 1}\n")
    assert (exc.line, exc.message) == (4, "reader r2 must be a single value, not a list or mapping")


@pytest.mark.parametrize("word", ["yes", "no", "on", "off", "1", "y"])
def test_flags_are_true_or_false_only(word: str) -> None:
    exc = refusal(f"game: g\nlocations:\n  - name: a\n    big: {word}\n")
    assert (exc.line, exc.message) == (4, f"location 1, big must be true or false, not '{word}'")


def test_flags_read_true_and_false() -> None:
    board = validate_yaml(
        Board, "game: g\nlocations:\n  - {name: a, big: true}\n  - {name: b, big: False}\n", "b"
    )
    assert [loc.big for loc in board.locations] == [True, False]


def test_repeated_keys_are_refused_with_both_lines() -> None:
    exc = refusal("game: g\nreaders:\n  r1: a\n  r2: b\n  r1: c\n")
    assert (exc.line, exc.message) == (5, "readers: 'r1' is listed twice (first on line 3)")
    exc = refusal("game: g\ngame: h\n")
    assert (exc.line, exc.message) == (2, "'game' is listed twice (first on line 1)")


def test_keys_must_be_plain_names() -> None:
    exc = refusal("game: g\n? [a]\n: b\n")
    assert (exc.line, exc.message) == (2, "the board: every key must be a plain name")
    exc = refusal("game: g\nreaders:\n  ~: a\n")
    assert (exc.line, exc.message) == (3, "readers: every key must be a plain name")


def test_yaml_syntax_error_names_the_line_and_the_error_class() -> None:
    with pytest.raises(ScriptError) as caught:
        validate_yaml(Board, "game: g\nreaders:\n  r1: [a\n", "s.yaml", error=ScriptError)
    assert caught.value.message.startswith("YAML syntax error")
    assert caught.value.line is not None and caught.value.line >= 3


def test_validator_problem_points_at_the_node_below() -> None:
    text = "game: g\nreaders:\n  r1: play\n  r2: shelf\n"
    exc = refusal(text, context={"zones": ("play", "discard")})
    assert (exc.line, exc.message) == (4, "there is no zone 'shelf'")
    assert validate_yaml(Board, text, "b", context={"zones": ("play", "shelf")}).readers


def test_native_values_are_what_safe_load_gives() -> None:
    board = validate_yaml(Board, "game: g\nextra: {a: 12, b: [yes, '12', ~], 0412: x}\n", "b")
    assert board.extra == {"a": 12, "b": [True, "12", None], 266: "x"}


def test_scalars_keep_their_text_and_line() -> None:
    import yaml

    node = yaml.compose("a: 0x04AB\n").value[0][1]
    scalar = Scalar(node)
    assert (scalar, scalar.line, scalar.native()) == ("0x04AB", 1, 0x04AB)
    assert to_native({"k": [scalar]}) == {"k": [0x04AB]}


def test_validate_data_names_the_field_without_a_line() -> None:
    with pytest.raises(ConfigError) as caught:
        validate_data(Board, {"game": "g", "locations": [{"name": "a", "big": "on"}]}, "form")
    exc = caught.value
    assert (exc.path, exc.line, exc.message) == (
        "form",
        None,
        "location 1, big must be true or false, not 'on'",
    )
    assert validate_data(Board, {"game": "g", "seats": 3}, "form").seats == 3


class Optional(FileModel):
    model_config = ConfigDict(title="note")
    text: str | None = None


def test_empty_file_of_a_kind_with_nothing_required() -> None:
    with pytest.raises(ConfigError) as caught:
        validate_yaml(Optional, "", "n.yaml")
    assert caught.value.message == "the note file is empty"
    assert validate_yaml(Optional, "text: '12'\n", "n.yaml").text == "12"


def test_an_unknown_key_is_named_before_the_missing_key_it_causes() -> None:
    exc = refusal("gmae: g\n")
    assert (exc.line, exc.message) == (
        1,
        "unknown key 'gmae'; a board has game, seats, readers, locations, extra",
    )


def test_a_document_checks_its_parts_with_a_label() -> None:
    doc = read_yaml("steps:\n  - name: a\n  - name: b\n    big: on\n", "s.yaml")
    assert doc.at("steps", 0, "name") == "a" and doc.line("steps", 1) == 3
    assert doc.line("steps", 1, "big", key=True) == 4
    assert doc.validate(Location, "steps", 0, label="step 1").name == "a"
    with pytest.raises(ConfigError) as caught:
        doc.validate(Location, "steps", 1, label="step 2")
    assert (caught.value.line, caught.value.message) == (
        4,
        "step 2, big must be true or false, not 'on'",
    )
    with pytest.raises(ConfigError) as caught:
        doc.fail("no such step", "steps", 1)
    assert str(caught.value) == "s.yaml:3: no such step"
