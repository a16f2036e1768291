"""The bridge path on the host: frames decoded per second, and frame in -> referee input.

Decoding: a stream of TAG_PRESENT/TAG_GONE frames with 7-byte uids and heartbeats, fed to the
shared codec in 64-byte chunks (what a USB CDC read returns), timed on one core.
Bridge path latency: a scripted bridge writes each frame to a pseudo-terminal; the host's serial
backend reads, decodes, applies its presence filter and hands the Sighting to a table, whose
submit is the referee's input. Timed from the write to the moment ``Table.submit`` is called.
"""

from __future__ import annotations

import os
import threading
import time
import tty

from bench.common import percentile, report
from firmware_bridge import protocol as p
from scorekeeper.core.inputs import Sighting
from scorekeeper.core.table import Table, TableConfig
from scorekeeper.games import find_game
from scorekeeper.readers import open_readers
from scorekeeper.readers.fake_bridge import FakeBridge

GAME = "angels-and-demons"


def decode_rate(frames: int = 200_000) -> float:
    seq = p.Sequencer()
    parts = []
    for i in range(frames):
        uid = (0x04A1B2C3D4E500 + i % 200).to_bytes(7, "big")
        if i % 50 == 49:
            parts.append(seq.encode(p.Heartbeat(i, 0, 0, 0)))
        elif i % 2:
            parts.append(seq.encode(p.TagGone(i % 8, uid)))
        else:
            parts.append(seq.encode(p.TagPresent(i % 8, uid)))
    wire = b"".join(parts)
    chunks = [wire[i : i + 64] for i in range(0, len(wire), 64)]
    decoder = p.Decoder()
    start = time.perf_counter()
    got = 0
    for chunk in chunks:
        got += len(decoder.feed(chunk))
    elapsed = time.perf_counter() - start
    assert got == frames, (got, frames)
    rate = frames / elapsed
    report(
        f"frames decoded by the host codec ({frames} frames)",
        f"{rate:,.0f} frames/s",
        "(no budget; a bridge sends < 200/s)",
        None,
    )
    return rate


def path_latency(count: int = 400) -> float:
    master, slave = os.openpty()
    tty.setraw(slave)
    bridge = FakeBridge(master, reader_count=8, heartbeat_interval=0.5).start()
    game = find_game(GAME)
    uids = {f"04A1B2C3D4{i:04X}": piece for i, piece in enumerate(game.pieces())}
    table = Table(TableConfig(game=GAME, seats=("A", "B"), layout={"r0": "talon"}, kit=uids), game)
    arrived = threading.Event()
    stamp = [0.0]

    def submit(sighting: Sighting) -> None:
        stamp[0] = time.perf_counter()
        table.submit(sighting)
        arrived.set()

    backend = open_readers(f"serial:{os.ttyname(slave)}")
    backend.start(submit)
    times = []
    try:
        if not bridge.synced.wait(10):
            raise RuntimeError("the serial backend never synced with the bridge")
        time.sleep(0.2)
        pieces = list(uids)
        for n in range(count):
            uid = bytes.fromhex(pieces[(n // 2) % 3])  # put, then take the same tag
            arrived.clear()
            start = time.perf_counter()
            if n % 2:
                bridge.take(0, uid)
            else:
                bridge.put(0, uid)
            if not arrived.wait(5):
                raise RuntimeError("a frame never reached the table")
            times.append((stamp[0] - start) * 1000)
    finally:
        backend.stop()
        bridge.stop()
        os.close(slave)
    p50, p99 = percentile(times, 50), percentile(times, 99)
    report(
        f"bridge path: frame on the pty -> referee input ({count})",
        f"p50 {p50:.2f} ms  p99 {p99:.2f} ms",
        "(part of the 5 ms budget)",
        None,
    )
    return p99


def run() -> None:
    decode_rate()
    path_latency()
