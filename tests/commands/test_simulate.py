"""``scorekeeper simulate``: a world's game written as a table script that a referee replays."""

from __future__ import annotations

import io
import re
from pathlib import Path

from scorekeeper.cli import main
from scorekeeper.commands.simulate import write_script
from scorekeeper.core.script import load_script, parse_script, run_script


def test_the_written_script_replays_with_the_worlds_scores() -> None:
    out = io.StringIO()
    count = write_script("angels-and-demons", 3, {"mode": "advanced"}, 5, out)
    text = out.getvalue()
    assert count > 100 and text.count("expect:") >= 2
    assert "over: true" in text.splitlines()[-1]
    result = run_script(parse_script(text, "sim.yaml"))
    assert result.ok, [f.describe("sim.yaml") for f in result.failures]
    assert result.over


def test_a_wrong_checkpoint_fails_the_replay() -> None:
    out = io.StringIO()
    write_script("angels-and-demons", 2, {}, 3, out)
    lines = out.getvalue().splitlines()
    last = lines[-1]
    scores = [int(x) for x in re.findall(r"\d+", last.split("scores:")[1].split("]")[0])]
    scores[0] += 1
    lines[-1] = re.sub(r"scores: \[[^\]]*\]", f"scores: {scores}", last)
    result = run_script(parse_script("\n".join(lines) + "\n", "sim.yaml"))
    assert not result.ok and result.failures[-1].path == "scores.0"


def test_the_command_writes_a_file_and_refuses_bad_options(tmp_path: Path) -> None:
    file = tmp_path / "g.yaml"
    assert main(["simulate", "angels-and-demons", "--seats", "2", "--seed", "2",
                 "-o", str(file)]) == 0
    assert run_script(load_script(file)).ok
    assert main(["simulate", "angels-and-demons", "--seats", "2", "--option", "nope=1"]) == 2
    assert main(["simulate", "no-such-game", "--seats", "2"]) == 2
