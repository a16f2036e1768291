"""The shared MFRC522 driver (``firmware_bridge/mfrc522_cascade.py``) against the emulated chip's
real-world faults (issue 11, points 2-6).

Each test here failed against the driver as it was before issue 11, except that four marked
guards check that a fix did not go too far: the chip was taught the fault first
(``scorekeeper/readers/fake_mfrc522.py``), then the driver was fixed. The driver
waits on the emulated chip's clock (``ChipClock.drive``), as it would on a real chip's time.
"""

from __future__ import annotations

import pytest

from firmware_bridge import mfrc522_cascade as m
from scorekeeper.readers.fake_mfrc522 import ChipClock, FakeMfrc522

NTAG = "04A1B2C3D4E5F6"
MIFARE = "DEADBEEF"
OTHERS = ("11223344", "0455AA33CC7780")
FIELD_OFF_US = 10_000  # what the readers keep between polls


def driver(chip: FakeMfrc522, timeout_ms: int = 5) -> m.Mfrc522:
    d = m.Mfrc522(chip.read_reg, chip.write_reg)
    chip.clock.drive(d)
    d.init(timeout_ms)
    return d


def poll(
    d: m.Mfrc522, chip: FakeMfrc522, gap_us: float = FIELD_OFF_US, **options: bool
) -> m.Inventory:
    """One poll as the readers make it: field off ``gap_us``, on, inventory, off."""
    d.antenna_off()
    chip.clock.advance(gap_us)
    d.antenna_on()
    try:
        return m.inventory(d, 4, **options)
    finally:
        d.antenna_off()


def hexes(inv: m.Inventory) -> list[str]:
    return sorted(u.hex().upper() for u in inv.uids)


# --- point 3: an error after HLTA is noise --------------------------------------------------------


def test_an_error_after_hlta_is_noise_not_a_failure() -> None:
    chip = FakeMfrc522()
    chip.place(MIFARE)
    chip.place(NTAG)
    d = driver(chip)
    chip.halt_error(2)  # both HLTAs of the poll are answered by noise
    inv = poll(d, chip)  # before the fix: TransmissionError escaped inventory()
    assert hexes(inv) == sorted([MIFARE, NTAG])
    assert inv.complete and inv.errors == 2


# --- point 4: the soft reset is waited out and the settings read back -----------------------------


def test_init_waits_for_a_soft_reset_that_takes_milliseconds() -> None:
    chip = FakeMfrc522()
    chip.reset_us = 3000  # a chip out of power-down: its crystal starts again
    chip.place(NTAG)
    d = driver(chip)  # before the fix: its settings were written into the reset and lost
    assert chip.dropped_writes == 0
    assert chip.timer_us() is not None and chip.regs[m.TX_ASK_REG] == 0x40
    assert hexes(poll(d, chip)) == [NTAG]


def test_a_reset_that_never_ends_is_a_dead_chip() -> None:
    chip = FakeMfrc522()
    chip.reset_us = 200_000
    with pytest.raises(m.ChipTimeout, match="soft reset"):
        driver(chip)


class ForgetfulChip(FakeMfrc522):
    """Loses every write to TxASKReg (a flaky wire, a clone that ignores it)."""

    def write_reg(self, reg: int, value: int) -> None:
        if reg & 0x3F != m.TX_ASK_REG:
            super().write_reg(reg, value)
        else:
            self.clock.access()


def test_a_chip_that_does_not_keep_its_settings_is_reported_at_init() -> None:
    with pytest.raises(m.ChipTimeout, match="TxASKReg"):
        driver(ForgetfulChip())  # before the fix: init passed, and no tag ever answered


def test_the_gain_changes_only_the_rxgain_bits() -> None:
    chip = FakeMfrc522()
    d = driver(chip)
    assert chip.reserved_writes == []  # before the fix: init wrote 0x40, clearing bit 3
    assert chip.regs[m.RF_CFG_REG] == 0x48  # gain 4 (33 dB) and the reserved 0x08
    d.set_gain(7)
    assert chip.reserved_writes == [] and chip.regs[m.RF_CFG_REG] == 0x78
    assert m.rf_cfg(0x48, 2) == 0x28


# --- point 5: waits bounded by time, not by a count of reads ------------------------------------


def test_fast_spi_and_a_long_timer_give_an_empty_field_not_a_dead_chip() -> None:
    chip = FakeMfrc522(clock=ChipClock(access_us=4))  # fast SPI: 4 us a register access
    d = driver(chip, timeout_ms=25)
    d.antenna_on()
    # before the fix: 2000 reads (8 ms) were up long before the chip's 25 ms timer
    assert m.request(d) is None


