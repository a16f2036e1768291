"""Sighting on the serial line -> view at a WebSocket client, against two relays in the same run.

A scripted bridge (``scorekeeper.readers.fake_bridge``) writes real frames to a pseudo-terminal.
The product: ``scorekeeper serve`` (a subprocess) has an Angels & Demons table whose reader
backend is ``serial:<the pty>``; a WebSocket client times each sighting of a simulated game from
the moment the bridge wrote its frame to the moment the public view that includes it arrived
(pyserial, codec, presence filter, log append with fsync, referee, view, push). The yardsticks:
``bench.relay`` does only pyserial, codec and push on the same stack (bare), or the same with
each sighting committed to SQLite in WAL with ``synchronous=FULL`` before the push (durable: the
floor invariant 1 sets). The budget (docs/design.md, "Budgets") holds the product's p50 and p99
to 1.3x the durable relay's, measured in the same run: the three servers run side by side and
take the game's sightings in turn, one each, so a busy moment of a shared machine falls on all
three alike. CLOCK_MONOTONIC is shared by the processes, so both ends use
``time.perf_counter``. A sighting's time ends when the client's ``recv`` returns the message
that includes it, before the client parses it: parsing is the client's work, not the server's,
and it would weigh on one side only (the product's view is ~7 KB of JSON, whose
``json.loads`` here took a median 0.08 ms on the development VM; a relay's message is ~70
bytes).

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
import time
import tty
from abc import ABC, abstractmethod
from contextlib import ExitStack
from pathlib import Path
from tempfile import TemporaryDirectory
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


def _put(bridge: FakeBridge, seen: Seen, zone_index: dict[str, int]) -> None:
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


def _cpu_seconds(pid: int) -> float | None:
    """User plus system CPU time of process ``pid``, all its threads, dead ones too (Linux
    /proc; 10 ms ticks: over a run of hundreds of milliseconds that is a few percent)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class _Side(ABC):
    """One server of the comparison, fed by its own bridge and watched by one WebSocket
    client: each sighting's latency (ms), and the process's CPU time over the inputs."""

    def __init__(self, stack: ExitStack, zone_index: dict[str, int]) -> None:
        self.zone_index = zone_index
        self.bridge, self.path, slave = _pty_bridge(len(zone_index))
        stack.callback(os.close, slave)
        stack.callback(self.bridge.stop)
        self.port = _free_port()
        self.times: list[float] = []
        self.inputs = 0
        self.cpu: float | None = None
        self.proc: subprocess.Popen[bytes] | None = None

    def spawn(self, stack: ExitStack, command: list[str], graceful: bool) -> None:
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        self.proc = proc
        stack.callback(proc.wait, timeout=20)
        # The product shuts down as a server does; a yardstick is just killed.
        stack.callback(proc.terminate if graceful else proc.kill)
        _wait_http(f"http://127.0.0.1:{self.port}/healthz", proc)

    def timed(self, inp: Seen | Decision) -> None:
        """Perform ``inp`` and wait for the view (or message) that includes it."""
        start = time.perf_counter()
        arrived = self.perform(inp)
        if isinstance(inp, Seen):
            self.times.append((arrived - start) * 1000)
        self.inputs += 1

    @abstractmethod
    def perform(self, inp: Seen | Decision) -> float:
        """Send ``inp`` and return once the watching client has what includes it: the
        ``perf_counter`` time at which its ``recv`` returned that message (before parsing)."""

    def cpu_from(self, before: float | None) -> None:
        after = _cpu_seconds(self.proc.pid) if self.proc else None
        self.cpu = None if before is None or after is None else after - before


class _Relay(_Side):
    """``bench.relay``: bare, or durable (each sighting committed to SQLite before its push)."""

    def __init__(self, stack: ExitStack, zone_index: dict[str, int], durable: bool) -> None:
        super().__init__(stack, zone_index)
        database = [str(Path(stack.enter_context(TemporaryDirectory())) / "r.db")]
        command = [sys.executable, "-m", "bench.relay", str(self.port), self.path]
        self.spawn(stack, command + (database if durable else []), graceful=False)
        self.ws = stack.enter_context(connect(f"ws://127.0.0.1:{self.port}/ws"))
        self.count = 0

    def perform(self, inp: Seen | Decision) -> float:
        assert isinstance(inp, Seen)
        self.count += 1
        _put(self.bridge, inp, self.zone_index)
        while True:
            text = self.ws.recv(timeout=10)
            arrived = time.perf_counter()
            if json.loads(text)["n"] >= self.count:
                return arrived


