"""Kits (tag registries): uids, enrollment rules, files and their validation errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorekeeper.core.kit import Kit, kit_file_game, load_kit, normalise_uid, save_kit
from scorekeeper.errors import ConfigError, EnrollmentError, UnknownTag
from tests.fakes import FakeGame


@pytest.mark.parametrize(
    "text, uid",
    [
        ("04a1b2c3", "04A1B2C3"),
        ("04:A1:B2:C3", "04A1B2C3"),
        ("04-a1-b2-c3", "04A1B2C3"),
        (" 0x04A1B2C3 ", "04A1B2C3"),
        ("04 5F 21 9A 3C 80 00", "045F219A3C8000"),
        ("0102030405060708090A", "0102030405060708090A"),
    ],
)
def test_normalise_uid(text: str, uid: str) -> None:
    assert normalise_uid(text) == uid


@pytest.mark.parametrize("text", ["", "04A1B2", "04A1B2C3D4", "04A1B2CZ", "hello", "04A1B2C3 x"])
def test_bad_uids(text: str) -> None:
    with pytest.raises(EnrollmentError, match="not a tag uid"):
        normalise_uid(text)


def test_add_refuses_a_registered_tag_and_a_tagged_piece() -> None:
    kit = Kit("k", "fake")
    assert kit.add("04a1b2c3", "C5") == "04A1B2C3"
    with pytest.raises(EnrollmentError) as info:
        kit.add("04:A1:B2:C3", "C6")
    assert str(info.value) == "tag 04A1B2C3 is already registered as C5"
    with pytest.raises(EnrollmentError, match="C5 is already tagged"):
        kit.add("04000002", "C5")
    with pytest.raises(EnrollmentError, match="not a piece"):
        kit.add("04000003", "Z9", FakeGame())
    assert kit.entries == {"04A1B2C3": "C5"}
    assert kit.piece_of("04-a1-b2-c3") == "C5"
    with pytest.raises(UnknownTag):
        kit.piece_of("04000009")
    assert kit.untag("C5") == "04A1B2C3" and kit.entries == {}


def test_next_untagged_follows_the_game_order() -> None:
    game = FakeGame()
    kit = Kit("k", "fake", {"04000001": "C1", "04000003": "C3"})
    assert kit.next_untagged(game) == "C2"
    assert kit.next_untagged(game, start="C3") == "C4"
    assert kit.next_untagged(game, start="C9") == "C9"
    assert kit.progress(game) == (2, 9)
    full = Kit("k", "fake", {f"0400000{i}": f"C{i}" for i in range(1, 10)})
    assert full.next_untagged(game) is None


@pytest.mark.parametrize("name", ["kit.yaml", "kit.yml", "kit.json"])
def test_file_round_trip(tmp_path: Path, name: str) -> None:
    kit = Kit("club", "fake", {"12345678": "C1", "04A1B2C3D4E5F6": "C2"})
    path = tmp_path / name
    save_kit(kit, path)
    assert kit_file_game(path) == "fake"
    assert load_kit(path, FakeGame()) == kit


def test_numeric_looking_uids_stay_text(tmp_path: Path) -> None:
    path = tmp_path / "k.yaml"
    path.write_text("game: fake\ntags:\n  12345678: C1\n  00000001: C2\n")
    kit = load_kit(path, FakeGame())
    assert kit.entries == {"12345678": "C1", "00000001": "C2"}
    assert kit.name == "k"


def test_empty_tags(tmp_path: Path) -> None:
    path = tmp_path / "k.yaml"
    path.write_text("game: fake\nname: empty\ntags:\n")
    assert load_kit(path, FakeGame()) == Kit("empty", "fake")


def error(tmp_path: Path, text: str, name: str = "kit.yaml") -> ConfigError:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_kit(path, FakeGame())
    assert info.value.path == str(path) and str(path) in str(info.value)
    return info.value


def test_unknown_piece(tmp_path: Path) -> None:
    err = error(tmp_path, "game: fake\ntags:\n  04000001: C1\n  04000002: H5r\n")
    assert err.line == 4 and "'H5r'" in err.message


def test_duplicate_uid_after_normalising(tmp_path: Path) -> None:
    err = error(tmp_path, "game: fake\ntags:\n  04:00:00:01: C1\n  04000001: C2\n")
    assert err.line == 4 and "tag 04000001 is listed twice (first on line 3)" in err.message


def test_duplicate_uid_as_written(tmp_path: Path) -> None:
    err = error(tmp_path, "game: fake\ntags:\n  04000001: C1\n  04000001: C2\n")
    assert err.line == 4 and "listed twice" in err.message


def test_malformed_uid(tmp_path: Path) -> None:
    err = error(tmp_path, "game: fake\ntags:\n  04000001: C1\n  0400001: C2\n")
    assert err.line == 4 and "7 hex digits" in err.message
    err = error(tmp_path, "game: fake\ntags:\n  zz000001: C2\n")
    assert err.line == 3 and "hexadecimal" in err.message


def test_piece_tagged_twice(tmp_path: Path) -> None:
    err = error(tmp_path, "game: fake\ntags:\n  04000001: C1\n  04000002: C1\n")
    assert err.line == 4 and "C1 is tagged twice" in err.message


def test_other_file_problems(tmp_path: Path) -> None:
    assert error(tmp_path, "game: arcanum\ntags: {}\n").line == 1
    assert error(tmp_path, "game: fake\ntags: {}\ncolour: red\n").line == 3
    assert "missing 'tags:'" in error(tmp_path, "game: fake\n").message
    assert "missing 'game:'" in error(tmp_path, "tags: {}\n").message
    assert error(tmp_path, "game: fake\ntags:\n  04000001: [C1]\n").line == 3
    assert error(tmp_path, "game: fake\nname: 'a b'\ntags: {}\n").line == 2
    err = error(tmp_path, "game: fake\ntags:\n  04000001: C1\n   bad: [\n")
    assert "YAML syntax error" in err.message and err.line == 4
    err = error(tmp_path, "game: fake\ntags: {}\n", name="kit.txt")
    assert ".yaml, .yml or .json" in err.message


def test_json_errors_name_the_line(tmp_path: Path) -> None:
    err = error(
        tmp_path,
        '{\n  "game": "fake",\n  "tags": {\n    "04000001": "C1",\n  }\n}\n',
        name="kit.json",
    )
    assert "JSON syntax error" in err.message and err.line == 5
    text = json.dumps({"game": "fake", "tags": {"04000001": "C1", "04000002": "Q"}}, indent=2)
    err = error(tmp_path, text, name="kit.json")
    assert err.line == 5 and "'Q'" in err.message