def test_a_dead_chip_still_times_out_within_the_timer_and_a_margin() -> None:
    # a guard, not a fault: the old driver timed out too, after 2000 reads
    chip = FakeMfrc522()
    d = driver(chip)
    chip.responding = False
    start = chip.clock.now()
    with pytest.raises(m.ChipTimeout):
        d.transceive(bytes((m.PICC_REQA,)), tx_last_bits=7)
    waited_ms = (chip.clock.now() - start) / 1000
    assert 5 + m.WAIT_MARGIN_MS <= waited_ms < 5 + m.WAIT_MARGIN_MS + 1


# --- point 2: silence and a reception that never ends are not an empty field --------------------


def test_a_reception_that_never_ends_is_an_incomplete_poll_not_a_dead_chip() -> None:
    chip = FakeMfrc522()
    for uid in (MIFARE, *OTHERS):
        chip.place(uid)
    d = driver(chip)
    chip.crowd(-1, stall=True)
    inv = poll(d, chip)  # before the fix: ChipTimeout, and the reader went offline
    assert not inv.complete and inv.stalls == 1 and inv.uids == []
    assert d.responding()


def test_a_silent_reqa_is_asked_again_when_tags_were_there() -> None:
    chip = FakeMfrc522()
    for uid in (MIFARE, *OTHERS):
        chip.place(uid)
    d = driver(chip)
    assert hexes(poll(d, chip)) == sorted([MIFARE, *OTHERS])
    chip.crowd(1)  # the next REQA that three tags answer is drowned
    inv = poll(d, chip, had_tags=True)  # before the fix: an empty, complete poll
    assert hexes(inv) == sorted([MIFARE, *OTHERS]) and inv.confirmations == 1
    assert not inv.complete  # a REQA missed tags: the poll cannot vouch for silence


def test_two_silences_in_a_row_are_an_empty_field() -> None:
    # a guard: the confirmation must not hold a tag that did leave
    chip = FakeMfrc522()
    chip.place(MIFARE)
    d = driver(chip)
    assert hexes(poll(d, chip)) == [MIFARE]
    chip.remove(MIFARE)
    inv = poll(d, chip, had_tags=True)
    assert inv.uids == [] and inv.complete and inv.confirmations == 1


def test_a_tag_left_active_through_a_short_gap_is_found_on_the_first_try() -> None:
    # An interrupted poll leaves a tag ACTIVE; after a gap shorter than 5 ms it ignores the next
    # REQA (and falls back to IDLE): "works every second try" (miguelbalboa #437).
    chip = FakeMfrc522()
    chip.place(MIFARE)
    d = driver(chip)
    d.antenna_on()
    assert m.request(d) is not None and m.select_uid(d) is not None  # ACTIVE, not halted
    inv = poll(d, chip, gap_us=1000, had_tags=True)
    assert hexes(inv) == [MIFARE]


def test_wupa_woken_tags_that_lose_the_anticollision_make_the_poll_incomplete() -> None:
    # Two tags halted by the last poll, a gap too short to reset them: WUPA wakes both, the one
    # not selected goes back to HALT (READY*), so the next REQA cannot see it.
    chip = FakeMfrc522()
    chip.place(MIFARE)
    chip.place(NTAG)
    d = driver(chip)
    assert hexes(poll(d, chip)) == sorted([MIFARE, NTAG])
    inv = poll(d, chip, gap_us=1000, had_tags=True)
    assert len(inv.uids) == 1 and not inv.complete


def test_three_tags_that_drown_three_requests_in_four_never_look_gone() -> None:
    # "Often STATUS_TIMEOUT" with several tags: three requests in four are drowned. Before the
    # fix half the polls came back empty and complete, often two or more in a row (enough for
    # absent_polls); with the confirmation no two empty polls follow each other.
    chip = FakeMfrc522()
    for uid in (MIFARE, *OTHERS):
        chip.place(uid)
    d = driver(chip)
    assert hexes(poll(d, chip)) == sorted([MIFARE, *OTHERS])
    chip.crowd(-1, hear_one_in=4)
    empty_in_a_row = longest = 0
    for _ in range(12):
        inv = poll(d, chip, had_tags=True)
        empty = inv.complete and not inv.uids
        empty_in_a_row = empty_in_a_row + 1 if empty else 0
        longest = max(longest, empty_in_a_row)
        assert not inv.uids or hexes(inv) == sorted([MIFARE, *OTHERS])
    assert longest <= 1


