"""Hub processes for the event fault runs: each ``scorekeeper hub serve`` under a fixed hub
number, started, SIGKILLed and stopped by soak/event_faults.py through soak/event_field.py.

``HubStarter`` runs the warm parent (soak/event_zygote.py) that forks each start and reads what
it says; ``HubProcess`` is one hub number: its current process, whether its ingest has said it
is connected, and how its runs ended.

Hazard: a killed hub must be started again under the same number, because its broker session
keeps its share of the tables' messages until it comes back (scorekeeper/event/wire.py).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from scorekeeper.event.servers import free_port

EVENT = "faults"  # the event every fault run creates
REPO = str(Path(__file__).resolve().parents[1])  # where ``python -m soak.event_zygote`` is found


class HubStarter:
    """The warm parent that forks hub processes (soak/event_zygote.py) and a thread that
    hands what it says to each ``HubProcess``."""

    def __init__(self) -> None:
        path = os.pathsep.join(filter(None, [REPO, os.environ.get("PYTHONPATH", "")]))
        env = dict(os.environ, PYTHONPATH=path)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "soak.event_zygote"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
            env=env,
        )
        self.hubs: dict[int, HubProcess] = {}
        self._reader = threading.Thread(target=self._read, name="hub-starter", daemon=True)
        self._reader.start()

    def send(self, *message: Any) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(list(message)) + "\n")
        self.proc.stdin.flush()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            kind, number, pid, *rest = json.loads(line)
            self.hubs[int(number)].heard(str(kind), int(pid), rest)

    def close(self) -> None:
        """Stop every hub process (SIGTERM) and the parent."""
        if self.proc.stdin is not None:
            with contextlib.suppress(OSError):
                self.proc.stdin.close()
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self._reader.join(timeout=10)


class HubProcess:
    """One ``scorekeeper hub serve`` process under a fixed hub number: start, kill, stop.

    Each start is a fork of the warm parent (``HubStarter``) that runs the command; its output
    goes to ``hub<n>.log`` in the work folder. ``connected`` is set once its ingest says it is
    connected."""

    def __init__(
        self, number: int, url: str, folder: Path, workdir: Path, starter: HubStarter
    ) -> None:
        self.number = number
        self.url = url
        self.folder = folder
        self.log = workdir / f"hub{number}.log"
        self.starter = starter
        starter.hubs[number] = self
        self.pid = 0
        self.port = 0
        self.connected = threading.Event()
        self.starts = 0
        self.exits: list[int] = []  # exit codes of runs that ended other than by our kill
        self._ended: dict[int, int] = {}  # pid -> exit code
        self._heard = threading.Condition()

    def heard(self, kind: str, pid: int, rest: list[Any]) -> None:
        """What the parent said about one of this hub's processes."""
        with self._heard:
            if kind == "pid":
                self.pid = pid
            elif kind == "connected" and pid == self.pid:
                self.connected.set()
            elif kind == "exit":
                self._ended[pid] = int(rest[0])
            self._heard.notify_all()

    def start(self) -> None:
        self.port = free_port()
        self.connected.clear()
        self.starts += 1
        with self.log.open("a") as out:
            out.write(f"--- hub {self.number}, run {self.starts}\n")
        args = ["hub", "serve", EVENT, "--db", self.url, "--dir", str(self.folder)]
        args += ["--hub-number", str(self.number), "--port", str(self.port)]
        with self._heard:
            self.pid = 0
            self.starter.send("start", self.number, str(self.log), [*args, "--log-level", "info"])
            if not self._heard.wait_for(lambda: self.pid != 0, timeout=30):
                raise RuntimeError(f"hub {self.number} was not started (see {self.log})")

    def alive(self) -> bool:
        return self.pid != 0 and self.pid not in self._ended

    def _wait_end(self, timeout: float) -> int | None:
        with self._heard:
            self._heard.wait_for(lambda: self.pid in self._ended, timeout=timeout)
            return self._ended.get(self.pid)

    def kill(self) -> None:
        """SIGKILL the process and wait for its end (a run that ended by itself is noted)."""
        if self.alive():
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
        code = self._wait_end(20.0)
        if code is None:
            raise RuntimeError(f"hub {self.number} (pid {self.pid}) did not die of SIGKILL")
        if code != -signal.SIGKILL:
            self.exits.append(code)
        self.connected.clear()

    def stop(self) -> None:
        if self.alive():
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGTERM)
            if self._wait_end(20.0) is None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(self.pid, signal.SIGKILL)

    def public_view(self, timeout: float = 30.0) -> dict[str, Any]:
        """The hub's public view (``GET /api/event``), once its web server answers."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                answer = httpx.get(f"http://127.0.0.1:{self.port}/api/event", timeout=10.0)
                if answer.status_code == 200:
                    view: dict[str, Any] = answer.json()
                    return view
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline or not self.alive():
                raise RuntimeError(f"hub {self.number} does not serve its view (see {self.log})")
            time.sleep(0.05)
