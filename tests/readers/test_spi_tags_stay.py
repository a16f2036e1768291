"""A tag that lies still is never reported gone by the ``spi`` backend (issue 11, points 1-2).

The backend runs on a fake SPI bus of emulated RC522 chips. A poll halts every tag it reads, and
only a field that stays off long enough resets them; a poll cut short says nothing about the
tags it did not list.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from scorekeeper.core.inputs import Sighting
from scorekeeper.errors import ConfigError
from scorekeeper.readers import open_readers
from scorekeeper.readers.fake_mfrc522 import FakeMfrc522, FakeSpiBus
from scorekeeper.readers.spi import SpiBackend

NTAG = "04A1B2C3D4E5F6"
MIFARE = "DEADBEEF"


class Clock:
    """A clock that moves only when told to (or slept on)."""

    def __init__(self) -> None:
        self.t = 10.0

    def __call__(self) -> float:
        return self.t

    def sleep(self, s: float) -> None:
        self.t += max(s, 0.0)


def test_incomplete_polls_between_empty_ones_never_remove_a_tag() -> None:
    bus = FakeSpiBus()
    chip = bus.add(0, 0)
    clock = Clock()
    bus.clock.follow(clock)  # the chip sees the backend's waits
    backend = SpiBackend(
        [(0, 0)],
        clock=clock,
        sleep=clock.sleep,
        autopoll=False,
        spi_factory=bus,
        absent_after_polls=3,
        absent_after_ms=0,
    )
    got: list[Sighting] = []
    backend.start(got.append)
    chip.place(NTAG)
    chip.place(MIFARE)
    backend.poll_once()
    assert set(got) == {Sighting("r0", NTAG, True), Sighting("r0", MIFARE, True)}
    got.clear()
    for _ in range(6):
        chip.miss(1)  # a REQA nobody answers: the poll looks complete and empty
        backend.poll_once()
        chip.garble(1)  # an inventory cut short by a garbled uid
        backend.poll_once()
    assert got == []
    assert backend.stats()["readers"]["r0"]["garbled"] == 6
    chip.remove(NTAG)  # a tag that does leave is still reported gone, by complete polls
    for _ in range(3):
        backend.poll_once()
    assert got == [Sighting("r0", NTAG, False)]
    backend.stop()


def on_chip_time(bus: FakeSpiBus) -> tuple[Callable[[], float], Callable[[float], None]]:
    """A backend clock and sleep that are the chips' own clock: SPI accesses take time too, as
    on a Pi."""
    chip_clock = bus.clock

    def clock() -> float:
        return chip_clock.now() / 1e6

    def sleep(s: float) -> None:
        chip_clock.advance(max(s, 0.0) * 1e6)

    return clock, sleep


def field_gaps(chip: FakeMfrc522) -> list[float]:
    """Start recording the field-off time before each antenna-on of ``chip`` (microseconds)."""
    gaps: list[float] = []
    off_at = [None]  # type: list[float | None]
    write = chip.write_reg

    def hooked(reg: int, value: int) -> None:
        was = chip.field_on
        write(reg, value)
        if was and not chip.field_on:
            off_at[0] = chip.clock.now()
        elif chip.field_on and not was and off_at[0] is not None:
            gaps.append(chip.clock.now() - off_at[0])

    chip.write_reg = hooked  # type: ignore[method-assign]
    return gaps


@pytest.mark.parametrize("offline", [0, 1], ids=["one reader", "two readers, one offline"])
def test_a_tag_left_on_a_lone_reader_for_3_s_is_never_reported_gone(offline: int) -> None:
    bus = FakeSpiBus()
    chip = bus.add(0, 0)
    devices = [(0, 0)]
    if offline:
        bus.add(0, 1).responding = False
        devices.append((0, 1))
    clock, sleep = on_chip_time(bus)
    backend = SpiBackend(
        devices, clock=clock, sleep=sleep, autopoll=False, spi_factory=bus, poll_interval=0
    )
    got: list[Sighting] = []
    backend.start(got.append)
    gaps = field_gaps(chip)
    chip.place(NTAG)
    end = clock() + 3.0
    polls = 0
    while clock() < end:  # what the poll thread does with poll_interval 0
        backend.poll_once()
        polls += 1
    assert got == [Sighting("r0", NTAG, True)]
    assert polls >= 50 and len(gaps) >= polls - 1  # ~36 ms a poll: 10 off, 5 settle, 21
    assert min(gaps) >= 10_000  # field_off_ms, on the chip's clock
    backend.stop()


def test_field_off_ms_is_a_spec_setting() -> None:
    bus = FakeSpiBus()
    chip = bus.add(0, 0)
    clock, sleep = on_chip_time(bus)
    backend = open_readers(
        "spi:0.0?field_off_ms=20", spi_factory=bus, clock=clock, sleep=sleep, autopoll=False
    )
    backend.start(lambda s: None)
    gaps = field_gaps(chip)
    for _ in range(5):
        backend.poll_once()  # type: ignore[attr-defined]
    assert len(gaps) == 4 and 20_000 <= min(gaps) < 21_000
    backend.stop()
    with pytest.raises(ConfigError, match="field_off_ms must be at least 5"):
        open_readers("spi:0.0?field_off_ms=3")
    with pytest.raises(ConfigError, match="field_off_ms must be at least 5"):
        open_readers("mfrc522:?field_off_ms=2")
