"""``scorekeeper demo`` as a real subprocess: bots play live, Ctrl-C stops, a restart resumes."""

from __future__ import annotations

import signal
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
    args = ["demo", "--pace", "0.02", "--seats", "3", "--seed", "5", "--port", str(port),
            "--db", "var/demo.db"]
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
    finally:
        code = stop(proc, signal.SIGINT)
    assert code in (0, 130)
    assert "http://127.0.0.1:" in (tmp_path / "stdout.txt").read_text()
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
