"""The MFRC522 cascade against the emulated chip, and the spi backend on a fake SPI bus."""

from __future__ import annotations

import threading
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge import mfrc522_cascade as m
from scorekeeper.core.inputs import Sighting
from scorekeeper.errors import ReaderError
from scorekeeper.readers.base import open_readers
from scorekeeper.readers.fake_mfrc522 import FakeMfrc522, FakeSpiBus, FakeSpiDevice
from scorekeeper.readers.spi import SpiBackend, SpiRegisters

NTAG = "04A1B2C3D4E5F6"
NTAG_TWIN = "04A1B2C3D4E5F7"  # same cascade level 1 as NTAG: read_id could not tell them apart
MIFARE = "DEADBEEF"


def driver(chip: FakeMfrc522) -> m.Mfrc522:
    regs = SpiRegisters(FakeSpiDevice(chip))
    d = m.Mfrc522(regs.read_reg, regs.write_reg)
    chip.clock.drive(d)  # the driver waits on the chip's time, which register accesses move
    d.init()
    return d


def read_all(chip: FakeMfrc522, max_tags: int = 8) -> m.Inventory:
    d = driver(chip)
    chip.clock.advance(10_000)  # the field stays off 10 ms between polls, as the readers keep it
    d.antenna_on()
    try:
        return m.inventory(d, max_tags)
    finally:
        d.antenna_off()


def test_crc_a_known_value() -> None:
    assert m.crc_a(bytes((0x50, 0x00))) == bytes((0x57, 0xCD))


@pytest.mark.parametrize("uid", [MIFARE, NTAG, "0102030405060708090A"])
def test_one_tag_full_uid(uid: str) -> None:
    chip = FakeMfrc522()
    chip.place(uid)
    inv = read_all(chip)
    assert [u.hex().upper() for u in inv.uids] == [uid] and inv.complete


def test_seven_byte_twins_are_told_apart() -> None:
    chip = FakeMfrc522()
    chip.place(NTAG)
    chip.place(NTAG_TWIN)
    chip.place(MIFARE)
    inv = read_all(chip)
    assert sorted(u.hex().upper() for u in inv.uids) == sorted([NTAG, NTAG_TWIN, MIFARE])
    assert inv.complete and inv.collisions == 0


def uid_strategy() -> st.SearchStrategy[bytes]:
    four = st.binary(min_size=4, max_size=4).filter(lambda u: u[0] != m.CASCADE_TAG)
    seven = st.binary(min_size=7, max_size=7).filter(lambda u: u[3] != m.CASCADE_TAG)
    return st.one_of(four, seven)


@given(st.lists(uid_strategy(), min_size=0, max_size=4, unique=True))
def test_inventory_reads_every_tag_in_the_field(uids: list[bytes]) -> None:
    chip = FakeMfrc522()
    for u in uids:
        chip.place(u)
    inv = read_all(chip)
    assert sorted(inv.uids) == sorted(uids)
    assert inv.complete


def test_faults_are_counted_and_the_result_marked_incomplete() -> None:
    chip = FakeMfrc522()
    chip.place(NTAG)
    chip.garble(1)
    inv = read_all(chip)
    assert inv.uids == [] and inv.garbled == 1 and not inv.complete
    chip.collide(1)
    inv = read_all(chip)
    assert inv.collisions == 1 and not inv.complete
    chip.miss(1)
    inv = read_all(chip)
    assert inv.uids == [] and inv.complete  # a missed read looks like an empty field
    assert [u.hex().upper() for u in read_all(chip).uids] == [NTAG]


def test_dead_chip_raises_chip_timeout() -> None:
    chip = FakeMfrc522()
    d = driver(chip)
    chip.responding = False
    assert not d.responding()
    with pytest.raises(m.ChipTimeout):
        d.transceive(bytes((m.PICC_REQA,)), tx_last_bits=7)
    with pytest.raises(m.ChipTimeout):
        d.init()


def test_halted_tags_wake_only_after_the_field_cycles() -> None:
    chip = FakeMfrc522()
    chip.place(MIFARE)
    d = driver(chip)
    d.antenna_on()
    assert [u.hex().upper() for u in m.inventory(d).uids] == [MIFARE]
    assert m.request(d) is None  # halted
    assert m.request(d, wakeup=True) is not None  # WUPA wakes it
    d.antenna_off()


# --- the backend --------------------------------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.t = 10.0

    def __call__(self) -> float:
        return self.t

    def advance(self, s: float) -> None:
        self.t += s

    def sleep(self, s: float) -> None:
        self.t += max(s, 0.0)


def make(
    bus: FakeSpiBus, devices: list[tuple[int, int]], **options: object
) -> tuple[SpiBackend, Clock, list[Sighting]]:
    clock = Clock()
    bus.clock.follow(clock)  # the chips see the backend's waits
    opts: dict = {
        "clock": clock,
        "sleep": clock.sleep,
        "autopoll": False,
        "settle_ms": 5,
        "spi_factory": bus,
        "absent_after_polls": 3,
        "absent_after_ms": 250,
        "retry_interval": 1.0,
    }
    opts.update(options)
    backend = SpiBackend(devices, **opts)
    got: list[Sighting] = []
    backend.start(got.append)
    return backend, clock, got


