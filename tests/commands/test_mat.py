"""``scorekeeper mat``: writes the SVG, prints where, refuses bad input with exit code 2.

The command runs in-process through ``scorekeeper.cli.main``, so the argument parsing and exit
codes are the real ones.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from scorekeeper import cli
from scorekeeper.games import find_game
from scorekeeper.mats import mat_svg


@pytest.fixture(autouse=True)
def in_own_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Every test runs in its own folder."""
    monkeypatch.chdir(tmp_path)


def test_mat_is_a_listed_command() -> None:
    assert cli.COMMANDS["mat"][0] == "scorekeeper.commands.mat"


def test_writes_the_default_file_in_the_current_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["mat", "--game", "angels-and-demons", "--seats", "4"]) == 0
    out = tmp_path / "angels-and-demons-4p-A2.svg"
    assert str(out) in capsys.readouterr().out
    assert out.read_text(encoding="utf-8") == mat_svg(find_game("angels-and-demons"), 4)
    assert out.stat().st_mode & 0o777 == 0o644


def test_out_paper_and_layout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    layout = tmp_path / "mat.yaml"
    layout.write_text(
        "game: angels-and-demons\nseats: 2\nreaders:\n  r0: talon\n  r1: meld:0\n  r2: meld:1\n",
        encoding="utf-8",
    )
    target = tmp_path / "my-mat.svg"
    assert (
        cli.main(
            [
                "mat",
                "--game",
                "angels-and-demons",
                "--seats",
                "2",
                "--paper",
                "a3",
                "--layout",
                str(layout),
                "--out",
                str(target),
            ]
        )
        == 0
    )
    captured = capsys.readouterr()
    assert f"wrote {target}" in captured.out and captured.err == ""
    root = ET.parse(target).getroot()
    assert root.get("width") == "420mm"
    readers = sorted(r.get("data-reader") or "" for r in root.iter() if r.get("class") == "zone")
    assert readers == ["r0", "r1", "r2"]


def test_existing_file_needs_force(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "m.svg"
    target.write_text("old", encoding="utf-8")
    args = ["mat", "--game", "angels-and-demons", "--seats", "3", "--out", str(target)]
    assert cli.main(args) == 2
    assert "--force" in capsys.readouterr().err and target.read_text() == "old"
    assert cli.main([*args, "--force"]) == 0
    assert target.read_text().startswith("<?xml")


def test_warnings_go_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        cli.main(
            [
                "mat",
                "--game",
                "angels-and-demons",
                "--seats",
                "4",
                "--paper",
                "A3",
                "--min-spacing",
                "120",
            ]
        )
        == 0
    )
    assert "warning: " in capsys.readouterr().err


def test_bad_paper_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        cli.main(["mat", "--game", "angels-and-demons", "--seats", "4", "--paper", "A4"])
    assert exc.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


@pytest.mark.parametrize(
    "args, message",
    [
        (["--game", "nope", "--seats", "4"], "no game called 'nope'"),
        (["--game", "angels-and-demons", "--seats", "5"], "2-4 players, not 5"),
        (
            ["--game", "angels-and-demons", "--seats", "4", "--layout", "missing.yaml"],
            "no such file",
        ),
        (
            ["--game", "angels-and-demons", "--seats", "4", "--out", "no/such/dir/m.svg"],
            "no such folder",
        ),
    ],
)
def test_bad_input_exits_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["mat", *args]) == 2
    assert message in capsys.readouterr().err
