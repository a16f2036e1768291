"""A tag that lies still is never reported gone by the ``spi`` backend (issue 11, points 1-2).

The backend runs on a fake SPI bus of emulated RC522 chips. A poll halts every tag it reads, and
only a field that stays off long enough resets them; a poll cut short says nothing about the
tags it did not list.
"""

from __future__ import annotations

from scorekeeper.core.inputs import Sighting
from scorekeeper.readers.fake_mfrc522 import FakeSpiBus
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
    backend = SpiBackend([(0, 0)], clock=clock, sleep=clock.sleep, autopoll=False,
                         spi_factory=bus, absent_after_polls=3, absent_after_ms=0)
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
