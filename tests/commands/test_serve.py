"""``scorekeeper serve`` as a real subprocess: health, the API, the token, WebSocket push."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import httpx
from websockets.sync.client import connect

from tests.api.procs import free_port, start_cli, stop, wait_http


def test_serve_answers_and_pushes(tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start_cli(["serve", "--port", str(port), "--db", "var/scorekeeper.db"], tmp_path)
    try:
        assert wait_http(f"{base}/healthz", proc).json() == {"ok": True, "tables": 0}
        assert httpx.get(f"{base}/api/tables").json() == []
        token = (tmp_path / "var" / "organiser-token").read_text().strip()
        assert token in (tmp_path / "stdout.txt").read_text()  # printed once, at first start
        org = {"Authorization": f"Bearer {token}"}
        r = httpx.post(f"{base}/api/tables", headers=org, json={
            "game": "angels-and-demons", "seats": 2, "start": True})
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
        with connect(f"ws://127.0.0.1:{port}/ws/tables/{tid}") as ws:
            first = json.loads(ws.recv(timeout=5))
            assert first["status"] == "running" and first["inputs"] == 0
            r = httpx.post(f"{base}/api/tables/{tid}/inputs", headers=org,
                           json={"input": "tag +talon 04DEADBEEF0000"})
            assert r.json()["rule"] == "TABLE-UNKNOWN-TAG"
            pushed = json.loads(ws.recv(timeout=5))
            assert pushed["inputs"] == 1
            assert pushed["feed"][-1]["rejection"]["rule"] == "TABLE-UNKNOWN-TAG"
        assert httpx.get(f"{base}/").status_code == 200
    finally:
        code = stop(proc, signal.SIGINT)
    assert code in (0, 130)
    log = (tmp_path / "stderr.txt").read_text()
    assert "level=INFO" in log and token not in log

    # the second start prints no token and rebuilds the table from its log
    proc = start_cli(["serve", "--port", str(port), "--db", "var/scorekeeper.db"], tmp_path)
    try:
        wait_http(f"{base}/healthz", proc)
        assert httpx.get(f"{base}/api/tables/{tid}").json()["inputs"] == 1
    finally:
        assert stop(proc, signal.SIGTERM) in (0, 130, -15)
    assert (tmp_path / "stdout.txt").read_text().count(token) == 1

    # scorekeeper export: public while the table is being played
    done = subprocess.run([sys.executable, "-m", "scorekeeper", "export", tid], cwd=tmp_path,
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)
    missing = subprocess.run([sys.executable, "-m", "scorekeeper", "export", "t99"],
                             cwd=tmp_path, capture_output=True, text=True, timeout=30)
    assert missing.returncode == 2 and "t99" in missing.stderr
