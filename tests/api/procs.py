"""Helpers to run ``scorekeeper`` commands as real subprocesses in tests."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


REPO = Path(__file__).resolve().parents[2]


def start_cli(args: list[str], cwd: Path, module: str = "scorekeeper") -> subprocess.Popen[str]:
    """``python -m scorekeeper ARGS`` as a subprocess with its output in files under cwd.
    ``module``: another entry point with the same arguments (``tests.toy_serve``: the command
    with the toy games registered), found from the repository whatever ``cwd`` is."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    if module != "scorekeeper":
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    out = open(cwd / "stdout.txt", "a")  # noqa: SIM115 - closed with the process
    err = open(cwd / "stderr.txt", "a")  # noqa: SIM115
    return subprocess.Popen(
        [sys.executable, "-m", module, *args],
        cwd=cwd,
        stdout=out,
        stderr=err,
        text=True,
        env=env,
    )


def wait_http(url: str, proc: subprocess.Popen[str], timeout: float = 15.0) -> httpx.Response:
    """Poll ``url`` until it answers 200 (bounded); fails with the server's stderr otherwise."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"server exited with {proc.returncode}")
        try:
            r = httpx.get(url, timeout=1.0)
            if r.status_code == 200:
                return r
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    raise AssertionError(f"{url} did not answer within {timeout} s")


def stop(proc: subprocess.Popen[str], sig: int, timeout: float = 10.0) -> int:
    """Send ``sig`` and wait; kill (and fail) if it does not stop in time."""
    proc.send_signal(sig)
    try:
        return proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        raise AssertionError("the process did not stop after the signal") from None
