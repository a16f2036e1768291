"""Installing the project as the README's commands do prints no packaging warnings.

The first ``make demo`` used to print about 20 lines of setuptools warnings (a deprecated
licence table, then the editable install's "be careful with folders" notice) before anything
of ours. The install is run for real, the way the Makefile does it, into a throwaway prefix.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_an_editable_install_prints_no_setuptools_warning(tmp_path: Path) -> None:
    # A throwaway environment of its own: pip must never touch the one running the tests.
    env = tmp_path / "venv"
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(env)], check=True, timeout=120
    )
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(env / "bin" / "python"),
            "install",
            "--quiet",
            "--no-deps",
            "-e",
            str(REPO),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    said = done.stdout + done.stderr
    assert "BuildBackendWarning" not in said and "setuptools" not in said, said
    assert list(env.rglob("__editable__*scorekeeper*")), "nothing installed"
