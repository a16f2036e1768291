"""Sighting on the serial line -> view at a WebSocket client, against a bare relay in the same run.

A scripted bridge (``scorekeeper.readers.fake_bridge``) writes real frames to a pseudo-terminal.
The product: ``scorekeeper serve`` (a subprocess) has an Angels & Demons table whose reader
backend is ``serial:<the pty>``; a WebSocket client times each sighting of a simulated game from
the moment the bridge wrote its frame to the moment the public view that includes it arrived
(pyserial, codec, presence filter, log append with fsync, referee, view, push). The yardstick:
``bench.relay`` does only pyserial, codec and push on the same stack. CLOCK_MONOTONIC is shared
by the processes, so both ends use ``time.perf_counter``.
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
RATIO_BUDGET = 1.5


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


def _relay(inputs: list[Seen | Decision], zone_index: dict[str, int]) -> list[float]:
    bridge, path, slave = _pty_bridge(len(zone_index))
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "bench.relay", str(port), path])
    times: list[float] = []
    try:
        _wait_http(f"http://127.0.0.1:{port}/healthz", proc)
        with connect(f"ws://127.0.0.1:{port}/ws") as ws:
            for n, seen in enumerate((i for i in inputs if isinstance(i, Seen)), start=1):
                start = time.perf_counter()
                _perform(bridge, seen, zone_index)
                while json.loads(ws.recv(timeout=10))["n"] < n:
                    pass
                times.append((time.perf_counter() - start) * 1000)
    finally:
        proc.kill()  # a yardstick, not the product: no graceful shutdown to wait for
        proc.wait(timeout=20)
        bridge.stop()
        os.close(slave)
    return times


def _product(inputs: list[Seen | Decision], zone_index: dict[str, int]) -> list[float]:
    bridge, path, slave = _pty_bridge(len(zone_index))
    port = _free_port()
    times: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "latency.db"
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "scorekeeper",
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
                refused = [e for e in view["feed"] if not e["accepted"]]
                if refused:
                    print(f"  warning: refusals during the latency run: {refused[:3]}")
            client.close()
        finally:
            proc.terminate()
            proc.wait(timeout=20)
            bridge.stop()
            os.close(slave)
    return times


def run(count: int = 400) -> tuple[float, float]:
    game = find_game(GAME)
    zone_index = {zone: i for i, zone in enumerate(game.zones(SEATS))}
    inputs = _game(count)
    relay = _relay(inputs, zone_index)
    product = _product(inputs, zone_index)
    r50, r99 = percentile(relay, 50), percentile(relay, 99)
    p50, p99 = percentile(product, 50), percentile(product, 99)
    report(
        f"bare serial->WebSocket relay ({len(relay)} sightings)",
        f"p50 {r50:.2f} ms  p99 {r99:.2f} ms",
        "(yardstick)",
        None,
    )
    report(
        f"sighting->public view at WebSocket ({len(product)})",
        f"p50 {p50:.2f} ms  p99 {p99:.2f} ms",
        f"p99 <= {BUDGET_MS} ms",
        p99 <= BUDGET_MS,
    )
    ratio = p99 / r99
    report(
        "  p99 ratio product / bare relay",
        f"{ratio:.2f}x",
        f"<= {RATIO_BUDGET}x",
        ratio <= RATIO_BUDGET,
    )
    return p99, ratio
