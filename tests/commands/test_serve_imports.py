"""What ``scorekeeper serve`` imports before its first answer: only what serving needs.

Every module loaded at start costs the Pi start-up time and resident memory (docs/design.md's
budgets) whether or not anyone uses it. The real command runs in a subprocess until it answers
``GET /api/tables``; then the modules it has loaded are read from inside that process.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from scorekeeper.service.hub import Hub
from tests.api.procs import free_port

# Starts the real command on a thread-free main loop; a watcher thread waits for the first 200,
# writes sys.modules to a file and stops the server as Ctrl-C would.
PROBE = """
import json, os, signal, sys, threading, time, urllib.request
from scorekeeper.cli import main

port, db, out = sys.argv[1:4]

def watch():
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=1) as r:
                if r.status == 200:
                    break
        except OSError:
            time.sleep(0.02)
    with open(out, "w") as fh:
        json.dump(sorted(sys.modules), fh)
    os.kill(os.getpid(), signal.SIGINT)

threading.Thread(target=watch, daemon=True).start()
sys.exit(main(["serve", "--port", port, "--db", db, "--log-level", "warning"]))
"""

NEVER_AT_START = (
    # Person-written files' models and the YAML reader: loaded when a file, a data route or a
    # table that needs them is used (core/layout_file.py, core/kit_file.py, api/data_routes.py).
    "scorekeeper.core.yaml_model",
    "scorekeeper.core.yaml_words",
    "scorekeeper.core.layout_file",
    "scorekeeper.core.kit_file",
    "scorekeeper.core.data",
    # Tools of tests, the simulator and golden scripts, never of a server.
    "scorekeeper.core.walker",
    "scorekeeper.core.snapshot",
    "scorekeeper.core.script",
    "scorekeeper.core.script_parse",
    "scorekeeper.core.script_run",
    "scorekeeper.core.script_match",
    "scorekeeper.sim",
)


def _started_modules(tmp_path: Path, db: Path) -> set[str]:
    """The modules ``scorekeeper serve --db db`` has loaded when it first answers."""
    out = tmp_path / "modules.json"
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(free_port()), str(db), str(out)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode in (0, 130), done.stderr
    return set(json.loads(out.read_text()))


def _loaded(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == n or m.startswith(n + ".") for n in names))


def test_an_empty_server_loads_no_game_and_no_file_reader(tmp_path: Path) -> None:
    modules = _started_modules(tmp_path, tmp_path / "empty.db")
    assert "scorekeeper.api.app" in modules  # it did start: the probe saw the real server
    assert _loaded(modules, NEVER_AT_START) == []
    assert [m for m in modules if m.startswith("scorekeeper.games.")] == []
    assert _loaded(modules, ("yaml",)) == []  # no game and no file read: no YAML reader


def test_a_table_of_one_game_loads_that_game_only(tmp_path: Path) -> None:
    db = tmp_path / "one-table.db"
    hub = Hub.open(db)
    try:
        table = hub.create_table("angels-and-demons", 3)
        hub.start(table)
    finally:
        hub.close()
    modules = _started_modules(tmp_path, db)
    assert "scorekeeper.games.angels_demons.game" in modules  # its table was rebuilt
    assert _loaded(modules, ("scorekeeper.games.arcanum",)) == []
    assert _loaded(modules, NEVER_AT_START) == []
