"""``make bench``'s reader-cycle figures (bench/reader_cycle.py), checked for what they must show:
the field-off wait costs only a lone reader, and a tag costs the HLTA and final REQA waits."""

from __future__ import annotations

from bench import reader_cycle


def test_the_field_off_wait_costs_only_a_lone_reader() -> None:
    lone, _ = reader_cycle.bridge_cycle_ms(1, False, None)
    poll, cycle = reader_cycle.bridge_cycle_ms(8, False, None)
    assert lone >= 10 + 5 + 5  # field_off_ms, settle_ms, the REQA's 5 ms timer
    assert 5 + 5 <= poll < lone - 5  # with 8 readers the others' polls fill the gap
    assert abs(cycle - 8 * poll) < 0.01


def test_a_tag_costs_two_timer_waits_and_a_shorter_timeout_saves_them() -> None:
    empty, _ = reader_cycle.spi_cycle_ms(4, False, None)
    tagged, _ = reader_cycle.spi_cycle_ms(4, True, None)
    fast, _ = reader_cycle.spi_cycle_ms(4, True, 1)
    assert tagged - empty >= 5  # the HLTA's time-out (success) before the final REQA
    assert tagged - fast >= 2 * (5 - 1)  # HLTA and final REQA each wait the chip's timer
