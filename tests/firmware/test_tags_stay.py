"""A tag that lies still is never reported gone by the bridge firmware (issue 11, points 1-2).

The bridge runs on the rig (emulated RC522 chips, a fake clock). A poll halts every tag it reads,
and only a field that stays off long enough resets them; a poll cut short says nothing about the
tags it did not list. Both must hold whatever the number of readers and their state.
"""

from __future__ import annotations

from scorekeeper.readers.fake_mfrc522 import FakeMfrc522
from tests.firmware.rig import Rig, tags

NTAG = "04A1B2C3D4E5F6"
MIFARE = "DEADBEEF"


def test_incomplete_polls_between_empty_ones_never_remove_a_tag() -> None:
    # Three tags answering at once can make an RC522 time out: some polls of such a reader come
    # back empty, others are cut short. Neither kind may add up to a TAG_GONE.
    rig = Rig(1, timing={"absent_polls": 3, "absent_ms": 0})
    chip = rig.chips[0]
    chip.place(NTAG)
    chip.place(MIFARE)
    rig.cycles(2)
    assert sorted(tags(rig.host.take())) == [("+", 0, NTAG), ("+", 0, MIFARE)]
    for _ in range(6):
        chip.miss(1)  # a REQA nobody answers: the poll looks complete and empty
        rig.cycles(1)
        chip.garble(1)  # an inventory cut short by a garbled uid
        rig.cycles(1)
    assert tags(rig.host.take()) == []
    assert rig.bridge.readers[0].garbled == 6
    chip.remove(NTAG)  # a tag that does leave is still reported gone, by complete polls
    rig.cycles(3)
    assert tags(rig.host.take()) == [("-", 0, NTAG)]


def test_a_collision_between_misses_never_removes_a_tag() -> None:
    rig = Rig(2, timing={"absent_polls": 2, "absent_ms": 0})
    chip = rig.chips[1]
    chip.place(NTAG)
    chip.place(MIFARE)
    rig.cycles(2)
    rig.host.take()
    for _ in range(5):
        chip.miss(1)
        rig.cycles(1)
        chip.collide(1)
        rig.cycles(1)
    assert tags(rig.host.take()) == []
    assert isinstance(chip, FakeMfrc522) and rig.bridge.readers[1].collisions == 5
