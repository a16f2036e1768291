"""The emulated MFRC522 fails the way real ones do (issue 11): its clock, tags that keep HALT
through short field gaps, and the faults the driver must survive.

Each test drives the chip at register level, through the same cascade driver the bridge and the
spi backend use, so what is asserted is what a driver sees on the wire.
"""

from __future__ import annotations

from firmware_bridge import mfrc522_cascade as m
from scorekeeper.readers.fake_mfrc522 import (
    FIELD_RESET_US,
    HALT,
    IDLE,
    ChipClock,
    FakeMfrc522,
    FakeSpiBus,
)

NTAG = "04A1B2C3D4E5F6"
MIFARE = "DEADBEEF"


def driver(chip: FakeMfrc522) -> m.Mfrc522:
    d = m.Mfrc522(chip.read_reg, chip.write_reg)
    d.init()
    return d


# --- the clock ----------------------------------------------------------------------------------


def test_each_register_access_takes_the_spi_access_time() -> None:
    chip = FakeMfrc522(clock=ChipClock(access_us=40))
    t0 = chip.clock.now()
    for _ in range(10):
        chip.read_reg(m.VERSION_REG)
    chip.write_reg(m.COM_IRQ_REG, 0x7F)
    assert chip.clock.now() - t0 == 11 * 40


def test_the_clock_follows_an_outside_clock_forward_only() -> None:
    outside = [5.0]
    clock = ChipClock(lambda: outside[0], access_us=0)
    outside[0] += 0.010
    assert abs(clock.now() - 10_000) < 1e-6
    outside[0] -= 1.0  # a clock that goes back (a wrap) never takes the chip's time back
    assert abs(clock.now() - 10_000) < 1e-6


def test_the_clock_follows_wrapping_ticks() -> None:
    period = 1 << 30
    ticks = [period - 3]
    clock = ChipClock(access_us=0)
    clock.follow_ticks(lambda: ticks[0],
                       lambda a, b: ((a - b + period // 2) % period) - period // 2)
    ticks[0] = (ticks[0] + 7) % period  # across the wrap
    assert abs(clock.now() - 7000) < 1e-6


def test_chips_on_one_bus_share_its_clock() -> None:
    bus = FakeSpiBus()
    a, b = bus.add(0, 0), bus.add(0, 1)
    assert a.clock is b.clock is bus.clock
    a.read_reg(m.VERSION_REG)
    assert b.clock.now() == bus.clock.access_us


# --- field gaps and HALT (point 1) --------------------------------------------------------------


def poll(d: m.Mfrc522, chip: FakeMfrc522, gap_us: float) -> list[str]:
    """Field off for ``gap_us`` of chip time, then on: one inventory."""
    d.antenna_off()
    chip.clock.advance(gap_us)
    d.antenna_on()
    try:
        return [u.hex().upper() for u in m.inventory(d).uids]
    finally:
        d.antenna_off()


def test_a_halted_tag_stays_halted_through_a_short_field_gap() -> None:
    chip = FakeMfrc522()
    chip.place(NTAG)
    d = driver(chip)
    assert poll(d, chip, FIELD_RESET_US) == [NTAG]
    assert chip.tags[0].state == HALT
    assert poll(d, chip, 1000) == []  # 1 ms off: still halted, REQA does not wake it
    assert chip.tags[0].state == HALT
    assert poll(d, chip, FIELD_RESET_US) == [NTAG]  # 5 ms off: reset, read again


def test_a_soft_reset_is_a_field_gap_too() -> None:
    chip = FakeMfrc522()
    chip.place(MIFARE)
    d = driver(chip)
    assert poll(d, chip, FIELD_RESET_US) == [MIFARE]
    d.antenna_on()
    d.init()  # the soft reset switches the field off; init and antenna-on take < 5 ms
    d.antenna_on()
    assert m.request(d) is None and chip.tags[0].state == HALT
    d.antenna_off()
    chip.clock.advance(FIELD_RESET_US)
    d.antenna_on()
    assert m.request(d) is not None


def test_a_tag_placed_while_the_field_is_off_powers_up_idle() -> None:
    chip = FakeMfrc522()
    d = driver(chip)
    chip.place(NTAG)
    d.antenna_on()
    assert chip.tags[0].state == IDLE
