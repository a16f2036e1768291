"""A tag that lies still is never reported gone by the bridge firmware (issue 11, points 1-2).

The bridge runs on the rig (emulated RC522 chips, a fake clock). A poll halts every tag it reads,
and only a field that stays off long enough resets them; a poll cut short says nothing about the
tags it did not list. Both must hold whatever the number of readers and their state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from firmware_bridge.config import Config, ConfigError
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


class FieldLog:
    """Records, on the chips' clock (microseconds), when each chip's field goes on and off."""

    def __init__(self, rig: Rig) -> None:
        self.events: dict[int, list[tuple[str, float]]] = {i: [] for i in range(len(rig.chips))}
        for i, chip in enumerate(rig.chips):
            write = chip.write_reg

            def hooked(
                reg: int,
                value: int,
                chip: FakeMfrc522 = chip,
                i: int = i,
                write: Callable[[int, int], None] = write,
            ) -> None:
                was = chip.field_on
                write(reg, value)
                if chip.field_on != was:
                    self.events[i].append(("on" if chip.field_on else "off", chip.clock.now()))

            chip.write_reg = hooked  # type: ignore[method-assign]

    def shortest_gap_us(self, reader: int) -> float:
        """The shortest field-off time before an antenna-on of ``reader`` (inf: none)."""
        gaps = [
            t - prev[1]
            for prev, (kind, t) in zip(self.events[reader], self.events[reader][1:], strict=False)
            if kind == "on" and prev[0] == "off"
        ]
        return min(gaps, default=float("inf"))


@pytest.mark.parametrize(
    ("readers", "tagged", "setup"),
    [
        pytest.param(1, 0, "", id="one reader"),
        pytest.param(2, 0, "offline", id="two readers, one offline"),
        pytest.param(2, 1, "disabled", id="two readers, one disabled"),
        pytest.param(3, 2, "offline+disabled", id="three readers, one offline, one disabled"),
    ],
)
def test_a_tag_left_on_a_lone_reader_for_3_s_is_never_reported_gone(
    readers: int, tagged: int, setup: str
) -> None:
    # Each poll halts the tag; only ~5 ms without field wakes it for the next REQA. With one
    # reader polled, nothing but the bridge's own schedule keeps that gap.
    others = [i for i in range(readers) if i != tagged]
    cfg: dict[str, Any] = {
        "readers": [
            {"cs": 17 + i, "enabled": not ("disabled" in setup and i == others[-1])}
            for i in range(readers)
        ]
    }
    chips = [FakeMfrc522() for _ in range(readers)]
    if "offline" in setup:
        chips[others[0]].responding = False
    rig = Rig(chips=chips, **cfg)
    log = FieldLog(rig)
    rig.chips[tagged].place(NTAG)
    rig.run_ms(3000)
    assert tags(rig.host.messages()) == [("+", tagged, NTAG)]
    assert rig.bridge.readers[tagged].polls >= 100  # it was polled all along, not paused
    assert log.shortest_gap_us(tagged) >= 10_000  # field_off_ms, on the chip's own clock


def test_field_off_ms_is_a_setting() -> None:
    rig = Rig(1, timing={"field_off_ms": 25})
    log = FieldLog(rig)
    rig.chips[0].place(MIFARE)
    rig.run_ms(1000)
    assert 25_000 <= log.shortest_gap_us(0) < 30_000
    assert tags(rig.host.messages()) == [("+", 0, MIFARE)]
    with pytest.raises(ConfigError, match="field_off_ms"):
        Config.from_dict({"readers": [{"cs": 17}], "timing": {"field_off_ms": 4}})