def test_the_wait_follows_the_timer_the_driver_sets() -> None:
    chip = FakeMfrc522()
    d = driver(chip)
    d.set_timer(40)  # longer than the 5 ms init set: the waits must follow
    timer = chip.timer_us()
    assert timer is not None and 40_000 < timer < 40_100
    d.antenna_on()
    assert m.request(d) is None  # the timer at 40 ms, not a give-up at 5 + margin
    assert d.wait_ms == 40 + m.WAIT_MARGIN_MS


def test_a_slow_host_waits_for_a_timer_that_still_runs() -> None:
    # a guard for the time bound itself (the old count bound never looked at the clock)
    # The host's clock runs ahead of the chip (a loaded Pi, a descheduled thread): the wait's
    # bound passes while the chip's timer still runs. Status1Reg's TRunning says so, and the
    # driver waits for the timer instead of calling an empty field an unfinished reception.
    chip = FakeMfrc522()
    d = m.Mfrc522(chip.read_reg, chip.write_reg)
    d.init()
    host = [0.0]

    def slow_ticks() -> float:
        host[0] += 1.0  # every reading of the host's clock: 1 ms later
        return host[0]

    d.ticks_ms, d.ticks_diff = slow_ticks, lambda a, b: a - b
    d.antenna_on()
    assert m.request(d) is None  # before: ReceiveTimeout after 15 host-ms (0.8 ms of chip time)


FOUR = (MIFARE, NTAG, *OTHERS)


@pytest.mark.parametrize("hear_one_in", [2, 4])
def test_a_crowd_drowning_a_later_request_is_asked_again(hear_one_in: int) -> None:
    # Four tags drown one (three) of every two (four) requests they answer, and so do the three
    # left after the first is halted. Before the fix only the poll's first REQA was asked again:
    # once one tag was read, a drowned REQA ended the poll as complete, three tags missing.
    chip = FakeMfrc522()
    for uid in FOUR:
        chip.place(uid)
    d = driver(chip)
    chip.crowd(-1, hear_one_in=hear_one_in)
    for _ in range(8):
        inv = poll(d, chip, had_tags=4)
        assert hexes(inv) == sorted(FOUR) and inv.complete, inv
        assert inv.contradicted >= 1  # the drowned requests are counted as missed reads


def test_a_silence_doubted_with_several_tags_missing_counts_again_after_unsure_polls() -> None:
    # Two of four tags lifted at once: their silence may be a crowd drowning its answers, so the
    # poll is unsure, incomplete; but only for UNSURE_POLLS polls in a row, or a reader would
    # hold lifted tags forever. A poll cut short by noise neither counts nor ends the run; one
    # that vouches for its field does. Before the fix the first such poll was complete.
    chip = FakeMfrc522()
    for uid in FOUR:
        chip.place(uid)
    d = driver(chip)
    assert hexes(poll(d, chip, had_tags=4)) == sorted(FOUR)
    chip.remove(OTHERS[0])
    chip.remove(OTHERS[1])
    for i in range(m.UNSURE_POLLS):
        if i == 1:
            chip.noise(1)
            noisy = poll(d, chip, had_tags=4)
            assert not noisy.complete and not noisy.unsure
        inv = poll(d, chip, had_tags=4)
        assert hexes(inv) == sorted([MIFARE, NTAG]) and inv.unsure and not inv.complete
    inv = poll(d, chip, had_tags=4)
    assert hexes(inv) == sorted([MIFARE, NTAG]) and inv.unsure and inv.complete
    inv = poll(d, chip, had_tags=2)  # the caller let them go: this poll vouches for its field
    assert inv.complete and not inv.unsure and d.unsure_polls == 0


def test_one_missing_tag_is_not_asked_again_after_the_first_request() -> None:
    # a guard: one tag alone is no crowd, so a lifted one costs no extra REQAs and the poll
    # stays complete (it goes as fast as before)
    chip = FakeMfrc522()
    chip.place(MIFARE)
    chip.place(NTAG)
    d = driver(chip)
    assert hexes(poll(d, chip, had_tags=2)) == sorted([MIFARE, NTAG])
    chip.remove(NTAG)
    inv = poll(d, chip, had_tags=2)
    assert hexes(inv) == [MIFARE] and inv.complete and inv.confirmations == 0
