"""The world's own rules arithmetic, checked without the referee: the cost table as the rules
reference prints it, and the rulebook's example of Anita's journey played by the world's own
journey code on the layout of the examples (docs/rules/king-of-the-elves.md, "A journey, for
example"), with a thief the traveller cannot pay."""

from __future__ import annotations

import pytest

from scorekeeper.core.inputs import Decision, Seen
from scorekeeper.sim.king_of_the_elves.bots import Temper
from scorekeeper.sim.king_of_the_elves.deck import COST, TERRAINS
from scorekeeper.sim.king_of_the_elves.table import Special, Village
from scorekeeper.sim.king_of_the_elves.world import KingOfTheElvesWorld

TABLE = """
giant_pig    - - - - 1 1
elfcycle     - - - 2 1 1
magic_cloud  - - - 1 2 2
unicorn      - - 2 1 1 -
troll_wagon  - - 2 2 2 1
dragon       - - 1 1 2 1
raft         2 1 - - - -
"""
"""The rules reference's cost table: lake, river, desert, mountain, forest, plain."""

ANITA, JENO, MARK, EVA = range(4)
TAME = Temper(early_stop=0.0, unfinished=0.0, turnaround=0.0, teleport=0.0, organiser=0.0)


def test_the_cost_table_is_the_rules_reference() -> None:
    printed = {}
    for line in TABLE.strip().splitlines():
        kind, *cells = line.split()
        for terrain, cell in zip(TERRAINS, cells, strict=True):
            if cell != "-":
                printed[kind, terrain] = int(cell)
    assert printed == COST


def _examples_table(world: KingOfTheElvesWorld) -> None:
    """The layout of the rulebook's examples 2 and 3, on the assumed deck: Anita's river 2 with
    Éva's sea monster; Jenő's forest 4 with Márk's fallen tree and Anita's gold card; Márk's
    desert 6 with Jenő's thief, then plain 3; Éva's mountain 5."""
    world.princ = [
        [Village("village_05", {"obstacle": Special("sea_monster_1", EVA, "token_d1")})],
        [
            Village(
                "village_18",
                {
                    "obstacle": Special("fallen_tree_1", MARK, "token_c1"),
                    "gold": Special("gold_1", ANITA, "token_a1"),
                },
            )
        ],
        [
            Village("village_09", {"thief": Special("thief_1", JENO, "token_b1")}),
            Village("village_23"),
        ],
        [Village("village_13")],
    ]


def _journey(world: KingOfTheElvesWorld, seat: int) -> list[list[Seen | Decision]]:
    return list(world._journey(seat, last=False))


@pytest.mark.parametrize("seed", range(6))
def test_anitas_journey(seed: int) -> None:
    """34 gold from the bank and 2 to Jenő for his thief, net 32; every village visited, the
    bonus paid; whichever cards the bot picks where two types tie, it ends with 5 visits and
    stops before her own river again (the sea monster needs 2 rafts, she keeps 1)."""
    world = KingOfTheElvesWorld(4, {}, seed, temper=TAME, noise=0.0)
    _examples_table(world)
    world.hands[ANITA] = [
        "raft_1", "raft_2", "raft_3", "elfcycle_1", "elfcycle_2", "unicorn_1", "unicorn_2",
        "magic_cloud_1", "magic_cloud_2", "dragon_1",
    ]  # fmt: skip
    before = list(world.purse)
    actions = _journey(world, ANITA)
    entry = world.history[-1]
    assert (entry["collected"], entry["paid"], entry["bonus"]) == (34, 2, True)
    assert entry["visits"] == 5
    assert world.purse[ANITA] - before[ANITA] == 32
    assert world.purse[JENO] - before[JENO] == 2
    assert sum(c.startswith("raft_") for c in world.hands[ANITA]) == 1
    assert actions[-1] == [Decision(ANITA, "journey", "stop")]
    road = [i.piece for a in actions for i in a if isinstance(i, Seen) and i.present]
    assert len(road) == 10 - len(world.hands[ANITA])


def test_a_thief_that_cannot_be_paid_ends_the_way() -> None:
    """R-TRAVEL-7, G-4: Jenő's thief on Anita's own river: with fewer than 2 gold Anita may not
    visit it, and with no turnaround or teleport she stops at her castle; with 2 she pays him
    first, then collects."""
    world = KingOfTheElvesWorld(4, {}, 2, temper=TAME, noise=0.0)
    _examples_table(world)
    world.princ[ANITA][0].specials = {"thief": Special("thief_1", JENO, "token_b1")}
    world.purse[ANITA] = 1
    world.hands[ANITA] = ["raft_1", "raft_2"]
    actions = _journey(world, ANITA)
    assert actions == [[Decision(ANITA, "journey", "stop")]]
    assert world.history[-1]["visits"] == 0
    world.purse[ANITA] = 2
    _journey(world, ANITA)
    entry = world.history[-1]
    assert (entry["visits"], entry["paid"], entry["collected"]) == (1, 2, 2)
    assert world.purse[ANITA] == 2 and world.hands[ANITA] == ["raft_2"]
