"""The event demo's programs and its way of talking to the hub (scorekeeper/event/demo.py).

``Program`` is one ``scorekeeper`` command run as a child process (the hub, each table's
server), its output in a log file; it can be stopped (SIGTERM, as systemd stops it), killed
(SIGKILL, a crash) and started again with the same arguments. ``HubClient`` is the organiser's
console and the players' phones: plain HTTP calls to the hub's event API, raising ``HubAway``
while the hub does not answer (it was killed, or is starting again) so the caller waits.

Hazard: every child runs in its own session (process group), so a Ctrl-C at the terminal
reaches only the demo, which stops them in order; ``stop`` therefore must run on every exit.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

import httpx

from scorekeeper.errors import ScorekeeperError


class DemoError(ScorekeeperError, RuntimeError):
    """The event demo could not go on; the message says what happened and where to look."""


class HubAway(DemoError):
    """The hub does not answer now (killed, or starting again)."""


def scorekeeper_argv(*args: str) -> list[str]:
    """The command line of ``scorekeeper ARGS`` with this Python (no installed script needed)."""
    return [sys.executable, "-m", "scorekeeper", *args]


class Program:
    """One child process, started and restarted with the same arguments (see module doc)."""

    def __init__(self, name: str, argv: Sequence[str], log: Path) -> None:
        self.name = name
        self.argv = list(argv)
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None
        self._out: IO[bytes] | None = None
        self.starts = 0  # how many times it was started

    def start(self) -> None:
        self.starts += 1
        self.log.parent.mkdir(parents=True, exist_ok=True)
        self._out = open(self.log, "ab")  # noqa: SIM115 - closed in stop()
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            self.argv,
            stdin=subprocess.DEVNULL,
            stdout=self._out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env=env,
        )

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def check(self) -> None:
        """DemoError with the end of its log when it has exited."""
        if self.proc is not None and self.proc.poll() is not None:
            raise DemoError(
                f"{self.name} stopped (exit code {self.proc.returncode}); the end of its log, "
                f"{self.log}:\n{tail(self.log)}"
            )

    def kill(self) -> None:
        """SIGKILL: it dies at once, as in a crash or a power cut of its machine."""
        self._signal(signal.SIGKILL)
        self._reap(10.0)

    def stop(self, timeout: float = 15.0) -> None:
        """SIGTERM and wait (SIGKILL if it does not stop in ``timeout``). Safe to call twice."""
        self._signal(signal.SIGTERM)
        if not self._reap(timeout):
            self._signal(signal.SIGKILL)
            self._reap(10.0)

    def signal(self, sig: int) -> None:
        """Send ``sig`` to its process group (nothing when it is not running)."""
        self._signal(sig)

    def _signal(self, sig: int) -> None:
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, sig)

    def _reap(self, timeout: float) -> bool:
        if self.proc is not None:
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                return False
        if self._out is not None:
            self._out.close()
            self._out = None
        return True


def tail(path: Path, lines: int = 15) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


class HubClient:
    """The hub's event API as the organiser (``token``) and the players (their own tokens)."""

    def __init__(self, base: str, token: str) -> None:
        self.base = base.rstrip("/")
        self.token = token
        self.http = httpx.Client(timeout=30.0)

    def close(self) -> None:
        self.http.close()

    def call(self, method: str, path: str, token: str | None = None, **kw: Any) -> Any:
        """One request; HubAway when the hub does not answer, DemoError when it refuses."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        try:
            response = self.http.request(method, self.base + path, headers=headers, **kw)
        except httpx.TransportError as exc:
            raise HubAway(f"the hub does not answer ({exc.__class__.__name__})") from None
        if response.status_code >= 400:
            try:
                text = response.json().get("error", response.text)
            except ValueError:
                text = response.text
            raise DemoError(f"the hub refused {method} {path}: {text}")
        return response.json()

    def organiser(self, method: str, path: str, **kw: Any) -> Any:
        return self.call(method, path, self.token, **kw)

    def wait_up(self, program: Program, timeout: float = 60.0) -> None:
        """Wait until the hub answers (DemoError when it exits or takes too long)."""
        deadline = time.monotonic() + timeout
        while True:
            program.check()
            with contextlib.suppress(HubAway):
                self.call("GET", "/api/event")
                return
            if time.monotonic() > deadline:
                raise DemoError(f"the hub did not answer within {timeout:.0f} s: see {program.log}")
            time.sleep(0.1)

    def changes(self, since: int) -> int:
        """Wait until the event changes after version ``since`` (the hub answers within 20 s);
        the new version."""
        return int(self.call("GET", f"/api/event/changes?since={since}")["version"])
