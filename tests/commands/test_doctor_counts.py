"""``scorekeeper doctor`` counts the tags lying on each reader and times the poll cycle, so that
bring-up can measure how many tags one reader resolves and how fast the readers go (issue 11)."""

from __future__ import annotations

import io
import time

from scorekeeper.commands.doctor import Doctor, poll_interval_ms
from scorekeeper.readers.fake_mfrc522 import FakeSpiBus
from scorekeeper.readers.spi import SpiBackend


def test_doctor_on_spi_readers_counts_tags_and_times_the_cycle() -> None:
    bus = FakeSpiBus(clock=time.monotonic)  # the poll thread runs on real time
    crowded, single = bus.add(0, 0), bus.add(0, 1)
    for u in ("04A1B2C3D4E5F6", "DEADBEEF", "04A1B2C3D4E5F7"):
        crowded.place(u)
    single.place("CAFEF00D")
    backend = SpiBackend([(0, 0), (0, 1)], spi_factory=bus)
    out = io.StringIO()
    doctor = Doctor("spi:0.0,0.1", backend, out=out)
    assert doctor.run(1.0) == 0
    text = out.getvalue()
    assert "r0 " in text and " on 3" in text and " on 1" in text, text
    assert "most tags seen on one reader at once: r0 3, r1 1" in text
    note = next(f.text for f in doctor.findings if f.text.startswith("each reader was polled"))
    every = float(note.split("every ")[1].split(" ms")[0])
    assert 10 <= every <= 2000, note  # two readers: at least their two 5 ms settles


def test_the_poll_interval_from_bridge_heartbeats_and_spi_rounds() -> None:
    # The bridge counts one poll per reader: 300 polls in 10 s over 4 readers = every 133 ms.
    before = {"bridge": {"polls": 1000, "uptime_ms": 50_000}}
    after = {"bridge": {"polls": 1300, "uptime_ms": 60_000}}
    assert round(poll_interval_ms("serial", before, after, 10.0, 4)) == 133
    assert poll_interval_ms("serial", {}, after, 10.0, 4) is None  # no heartbeat yet
    assert poll_interval_ms("serial", after, after, 10.0, 4) is None  # no poll meanwhile
    # The spi backends count rounds of every reader: 50 rounds in 5 s = every 100 ms.
    assert poll_interval_ms("spi", {"polls": 10}, {"polls": 60}, 5.0, 2) == 100.0
    assert poll_interval_ms("sim", {}, {}, 5.0, 2) is None
