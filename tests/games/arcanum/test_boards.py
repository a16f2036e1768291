"""Board profiles: the shipped files, round trips, completeness and every validation error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorekeeper.errors import ConfigError
from scorekeeper.games.arcanum.boards import (
    EFFECT_NAMES,
    EFFECTS,
    ICON_KINDS,
    BoardProfile,
    Location,
    dump_profile,
    empty_profile,
    find_profile,
    load_profile,
    profile_from_mapping,
    resolve_board,
    shipped_profiles,
)

SAMPLE_LOCATIONS = {
    1: ("wizard_tower", "Wizard's Tower", {"wands": 2, "king": 1, "coins": 1}),
    2: ("artists_quarter", "Artists' Quarter", {"cups": 2, "queen": 1, "page": 1}),
    3: ("harbor", "Harbour", {"coins": 2, "knight": 1, "cups": 1}),
    4: ("throne_room", "Throne Room", {"king": 2, "swords": 1, "coins": 1}),
    5: ("market", "Market", {"coins": 2, "page": 1, "wands": 1}),
    6: ("fields", "Fields", {"wands": 2, "cups": 1, "page": 1, "swords": -1}),
    7: ("treasury", "Treasury", {"coins": 1, "queen": 2, "cups": 1}),
    8: ("cathedral", "Cathedral", {"cups": 2, "queen": 1, "swords": 1}),
    9: ("ballroom", "Ballroom", {"queen": 1, "king": 1, "cups": 1, "wands": 1}),
    10: ("castle", "Castle", {"knight": 2, "wands": 1, "swords": 2}),
}
CASTLE_ICONS = {"knight": 2, "wands": 1, "swords": 2}


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "board.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_shipped_profiles() -> None:
    shipped = shipped_profiles()
    assert set(shipped) == {"sample", "known"}
    assert all(path.is_file() for path in shipped.values())


def test_sample_profile_is_complete_and_exactly_the_agreed_data() -> None:
    sample = find_profile("sample")
    assert sample.name == "sample" and sample.sample and sample.complete
    assert sample.problems() == []
    assert "NOT the printed board" in sample.description
    assert sample.cathedral_gain_vp == 1
    assert sample.label == "sample board 'sample'"
    for number, (effect, name, icons) in SAMPLE_LOCATIONS.items():
        loc = sample.location(number)
        assert (loc.effect, loc.name, loc.icon_counts()) == (effect, name, icons)
        assert sample.effect_at(number) == effect
        assert sample.number_of(effect) == number


def test_known_profile_holds_only_what_the_rulebook_tells() -> None:
    known = find_profile("known")
    assert known.name == "known" and not known.sample and not known.complete
    assert known.label == "board 'known'" and known.cathedral_gain_vp is None
    assert known.location(10) == Location(
        10, None, None, (("swords", 2), ("wands", 1), ("knight", 2))
    )
    assert known.location(10).icon_counts() == CASTLE_ICONS
    assert known.problems() == [
        *(f"location {n}: effect, name and icons unknown" for n in range(1, 10)),
        "location 10: effect and name unknown",
        "the Cathedral's gain is unknown: how many VP it gives",
    ]
    with pytest.raises(ValueError, match="effect of location 3 is unknown"):
        known.effect_at(3)
    with pytest.raises(ValueError, match="icons of location 1 are unknown"):
        known.icon_gain(1, "pawn_cups_king")


@pytest.mark.parametrize("name", ["sample", "known"])
def test_t4_t5_icons_of_location_10(name: str) -> None:
    board = find_profile(name)
    assert board.icon_gain(10, "pawn_swords_knight") == 4  # 2 knight + 2 sword
    assert board.icon_gain(10, "pawn_wands_page") == 1  # 1 wand, no page icon
    assert board.icon_gain(10, "pawn_coins_queen") == 0


def test_negative_icons_take_reputation_away() -> None:
    sample = find_profile("sample")
    assert sample.icon_gain(6, "pawn_swords_knight") == -1
    assert sample.icon_gain(6, "pawn_swords_page") == 0
    assert sample.icon_gain(6, "pawn_wands_page") == 3


@pytest.mark.parametrize("name", ["sample", "known"])
def test_round_trips(name: str, tmp_path: Path) -> None:
    board = find_profile(name)
    assert profile_from_mapping(board.to_mapping()) == board
    assert profile_from_mapping(json.loads(json.dumps(board.to_mapping()))) == board
    path = tmp_path / "copy.yaml"
    dump_profile(board, path)
    assert load_profile(path) == board
    assert dump_profile(board) == path.read_text(encoding="utf-8")
    empty = empty_profile("blank")
    dump_profile(empty, path)
    assert load_profile(path) == empty


def test_icons_are_stored_in_icon_order_without_zeros() -> None:
    board = profile_from_mapping(
        {"name": "x", "locations": {3: {"icons": {"king": 1, "cups": 0, "swords": 2}}}}
    )
    assert board.location(3).icons == (("swords", 2), ("king", 1))
    assert (
        profile_from_mapping({"name": "x", "locations": {3: {"icons": {}}}}).location(3).icons == ()
    )


def test_partial_profile_is_valid_data_with_gaps() -> None:
    board = profile_from_mapping(
        {
            "name": "half",
            "cathedral_gain": {"vp": 0},
            "locations": {
                "1": {"id": "market", "name": "Piac", "icons": {"coins": 1}},
                "2": {"id": "market", "name": "Market again", "icons": {}},
                "3": None,
                "4": {},
            },
        }
    )
    assert board.cathedral_gain_vp == 0 and board.description == "" and not board.sample
    problems = board.problems()
    assert "location 3: effect, name and icons unknown" in problems
    assert "location 4: effect, name and icons unknown" in problems
    assert "the Market is on locations 1 and 2 (each effect is on one location)" in problems
    missing = [EFFECT_NAMES[e] for e in EFFECTS if e != "market"]
    assert f"no location has the effect of the {', '.join(missing)} yet" in problems
    assert not any("Cathedral's gain" in p for p in problems)


def test_a_complete_board_with_one_effect_twice_is_not_complete() -> None:
    data = find_profile("sample").to_mapping()
    data["locations"][9]["id"] = "castle"
    board = profile_from_mapping(data)
    assert board.problems() == [
        "the Castle is on locations 9 and 10 (each effect is on one location)",
        "no location has the effect of the Ballroom yet",
    ]


LINE_ERRORS = [
    ("name: x\ncolour: red\n", 2, "unknown key 'colour'"),
    ("sample: true\n", 1, "missing 'name:'"),
    ("name: x\nsample: maybe\n", 2, "sample must be true or false"),
    ("name: x\ndescription: [a, b]\n", 2, "description must be text"),
    ("name: x\ncathedral_gain: {vp: 1, coins: 2}\n", 2, "Cathedral's gain: unknown key 'coins'"),
    ("name: x\ncathedral_gain: {vp: -1}\n", 2, "VP must be at least 0, not -1"),
    ("name: x\ncathedral_gain: {vp: '1'}\n", 2, "must be a whole number"),
    ("name: x\ncathedral_gain: 1\n", 2, "the Cathedral's gain must be a mapping"),
    ("name: x\nlocations: [1, 2]\n", 2, "locations must be a mapping"),
    ("name: x\nlocations:\n  11: {}\n", 3, "numbered 1 to 10, not 11"),
    ("name: x\nlocations:\n  0: {}\n", 3, "numbered 1 to 10, not 0"),
    ("name: x\nlocations:\n  first: {}\n", 3, "numbered 1 to 10, not 'first'"),
    ("name: x\nlocations:\n  1: {}\n  1: {}\n", 4, "'1' is listed twice"),
    ("name: x\nlocations:\n  1: {colour: red}\n", 3, "location 1: unknown key 'colour'"),
    ("name: x\nlocations:\n  2:\n    id: pub\n", 4, "location 2, effect must be 'wizard_tower'"),
    ("name: x\nlocations:\n  2: {name: [a]}\n", 3, "location 2, printed name must be a single"),
    ("name: x\nlocations:\n  2: market\n", 3, "location 2 must be a mapping"),
    (
        "name: x\nlocations:\n  5:\n    icons:\n      hearts: 1\n",
        5,
        "location 5, icons: unknown key 'hearts'",
    ),
    ("name: x\nlocations:\n  5:\n    icons: {cups: '2'}\n", 4, "cups ♥ must be a whole number"),
    ("name: x\nlocations:\n  5:\n    icons: {cups: 1.5}\n", 4, "cups ♥ must be a whole number"),
    ("name: x\nlocations:\n  5:\n    icons: {cups: true}\n", 4, "cups ♥ must be a whole number"),
    ("name: x\nlocations:\n  5:\n    icons: [cups]\n", 4, "location 5, icons must be a map"),
    ("name: x\nlocations: {1: {id: market}\n", 3, "YAML syntax error"),
    ("- name: x\n", 1, "the board profile must be a mapping"),
]


@pytest.mark.parametrize(("text", "line", "message"), LINE_ERRORS)
def test_file_errors_name_the_line(tmp_path: Path, text: str, line: int, message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load_profile(path)
    assert caught.value.path == str(path)
    assert caught.value.line == line, caught.value
    assert message in caught.value.message
    assert str(caught.value).startswith(f"{path}:{line}: ")


def test_empty_and_missing_files(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="the board profile file is empty"):
        load_profile(write(tmp_path, "# nothing\n"))
    with pytest.raises(ConfigError, match="no such file"):
        load_profile(tmp_path / "absent.yaml")


def test_mapping_errors_name_the_source() -> None:
    with pytest.raises(ConfigError) as caught:
        profile_from_mapping({"name": "x", "locations": {3: {"icons": {"joker": 1}}}}, "body")
    assert caught.value.path == "body" and caught.value.line is None
    assert "location 3, icons: unknown key 'joker'" in caught.value.message
    for kind in ICON_KINDS:
        assert kind in caught.value.message
    with pytest.raises(ConfigError, match="must be a mapping"):
        profile_from_mapping(["name", "x"])
    with pytest.raises(ConfigError, match="not data"):
        profile_from_mapping({"name": "x", "description": object()})
    with pytest.raises(ConfigError, match="sample must be true or false"):
        profile_from_mapping({"name": "x", "sample": "yes"})
    with pytest.raises(ConfigError, match="king must be a whole number"):
        profile_from_mapping({"name": "x", "locations": {1: {"icons": {"king": True}}}})


def test_profile_needs_ten_locations_in_order() -> None:
    with pytest.raises(ValueError):
        BoardProfile("x", False, "", 1, tuple(Location(n) for n in range(1, 10)))
    with pytest.raises(ValueError):
        empty_profile("x").location(11)


def test_find_profile_by_name_or_path(tmp_path: Path) -> None:
    path = write(tmp_path, "name: mine\n")
    assert find_profile(str(path)).name == "mine"
    with pytest.raises(ConfigError) as caught:
        find_profile("nowhere")
    assert "known, sample" in str(caught.value)


def test_resolve_board(tmp_path: Path) -> None:
    sample = find_profile("sample")
    assert resolve_board("sample") == sample
    assert resolve_board(sample.to_mapping()) == sample
    path = tmp_path / "mine.yaml"
    dump_profile(sample, path)
    assert resolve_board(str(path)) == sample
    with pytest.raises(ConfigError) as caught:
        resolve_board("known")
    message = str(caught.value)
    assert message.startswith("board profile 'known' cannot start a table: location 1:")
    assert "scorekeeper board new FILE --from known" in message
    with pytest.raises(ConfigError, match="cannot start a table"):
        resolve_board({"name": "bare"})
    with pytest.raises(ConfigError, match="profile name, a file path or a profile mapping"):
        resolve_board(3)  # type: ignore[arg-type]
