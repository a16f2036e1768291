"""The world's own resolution of a few majors and of the Devil, checked on set-up tables:
T17 (Hanged Man + Devil), G-23 (Lovers), G-21 (Justice), G-12 (the Devil and fame phases),
the Wheel's simultaneous passes and the Sun's face-down count."""

from __future__ import annotations

from scorekeeper.core.inputs import Decision
from scorekeeper.sim.arcanum.world import ArcanumWorld


def _table(options: dict[str, object] | None = None, seats: int = 3) -> ArcanumWorld:
    world = ArcanumWorld(seats, options or {}, 0)
    world.round = 1
    return world


def test_t17_hanged_man_with_the_devil() -> None:
    world = _table()
    world.devil, world.vp[0] = 0, 3
    list(world._major_12(0, []))
    assert world.vp[0] == 0 and len(world.minors[0]) == 2


def test_lovers_tied_for_fewest_counts_as_fewest() -> None:
    world = _table()
    world.vp = [2, 2, 5]
    list(world._major_06(0, []))
    assert world.vp == [6, 2, 5]


def test_lovers_otherwise_two_each_and_the_devil_doubles_only_its_player() -> None:
    world = _table()
    world.vp = [5, 2, 3]
    world.devil = 0
    list(world._major_06(0, []))
    assert world.vp == [9, 4, 5]


def test_justice_counts_majors_in_hand() -> None:
    world = _table()
    world.minors[0], world.majors[0] = ["cups_2"], ["major_05"]
    list(world._major_11(0, []))
    assert len(world.minors[0]) == 3 and world.hand_size(0) == 4
    list(world._major_11(0, []))
    assert world.hand_size(0) == 4


def _fame_with_devil(devil_fame: str, kind: str) -> list[int]:
    world = _table({"devil_fame": devil_fame})
    world.rep = {"swords": 5, "coins": 0, "wands": 0, "cups": 0}
    world.hidden = [["swords_2"], [], []]
    world.devil = 0
    list(world.fame_phase(kind))
    return world.vp


def test_devil_and_the_fame_phases() -> None:
    assert _fame_with_devil("doubled", "regular") == [32, 0, 0]
    assert _fame_with_devil("not_doubled", "regular") == [16, 0, 0]
    assert _fame_with_devil("doubled", "world") == [16, 0, 0]
    assert _fame_with_devil("not_doubled", "world") == [16, 0, 0]  # during the card play


def test_wheel_passes_at_once_to_the_left() -> None:
    world = _table()
    world.minors = [["cups_1", "cups_2"], ["swords_3"], []]
    world.majors = [[], ["major_02"], []]
    actions = list(world._major_10(0, []))
    answers = {i.seat: i.answer for a in actions for i in a if isinstance(i, Decision)}
    assert answers == {0: "minor+minor", 1: "minor+major"}  # seat 2 holds nothing: skipped
    assert sorted(world.minors[1]) == ["cups_1", "cups_2"] and world.majors[1] == []
    assert world.minors[2] == ["swords_3"] and world.majors[2] == ["major_02"]
    assert world.minors[0] == [] and world.majors[0] == []


def test_sun_counts_face_down_cards_only() -> None:
    world = _table()
    world.hidden = [[], ["cups_1", "cups_2", "cups_3", "cups_4"], ["wands_1"]]
    world.revealed[1].add("cups_1")  # an earlier Sun showed it: 3 face down, all shown now
    actions = list(world._major_19(0, []))
    assert not [i for a in actions for i in a if isinstance(i, Decision)]
    assert world.revealed[1] == {"cups_1", "cups_2", "cups_3", "cups_4"}
    assert world.revealed[2] == {"wands_1"} and world.vp[0] == 2
