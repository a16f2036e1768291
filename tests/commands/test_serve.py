"""``scorekeeper serve`` as a real subprocess: health, the API, the token, WebSocket push."""

from __future__ import annotations

import json
import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from tests.api.procs import free_port, start_cli, stop, wait_http


def strings(value: object) -> list[str]:
    """Every string in a JSON value, keys included, in document order."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (k, *strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def test_serve_answers_and_pushes(tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start_cli(["serve", "--port", str(port), "--db", "var/scorekeeper.db"], tmp_path)
    try:
        assert wait_http(f"{base}/healthz", proc).json() == {"ok": True, "tables": 0}
        assert httpx.get(f"{base}/api/tables").json() == []
        token = (tmp_path / "var" / "organiser-token").read_text().strip()
        # stdout is a file here, as under systemd (the journal): where the token is, not it
        printed = (tmp_path / "stdout.txt").read_text()
        assert token not in printed
        assert f"organiser token is saved in {tmp_path / 'var' / 'organiser-token'}" in printed
        org = {"Authorization": f"Bearer {token}"}
        r = httpx.post(
            f"{base}/api/tables",
            headers=org,
            json={"game": "angels-and-demons", "seats": 2, "start": True},
        )
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
        with connect(f"ws://127.0.0.1:{port}/ws/tables/{tid}") as ws:
            first = json.loads(ws.recv(timeout=5))
            assert first["status"] == "running" and first["inputs"] == 0
            r = httpx.post(
                f"{base}/api/tables/{tid}/inputs",
                headers=org,
                json={"input": "tag +talon 04DEADBEEF0000"},
            )
            assert r.json()["rule"] == "TABLE-UNKNOWN-TAG"
            pushed = json.loads(ws.recv(timeout=5))
            assert pushed["inputs"] == 1
            assert pushed["feed"][-1]["rejection"]["rule"] == "TABLE-UNKNOWN-TAG"
        # deal the talon (seats + 1 cards, face up), then seat 0 takes H1b1: which card seat 0
        # took is seat 0's secret from now on
        for line in ("+talon H1b1", "+talon H2b1", "+talon H3b1", "-talon H1b1"):
            r = httpx.post(f"{base}/api/tables/{tid}/inputs", headers=org, json={"input": line})
            assert r.status_code == 200 and r.json()["accepted"], r.text
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
        assert httpx.get(f"{base}/api/tables/{tid}").json()["inputs"] == 5
    finally:
        assert stop(proc, signal.SIGTERM) in (0, 130, -15)
    printed = (tmp_path / "stdout.txt").read_text()
    assert token not in printed
    assert f"organiser token: see {tmp_path / 'var' / 'organiser-token'}" in printed

    # scorekeeper export: public while the table is being played
    def export(*options: str) -> dict:
        done = subprocess.run(
            [sys.executable, "-m", "scorekeeper", "export", tid, *options],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    public, full = export(), export("--organiser")
    assert (public["audience"], full["audience"]) == ("public", "organiser")
    assert public["status"] == full["status"] == "running"
    assert len(public["inputs"]) == len(full["inputs"]) == 5
    # the organiser export knows who took what, and the raw inputs that say it...
    assert full["view"]["state"]["taken"] == {"0": ["H1b1"], "1": []}
    assert full["inputs"][-1]["input"] == "-talon H1b1"
    assert full["inputs"][-1]["record"]["piece"] == "H1b1"
    assert full["view"]["feed"][-1]["input"] == "-talon H1b1"
    # ...the public one only that seat 0 took a card: H1b1 (the black human 1) is named by the
    # (public, face-up) deal alone, in words, in the inputs and in the view's feed; no raw
    # input, no record, no "taken", and never its id
    deal = (
        "Seat 1 dealt round 1: 3 cards turned onto the talon "
        "(black human 1, black human 2 and black human 3)"
    )
    assert public["inputs"][-1]["events"] == ["Seat 1 took a card from the talon"]
    assert public["view"]["state"]["talon"] == ["H2b1", "H3b1"]
    assert "taken" not in public["view"]["state"]
    assert [s for s in strings(public) if "black human 1" in s] == [deal, deal]
    assert not [s for s in strings(public) if "H1b1" in s]
    assert not any(
        "input" in item or "record" in item for item in public["inputs"] + public["view"]["feed"]
    )
    missing = subprocess.run(
        [sys.executable, "-m", "scorekeeper", "export", "t99"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert missing.returncode == 2 and "t99" in missing.stderr


def test_the_token_is_shown_on_a_terminal_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Under systemd stdout is the journal: a new token is printed only to a terminal, and
    otherwise the output says which file holds it (issue 10, point 6)."""
    from scorekeeper.commands.serve import announce

    file = tmp_path / "var" / "organiser-token"
    announce("http://127.0.0.1:8000/", "tok-SECRET", file, terminal=False)
    out = capsys.readouterr().out
    assert "tok-SECRET" not in out and f"saved in {file}" in out and "not printed" in out
    announce("http://127.0.0.1:8000/", "tok-SECRET", file, terminal=True)
    out = capsys.readouterr().out
    assert "tok-SECRET" in out and f"also saved in {file}" in out
    announce("http://127.0.0.1:8000/", None, file, terminal=True)
    assert capsys.readouterr().out.endswith(f"organiser token: see {file}\n")


def test_serve_on_a_terminal_shows_the_new_token(tmp_path: Path) -> None:
    """A person starting the server by hand (stdout a terminal) still sees the token once."""
    port = free_port()
    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "scorekeeper",
            "serve",
            "--port",
            str(port),
            "--db",
            "var/scorekeeper.db",
        ],
        cwd=tmp_path,
        stdout=follower,
        stderr=subprocess.DEVNULL,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
    )
    os.close(follower)
    try:
        wait_http(f"http://127.0.0.1:{port}/healthz", proc)
        token = (tmp_path / "var" / "organiser-token").read_text().strip()
        seen = b""
        deadline = time.monotonic() + 10
        while token.encode() not in seen and time.monotonic() < deadline:
            ready, _, _ = select.select([leader], [], [], 0.2)
            if ready:
                seen += os.read(leader, 4096)
        assert token.encode() in seen, seen
        assert b"shown once" in seen
    finally:
        assert stop(proc, signal.SIGTERM) in (0, 130, -15)
        os.close(leader)
