"""Memory: oversized requests against a served server, and a long event of finished games.

1. A real ``scorekeeper serve`` gets oversized bodies (64 MB each, 20 at a time): pairings and
   new tables without a token, new tables with the organiser's token, the length claimed in the
   headers or the body streamed in chunks. Each must be refused (401 before a byte of the body
   when the token is missing, 413 at the route's size limit otherwise) and the server's peak
   resident memory (the kernel's high-water mark, VmHWM) must stay within the 80 MB budget.
   The requests are sent by the helper the body-limit tests use.
2. ``bench/long_event.py`` (the ``make bench`` figure): 500 finished games in a store, then the
   resident memory of ``scorekeeper serve`` once it listed them and after 20 were viewed.
"""

from __future__ import annotations

import json
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from soak.report import Row, count
from tests.api.procs import free_port, start_cli, stop, wait_http

NAME = "memory"
BUDGET_MB = 80.0
BUDGET = f"0 wrong; each <= {BUDGET_MB:.0f} MB"
ROOT = Path(__file__).resolve().parents[1]
AT_ONCE = 20
MB = 1024 * 1024


def _status_kib(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"no {field} for process {pid}")


def oversized(requests: int, workdir: Path, progress: Callable[[str], None]) -> dict[str, Any]:
    """Send ``requests`` 64 MB requests, AT_ONCE at a time, to a fresh served server."""
    from scorekeeper.service.tokens import token_file_for
    from tests.api.test_body_limits import _oversized

    port = free_port()
    db = workdir / "sk.db"
    proc = start_cli(
        ["serve", "--port", str(port), "--db", str(db), "--log-level", "warning"], workdir
    )
    out: dict[str, Any] = {"sent": 0, "wrong": 0, "problems": [], "idle_mb": 0.0}
    try:
        wait_http(f"http://127.0.0.1:{port}/healthz", proc, timeout=30)
        token = token_file_for(db).read_text().strip()
        out["idle_mb"] = _status_kib(proc.pid, "VmRSS") / 1024
        # (path, length claimed?, the answer it must get)
        kinds = [
            ("/api/pair", True, 413),
            ("/api/pair", False, 413),
            ("/api/tables", True, 401),
            ("/api/tables", False, 401),
            (f"/api/tables?token={token}", True, 413),
            (f"/api/tables?token={token}", False, 413),
        ]
        lock = threading.Lock()
        while out["sent"] < requests:
            wave = min(AT_ONCE, requests - out["sent"])
            start = threading.Barrier(wave)

            def attack(
                path: str, claimed: bool, want: int, start: threading.Barrier = start
            ) -> None:
                start.wait()
                # streamed bodies need bytes before their 413; everything else is answered
                # from the headers, and is given time to be before a byte is sent
                streamed_413 = not claimed and want == 413
                status, _ = _oversized(port, path, 64 * MB, claimed, 0.02 if streamed_413 else 10.0)
                with lock:
                    if status != want:
                        out["wrong"] += 1
                        how = "claimed" if claimed else "streamed"
                        out["problems"].append(
                            f"{path.split('?')[0]} ({how} length): {status}, not {want}"
                        )

            threads = [
                threading.Thread(target=attack, args=kinds[(out["sent"] + i) % len(kinds)])
                for i in range(wave)
            ]
            for t in threads:
                t.start()
            for t in threads:
                t.join(120)
            out["sent"] += wave
            progress(
                f"{out['sent']}/{requests} oversized requests answered, "
                f"{out['wrong']} wrong, peak {_status_kib(proc.pid, 'VmHWM') / 1024:.1f} MB"
            )
        alive = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5)
        if alive.status_code != 200:
            out["problems"].append(f"the server answers {alive.status_code} after the requests")
        out["peak_mb"] = _status_kib(proc.pid, "VmHWM") / 1024
        out["after_mb"] = _status_kib(proc.pid, "VmRSS") / 1024
    finally:
        if proc.poll() is None:
            stop(proc, signal.SIGTERM)
    return out


def long_event(progress: Callable[[str], None]) -> tuple[float, float, float]:
    """``bench.long_event.run`` in a child process, its printed lines passed on as progress as
    they come; (start seconds, MB once listed, MB after 20 viewed)."""
    from bench import long_event as bench

    progress(f"writing {bench.GAMES} finished games into a store (about a minute)")
    code = (
        "import json; from bench import long_event; "
        "print('RESULT', json.dumps(long_event.run(starts=1)), flush=True)"
    )
    proc = subprocess.Popen(
        [sys.executable, "-u", "-c", code],
        cwd=ROOT,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    lines: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line.rstrip())
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    began = time.monotonic()
    result = None
    said: list[str] = []
    while True:
        try:
            line = lines.get(timeout=15)
        except queue.Empty:
            progress(f"still at it ({time.monotonic() - began:.0f} s)")
            continue
        if line is None:
            break
        if line.startswith("RESULT "):
            result = json.loads(line.removeprefix("RESULT "))
        elif line.strip():
            said.append(line)
            progress(" ".join(line.split()))
    proc.wait(timeout=60)
    if result is None:
        raise RuntimeError(
            f"bench/long_event.py gave no figures (exit {proc.returncode}): "
            + " / ".join(said[-3:])
        )
    start_s, listed_mb, viewed_mb = (float(v) for v in result)
    return start_s, listed_mb, viewed_mb


def run(requests: int, *, seed: int, workdir: Path, progress: Callable[[str], None]) -> Row:
    """``requests`` oversized requests (AT_ONCE at a time), then the long event."""
    attack = oversized(requests, workdir, progress)
    _, listed_mb, viewed_mb = long_event(progress)
    peak = attack.get("peak_mb", float("inf"))
    ok = (
        attack["wrong"] == 0
        and not attack["problems"]
        and max(peak, listed_mb, viewed_mb) <= BUDGET_MB
    )
    return Row(
        NAME,
        f"{count(attack['sent'], 'oversized request')} ({AT_ONCE} at once), 500 finished games",
        f"{attack['wrong']} wrong; peak {peak:.2f} MB (idle {attack['idle_mb']:.2f}); "
        f"500 games listed {listed_mb:.2f} MB, 20 viewed {viewed_mb:.2f} MB",
        BUDGET,
        ok,
        problems=tuple(attack["problems"][:10]),
    )
