"""``scorekeeper ... | head``: a reader that goes away ends the command quietly."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted(str(p) for p in (ROOT / "tests" / "scripts" / "angels_demons").glob("T-0*.yaml"))


def test_a_closed_pipe_ends_the_command_without_a_traceback() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper", "replay", "-v", *SCRIPTS],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()  # like `head -1`: read a line, then go away
    proc.stdout.close()
    err = proc.stderr.read().decode()
    code = proc.wait(timeout=60)
    assert first.strip()
    assert "Traceback" not in err and "BrokenPipeError" not in err, err
    assert code == 141
