"""Sighting on the serial line -> view at a WebSocket client, against two relays in the same run.

A scripted bridge (``scorekeeper.readers.fake_bridge``) writes real frames to a pseudo-terminal.
The product: ``scorekeeper serve`` (a subprocess) has an Angels & Demons table whose reader
backend is ``serial:<the pty>``; a WebSocket client times each sighting of a simulated game from
the moment the bridge wrote its frame to the moment the public view that includes it arrived
(pyserial, codec, presence filter, log append with fsync, referee, view, push). The yardsticks:
``bench.relay`` does only pyserial, codec and push on the same stack (bare), or the same with
each sighting committed to SQLite in WAL with ``synchronous=FULL`` before the push (durable: the
floor invariant 1 sets). The budget (docs/design.md, "Budgets") holds the product's p50 and p99
to 1.3x the durable relay's, measured in the same run. CLOCK_MONOTONIC is shared by the
processes, so both ends use ``time.perf_counter``.

It also reports each server's CPU time per input over the run (user + system, every thread,
from /proc): what a Pi Zero 2 W, 5-10x slower, will spend per sighting. Run this part alone with
``python -m bench latency``.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import tty
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

from bench.common import percentile, report
from scorekeeper.core.inputs import Decision, Seen
from scorekeeper.games import find_game
from scorekeeper.readers.fake_bridge import FakeBridge
from scorekeeper.service.tokens import token_file_for
from scorekeeper.sim import find_world

GAME = "angels-and-demons"
SEATS = 4
BUDGET_MS = 5.0
RATIO_BUDGET = 1.3


def _uid(piece: str) -> bytes:
    return b"\x04" + hashlib.sha1(piece.encode()).digest()[:6]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_http(url: str, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(url, timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if proc.poll() is not None:
            break
        time.sleep(0.02)
    proc.kill()
    raise RuntimeError(f"{url} did not answer")


def _pty_bridge(readers: int) -> tuple[FakeBridge, str, int]:
    master, slave = os.openpty()
    tty.setraw(slave)
    bridge = FakeBridge(master, reader_count=readers, heartbeat_interval=0.5).start()
    return bridge, os.ttyname(slave), slave


def _perform(bridge: FakeBridge, seen: Seen, zone_index: dict[str, int]) -> None:
    if seen.present:
        bridge.put(zone_index[seen.zone], _uid(seen.piece))
    else:
        bridge.take(zone_index[seen.zone], _uid(seen.piece))


def _game(count: int) -> list[Seen | Decision]:
    world = find_world(GAME)(SEATS, {}, 3)
    out: list[Seen | Decision] = []
    while len(out) < count and (batch := world.next_inputs()):
        out.extend(batch)
    return out[:count]


@dataclass
class Run:
    """One side of the comparison: each sighting's latency (ms), and the server process's CPU
    time over the inputs (s; None where /proc cannot say) with how many inputs it covers."""

    times: list[float]
    cpu: float | None
    inputs: int


def _cpu_seconds(pid: int) -> float | None:
    """User plus system CPU time of process ``pid``, all its threads, dead ones too (Linux
    /proc; 10 ms ticks: over a run of hundreds of milliseconds that is a few percent)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _used(before: float | None, pid: int) -> float | None:
    after = _cpu_seconds(pid)
    return None if before is None or after is None else after - before


def _relay(inputs: list[Seen | Decision], zone_index: dict[str, int], durable: bool = False) -> Run:
    """The relay's latencies: bare, or durable (each sighting committed to SQLite first)."""
    bridge, path, slave = _pty_bridge(len(zone_index))
    port = _free_port()
    times: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        database = [str(Path(tmp) / "relay.db")] if durable else []
        proc = subprocess.Popen([sys.executable, "-m", "bench.relay", str(port), path, *database])
        try:
            _wait_http(f"http://127.0.0.1:{port}/healthz", proc)
            with connect(f"ws://127.0.0.1:{port}/ws") as ws:
                cpu = _cpu_seconds(proc.pid)
                for n, seen in enumerate((i for i in inputs if isinstance(i, Seen)), start=1):
                    start = time.perf_counter()
                    _perform(bridge, seen, zone_index)
                    while json.loads(ws.recv(timeout=10))["n"] < n:
                        pass
                    times.append((time.perf_counter() - start) * 1000)
                cpu = _used(cpu, proc.pid)
        finally:
            proc.kill()  # a yardstick, not the product: no graceful shutdown to wait for
            proc.wait(timeout=20)
            bridge.stop()
            os.close(slave)
    return Run(times, cpu, len(times))


