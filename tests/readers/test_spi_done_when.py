"""Issue 11, "done when", on the ``spi`` backend: across one to eight readers, some offline, up
to four tags on a reader and the faults real RC522 boards produce, a tag that never moved is
never reported gone, and a tag that leaves is reported gone within a bounded time; also on one
reader whose board drowns most requests of three or more tags, as pawns join and leave.

The backend polls emulated chips (tags keep HALT through short field gaps; timers, answers and
faults take time) and runs on the chips' own clock, so SPI accesses cost time as on a Pi.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from firmware_bridge import mfrc522_cascade as m
from scorekeeper.core.inputs import Sighting
from scorekeeper.readers.fake_mfrc522 import FakeSpiBus
from scorekeeper.readers.spi import SpiBackend
from tests.readers.issue11_table import CROWDS, PATTERN, Crowd, FaultSchedule, uids

SETTLE_S = 3.0  # the tags lie still this long, under faults, before some leave
ABSENT_S = 0.25  # the backend's default absent_after_ms


@dataclass(frozen=True)
class Table:
    """Tags per reader; readers offline from the start, and one that drops off the bus for a
    second while its tags lie there."""

    tags: tuple[int, ...]
    offline: tuple[int, ...] = ()
    drops: int | None = None


TABLES = [
    pytest.param(Table((4,)), id="1 reader, 4 tags"),
    pytest.param(Table((3, 2), offline=(1,)), id="2 readers, 1 offline"),
    pytest.param(Table((1, 4, 2, 3), offline=(2,), drops=3), id="4 readers, 1 offline, 1 drops"),
    pytest.param(
        Table((4, 3, 0, 1, 2, 4, 1, 2), offline=(2, 6), drops=0), id="8 readers, 2 offline, 1 drops"
    ),
]


def run_until(
    backend: SpiBackend,
    clock: Callable[[], float],
    end: float,
    stop: Callable[[], bool] = lambda: False,
) -> int:
    """What the poll thread does with poll_interval 0, until ``end`` or ``stop()``; rounds."""
    rounds = 0
    while clock() < end and not stop():
        backend.poll_once()
        rounds += 1
    return rounds


@pytest.mark.parametrize("table", TABLES)
def test_still_tags_stay_and_lifted_tags_go(table: Table) -> None:
    n = len(table.tags)
    bus = FakeSpiBus()
    chips = [bus.add(i // 2, i % 2) for i in range(n)]  # two chip-selects a bus
    for i in table.offline:
        chips[i].responding = False
    chip_clock = bus.clock

    def clock() -> float:
        return chip_clock.now() / 1e6

    def sleep(s: float) -> None:
        chip_clock.advance(max(s, 0.0) * 1e6)

    backend = SpiBackend(
        [(i // 2, i % 2) for i in range(n)],
        clock=clock,
        sleep=sleep,
        autopoll=False,
        spi_factory=bus,
        poll_interval=0,
    )
    got: list[tuple[float, Sighting]] = []
    backend.start(lambda s: got.append((clock(), s)))
    faults = FaultSchedule(chips)
    laid = {i: uids(i, count) for i, count in enumerate(table.tags)}
    for i, chip in enumerate(chips):
        for u in laid[i]:
            chip.place(u)
    live = [i for i in range(n) if i not in table.offline]

    t0 = clock()
    if table.drops is not None:
        run_until(backend, clock, t0 + 1.0)
        chips[table.drops].responding = False  # a loose wire: its tags stay where they are
        run_until(backend, clock, t0 + 2.0)
        chips[table.drops].responding = True
    run_until(backend, clock, t0 + SETTLE_S)
    seen = sorted((s.reader, s.uid, s.present) for _, s in got)
    assert seen == sorted((f"r{i}", u, True) for i in live for u in laid[i])
    assert set(faults.armed) >= {"miss", "noise", "garble", "halt_error", "collide"}
    if max(table.tags[i] for i in live) >= 3:
        assert {"crowd", "stall"} <= set(faults.armed)

    # Lift the last tag of every live reader that has one; the others stay.
    lifted = {(f"r{i}", laid[i][-1]) for i in live if laid[i]}
    for i in live:
        if laid[i]:
            chips[i].remove(laid[i][-1])
    got.clear()
    start = clock()
    rounds = run_until(backend, clock, start + 10.0, lambda: len(got) >= len(lifted))
    gone_at = {(s.reader, s.uid): t - start for t, s in got}
    assert all(not s.present for _, s in got)
    assert set(gone_at) == lifted
    rounds += run_until(backend, clock, clock() + 2.0)  # and nothing else goes
    assert len(got) == len(lifted)
    # Bounded: absent_after_ms, plus one turn of the fault pattern (it cuts some polls short,
    # and each turn holds a run of complete polls) and the three complete misses themselves.
    cycle_s = (clock() - start) / rounds
    bound = ABSENT_S + (len(PATTERN) + 3) * cycle_s
    assert max(gone_at.values()) <= bound, (gone_at, cycle_s)
    backend.stop()


@pytest.mark.parametrize("crowd", CROWDS)
def test_a_crowded_reader_keeps_its_tags_as_pawns_join_and_leave(crowd: Crowd) -> None:
    bus = FakeSpiBus()
    chip = bus.add(0, 0)
    chip.crowd(-1, hear_one_in=crowd.hear_one_in)
    chip_clock = bus.clock

    def clock() -> float:
        return chip_clock.now() / 1e6

    def sleep(s: float) -> None:
        chip_clock.advance(max(s, 0.0) * 1e6)

    backend = SpiBackend(
        [(0, 0)], clock=clock, sleep=sleep, autopoll=False, spi_factory=bus, poll_interval=0
    )
    got: list[tuple[float, Sighting]] = []
    backend.start(lambda s: got.append((clock(), s)))
    laid = crowd.tags
    for u in laid[: crowd.before]:
        chip.place(u)
    run_until(backend, clock, clock() + 1.5)
    assert sorted((s.uid, s.present) for _, s in got) == [
        (u, True) for u in sorted(laid[: crowd.before])
    ]
    got.clear()
    for u in laid[crowd.before :]:  # the third (fourth) pawn joins: the others must stay
        chip.place(u)
    run_until(backend, clock, clock() + 3.0)
    assert sorted((s.uid, s.present) for _, s in got) == [
        (u, True) for u in sorted(laid[crowd.before :])
    ]
    got.clear()

    lifted = laid[-crowd.lift :]
    for u in lifted:
        chip.remove(u)
    start = clock()
    rounds = run_until(backend, clock, start + 10.0, lambda: len(got) >= len(lifted))
    gone_at = {s.uid: t - start for t, s in got}
    assert all(not s.present for _, s in got)
    assert sorted(gone_at) == sorted(lifted)
    cycle_s = (clock() - start) / max(rounds, 1)
    run_until(backend, clock, clock() + 2.0)  # and the tags still lying there stay
    assert len(got) == len(lifted)
    # Bounded: absent_after_ms, plus the polls whose silence is doubted and three complete
    # misses.
    bound = ABSENT_S + (m.UNSURE_POLLS + 3 + 1) * cycle_s
    assert max(gone_at.values()) <= bound, (gone_at, cycle_s)
    backend.stop()
