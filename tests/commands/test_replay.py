"""``scorekeeper replay``: output and exit codes (0 ok, 1 an expectation failed, 2 invalid).

The exit codes are checked through real processes: the installed console script on the golden
Angels & Demons scripts, and ``python -c`` with the fake game of tests/core/test_script.py
registered, so the runner is covered without depending on a real referee's details.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONSOLE = ROOT / ".venv" / "bin" / "scorekeeper"
GOLDEN = ROOT / "tests" / "scripts" / "angels_demons"
FAKE_MODULE = ROOT / "tests" / "core" / "test_script.py"

# Runs the CLI in a fresh interpreter with the fake game as the only registered game.
WITH_FAKE = f"""
import importlib.util, sys
spec = importlib.util.spec_from_file_location("fake_game_tests", {str(FAKE_MODULE)!r})
mod = importlib.util.module_from_spec(spec)
sys.modules["fake_game_tests"] = mod
spec.loader.exec_module(mod)
import scorekeeper.games as games
games.find_game = mod.find_fake
from scorekeeper.cli import main
sys.exit(main(sys.argv[1:]))
"""

GOOD = """\
game: fake
title: two pieces
seats: [Ann, Bea]
options: {target: 2}
steps:
  - +board A
  - +board B
  - expect: {scores: [1, 1], over: false}
