"""``scorekeeper board``: list, show, check exit codes, and the interactive entry with resume.

The command runs in-process through ``scorekeeper.cli.main`` (the real parsing and exit codes);
answers are fed through a fake ``input`` that raises EOFError when they run out, as a closed
stdin does.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pytest
import yaml

from scorekeeper import cli
from scorekeeper.games.arcanum.board_entry import SAMPLE_BANNER, format_icons, parse_icons
from scorekeeper.games.arcanum.boards import EFFECTS, dump_profile, find_profile, load_profile

SAMPLE_ICONS = [
    "wands 2, king 1, coins 1",
    "cups 2, queen 1, page 1",
    "coins 2, knight 1, cups 1",
    "king 2, swords 1, coins 1",
    "coins 2, page 1, wands 1",
    "wands 2, cups 1, page 1, swords -1",
    "coins 1, queen 2, cups 1",
    "cups 2, queen 1, swords 1",
    "queen 1, king 1, cups 1, wands 1",
    "knight 2, wands 1, swords 2",
]


def location_answers(numbers: Iterable[int]) -> list[str]:
    """Effect id, Enter for the default name, icons: the sample board's data."""
    out: list[str] = []
    for n in numbers:
        out += [EFFECTS[n - 1], "", SAMPLE_ICONS[n - 1]]
    return out