def _product(
    inputs: list[Seen | Decision], zone_index: dict[str, int], server: list[str] | None = None
) -> Run:
    """The product's latencies (``server``: another way to start it, e.g. under a profiler)."""
    bridge, path, slave = _pty_bridge(len(zone_index))
    port = _free_port()
    times: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "latency.db"
        proc = subprocess.Popen(
            [
                *(server or [sys.executable, "-m", "scorekeeper"]),
                "serve",
                "--port",
                str(port),
                "--db",
                str(db),
                "--log-level",
                "warning",
            ],
            stdout=subprocess.DEVNULL,
        )
        try:
            url = f"http://127.0.0.1:{port}"
            _wait_http(f"{url}/healthz", proc)
            headers = {"Authorization": "Bearer " + token_file_for(db).read_text().strip()}
            client = httpx.Client(base_url=url, headers=headers, timeout=10)
            kit = {_uid(p).hex().upper(): p for p in find_game(GAME).pieces()}
            layout = {f"r{i}": zone for zone, i in zone_index.items()}
            created = client.post(
                "/api/tables",
                json={
                    "game": GAME,
                    "seats": SEATS,
                    "readers": f"serial:{path}",
                    "layout": layout,
                    "kit": kit,
                    "start": True,
                },
            )
            created.raise_for_status()
            table_id = created.json()["id"]
            if not bridge.synced.wait(10):
                raise RuntimeError("the server's serial backend never synced with the bridge")
            time.sleep(0.3)  # let the bridge's inventory and heartbeat settle
            with connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}") as ws:
                view: dict[str, Any] = json.loads(ws.recv(timeout=10))
                expected = int(view["inputs"])
                cpu = _cpu_seconds(proc.pid)
                for inp in inputs:
                    expected += 1
                    start = time.perf_counter()
                    if isinstance(inp, Seen):
                        _perform(bridge, inp, zone_index)
                    else:
                        client.post(
                            f"/api/tables/{table_id}/decisions",
                            json={"prompt": inp.prompt, "answer": inp.answer, "seat": inp.seat},
                        )
                    while int(view["inputs"]) < expected:
                        view = json.loads(ws.recv(timeout=10))
                    if isinstance(inp, Seen):
                        times.append((time.perf_counter() - start) * 1000)
                cpu = _used(cpu, proc.pid)
                refused = [e for e in view["feed"] if not e["accepted"]]
                if refused:
                    print(f"  warning: refusals during the latency run: {refused[:3]}")
            client.close()
        finally:
            proc.terminate()
            proc.wait(timeout=20)
            bridge.stop()
            os.close(slave)
    return Run(times, cpu, len(inputs))


def _cpu_line(name: str, run: Run) -> None:
    """One CPU figure: no budget, but what a Pi Zero 2 W (5-10x slower) would spend."""
    if run.cpu is None:
        report(name, "not measured (no /proc)", "(none)", None)
        return
    per = run.cpu * 1000 / run.inputs
    report(
        name, f"{per:.2f} ms per input", f"(none; Pi Zero 2 W {5 * per:.1f}-{10 * per:.1f})", None
    )


def run(count: int = 400) -> tuple[float, float]:
    """Print the three paths' latencies, the budget lines and the servers' CPU per input;
    returns the product's p50 and p99 ratios to the durable relay."""
    game = find_game(GAME)
    zone_index = {zone: i for i, zone in enumerate(game.zones(SEATS))}
    inputs = _game(count)
    bare = _relay(inputs, zone_index)
    durable = _relay(inputs, zone_index, durable=True)
    product = _product(inputs, zone_index)
    for name, side in (
        ("bare serial->WebSocket relay", bare),
        ("durable relay (SQLite WAL, fsync, then push)", durable),
    ):
        report(
            f"{name} ({len(side.times)})",
            f"p50 {percentile(side.times, 50):.2f} ms  p99 {percentile(side.times, 99):.2f} ms",
            "(yardstick)",
            None,
        )
    p50, p99 = percentile(product.times, 50), percentile(product.times, 99)
    report(
        f"sighting->public view at WebSocket ({len(product.times)})",
        f"p50 {p50:.2f} ms  p99 {p99:.2f} ms",
        f"p99 <= {BUDGET_MS} ms",
        p99 <= BUDGET_MS,
    )
    ratios = (
        p50 / percentile(durable.times, 50),
        p99 / percentile(durable.times, 99),
    )
    for label, ratio in zip(("p50", "p99"), ratios, strict=True):
        report(
            f"  {label} ratio product / durable relay",
            f"{ratio:.2f}x",
            f"<= {RATIO_BUDGET}x",
            ratio <= RATIO_BUDGET,
        )
    _cpu_line(f"server CPU, durable relay ({durable.inputs} sightings)", durable)
    decisions = product.inputs - len(product.times)
    _cpu_line(
        f"server CPU, product ({len(product.times)} sightings + {decisions} decisions)", product
    )
    return ratios