"""


def fake_replay(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", WITH_FAKE, "replay", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def console(*args: str) -> subprocess.CompletedProcess[str]:
    cmd = [str(CONSOLE)] if CONSOLE.exists() else [sys.executable, "-m", "scorekeeper"]
    return subprocess.run(
        [*cmd, "replay", *args], capture_output=True, text=True, cwd=ROOT, timeout=60
    )


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_exit_0_and_a_readable_summary(tmp_path: Path) -> None:
    proc = fake_replay(write(tmp_path, "good.yaml", GOOD))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "good.yaml — two pieces: ok" in proc.stdout
    assert "scores: Ann 1, Bea 1" in proc.stdout


def test_exit_1_names_the_step_and_what_differed(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.yaml", GOOD.replace("scores: [1, 1]", "scores: [1, 2]"))
    proc = fake_replay(path)
    assert proc.returncode == 1
    assert f"{path}:8: step 3: scores.1: expected 2, got 1" in proc.stdout


def test_exit_1_on_an_unexpected_refusal(tmp_path: Path) -> None:
    path = write(tmp_path, "refused.yaml", GOOD.replace("+board B", "+board A"))
    proc = fake_replay(path)
    assert proc.returncode == 1
    assert "step 2: '+board A' was refused: F-1" in proc.stdout
    assert "stopped after step 2 of 3" in proc.stdout


def test_exit_2_names_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, "invalid.yaml", GOOD.replace("+board B", "put B down"))
    proc = fake_replay(path)
    assert proc.returncode == 2
    assert f"{path}:7: step 2: not an input: 'put B down'" in proc.stdout
    assert "INVALID" in proc.stdout


def test_exit_2_wins_over_1_with_several_files(tmp_path: Path) -> None:
    bad = write(tmp_path, "bad.yaml", GOOD.replace("over: false", "over: true"))
    invalid = write(tmp_path, "invalid.yaml", "game: fake\nseats: [A, B]\nsteps: [\n")
    good = write(tmp_path, "good.yaml", GOOD)
    assert fake_replay(good, bad).returncode == 1
    assert fake_replay(good, bad, invalid).returncode == 2


def test_json_output(tmp_path: Path) -> None:
    good = write(tmp_path, "good.yaml", GOOD)
    proc = fake_replay(good, "--json")
    assert proc.returncode == 0
    data = json.loads(proc.stdout)
    assert data["ok"] is True and data["scores"] == [1, 1] and data["winners"] == []
    assert data["view"]["state"]["board"] == ["A", "B"]
    bad = write(tmp_path, "bad.yaml", GOOD.replace("over: false", "over: true"))
    invalid = write(tmp_path, "invalid.yaml", "game: chess\nseats: [A, B]\nsteps: []\n")
    proc = fake_replay(good, bad, invalid, "--json", "--verbose")
    assert proc.returncode == 2
    many = json.loads(proc.stdout)
    assert [r["file"] for r in many] == [good, bad, invalid]
    assert many[1]["failures"] == [
        {
            "step": 3,
            "line": 8,
            "kind": "expect",
            "message": "over: expected True, got False",
            "path": "over",
            "expected": "True",
            "actual": False,
        }
    ]
    assert [t["text"] for t in many[0]["trace"]] == ["+board A", "+board B", "expect"]
    assert many[2] == {
        "file": invalid,
        "valid": False,
        "ok": False,
        "error": {
            "message": "no game called 'chess'; known games: fake",
            "line": 1,
            "text": f"{invalid}:1: no game called 'chess'; known games: fake",
        },
    }


def test_verbose_lists_every_step(tmp_path: Path) -> None:
    proc = fake_replay(write(tmp_path, "good.yaml", GOOD), "--verbose")
    assert proc.returncode == 0
    assert "+board A" in proc.stdout and "seat 0 put A" in proc.stdout
    assert "expect ok" in proc.stdout


def test_a_missing_file_is_invalid(tmp_path: Path) -> None:
    proc = fake_replay(str(tmp_path / "nope.yaml"))
    assert proc.returncode == 2 and "cannot read the script" in proc.stdout


@pytest.mark.parametrize("name", ["T-09-basic-scoring.yaml", "T-17-end.yaml"])
def test_the_console_script_on_golden_scripts(name: str) -> None:
    proc = console(str(GOLDEN / name))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert ": ok" in proc.stdout


def test_the_console_script_json_on_a_golden_script() -> None:
    proc = console(str(GOLDEN / "T-17-end.yaml"), "--json")
    assert proc.returncode == 0
    data = json.loads(proc.stdout)
    assert data["game"] == "angels-and-demons"
    assert data["scores"] == [1, 13, 1, 1] and data["winners"] == ["P2"] and data["over"]


def test_the_console_script_exit_1_and_2_on_a_real_game(tmp_path: Path) -> None:
    text = (GOLDEN / "T-09-basic-scoring.yaml").read_text()
    wrong = write(
        tmp_path, "T-09-wrong.yaml", text.replace("scores: [5, 0, 0, 0]", "scores: [6, 0, 0, 0]")
    )
    proc = console(wrong)
    assert proc.returncode == 1
    assert "scores.0: expected 6, got 5" in proc.stdout
    bad_option = write(
        tmp_path,
        "T-09-bad.yaml",
        text.replace("seats: [P1, P2, P3, P4]", "seats: [P1, P2, P3, P4]\noptions: {mode: expert}"),
    )
    proc = console(bad_option)
    assert proc.returncode == 2
    assert (
        f"{bad_option}:7: option 'mode' must be one of basic (Basic game), advanced "
        "(Advanced game), not 'expert'"
    ) in proc.stdout


def test_help_describes_the_exit_codes() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "scorekeeper", "replay", "--help"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 0
    assert "exit status" in proc.stdout and "--json" in proc.stdout


def test_the_example_in_the_docs_passes(tmp_path: Path) -> None:
    text = (ROOT / "docs" / "table-scripts.md").read_text()
    example = text.split("```yaml\n", 1)[1].split("```\n", 1)[0]
    proc = console(write(tmp_path, "example.yaml", example))
    assert proc.returncode == 0, proc.stdout
    assert 'a set and a "mine!": ok' in proc.stdout


def test_include_fragments_given_by_a_glob_are_skipped_and_named_on_stderr(tmp_path: Path) -> None:
    good = write(tmp_path, "game.yaml", GOOD)
    fragment = write(tmp_path, "_prelude.yaml", "steps:\n  - +board A\n")
    proc = fake_replay(fragment, good)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "skipped 1 include fragment" in proc.stderr
    assert "_prelude.yaml" in proc.stderr
    assert "game.yaml" in proc.stdout and "_prelude" not in proc.stdout


def test_only_fragments_is_an_error_that_says_so(tmp_path: Path) -> None:
    fragment = write(tmp_path, "_prelude.yaml", "steps:\n  - +board A\n")
    proc = fake_replay(fragment)
    assert proc.returncode == 2
    assert "every file given is an include fragment" in proc.stderr
