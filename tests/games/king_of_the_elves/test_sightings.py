"""Sightings outside the planning options: departures, pieces seen again, the zones and readers
per seat count, a card from no hand, and cards on the wrong pad during the journeys."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scorekeeper.core.inputs import Seen
from scorekeeper.core.outcomes import Accepted
from scorekeeper.games.king_of_the_elves.state import (
    TRAVEL,
    Special,
    evolve,
    with_seat,
    with_village,
)
from tests.games.king_of_the_elves.test_elves_helpers import (
    GAME,
    new,
    pass_round,
    see,
    see_refused,
    with_villages,
)


@pytest.mark.parametrize(("seats", "readers"), [(2, 14), (3, 14), (4, 18), (5, 22), (6, 26)])
def test_readers_per_table_as_the_contract_counts(seats: int, readers: int) -> None:
    layout = GAME.default_layout(seats)
    assert len(layout) == readers == len(GAME.zones(seats))
    assert layout["village-1-0"] == "village_1:0" and layout["discard"] == "discard"
    assert all(GAME.seat_of_zone(z) in (None, *range(seats)) for z in layout.values())


def test_departures_change_nothing_and_unknown_things_are_refused() -> None:
    state = new(3)
    out = GAME.observe(state, Seen("village_1:0", "village_01", False))
    assert isinstance(out, Accepted) and out.state == state
    assert see_refused(state, "village_3:0", "village_01").rule == "TABLE-UNKNOWN-READER"
    assert see_refused(state, "village_1:5", "village_01").rule == "TABLE-UNKNOWN-READER"
    assert see_refused(state, "road", "dragon_figure").rule == "TABLE-UNKNOWN-TAG"


def test_a_card_from_no_hand_is_refused() -> None:
    empty = with_seat(new(3), 0, hand=0)
    assert see_refused(empty, "village_1:0", "village_01").rule == "R-PLAN-1"
    piled = evolve(new(3), discarded=frozenset({"village_01"}), discard_pile=1)
    refusal = see_refused(piled, "village_1:0", "village_01")
    assert refusal.rule == "R-PLAN-1" and "discard pile" in refusal.reason


def test_on_table_limit_counts_tokens_freed_by_a_removal_again() -> None:
    state = new(2, token_limit="on_table")
    state = with_villages(state, s0=("village_18",), s1=("village_13", "village_09"))
    forest, mountain = state.seats[0].villages[0], state.seats[1].villages[0]
    mine = (Special("gold_1", "gold", 0), Special("thief_1", "thief", 0))
    state = with_seat(state, 0, villages=(replace(forest, gold=mine[0], thief=mine[1]),))
    state = with_village(state, 1, 1, replace(mountain, gold=Special("gold_2", "gold", 0)))
    state = see(state, "village_1:1", "fallen_tree_1")  # seat 0's fourth token on the table
    state = see(state, "attach_2:1", "gold_3")  # seat 1
    assert see_refused(state, "attach_2:1", "thief_2").rule == "R-PLAN-11"
    state = see(state, "discard", "village_18")  # its gold and thief go: 2 tokens freed
    state = see(state, "village_1:0", "village_01")  # seat 1 lays in seat 0's principality
    assert see(state, "attach_2:1", "thief_2").seats[0].placed == 2  # on the table again
    per_round = with_seat(new(2), 0, placed=4)
    per_round = with_villages(per_round, s1=("village_13",))
    assert see_refused(per_round, "attach_1:1", "gold_1").rule == "R-PLAN-11"


def test_off_road_cards_during_the_journeys() -> None:
    state = with_villages(new(2), s0=("village_05",), s1=("village_18",))
    state = pass_round(see(state, "attach_1:1", "gold_1"))
    assert state.phase == TRAVEL
    assert see(state, "village_1:1", "village_18") == state  # seen again where it lies
    assert see(state, "attach_1:1", "gold_1") == state
    assert see_refused(state, "village_2:1", "village_19").rule == "R-PLAN-3"
    assert see_refused(state, "attach_1:0", "thief_2").rule == "G-19"
    assert see_refused(state, "discard", "raft_1").rule == "R-TRAVEL-6"
    assert see_refused(state, "village_1:0", "escort_1").rule == "R-TRAVEL-6"
