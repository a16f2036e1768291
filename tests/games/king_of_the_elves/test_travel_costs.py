"""The cost table of R-TRAVEL-6 cell by cell, the worked cases T-COST-1 … 3, the obstacle's
surcharge (R-TRAVEL-9), and the path of a journey (R-TRAVEL-3 … 5, G-8, G-9, G-24)."""

from __future__ import annotations

import pytest

from scorekeeper.games.king_of_the_elves.cards import TERRAINS, TRAVEL_TYPES
from scorekeeper.games.king_of_the_elves.costs import (
    cost,
    costs_for,
    costs_words,
    crosses_castle,
    next_village,
    path,
)
from scorekeeper.games.king_of_the_elves.journey import CLOCKWISE, COUNTERCLOCKWISE

# The rulebook's table (docs/rules/king-of-the-elves.md), typed out again row by row so that a
# changed cell in costs.py fails here: columns lake, river, desert, mountain, forest, plain.
RULEBOOK = {
    "giant_pig": "- - - - 1 1",
    "elfcycle": "- - - 2 1 1",
    "magic_cloud": "- - - 1 2 2",
    "unicorn": "- - 2 1 1 -",
    "troll_wagon": "- - 2 2 2 1",
    "dragon": "- - 1 1 2 1",
    "raft": "2 1 - - - -",
}
CELLS = [
    (t, terrain, None if cell == "-" else int(cell))
    for t, row in RULEBOOK.items()
    for terrain, cell in zip(TERRAINS, row.split(), strict=True)
]


def test_the_table_has_every_type_and_terrain() -> None:
    assert set(RULEBOOK) == set(TRAVEL_TYPES)
    assert len(CELLS) == 42


@pytest.mark.parametrize(("travel_type", "terrain", "expected"), CELLS)
def test_each_cell(travel_type: str, terrain: str, expected: int | None) -> None:
    assert cost(travel_type, terrain) == expected
    # R-TRAVEL-9: an obstacle that hinders costs one more card of the same type.
    more = None if expected is None else expected + 1
    assert cost(travel_type, terrain, surcharge=True) == more


def test_t_cost_1_elfcycle() -> None:
    assert (cost("elfcycle", "forest"), cost("elfcycle", "mountain")) == (1, 2)
    assert cost("elfcycle", "desert") is None


def test_t_cost_2_desert() -> None:
    assert dict(costs_for("desert")) == {"troll_wagon": 2, "dragon": 1, "unicorn": 2}
    for refused in ("giant_pig", "elfcycle", "magic_cloud", "raft"):
        assert cost(refused, "desert") is None


def test_t_cost_3_plain() -> None:
    plain = dict(costs_for("plain"))
    assert plain["troll_wagon"] == 1 and plain["magic_cloud"] == 2
    assert "unicorn" not in plain


def test_only_rafts_reach_water_and_a_lake_takes_two() -> None:
    assert costs_for("lake") == (("raft", 2),)
    assert costs_for("river") == (("raft", 1),)
    assert costs_for("river", surcharge=True) == (("raft", 2),)  # Anita's sea monster


def test_costs_in_words_as_the_contract_words_them() -> None:
    assert costs_words("forest") == (
        "1 giant pig, 1 elfcycle or 1 unicorn, or 2 magic clouds, troll wagons or dragons"
    )
    assert costs_words("lake") == "2 rafts"
    assert costs_words("desert") == "1 dragon, or 2 unicorns or troll wagons"


# Four seats, as the rulebook's examples: Anita 1 village, Jenő 1, Márk 2, Éva 1.
EXAMPLE = (1, 1, 2, 1)


def test_anitas_path() -> None:
    assert path(EXAMPLE, 0) == ((0, 1), (1, 1), (2, 1), (2, 2), (3, 1))


def test_evas_path_starts_at_her_own_and_goes_round() -> None:
    assert path(EXAMPLE, 3) == ((3, 1), (0, 1), (1, 1), (2, 1), (2, 2))


def test_own_villages_first_in_slot_order() -> None:
    assert path((2, 2, 2), 1) == ((1, 1), (1, 2), (2, 1), (2, 2), (0, 1), (0, 2))


def test_ring_closed_goes_past_the_castle_both_ways() -> None:
    # G-8: past the right neighbour's last village comes one's own first.
    assert next_village(EXAMPLE, 0, (3, 1), CLOCKWISE) == (0, 1)
    # Turning around at one's own first village leads to the right neighbour's last.
    assert next_village(EXAMPLE, 0, (0, 1), COUNTERCLOCKWISE) == (3, 1)
    assert next_village(EXAMPLE, 3, (3, 1), COUNTERCLOCKWISE) == (2, 2)
    assert crosses_castle(EXAMPLE, 0, (3, 1), CLOCKWISE)
    assert not crosses_castle(EXAMPLE, 0, (2, 2), CLOCKWISE)


def test_ring_open_ends_at_the_castle() -> None:
    assert next_village(EXAMPLE, 0, (3, 1), CLOCKWISE, ring_closed=False) is None
    assert next_village(EXAMPLE, 0, (0, 1), COUNTERCLOCKWISE, ring_closed=False) is None
    # Elsewhere the open ring is the same path.
    assert next_village(EXAMPLE, 0, (2, 2), CLOCKWISE, ring_closed=False) == (3, 1)
    assert next_village(EXAMPLE, 3, (0, 1), COUNTERCLOCKWISE, ring_closed=False) == (3, 1)


def test_turnaround_goes_back_to_the_village_just_left() -> None:
    # G-24, Éva's journey: at Márk's plain, turned: back to his desert, then Jenő's forest.
    assert next_village(EXAMPLE, 3, (2, 2), COUNTERCLOCKWISE) == (2, 1)
    assert next_village(EXAMPLE, 3, (2, 1), COUNTERCLOCKWISE) == (1, 1)


def test_two_players_path() -> None:
    # G-9: own 1, 2, 3, the opponent's 1, 2, 3, then (ring closed) one's own first again.
    counts = (3, 3)
    assert path(counts, 1) == ((1, 1), (1, 2), (1, 3), (0, 1), (0, 2), (0, 3))
    assert next_village(counts, 1, (0, 3), CLOCKWISE) == (1, 1)
    # Turning around at one's own first village: the opponent's third, second, first.
    assert next_village(counts, 1, (1, 1), COUNTERCLOCKWISE) == (0, 3)
    assert next_village(counts, 1, (0, 3), COUNTERCLOCKWISE) == (0, 2)
    assert next_village(counts, 1, (1, 1), COUNTERCLOCKWISE, ring_closed=False) is None


def test_an_empty_principality_is_passed_over() -> None:
    counts = (1, 0, 2)
    assert path(counts, 0) == ((0, 1), (2, 1), (2, 2))
    assert next_village(counts, 0, (2, 1), COUNTERCLOCKWISE) == (0, 1)
    assert next_village(counts, 2, (0, 1), CLOCKWISE, ring_closed=False) is None
    assert next_village((0, 0, 0), 1, None, CLOCKWISE) is None


def test_one_village_on_the_table_is_its_own_next() -> None:
    assert next_village((1, 0), 0, (0, 1), CLOCKWISE) == (0, 1)
    assert next_village((1, 0), 0, (0, 1), CLOCKWISE, ring_closed=False) is None
