"""``scorekeeper demo`` as a real subprocess: bots play live, Ctrl-C stops, a restart resumes."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from scorekeeper.service.hub import store_class
from tests.api.procs import free_port, start_cli, stop, wait_http


def _table(base: str) -> dict[str, Any]:
    tables = httpx.get(f"{base}/api/tables", timeout=2).json()
    assert tables and tables[0]["id"] == "t1"
    return dict(httpx.get(f"{base}/api/tables/t1", timeout=2).json())


def _logged(db: Path) -> int:
    store = store_class()(f"sqlite:///{db}")
    try:
        return sum(1 for _ in store.records("t1"))
    finally:
        store.close()


def test_demo_plays_stops_and_resumes(tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    args = [
        "demo",
        "--pace",
        "0.02",
        "--seats",
        "3",
        "--seed",
        "5",
        "--port",
        str(port),
        "--db",
        "var/demo.db",
    ]
    proc = start_cli(args, tmp_path)
    try:
        wait_http(f"{base}/healthz", proc)
        deadline = time.monotonic() + 20
        first = _table(base)
        while time.monotonic() < deadline:
            later = _table(base)
            if later["accepted"] > first["accepted"] + 5:
                break
            time.sleep(0.1)
        assert later["accepted"] > first["accepted"] + 5, "the bots are not playing"
        assert later["status"] == "running"
        # A second demo on the same database is refused in words (the database lock).
        other = [*args[:-3], str(free_port()), "--db", "var/demo.db"]
        second = subprocess.run(
            [sys.executable, "-m", "scorekeeper", *other],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert second.returncode != 0
        assert "another scorekeeper server is using var/demo.db" in second.stderr
    finally:
        code = stop(proc, signal.SIGINT)
    assert code in (0, 130)
    printed = (tmp_path / "stdout.txt").read_text()
    assert "http://127.0.0.1:" in printed
    assert "to start afresh" in printed and "make demo DEMO_ARGS=--new" in printed
    db = tmp_path / "var" / "demo.db"
    logged = _logged(db)
    assert logged >= later["inputs"]

    proc = start_cli(args, tmp_path)
    try:
        wait_http(f"{base}/healthz", proc)
        resumed = _table(base)
        assert resumed["inputs"] >= logged  # the same table, rebuilt by replay
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and _table(base)["inputs"] < logged + 20:
            time.sleep(0.1)
        now = _table(base)
        assert now["inputs"] >= logged + 20, "the resumed game does not continue"
        refused_before = later["inputs"] - later["accepted"]
        assert now["inputs"] - now["accepted"] == refused_before  # the bots stayed in step
    finally:
        assert stop(proc, signal.SIGINT) in (0, 130)


def test_make_demo_game_arcanum_plays_live_and_resumes(tmp_path: Path) -> None:
    """``make demo GAME=arcanum``: five bots play Arcanum on sim readers with nothing refused,
    on the sample board (labelled as such), and a restart resumes the same table."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    args = [
        "demo",
        "--game",
        "arcanum",
        "--pace",
        "0.01",
        "--seats",
        "5",
        "--seed",
        "3",
        "--port",
        str(port),
        "--db",
        "var/demo.db",
    ]
    logged = 0
    for _run in range(2):
        proc = start_cli(args, tmp_path)
        try:
            wait_http(f"{base}/healthz", proc)
            first = _table(base)
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline and _table(base)["inputs"] < first["inputs"] + 60:
                time.sleep(0.1)
            view = _table(base)
            assert view["game"] == "arcanum" and view["state"]["board"]["sample"] is True
            assert view["inputs"] >= first["inputs"] + 60, "the bots are not playing"
            refused = [e for e in view["feed"] if not e["accepted"]]
            assert not refused, refused
            assert first["inputs"] >= logged  # on the restart: the same table, replayed
        finally:
            assert stop(proc, signal.SIGINT) in (0, 130)
        logged = _logged(tmp_path / "var" / "demo.db")
