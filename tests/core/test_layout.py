"""Zone layout files: loading, and errors that name the file and the line."""

from __future__ import annotations

from pathlib import Path

import pytest

from scorekeeper.core.layout import dump_layout, load_layout
from scorekeeper.errors import ConfigError
from tests.fakes import FakeGame

GOOD = """\
game: fake
seats: 2
readers:
  r1: hand
  r2: play
  r3: play
"""


def write(tmp_path: Path, text: str, name: str = "layout.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def error(tmp_path: Path, text: str, seats: int | None = 2) -> ConfigError:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_layout(path, FakeGame(), seats)
    assert info.value.path == str(path)
    assert str(path) in str(info.value)
    return info.value


def test_loads_a_layout_with_two_readers_on_one_zone(tmp_path: Path) -> None:
    layout = load_layout(write(tmp_path, GOOD), FakeGame(), 2)
    assert layout == {"r1": "hand", "r2": "play", "r3": "play"}


def test_seats_may_come_from_the_file(tmp_path: Path) -> None:
    assert load_layout(write(tmp_path, GOOD), FakeGame()) == load_layout(
        write(tmp_path, GOOD), FakeGame(), 2
    )


def test_dump_and_load_round_trip(tmp_path: Path) -> None:
    layout = {"r1": "hand", "bridge0/3": "play"}
    path = tmp_path / "out.yaml"
    dump_layout(layout, FakeGame(), 3, path=path)
    assert load_layout(path, FakeGame(), 3) == layout
    assert "game: fake" in dump_layout(layout, "fake")


def test_yaml_syntax_error_names_the_line(tmp_path: Path) -> None:
    err = error(tmp_path, "game: fake\nreaders:\n  r1: hand\n   r2: [play\n")
    assert err.line == 4
    assert "YAML syntax error" in str(err)


def test_unknown_zone_lists_the_valid_ones(tmp_path: Path) -> None:
    err = error(tmp_path, "game: fake\nreaders:\n  r1: hand\n  r2: table\n")
    assert err.line == 4
    assert "'table'" in err.message and "hand, play" in err.message


def test_reader_listed_twice(tmp_path: Path) -> None:
    err = error(tmp_path, "game: fake\nreaders:\n  r1: hand\n  r2: play\n  r1: play\n")
    assert err.line == 5
    assert "'r1' is listed twice (first on line 3)" in err.message


def test_wrong_game(tmp_path: Path) -> None:
    err = error(tmp_path, "# comment\ngame: arcanum\nreaders:\n  r1: hand\n")
    assert err.line == 2 and "arcanum" in err.message


def test_seats_disagree(tmp_path: Path) -> None:
    err = error(tmp_path, GOOD, seats=3)
    assert err.line == 2 and "2 players" in err.message


def test_seats_out_of_range_and_not_a_number(tmp_path: Path) -> None:
    assert error(tmp_path, "game: fake\nseats: 7\nreaders: {r1: hand}\n", None).line == 2
    assert (
        "whole number"
        in error(tmp_path, "game: fake\nseats: two\nreaders: {r1: hand}\n", None).message
    )


def test_seats_unknown(tmp_path: Path) -> None:
    assert "seats" in error(tmp_path, "game: fake\nreaders: {r1: hand}\n", None).message


def test_unknown_key(tmp_path: Path) -> None:
    err = error(tmp_path, "game: fake\nreaders: {r1: hand}\nzones: 3\n")
    assert err.line == 3 and "unknown key 'zones'" in err.message


def test_missing_and_empty_parts(tmp_path: Path) -> None:
    assert "missing 'readers:'" in error(tmp_path, "game: fake\n").message
    assert "missing 'game:'" in error(tmp_path, "readers: {r1: hand}\n").message
    assert "empty" in error(tmp_path, "").message
    assert "lists no reader" in error(tmp_path, "game: fake\nreaders: {}\n").message
    err = error(tmp_path, "game: fake\nreaders:\n  r1:\n")
    assert err.line == 3 and "empty" in err.message
    err = error(tmp_path, "game: fake\nreaders:\n  r1: [hand, play]\n")
    assert err.line == 3 and "single value" in err.message
    assert "mapping" in error(tmp_path, "- game\n- fake\n").message
    assert error(tmp_path, "game: fake\nreaders:\n  - r1\n").line == 3


def test_bad_reader_id(tmp_path: Path) -> None:
    err = error(tmp_path, "game: fake\nreaders:\n  r1: hand\n  'reader two': play\n")
    assert err.line == 4 and "reader id" in err.message


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such file"):
        load_layout(tmp_path / "nope.yaml", FakeGame(), 2)
