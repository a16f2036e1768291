"""End to end: the firmware's Bridge (on emulated RC522s) writes to a real pseudo-terminal, the
host's serial backend reads the other end, and an Angels & Demons table's referee accepts the
deal it sees on the talon reader."""

from __future__ import annotations

import contextlib
import os
import queue
import select
import threading
import time
import tty

from firmware_bridge.bridge import Bridge
from scorekeeper.core.inputs import Sighting
from scorekeeper.core.referee import Result
from scorekeeper.core.table import Table, TableConfig
from scorekeeper.games import find_game
from scorekeeper.readers import open_readers
from scorekeeper.readers.fake_mfrc522 import FakeMfrc522
from tests.firmware.fake_machine import SPI, Pin

TALON_CARDS = {"04A1B2C3D4E5F6": "A5r", "DEADBEEF": "D2r", "0455AA33CC7780": "H1b1"}


class FdStream:
    """The bridge's host stream on a file descriptor (the pty master): reads never block."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def read(self, n: int) -> bytes:
        ready, _, _ = select.select([self.fd], [], [], 0)
        return os.read(self.fd, n) if ready else b""

    def write(self, data: bytes) -> int:
        view = memoryview(data)
        while view:
            view = view[os.write(self.fd, view) :]
        return len(data)


def ms() -> int:
    return int(time.monotonic() * 1000)


def test_bridge_to_serial_backend_to_referee() -> None:
    master, slave = os.openpty()
    tty.setraw(slave)
    chips = [FakeMfrc522(clock=time.monotonic) for _ in range(3)]  # real time, as the bridge
    spi = SPI(0)
    pins = [Pin(17 + i, Pin.OUT, value=1) for i in range(3)]
    for pin, chip in zip(pins, chips, strict=True):
        spi.attach(pin, chip)
    bridge = Bridge(
        {"readers": [{"cs": 17}, {"cs": 18}, {"cs": 19}]},
        spi,
        pins,
        FdStream(master),
        ms,
        lambda n: time.sleep(n / 1000),
    )
    runner = threading.Thread(target=bridge.run, name="bridge", daemon=True)

    game = find_game("angels-and-demons")
    table = Table(
        TableConfig(
            game=game.id,
            seats=("Ann", "Bea"),
            layout={"r0": "talon", "r1": "meld:0", "r2": "meld:1"},
            kit=TALON_CARDS,
        ),
        game,
    )
    sightings: queue.Queue[Sighting] = queue.Queue()
    backend = open_readers("serial:" + os.ttyname(slave), heartbeat_timeout=2.0, read_timeout=0.02)
    runner.start()
    backend.start(sightings.put)
    try:
        results: list[tuple[Sighting, Result]] = []
        for uid in TALON_CARDS:  # the dealer turns N+1 = 3 cards onto the talon, one by one
            chips[0].place(uid)
            try:  # the next card goes down once this one was seen (a generous deadline)
                s = sightings.get(timeout=10)
            except queue.Empty:
                raise AssertionError(f"{uid} was not seen; seen: {results}") from None
            results.append((s, table.submit(s)))
        assert [s for s, _ in results] == [Sighting("r0", uid, True) for uid in TALON_CARDS]
        assert all(r.accepted for _, r in results)
        view = table.view("public")
        assert view["state"]["talon"] == ["A5r", "D2r", "H1b1"]
        assert "dealt" in " ".join(results[-1][1].events)
        assert backend.reader_ids == ("r0", "r1", "r2")
        health = backend.health()
        assert all(h.online for h in health.values())
        assert health["r0"].last_sighting is not None
        stats = backend.stats()
        assert stats["firmware"] == "1.0.0"
        assert stats["crc_errors"] == stats["garbage_bytes"] == stats["lost"] == 0
        # nothing twice, nothing gone: give a late duplicate (or removal) time to arrive
        late: list[Sighting] = []
        deadline = time.monotonic() + 0.5
        while time.monotonic() < deadline:
            with contextlib.suppress(queue.Empty):
                late.append(sightings.get(timeout=0.05))
        assert late == []
    finally:
        backend.stop()
        bridge.stop()
        runner.join(timeout=2)
        os.close(master)
        os.close(slave)
    assert not runner.is_alive()
