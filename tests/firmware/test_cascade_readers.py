"""Both readers of the shared driver, the bridge firmware and the Pi's ``spi`` backend, against
the emulated chip's faults (issue 11 points 2-4): a reader that meets an ordinary RC522 fault
stays online and reports no TAG_GONE for a tag that never moved.

Each test failed against the driver before its fix (the reader went offline or did not start).
"""

from __future__ import annotations

from firmware_bridge import protocol as p
from scorekeeper.core.inputs import Sighting
from scorekeeper.readers.fake_mfrc522 import FakeSpiBus
from scorekeeper.readers.spi import SpiBackend
from tests.firmware.rig import Rig, health, tags

NTAG = "04A1B2C3D4E5F6"
MIFARE = "DEADBEEF"
THIRD = "11223344"


def test_bridge_an_error_after_hlta_keeps_the_reader_online() -> None:
    rig = Rig(1)
    chip = rig.chips[0]
    chip.place(MIFARE)
    rig.run_ms(200)
    chip.halt_error(20)  # twenty polls in a row: noise after every HLTA
    rig.run_ms(1500)
    msgs = rig.host.messages()
    assert tags(msgs) == [("+", 0, MIFARE)]
    assert all(h.status == p.STATUS_OK for h in health(msgs, 0))
    assert rig.bridge.readers[0].online and rig.bridge.readers[0].errors >= 20


def test_bridge_a_reception_that_never_ends_keeps_the_reader_online_and_its_tags() -> None:
    rig = Rig(2)
    chip = rig.chips[0]
    for uid in (MIFARE, NTAG):
        chip.place(uid)
    rig.run_ms(300)
    chip.place(THIRD)  # a third pawn joins: from now on the chip never hears their REQA answer
    chip.crowd(-1, stall=True)
    rig.run_ms(3000)
    msgs = rig.host.messages()
    assert ("-", 0, MIFARE) not in tags(msgs) and ("-", 0, NTAG) not in tags(msgs)
    assert all(h.status == p.STATUS_OK for h in health(msgs, 0))  # no flapping
    assert rig.bridge.readers[0].online


def test_bridge_starts_readers_whose_soft_reset_takes_milliseconds() -> None:
    rig = Rig(2, boot=False)
    for chip in rig.chips:
        chip.reset_us = 3000
    rig.bridge.boot()
    rig.chips[1].place(NTAG)
    rig.run_ms(300)
    assert tags(rig.host.messages()) == [("+", 1, NTAG)]
    assert all(c.dropped_writes == 0 for c in rig.chips)


class Clock:
    """The spi backend's clock; its sleeps move it, and the chips follow it."""

    def __init__(self) -> None:
        self.t = 10.0

    def __call__(self) -> float:
        return self.t

    def sleep(self, s: float) -> None:
        self.t += max(s, 0.0)


def spi_backend(bus: FakeSpiBus) -> tuple[SpiBackend, Clock, list[Sighting]]:
    clock = Clock()
    bus.clock.follow(clock)
    backend = SpiBackend(
        [(0, 0)],
        clock=clock,
        sleep=clock.sleep,
        autopoll=False,
        spi_factory=bus,
        absent_after_polls=3,
        absent_after_ms=250,
    )
    got: list[Sighting] = []
    backend.start(got.append)
    return backend, clock, got


def test_spi_an_error_after_hlta_or_a_stalled_reception_keeps_the_reader_online() -> None:
    bus = FakeSpiBus()
    chip = bus.add(0, 0)
    chip.place(MIFARE)
    chip.place(NTAG)
    backend, clock, got = spi_backend(bus)
    backend.poll_once()
    assert sorted(s.uid for s in got) == sorted([MIFARE, NTAG])
    for _ in range(20):
        chip.halt_error(1)
        clock.t += 0.1
        backend.poll_once()
        assert backend.health()["r0"].online
    chip.place(THIRD)
    chip.crowd(-1, stall=True)
    for _ in range(20):
        clock.t += 0.1
        backend.poll_once()
        assert backend.health()["r0"].online
    assert all(s.present for s in got)
    backend.stop()