@pytest.fixture(autouse=True)
def in_own_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Every test runs in its own folder."""
    monkeypatch.chdir(tmp_path)


def feed(monkeypatch: pytest.MonkeyPatch, answers: list[str]) -> list[str]:
    """Answer ``input()`` calls in turn; returns the prompts asked (EOFError when out)."""
    remaining = iter(answers)
    prompts: list[str] = []

    def fake_input(prompt: str = "") -> str:
        prompts.append(prompt)
        try:
            return next(remaining)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", fake_input)
    return prompts


def test_board_is_a_listed_command() -> None:
    assert cli.COMMANDS["board"][0] == "scorekeeper.commands.board"


def test_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["board", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:3] == ["known", "incomplete", "(11"]
    assert lines[1].split()[:3] == ["sample", "complete", "sample"]


def test_show_sample(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["board", "show", "sample"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == SAMPLE_BANNER
    assert "10  Castle            castle           swords ⚔ 2, wands ⚚ 1, knight 2" in out
    assert "Cathedral gain: 1 VP" in out and "missing" not in out


def test_show_known_and_a_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert cli.main(["board", "show", "known"]) == 0
    out = capsys.readouterr().out
    assert SAMPLE_BANNER not in out
    assert " 1  unknown  unknown  unknown" in out
    assert "Cathedral gain: unknown" in out and "- location 10: effect and name unknown" in out
    path = tmp_path / "mine.yaml"
    path.write_text("name: mine\nlocations:\n  4: {icons: {}}\n", encoding="utf-8")
    assert cli.main(["board", "show", str(path)]) == 0
    assert " 4  unknown  unknown  none" in capsys.readouterr().out


def test_show_unknown_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["board", "show", "nowhere"]) == 2
    assert "it is not a sample (known, sample)" in capsys.readouterr().err


def test_check_exit_codes(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    good = tmp_path / "good.yaml"
    dump_profile(find_profile("sample"), good)
    half = tmp_path / "half.yaml"
    half.write_text("name: half\ncathedral_gain: {vp: 1}\n", encoding="utf-8")
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: bad\nlocations:\n  3: {id: pub}\n", encoding="utf-8")

    assert cli.main(["board", "check", str(good)]) == 0
    assert "is complete" in capsys.readouterr().out

    assert cli.main(["board", "check", str(good), str(half)]) == 1
    out = capsys.readouterr().out
    assert f"{half}: board profile 'half' is incomplete:" in out
    assert "  - location 7: effect, name and icons unknown" in out

    assert cli.main(["board", "check", str(bad), str(half)]) == 2
    captured = capsys.readouterr()
    assert f"{bad}:3: locations, location 3, effect must be 'wizard_tower'" in captured.err
    assert "incomplete" in captured.out


def test_check_a_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["board", "check", "absent.yaml"]) == 2
    assert "absent.yaml: no board profile called 'absent.yaml'" in capsys.readouterr().err


def test_new_entry_from_scratch(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    prompts = feed(monkeypatch, ["our club board", *location_answers(range(1, 11)), "1"])
    assert cli.main(["board", "new", "mine.yaml"]) == 0
    board = load_profile(tmp_path / "mine.yaml")
    sample = find_profile("sample")
    assert board.name == "mine" and not board.sample and board.description == "our club board"
    assert board.locations == sample.locations and board.cathedral_gain_vp == 1
    assert "mine.yaml: board 'mine' is complete" in capsys.readouterr().out
    assert "name printed on the board [Wizard's Tower]" in prompts[2]
    assert prompts[-1].startswith("Cathedral: VP it gives")


def test_new_reasks_on_bad_answers(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    answers = [
        "",
        "pub",  # not an effect
        "11",  # not in the list
        "5",  # market, by its number in the list
        "Piac",
        "knight two",
        "hearts 1",
        "knight",
        "knight 1, knight 2",
        "Knight 1,  sword -1",
        "market",  # already used at location 1
        "artists quarter",
        "",
        "none",
    ]
    feed(monkeypatch, answers)
    assert cli.main(["board", "new", "mine.yaml"]) == 1  # answers run out: stopped
    out = capsys.readouterr().out
    assert "'pub' is not one of the effects listed" in out
    assert "'11' is not one of the effects listed" in out
    assert "the count of knight must be a whole number, not 'two'" in out
    assert "'hearts' is not an icon" in out
    assert "how many knight icons?" in out
    assert "knight is named twice" in out
    assert "market is on location 1 already" in out
    assert "stopped; what you entered is saved in mine.yaml" in out
    board = load_profile(tmp_path / "mine.yaml")
    assert board.location(1).effect == "market" and board.location(1).name == "Piac"
    assert board.location(1).icon_counts() == {"swords": -1, "knight": 1}
    assert board.location(2).effect == "artists_quarter" and board.location(2).icons == ()
    assert board.location(3).effect is None


def test_new_resumes_where_it_stopped(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    feed(monkeypatch, ["", *location_answers(range(1, 4)), "throne_room"])
    assert cli.main(["board", "new", "mine.yaml"]) == 1
    saved = yaml.safe_load((tmp_path / "mine.yaml").read_text(encoding="utf-8"))
    assert sorted(saved["locations"]) == [1, 2, 3]  # location 4 was not finished
    capsys.readouterr()

    prompts = feed(monkeypatch, [*location_answers(range(4, 11)), "2"])
    assert cli.main(["board", "new", "mine.yaml"]) == 0
    out = capsys.readouterr().out
    assert "going on with mine.yaml" in out
    assert prompts[0].startswith("  location 4: effect")
    # Numbers stay those of the rules' list: the throne room is 4 and the market 5 at
    # location 4, as they were at location 1, and what each does is said in words.
    assert "   4) throne_room      Throne Room: draw 2 minors\n" in out
    assert "   5) market           Market: +2 VP, one exchange\n" in out
    assert (
        "   1) wizard_tower     Wizard's Tower: +1 VP, draw a major  (on location 1 already)" in out
    )
    board = load_profile(tmp_path / "mine.yaml")
    assert board.complete and board.cathedral_gain_vp == 2
    assert board.locations == find_profile("sample").locations


def test_new_interrupted_by_ctrl_c(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    def interrupted(prompt: str = "") -> str:
        raise KeyboardInterrupt

    feed(monkeypatch, ["", *location_answers([1])])
    assert cli.main(["board", "new", "mine.yaml"]) == 1
    monkeypatch.setattr("builtins.input", interrupted)
    assert cli.main(["board", "new", "mine.yaml"]) == 130
    assert "Run the same command again to go on" in capsys.readouterr().out
    assert load_profile(tmp_path / "mine.yaml").location(1).effect == "wizard_tower"


def test_new_from_a_profile_offers_its_entries(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    prompts = feed(monkeypatch, [""] * 32)  # description, 10 x 3 answers, gain: all defaults
    assert cli.main(["board", "new", "copy.yaml", "--from", "sample"]) == 0
    board = load_profile(tmp_path / "copy.yaml")
    sample = find_profile("sample")
    assert board.locations == sample.locations and board.cathedral_gain_vp == 1
    assert board.name == "copy" and not board.sample
    assert "[wizard_tower]" in prompts[1]


def test_new_from_known_keeps_location_10_icons(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    answers = [""] + location_answers(range(1, 10)) + ["castle", "", "", "3"]
    feed(monkeypatch, answers)
    assert cli.main(["board", "new", "mine.yaml", "--from", "known"]) == 0
    board = load_profile(tmp_path / "mine.yaml")
    assert board.location(10).icon_counts() == {"knight": 2, "wands": 1, "swords": 2}
    assert board.cathedral_gain_vp == 3


def test_new_on_a_complete_file_asks_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    dump_profile(find_profile("sample"), tmp_path / "done.yaml")
    prompts = feed(monkeypatch, [])
    assert cli.main(["board", "new", "done.yaml"]) == 0
    assert prompts == []


def test_new_refuses_a_malformed_file_and_a_missing_folder(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "bad.yaml").write_text("name: x\nsample: 3\n", encoding="utf-8")
    feed(monkeypatch, [])
    assert cli.main(["board", "new", "bad.yaml"]) == 2
    assert "bad.yaml:2: sample must be true or false" in capsys.readouterr().err
    assert cli.main(["board", "new", "no/such/folder/x.yaml"]) == 2
    assert "no such folder" in capsys.readouterr().err


def test_bad_gain_is_asked_again(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    feed(monkeypatch, ["", *location_answers(range(1, 11)), "one", "-1", "0"])
    assert cli.main(["board", "new", "mine.yaml"]) == 0
    assert load_profile(tmp_path / "mine.yaml").cathedral_gain_vp == 0


def test_icon_words() -> None:
    assert parse_icons("knight 2, wands 1, swords -1") == (
        ("swords", -1),
        ("wands", 1),
        ("knight", 2),
    )
    assert parse_icons("2 cups; 1 queen") == (("cups", 2), ("queen", 1))
    assert parse_icons("none") == ()
    for bad in ("", "knight 2 3", "queen x"):
        with pytest.raises(ValueError):
            parse_icons(bad)
    assert format_icons(None) == "unknown" and format_icons(()) == "none"
    assert format_icons((("coins", 1), ("page", 2))) == "coins ◉ 1, page 2"


def test_effect_numbers_stay_the_same_after_each_pick(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # "5" is the market at location 1 and "10" the castle at location 2: no renumbering.
    feed(monkeypatch, ["", "5", "", "none", "10", "", "none"])
    assert cli.main(["board", "new", "mine.yaml"]) == 1
    board = load_profile(tmp_path / "mine.yaml")
    assert board.location(1).effect == "market" and board.location(2).effect == "castle"
    out = capsys.readouterr().out
    assert out.count("  10) castle           Castle: the others discard 1\n") == 2
    assert "   5) market           Market: +2 VP, one exchange  (on location 1 already)" in out


def test_stopping_early_from_known_keeps_location_10_icons(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    feed(monkeypatch, ["", *location_answers([1, 2])])  # then the answers run out
    assert cli.main(["board", "new", "mine.yaml", "--from", "known"]) == 1
    board = load_profile(tmp_path / "mine.yaml")
    assert board.location(2).effect == "artists_quarter"
    assert board.location(10).icon_counts() == {"knight": 2, "wands": 1, "swords": 2}
    # ...and going on without --from still has them, offered as location 10's icons.
    prompts = feed(monkeypatch, [*location_answers(range(3, 10)), "castle", "", "", "1"])
    assert cli.main(["board", "new", "mine.yaml"]) == 0
    assert "[swords ⚔ 2, wands ⚚ 1, knight 2]" in prompts[-2]
    assert load_profile(tmp_path / "mine.yaml").complete


def test_from_takes_a_file_name_without_yaml_and_a_profile_saved_in_the_console(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from scorekeeper.store import Store, sqlite_url

    sample = find_profile("sample")
    dump_profile(sample, tmp_path / "my-board.yaml")
    prompts = feed(monkeypatch, [""] * 32)
    assert cli.main(["board", "new", "copy.yaml", "--from", "my-board"]) == 0
    assert load_profile(tmp_path / "copy.yaml").locations == sample.locations
    assert "[wizard_tower]" in prompts[1]

    db = tmp_path / "server.db"
    with Store(sqlite_url(str(db))) as store:
        store.save_data("arcanum", "board", "club", {**sample.to_mapping(), "sample": False})
    feed(monkeypatch, [""] * 32)
    assert cli.main(["board", "new", "club-copy.yaml", "--from", "club", "--db", str(db)]) == 0
    assert load_profile(tmp_path / "club-copy.yaml").locations == sample.locations

    capsys.readouterr()
    feed(monkeypatch, [])
    assert cli.main(["board", "new", "x.yaml", "--from", "nowhere", "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert "no board profile called 'nowhere'" in err and "nowhere.yaml" in err
    assert not (tmp_path / "x.yaml").exists()
