"""The emulated MFRC522 fails the way real ones do (issue 11): its clock, tags that keep HALT
through short field gaps, and the faults the driver must survive.

Each test drives the chip at register level, through the same cascade driver the bridge and the
spi backend use, so what is asserted is what a driver sees on the wire.
"""

from __future__ import annotations

import time

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
    clock.follow_ticks(
        lambda: ticks[0], lambda a, b: ((a - b + period // 2) % period) - period // 2
    )
    ticks[0] = (ticks[0] + 7) % period  # across the wrap
    assert abs(clock.now() - 7000) < 1e-6


def test_chips_on_one_bus_share_its_clock() -> None:
    bus = FakeSpiBus()
    a, b = bus.add(0, 0), bus.add(0, 1)
    assert a.clock is b.clock is bus.clock
    before = b.clock.now()
    a.read_reg(m.VERSION_REG)
    assert b.clock.now() >= before + bus.clock.access_us


def test_a_clock_that_keeps_up_counts_the_pauses_of_the_host() -> None:
    clock = ChipClock(access_us=50)
    clock.advance(1_000_000)  # far ahead of real time, as a chip's time usually is
    clock.keep_up_with_real_time()
    start = clock.now()
    t0 = time.monotonic()
    time.sleep(0.02)  # a host descheduled between two accesses
    clock.access()
    assert clock.now() - start >= (time.monotonic() - t0) * 1e6 + 50 - 1000


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


# --- the chip at register level -----------------------------------------------------------------


def configure(chip: FakeMfrc522, timer_ms: int = 5) -> None:
    """What ``Mfrc522.init`` writes, once the reset is over: timer, 100 % ASK, field on."""
    w = chip.write_reg
    w(m.T_MODE_REG, 0x80)
    w(m.T_PRESCALER_REG, 0xA9)
    w(m.T_RELOAD_H_REG, (timer_ms * 40) >> 8)
    w(m.T_RELOAD_L_REG, (timer_ms * 40) & 0xFF)
    w(m.TX_ASK_REG, 0x40)
    w(m.TX_CONTROL_REG, 0x83)


class Sent:
    """What the chip did after one StartSend: ComIrqReg's bits, when (chip time after the
    StartSend write), ErrorReg and the FIFO."""

    def __init__(self, irq: int, after_us: float, error: int, fifo: bytes) -> None:
        self.irq, self.after_us, self.error, self.fifo = irq, after_us, error, fifo


def send(chip: FakeMfrc522, frame: bytes, last_bits: int = 0, give_up_us: float = 60_000) -> Sent:
    """Transceive ``frame`` register by register and read ComIrqReg until the reception or the
    timer ends it, or ``give_up_us`` of chip time passed (irq then 0x40 or less)."""
    w, r = chip.write_reg, chip.read_reg
    w(m.COMMAND_REG, m.CMD_IDLE)
    w(m.COM_IRQ_REG, 0x7F)
    w(m.FIFO_LEVEL_REG, 0x80)
    for b in frame:
        w(m.FIFO_DATA_REG, b)
    w(m.BIT_FRAMING_REG, last_bits)
    w(m.COMMAND_REG, m.CMD_TRANSCEIVE)
    w(m.BIT_FRAMING_REG, last_bits | 0x80)
    start = chip.clock.now()
    irq = 0
    while chip.clock.now() - start < give_up_us:
        irq = r(m.COM_IRQ_REG)
        if irq & (m.IRQ_RX | m.IRQ_TIMER):
            break
    after = chip.clock.now() - start
    error = r(m.ERROR_REG)
    fifo = bytes(r(m.FIFO_DATA_REG) for _ in range(r(m.FIFO_LEVEL_REG)))
    w(m.COMMAND_REG, m.CMD_IDLE)
    return Sent(irq, after, error, fifo)


def cycle(chip: FakeMfrc522) -> None:
    """Field off long enough to reset the tags, and on again."""
    chip.write_reg(m.TX_CONTROL_REG, 0x80)
    chip.clock.advance(FIELD_RESET_US)
    chip.write_reg(m.TX_CONTROL_REG, 0x83)


def reqa(chip: FakeMfrc522, wakeup: bool = False) -> Sent:
    return send(chip, bytes((m.PICC_WUPA if wakeup else m.PICC_REQA,)), 7)


def select(chip: FakeMfrc522, uid4: bytes) -> Sent:
    frame = bytes((m.PICC_SEL[0], m.NVB_SELECT)) + uid4 + bytes((m.bcc(uid4),))
    return send(chip, frame + m.crc_a(frame))


def hlta(chip: FakeMfrc522) -> Sent:
    frame = bytes((m.PICC_HALT, 0))
    return send(chip, frame + m.crc_a(frame))


def test_the_timer_fires_after_its_programmed_time_on_the_chip_clock() -> None:
    for timer_ms in (5, 25):
        chip = FakeMfrc522()
        configure(chip, timer_ms)
        got = reqa(chip)  # nobody there
        assert got.irq & m.IRQ_TIMER and not got.irq & m.IRQ_RX
        # (TReload + 1) * (2 * 169 + 1) / 13.56 MHz after the REQA left, give or take reads
        assert timer_ms * 1000 <= got.after_us <= timer_ms * 1000 + 300


def test_an_answer_comes_back_within_a_few_hundred_microseconds_and_stops_the_timer() -> None:
    chip = FakeMfrc522()
    chip.place(MIFARE)
    configure(chip)
    got = reqa(chip)
    assert got.irq & m.IRQ_RX and got.fifo == bytes((0x04, 0x00))
    assert got.after_us < 500
    chip.clock.advance(10_000)
    assert not chip.read_reg(m.COM_IRQ_REG) & m.IRQ_TIMER


def test_without_tauto_the_timer_never_fires() -> None:
    chip = FakeMfrc522()
    configure(chip)
    chip.write_reg(m.T_MODE_REG, 0x00)
    assert (
        reqa(
            chip,
        ).irq
        & (m.IRQ_TIMER | m.IRQ_RX)
        == 0
    )


def test_without_100_percent_ask_no_tag_hears_the_reader() -> None:
    chip = FakeMfrc522()
    chip.place(MIFARE)
    configure(chip)
    chip.write_reg(m.TX_ASK_REG, 0x00)
    assert reqa(chip).irq & m.IRQ_TIMER and chip.tags[0].state == IDLE
    chip.write_reg(m.TX_ASK_REG, 0x40)
    assert reqa(chip).irq & m.IRQ_RX


def test_a_soft_reset_takes_time_and_drops_writes_meanwhile() -> None:
    chip = FakeMfrc522()
    chip.reset_us = 2000  # out of power-down: the crystal starts again
    chip.write_reg(m.COMMAND_REG, m.CMD_SOFT_RESET)
    assert chip.read_reg(m.COMMAND_REG) == m.CMD_SOFT_RESET
    chip.write_reg(m.T_MODE_REG, 0x80)  # lost
    assert chip.dropped_writes == 1 and chip.read_reg(m.T_MODE_REG) == 0x00
    chip.clock.advance(2000)
    assert chip.read_reg(m.COMMAND_REG) == 0x20  # reset done: RcvOff, Idle
    chip.write_reg(m.T_MODE_REG, 0x80)
    assert chip.read_reg(m.T_MODE_REG) == 0x80


def test_the_default_soft_reset_is_over_by_the_next_access() -> None:
    chip = FakeMfrc522()
    chip.write_reg(m.COMMAND_REG, m.CMD_SOFT_RESET)
    assert chip.read_reg(m.COMMAND_REG) == 0x20 and chip.soft_resets == 1


def test_ready_and_active_tags_ignore_reqa_and_fall_back_to_idle() -> None:
    chip = FakeMfrc522()
    chip.place(MIFARE)
    configure(chip)
    assert reqa(chip).irq & m.IRQ_RX  # now READY
    assert reqa(chip).irq & m.IRQ_TIMER  # READY: no answer, back to IDLE
    assert chip.tags[0].state == IDLE
    assert reqa(chip).irq & m.IRQ_RX
    assert select(chip, bytes.fromhex(MIFARE)).irq & m.IRQ_RX
    assert chip.tags[0].state == "ACTIVE"
    assert reqa(chip).irq & m.IRQ_TIMER and chip.tags[0].state == IDLE


def test_a_wupa_woken_tag_that_loses_the_anticollision_goes_back_to_halt() -> None:
    chip = FakeMfrc522()
    chip.place(MIFARE)
    configure(chip)
    reqa(chip)
    select(chip, bytes.fromhex(MIFARE))
    hlta(chip)
    assert chip.tags[0].state == HALT
    assert reqa(chip).irq & m.IRQ_TIMER  # halted: REQA does not wake it
    assert reqa(chip, wakeup=True).irq & m.IRQ_RX  # WUPA does: READY*
    assert select(chip, bytes.fromhex("01020304")).irq & m.IRQ_TIMER  # someone else selected
    assert chip.tags[0].state == HALT  # READY* falls back to HALT, not IDLE
    assert reqa(chip).irq & m.IRQ_TIMER


def test_an_anticollision_frame_whose_txlastbits_disagree_with_nvb_gets_no_answer() -> None:
    chip = FakeMfrc522()
    chip.place(MIFARE)
    configure(chip)
    reqa(chip)
    # SEL, NVB 0x21: two bytes and one bit (DE's first bit, 0); with TxLastBits 1 it answers
    good = send(chip, bytes((m.PICC_SEL[0], 0x21, 0x00)), 1)
    assert good.irq & m.IRQ_RX
    # the same bytes with TxLastBits 0 (eight bits of the last byte) contradict the NVB
    bad = send(chip, bytes((m.PICC_SEL[0], 0x21, 0x00)), 0)
    assert bad.irq & m.IRQ_TIMER and chip.tags[0].state == IDLE


def test_three_tags_answering_at_once_can_be_silence_or_a_reception_that_never_ends() -> None:
    chip = FakeMfrc522()
    for uid in (MIFARE, NTAG, "11223344"):
        chip.place(uid)
    configure(chip)
    chip.crowd(1)
    assert reqa(chip).irq & m.IRQ_TIMER  # silence: the timer fires
    assert {t.state for t in chip.tags} == {"READY"}  # they did answer
    cycle(chip)
    assert reqa(chip).irq & m.IRQ_RX  # n=1: the next one is heard
    chip.crowd(-1, stall=True)
    for _ in range(2):
        cycle(chip)
        got = reqa(chip, wakeup=True)
        assert got.irq & (m.IRQ_RX | m.IRQ_TIMER) == 0 and got.irq & m.IRQ_TX
        assert got.after_us >= 60_000  # nothing ends it but another command
    chip.remove(MIFARE)  # two tags: heard again
    cycle(chip)
    got = reqa(chip, wakeup=True)
    assert got.irq & m.IRQ_RX


def test_an_hlta_can_be_answered_by_noise_with_a_real_error_bit() -> None:
    chip = FakeMfrc522()
    chip.place(MIFARE)
    configure(chip)
    reqa(chip)
    select(chip, bytes.fromhex(MIFARE))
    chip.halt_error(1)
    got = hlta(chip)
    assert got.irq & m.IRQ_RX and got.irq & m.IRQ_ERR and got.error == m.ERR_PROTOCOL
    assert chip.tags[0].state == HALT  # the tag did halt
    assert hlta(chip).irq & m.IRQ_TIMER  # the next one: a time-out, as it should


def test_noise_sets_the_error_bits_a_real_chip_sets() -> None:
    chip = FakeMfrc522()
    chip.place(MIFARE)
    configure(chip)
    for error in (m.ERR_PARITY, m.ERR_PROTOCOL, m.ERR_CRC, m.ERR_BUFFER_OVFL):
        chip.noise(1, error)
        got = reqa(chip)
        assert got.irq & m.IRQ_ERR and got.error == error
        cycle(chip)
    chip.place(NTAG)
    got = reqa(chip)  # two ATQAs that differ (4- and 7-byte uids): a bit collision is CollErr alone
    assert got.error == m.ERR_COLL and not got.irq & m.IRQ_ERR


def test_writes_that_change_reserved_bits_are_recorded() -> None:
    chip = FakeMfrc522()
    assert chip.read_reg(m.RF_CFG_REG) == 0x48
    chip.write_reg(m.RF_CFG_REG, 0x78)  # RxGain 48 dB, reserved bits kept
    assert chip.reserved_writes == []
    chip.write_reg(m.RF_CFG_REG, 0x70)  # clears reserved bit 3
    assert chip.reserved_writes == [(m.RF_CFG_REG, 0x70)]


def test_status1_says_whether_the_timer_runs() -> None:
    chip = FakeMfrc522()
    configure(chip)
    w = chip.write_reg
    w(m.COMMAND_REG, m.CMD_TRANSCEIVE)
    w(m.FIFO_DATA_REG, m.PICC_REQA)
    w(m.BIT_FRAMING_REG, 0x87)
    chip.clock.advance(200)  # the REQA is out: the timer runs
    assert chip.read_reg(m.STATUS1_REG) & m.T_RUNNING
    chip.clock.advance(5100)  # and has fired
    assert not chip.read_reg(m.STATUS1_REG) & m.T_RUNNING
    assert chip.read_reg(m.COM_IRQ_REG) & m.IRQ_TIMER
