"""Issue 11, "done when", on the bridge firmware: across one to eight readers, some offline or
disabled, up to four tags on a reader and the faults real RC522 boards produce, a tag that never
moved is never reported gone, and a tag that leaves is reported gone within a bounded time;
also on one reader whose board drowns most requests of three or more tags, as pawns join and
leave.

The bridge runs on the rig: emulated chips whose tags keep HALT through short field gaps and
whose timers, answers and faults take time on the chips' clock.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from firmware_bridge import mfrc522_cascade as m
from scorekeeper.readers.fake_mfrc522 import FakeMfrc522
from tests.firmware.rig import Rig, tags
from tests.readers.issue11_table import CROWDS, PATTERN, Crowd, FaultSchedule, uids

SETTLE_MS = 3000  # the tags lie still this long, under faults, before some leave
ABSENT_MS = 300  # the shipped config.json's timing.absent_ms


@dataclass(frozen=True)
class Table:
    """Tags per reader; readers offline from power-up, disabled in config.json, and one that
    drops off the bus for a second while its tags lie there."""

    tags: tuple[int, ...]
    offline: tuple[int, ...] = ()
    disabled: tuple[int, ...] = ()
    drops: int | None = None


TABLES = [
    pytest.param(Table((4,)), id="1 reader, 4 tags"),
    pytest.param(Table((3, 2), offline=(1,)), id="2 readers, 1 offline"),
    pytest.param(Table((1, 4, 2, 3), disabled=(2,), drops=3), id="4 readers, 1 disabled, 1 drops"),
    pytest.param(
        Table((4, 3, 0, 1, 2, 4, 1, 2), offline=(6,), disabled=(2,), drops=0),
        id="8 readers, 1 offline, 1 disabled, 1 drops",
    ),
]


@pytest.mark.parametrize("table", TABLES)
def test_still_tags_stay_and_lifted_tags_go(table: Table) -> None:
    n = len(table.tags)
    chips = [FakeMfrc522() for _ in range(n)]
    for i in table.offline:
        chips[i].responding = False
    rig = Rig(
        chips=chips, readers=[{"cs": 17 + i, "enabled": i not in table.disabled} for i in range(n)]
    )
    faults = FaultSchedule(chips)
    laid = {i: uids(i, count) for i, count in enumerate(table.tags)}
    for i, chip in enumerate(chips):
        for u in laid[i]:
            chip.place(u)
    live = [i for i in range(n) if i not in table.offline and i not in table.disabled]

    if table.drops is not None:
        rig.run_ms(1000)
        chips[table.drops].responding = False  # a loose wire: its tags stay where they are
        rig.run_ms(1000)
        chips[table.drops].responding = True
        rig.run_ms(SETTLE_MS - 2000)
    else:
        rig.run_ms(SETTLE_MS)
    events = tags(rig.host.take())
    assert sorted(events) == sorted(("+", i, u) for i in live for u in laid[i])
    assert set(faults.armed) >= {"miss", "noise", "garble", "halt_error", "collide"}
    if max(table.tags[i] for i in live) >= 3:
        assert {"crowd", "stall"} <= set(faults.armed)

    # Lift the last tag of every live reader that has one; the others stay.
    lifted = {(i, laid[i][-1]) for i in live if laid[i]}
    for i, u in lifted:
        chips[i].remove(u)
    start = rig.bridge.now()
    gone_at: dict[tuple[int, str], int] = {}
    while len(gone_at) < len(lifted) and rig.bridge.now() - start < 10_000:
        rig.bridge.step()
        for sign, i, u in tags(rig.host.take()):
            assert sign == "-" and (i, u) in lifted, f"{sign} {u} on reader {i}"
            gone_at[(i, u)] = rig.bridge.now() - start
    assert set(gone_at) == lifted
    polls = rig.bridge.polls
    rig.run_ms(2000)  # and nothing else goes
    assert tags(rig.host.take()) == []
    # Bounded: absent_ms, plus one turn of the fault pattern (it cuts some polls short, and
    # each turn holds a run of complete polls) and the three complete misses themselves.
    cycle_ms = 2000 * len(live) / max(rig.bridge.polls - polls, 1)
    bound = ABSENT_MS + (len(PATTERN) + 3) * cycle_ms
    assert max(gone_at.values()) <= bound, (gone_at, cycle_ms)


@pytest.mark.parametrize("crowd", CROWDS)
def test_a_crowded_reader_keeps_its_tags_as_pawns_join_and_leave(crowd: Crowd) -> None:
    chip = FakeMfrc522()
    chip.crowd(-1, hear_one_in=crowd.hear_one_in)
    rig = Rig(chips=[chip], readers=[{"cs": 17}])
    laid = crowd.tags
    for u in laid[: crowd.before]:
        chip.place(u)
    rig.run_ms(1500)
    assert sorted(tags(rig.host.take())) == sorted(("+", 0, u) for u in laid[: crowd.before])
    for u in laid[crowd.before :]:  # the third (fourth) pawn joins: the others must stay
        chip.place(u)
    rig.run_ms(2000)
    assert sorted(tags(rig.host.take())) == sorted(("+", 0, u) for u in laid[crowd.before :])

    lifted = laid[-crowd.lift :]
    for u in lifted:
        chip.remove(u)
    start = rig.bridge.now()
    polls = rig.bridge.polls
    gone_at: dict[str, int] = {}
    while len(gone_at) < len(lifted) and rig.bridge.now() - start < 10_000:
        rig.bridge.step()
        for sign, _, u in tags(rig.host.take()):
            assert sign == "-" and u in lifted, f"{sign} {u}"
            gone_at[u] = rig.bridge.now() - start
    assert sorted(gone_at) == sorted(lifted)
    cycle_ms = (rig.bridge.now() - start) / max(rig.bridge.polls - polls, 1)
    rig.run_ms(1000)  # and the tags still lying there stay
    assert tags(rig.host.take()) == []
    # Bounded: absent_ms, plus the polls whose silence is doubted and three complete misses.
    bound = ABSENT_MS + (m.UNSURE_POLLS + 3 + 1) * cycle_ms
    assert max(gone_at.values()) <= bound, (gone_at, cycle_ms)