class _Product(_Side):
    """``scorekeeper serve`` with one table whose readers are ``serial:<the pty>``
    (``server``: another way to start it, e.g. under a profiler)."""

    def __init__(
        self, stack: ExitStack, zone_index: dict[str, int], server: list[str] | None
    ) -> None:
        super().__init__(stack, zone_index)
        db = Path(stack.enter_context(TemporaryDirectory())) / "latency.db"
        serve = [*(server or [sys.executable, "-m", "scorekeeper"]), "serve"]
        options = ["--port", str(self.port), "--db", str(db), "--log-level", "warning"]
        self.spawn(stack, serve + options, graceful=True)
        url = f"http://127.0.0.1:{self.port}"
        headers = {"Authorization": "Bearer " + token_file_for(db).read_text().strip()}
        self.client = stack.enter_context(httpx.Client(base_url=url, headers=headers, timeout=10))
        kit = {_uid(p).hex().upper(): p for p in find_game(GAME).pieces()}
        layout = {f"r{i}": zone for zone, i in zone_index.items()}
        body = {"game": GAME, "seats": SEATS, "layout": layout, "kit": kit, "start": True}
        created = self.client.post("/api/tables", json={**body, "readers": f"serial:{self.path}"})
        created.raise_for_status()
        self.table_id = created.json()["id"]
        if not self.bridge.synced.wait(10):
            raise RuntimeError("the server's serial backend never synced with the bridge")
        time.sleep(0.3)  # let the bridge's inventory and heartbeat settle
        self.ws = stack.enter_context(connect(f"ws://{url[7:]}/ws/tables/{self.table_id}"))
        self.view: dict[str, Any] = json.loads(self.ws.recv(timeout=10))
        self.expected = int(self.view["inputs"])

    def perform(self, inp: Seen | Decision) -> float:
        self.expected += 1
        if isinstance(inp, Seen):
            _put(self.bridge, inp, self.zone_index)
        else:
            self.client.post(
                f"/api/tables/{self.table_id}/decisions",
                json={"prompt": inp.prompt, "answer": inp.answer, "seat": inp.seat},
            )
        arrived = time.perf_counter()
        while int(self.view["inputs"]) < self.expected:
            text = self.ws.recv(timeout=10)
            arrived = time.perf_counter()
            self.view = json.loads(text)
        return arrived

    def refused(self) -> list[Any]:
        return [e for e in self.view["feed"] if not e["accepted"]]


def measure(count: int = 400, server: list[str] | None = None) -> tuple[_Side, _Side, _Product]:
    """The bare relay, the durable relay and the product, all three running, fed the same
    game sighting by sighting in turn (the order rotates), so that each figure is taken under
    the same conditions as the others: on a shared machine, the load of any moment falls on
    all three alike."""
    zone_index = {zone: i for i, zone in enumerate(find_game(GAME).zones(SEATS))}
    inputs = _game(count)
    with ExitStack() as stack:
        bare = _Relay(stack, zone_index, durable=False)
        durable = _Relay(stack, zone_index, durable=True)
        product = _Product(stack, zone_index, server)
        sides: list[_Side] = [bare, durable, product]
        before = {id(side): _cpu_seconds(side.proc.pid) if side.proc else None for side in sides}
        for n, inp in enumerate(inputs):
            if isinstance(inp, Seen):
                for k in range(len(sides)):
                    sides[(n + k) % len(sides)].timed(inp)
            else:
                product.timed(inp)
        for side in sides:
            side.cpu_from(before[id(side)])
        if refused := product.refused():
            print(f"  warning: refusals during the latency run: {refused[:3]}")
    return bare, durable, product


def _cpu_line(name: str, side: _Side) -> None:
    """One CPU figure: no budget, but what a Pi Zero 2 W (5-10x slower) would spend."""
    if side.cpu is None:
        report(name, "not measured (no /proc)", "(none)", None)
        return
    per = side.cpu * 1000 / side.inputs
    report(
        name, f"{per:.2f} ms per input", f"(none; Pi Zero 2 W {5 * per:.1f}-{10 * per:.1f})", None
    )


def run(count: int = 400) -> tuple[float, float]:
    """Print the three paths' latencies, the budget lines and the servers' CPU per input;
    returns the product's p50 and p99 ratios to the durable relay."""
    bare, durable, product = measure(count)
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
    ratios = (p50 / percentile(durable.times, 50), p99 / percentile(durable.times, 99))
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
