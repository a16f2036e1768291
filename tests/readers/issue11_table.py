"""Shared by the issue-11 "done when" tests of the bridge and the spi backend: the tags laid on
each reader, and the faults a poll meets, as real RC522 boards produce them.

``uids(reader, count)``: distinct 7-, 4- and 10-byte uids per reader. ``FaultSchedule`` arms one
fault (or none) on a chip each time its field goes on, in a fixed pattern per chip, choosing only
faults that apply to the number of tags lying there (a crowd needs three), so every fault is
spent in the poll it was armed for and they never pile up. ``CROWDS``: one reader whose board
drowns most requests of three or more tags, as pawns join and leave.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from scorekeeper.readers.fake_mfrc522 import FakeMfrc522

LENGTHS = (7, 4, 10, 7)  # NTAG stickers, MIFARE Classic, a triple-size uid


def uid(reader: int, k: int) -> str:
    """The k-th tag of ``reader`` (hex): never a cascade tag (0x88) where one would mislead."""
    length = LENGTHS[k % len(LENGTHS)]
    if length == 4:
        raw = bytes((0x10 + reader, 0x20 + k, 0x30, 0x40))
    elif length == 7:
        raw = bytes((0x04, reader, k, 0xA1, 0xB2, 0xC3, 0xD4))
    else:
        raw = bytes((0x05, reader, k, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77))
    return raw.hex().upper()


def uids(reader: int, count: int) -> list[str]:
    return [uid(reader, k) for k in range(count)]


# What a poll can meet, by the least number of tags it needs to apply:
# miss: the REQA (and nothing else) goes unanswered; noise: the first frame received is noise
# with a parity error; garble: a flipped uid bit; collide: a collision at an invalid position;
# halt_error: an HLTA answered by noise; crowd: three or more tags answering at once drown each
# other (silence); stall: ... or start a reception that never ends.
PATTERN = (
    None,
    "miss",
    None,
    "garble",
    "halt_error",
    None,
    "noise",
    "crowd",
    None,
    "collide",
    "stall",
    None,
)
NEEDS = {
    None: 0,
    "miss": 0,
    "noise": 0,
    "garble": 1,
    "collide": 1,
    "halt_error": 1,
    "crowd": 3,
    "stall": 3,
}


class FaultSchedule:
    """Arms the next fault of ``PATTERN`` on each chip when its field goes on (one a poll)."""

    def __init__(self, chips: list[FakeMfrc522]) -> None:
        self.armed: dict[str, int] = {}
        self.enabled = True
        for i, chip in enumerate(chips):
            self._hook(chip, i)

    def _hook(self, chip: FakeMfrc522, offset: int) -> None:
        write = chip.write_reg
        turn = [offset]

        def hooked(reg: int, value: int, write: Callable[[int, int], None] = write) -> None:
            was = chip.field_on
            write(reg, value)
            if chip.field_on and not was and self.enabled:
                fault = PATTERN[turn[0] % len(PATTERN)]
                turn[0] += 1
                if fault is not None and len(chip.tags) >= NEEDS[fault]:
                    self._arm(chip, fault)

        chip.write_reg = hooked  # type: ignore[method-assign]

    def _arm(self, chip: FakeMfrc522, fault: str) -> None:
        self.armed[fault] = self.armed.get(fault, 0) + 1
        if fault == "miss":
            chip.miss(1)
        elif fault == "noise":
            chip.noise(1)
        elif fault == "garble":
            chip.garble(1)
        elif fault == "collide":
            chip.collide(1)
        elif fault == "halt_error":
            chip.halt_error(1)
        elif fault == "crowd":
            chip.crowd(1)
        elif fault == "stall":
            chip.crowd(1, stall=True)


@dataclass(frozen=True)
class Crowd:
    """One reader on a board that drowns most requests three or more tags answer at once
    (``FakeMfrc522.crowd(-1, hear_one_in=...)``: every ``hear_one_in``-th is heard): ``before``
    tags lie there, ``join`` more are put down, then ``lift`` of them are taken away."""

    hear_one_in: int
    before: int
    join: int
    lift: int

    @property
    def tags(self) -> list[str]:
        return uids(0, self.before + self.join)


# Before the fix (only the first REQA of a poll was confirmed) each of these reported tags that
# lay still as gone once the fourth pawn joined. Three tags alone were read then already: only a
# poll's first request has three answering, and that one was confirmed.
CROWDS = [
    pytest.param(Crowd(2, 3, 1, 1), id="hear 1 in 2, 3+1 tags, 1 lifted (3 stay, crowded)"),
    pytest.param(Crowd(4, 3, 1, 1), id="hear 1 in 4, 3+1 tags, 1 lifted (3 stay, crowded)"),
    pytest.param(Crowd(2, 2, 2, 2), id="hear 1 in 2, 2+2 tags, 2 lifted"),
    pytest.param(Crowd(4, 2, 2, 2), id="hear 1 in 4, 2+2 tags, 2 lifted"),
]
