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
    assert "over: true" in "".join(text.splitlines()[-12:])
    result = run_script(parse_script(text, "sim.yaml"))
    assert result.ok, [f.describe("sim.yaml") for f in result.failures]
    assert result.over


def _bump_last(text: str, key: str) -> str:
    """The script with the first number of the last ``key:`` line raised by one."""
    lines = text.splitlines()
    at = max(i for i, line in enumerate(lines) if line.strip().startswith(key + ":"))
    head, _, value = lines[at].partition(": ")
    lines[at] = head + ": " + re.sub(r"\d+", lambda m: str(int(m.group()) + 1), value, count=1)
    return "\n".join(lines) + "\n"


def test_a_wrong_checkpoint_fails_the_replay() -> None:
    out = io.StringIO()
    write_script("angels-and-demons", 2, {}, 3, out)
    result = run_script(parse_script(_bump_last(out.getvalue(), "scores"), "sim.yaml"))
    assert not result.ok and result.failures[-1].path == "scores.0"


def test_arcanum_scripts_check_every_fame_phase() -> None:
    """An Arcanum world adds each fame phase's rows, awards and totals; a wrong one fails."""
    out = io.StringIO()
    write_script("arcanum", 4, {}, 2, out)
    text = out.getvalue()
    assert text.count("state.history.-1.totals") == 2 + text.count('kind: "world"')
    assert run_script(parse_script(text, "a.yaml")).ok
    result = run_script(parse_script(_bump_last(text, "state.history.-1.totals"), "a.yaml"))
    assert not result.ok and result.failures[-1].path.startswith("state.history.-1.totals")


def test_the_command_writes_a_file_and_refuses_bad_options(tmp_path: Path) -> None:
    file = tmp_path / "g.yaml"
    assert (
        main(["simulate", "angels-and-demons", "--seats", "2", "--seed", "2", "-o", str(file)]) == 0
    )
    assert run_script(load_script(file)).ok
    assert main(["simulate", "angels-and-demons", "--seats", "2", "--option", "nope=1"]) == 2
    assert main(["simulate", "no-such-game", "--seats", "2"]) == 2


def test_a_game_with_private_scores_is_checked_at_the_end_only() -> None:
    """A game whose scores stay private until the end (``Game.scores_private``: King of the
    Elves' purses) shows none during play, so the script checks none before ``over``."""
    out = io.StringIO()
    write_script("king-of-the-elves", 3, {}, 2, out)
    text = out.getvalue()
    lines = text.splitlines()
    over = max(i for i, line in enumerate(lines) if line.strip() == "over: true")
    assert [i for i, line in enumerate(lines) if line.strip().startswith("scores:")] == [over - 1]
    assert "state.history.-1.collected" in text
    assert run_script(parse_script(text, "k.yaml")).ok
    result = run_script(parse_script(_bump_last(text, "scores"), "k.yaml"))
    assert not result.ok and result.failures[-1].path == "scores.0"