def test_several_readers_with_4_and_7_byte_uids() -> None:
    bus = FakeSpiBus()
    play, loc1, loc2 = bus.add(0, 0), bus.add(0, 1), bus.add(1, 0)
    backend, clock, got = make(bus, [(0, 0), (0, 1), (1, 0)], reader_ids=["play", "loc1", "loc2"])
    play.place(MIFARE)
    loc1.place(NTAG)
    loc1.place(NTAG_TWIN)
    backend.poll_once()
    assert got == [
        Sighting("play", MIFARE, True),
        Sighting("loc1", NTAG, True),
        Sighting("loc1", NTAG_TWIN, True),
    ]
    # antennas take turns: every chip cycled its field once, and none is left on
    assert [c.field_cycles for c in (play, loc1, loc2)] == [1, 1, 1]
    assert not any(c.field_on for c in (play, loc1, loc2))
    health = backend.health()
    assert health["loc1"].reads == 2 and health["loc2"].online
    backend.stop()


def test_missed_read_is_not_a_removal() -> None:
    bus = FakeSpiBus()
    chip = bus.add(0, 0)
    backend, clock, got = make(bus, [(0, 0)])
    chip.place(NTAG)
    backend.poll_once()
    for _ in range(2):  # two misses in a row, 100 ms apart
        chip.miss(1)
        clock.advance(0.1)
        backend.poll_once()
    clock.advance(0.1)
    backend.poll_once()
    assert got == [Sighting("r0", NTAG, True)]
    assert backend.health()["r0"].errors == 2  # counted as misses
    chip.remove(NTAG)  # now really gone: 3 polls and 250 ms
    for _ in range(4):
        clock.advance(0.1)
        backend.poll_once()
    assert got == [Sighting("r0", NTAG, True), Sighting("r0", NTAG, False)]


def test_garbled_read_is_not_a_removal() -> None:
    bus = FakeSpiBus()
    chip = bus.add(0, 0)
    backend, clock, got = make(bus, [(0, 0)], absent_after_polls=1, absent_after_ms=0)
    chip.place(NTAG)
    backend.poll_once()
    for _ in range(3):
        chip.garble(1)
        clock.advance(0.5)
        backend.poll_once()
    assert got == [Sighting("r0", NTAG, True)]
    assert backend.stats()["readers"]["r0"]["garbled"] == 3


def test_reader_not_responding_is_reported_and_recovers() -> None:
    bus = FakeSpiBus()
    a, b = bus.add(0, 0), bus.add(0, 1)
    backend, clock, got = make(bus, [(0, 0), (0, 1)], reader_ids=["a", "b"])
    a.place(MIFARE)
    b.place(NTAG)
    backend.poll_once()
    assert len(got) == 2
    a.responding = False
    clock.advance(0.1)
    backend.poll_once()
    health = backend.health()
    assert not health["a"].online and "not responding" in health["a"].detail
    assert health["b"].online
    for _ in range(10):  # long outage: its tag is not reported gone
        clock.advance(0.5)
        backend.poll_once()
    assert len(got) == 2
    a.responding = True
    clock.advance(1.0)
    backend.poll_once()
    assert backend.health()["a"].online
    assert len(got) == 2  # the tag is still there: no new sighting


def test_a_dead_reader_at_start_is_offline_not_fatal() -> None:
    bus = FakeSpiBus()
    bus.add(0, 0).responding = False
    backend, clock, got = make(bus, [(0, 0)])
    assert not backend.health()["r0"].online
    backend.stop()


def test_missing_spi_device_is_a_reader_error() -> None:
    bus = FakeSpiBus()
    bus.add(0, 0)
    backend = open_readers("spi:0.0,0.1", spi_factory=bus)
    with pytest.raises(ReaderError, match="0.1"):
        backend.start(lambda s: None)
    assert all(d.closed for d in bus.devices)


def test_poll_thread_delivers_sightings() -> None:
    bus = FakeSpiBus(clock=time.monotonic)  # the poll thread runs on real time
    chip = bus.add(0, 0)
    backend = open_readers(
        "spi:0.0",
        spi_factory=bus,
        settle_ms=0,
        poll_interval=0.002,
        absent_after_polls=2,
        absent_after_ms=20,
    )
    got: list[Sighting] = []
    gone = threading.Event()

    def emit(s: Sighting) -> None:
        got.append(s)
        if not s.present:
            gone.set()

    backend.start(emit)
    try:
        chip.place(NTAG)
        deadline = time.monotonic() + 3
        while not got and time.monotonic() < deadline:
            time.sleep(0.005)
        chip.remove(NTAG)
        assert gone.wait(3)
        assert got == [Sighting("r0", NTAG, True), Sighting("r0", NTAG, False)]
        assert backend.stats()["polls"] > 0
    finally:
        backend.stop()
    assert all(d.closed for d in bus.devices)
