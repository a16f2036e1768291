"""A refusal per travel rule (R-TRAVEL-6, -7, -10, -11, -15, -16, G-1, G-8, G-19, G-20), each
with its rule id and the cheapest legal way on; refusals that rest on a purse never state it."""

from __future__ import annotations

from scorekeeper.core.inputs import Decision
from scorekeeper.core.outcomes import Accepted, Rejected
from scorekeeper.games.king_of_the_elves import travel
from scorekeeper.games.king_of_the_elves.state import State, Village, with_seat
from tests.games.king_of_the_elves.test_travel_helpers import (
    ANITA,
    EXAMPLE,
    JENO,
    MARK,
    answer,
    lay,
    refused,
    special,
    table,
)


def decide(state: State, prompt: str, reply: str) -> Accepted[State] | Rejected:
    assert state.journey is not None
    return travel.on_decision(state, Decision(state.journey.seat, prompt, reply))


def test_r_travel_6_a_type_that_cannot_reach() -> None:
    no = refused(travel.on_road(table(ANITA), "unicorn_1"), "R-TRAVEL-6")
    assert no.reason == "a unicorn cannot reach {seat:0}'s river village (2), which needs 2 rafts"
    assert no.hint == "take it back; the river village needs 2 rafts"  # Éva's sea monster: +1
    forest = lay(table(ANITA), "raft_1", "raft_2")
    no = refused(travel.on_road(forest, "raft_3"), "R-TRAVEL-6")
    assert no.hint == (
        "take it back; the forest village needs 2 giant pigs, elfcycles or unicorns, "
        "or 3 magic clouds, troll wagons or dragons"
    )


def test_r_travel_6_a_card_from_a_hand_counted_empty() -> None:
    refused(travel.on_road(table(ANITA, hand=0), "raft_1"), "R-TRAVEL-6")
    last = lay(table(ANITA, hand=1), "raft_1")
    refused(travel.on_road(last, "raft_2"), "R-TRAVEL-6")


def test_r_travel_6_a_special_card_in_the_middle_of_a_move() -> None:
    state = lay(table(ANITA), "raft_1")
    for card in ("turnaround_1", "escort_1"):
        no = refused(travel.on_road(state, card), "R-TRAVEL-6")
        assert no.hint == "take it back; finish the move: 1 more raft, or stop"


def test_g_1_one_type_per_move() -> None:
    state = lay(table(ANITA), "raft_1", "raft_2", "unicorn_1")
    no = refused(travel.on_road(state, "elfcycle_1"), "G-1")
    assert no.hint == (
        "take it back; lay 1 more unicorn, or stop (the unicorn goes back to your hand)"
    )


def _thief_first() -> dict[int, tuple[Village, ...]]:
    """Anita's own river carries Jenő's thief."""
    return {**EXAMPLE, ANITA: (Village("village_05", "river", 2, thief=special("thief_2", JENO)),)}


def test_r_travel_7_a_thief_the_traveller_cannot_pay() -> None:
    words = set()
    for gold in (0, 1):
        state = table(ANITA, villages=_thief_first(), starting_gold=gold)
        no = refused(travel.on_road(state, "raft_1"), "R-TRAVEL-7")
        words.add((no.reason, no.hint))
    # The same words whatever the purse: they name the thief's 2 gold, never a balance.
    assert words == {
        (
            "{seat:0} cannot pay the 2 gold {seat:1}'s thief takes at {seat:0}'s river village "
            "(2), and no village is skipped: stop",
            "take it back; stop",
        )
    }
    # Once an own village is visited: turn around, and teleport with the variant.
    for teleport, ways in (
        (False, "turn around, or stop"),
        (True, "turn around, teleport, or stop"),
    ):
        state = lay(table(ANITA, teleport=teleport), "raft_1", "raft_2", "unicorn_1", "unicorn_2")
        state = with_seat(state, ANITA, purse=1)
        no = refused(travel.on_road(state, "dragon_1"), "R-TRAVEL-7")
        assert no.hint == f"take it back; {ways}"


def test_r_travel_10_escorts() -> None:
    # At the castle: allowed by default (own_principality_is_entered), refused without it.
    lay(table(ANITA), "escort_1")
    no = refused(
        travel.on_road(table(ANITA, own_principality_is_entered=False), "escort_1"), "R-TRAVEL-10"
    )
    assert no.hint == "take it back; play it just before entering the next principality"
    # Between two villages of Márk's principality: refused, unless escort_mid_principality.
    at_desert = ("raft_1", "raft_2", "unicorn_1", "unicorn_2", "dragon_1")
    refused(travel.on_road(lay(table(ANITA), *at_desert), "escort_1"), "R-TRAVEL-10")
    mid = lay(table(ANITA, escort_mid_principality=True), *at_desert, "escort_1")
    assert mid.journey is not None and mid.journey.escort == MARK
    # While one protects the principality ahead.
    entering = lay(table(ANITA), *at_desert[:4], "escort_1")
    no = refused(travel.on_road(entering, "escort_2"), "R-TRAVEL-10")
    assert "already protects" in no.reason


def test_r_travel_11_turnaround_before_an_own_village() -> None:
    no = refused(travel.on_road(table(ANITA), "turnaround_1"), "R-TRAVEL-11")
    assert no.hint == "take it back; reach your first village first"


def test_r_travel_15_teleport_before_the_own_first_village() -> None:
    no = refused(decide(table(ANITA, teleport=True), "journey", "teleport"), "R-TRAVEL-15")
    assert no.hint == "reach your first village first"
    # Without the variant, never.
    refused(decide(lay(table(ANITA), "raft_1", "raft_2"), "journey", "teleport"), "R-TRAVEL-15")


def test_r_travel_16_teleport_short_of_gold() -> None:
    words = set()
    for gold in (0, 1):
        state = lay(table(ANITA, teleport=True, starting_gold=0), "raft_1", "raft_2")
        state = with_seat(state, ANITA, purse=gold)  # 2 after the river: then 0 and 1
        no = refused(decide(state, "journey", "teleport"), "R-TRAVEL-16")
        words.add((no.reason, no.hint))
    assert words == {
        (
            "{seat:0} cannot pay the 3 gold a teleport costs: go on by road, or stop",
            "go on by road, or stop",
        )
    }


def test_r_travel_16_five_gold_when_a_thief_waits() -> None:
    state = lay(table(ANITA, teleport=True, starting_gold=1), "raft_1", "raft_2")  # 3 gold
    state = answer(state, "journey", "teleport")
    no = refused(travel.on_road(state, "raft_3"), "R-TRAVEL-16")  # no destination yet
    assert no.hint == "take it back; choose the village first, or stop"
    no = refused(decide(state, "teleport_to", "2.1"), "R-TRAVEL-16")  # Jenő's thief takes 2
    assert no.reason == (
        "{seat:0} cannot pay the 3 gold of the teleport and the 2 gold {seat:1}'s thief "
        "takes there: choose another village, or stop"
    )
    assert no.hint == "choose another village, or stop"
    # Márk's plain has no thief: 3 gold will do.
    state = answer(state, "teleport_to", "2.2")
    state = lay(state, "raft_3", "raft_4", "raft_5", "raft_6")
    assert state.seats[ANITA].purse == 3 - 3 + 3 and state.seats[JENO].purse == 1


def test_an_escort_already_there_lowers_a_teleports_price() -> None:
    # Escorted into Márk's principality and standing at his desert, Anita may teleport to that
    # desert again for 3 gold: the escort keeps Jenő's thief off while she stays inside.
    at_desert = ("raft_1", "raft_2", "unicorn_1", "unicorn_2", "escort_1", "dragon_1")
    state = lay(table(ANITA, teleport=True), *at_desert)
    state = with_seat(state, ANITA, purse=3)  # the ledger no longer agrees: judge, no more
    out = decide(state, "journey", "teleport")
    assert isinstance(out, Accepted)
    out = decide(out.state, "teleport_to", "2.1")
    assert isinstance(out, Accepted) and out.state.journey is not None
    assert out.state.journey.teleport_to == (MARK, 1)


def test_g_20_only_travel_cards_pay_a_teleport() -> None:
    state = lay(table(ANITA, teleport=True), "raft_1", "raft_2")
    state = answer(answer(state, "journey", "teleport"), "teleport_to", "3.1")
    refused(travel.on_road(state, "turnaround_1"), "G-20")
    state = lay(state, "raft_3")
    for card in ("escort_1", "turnaround_1"):
        no = refused(travel.on_road(state, card), "G-20")
        assert no.hint == "take it back; use 4 travel cards"


def test_g_8_past_the_castle_with_the_ring_open() -> None:
    cards = ("raft_1", "raft_2", "unicorn_1", "unicorn_2", "dragon_1", "elfcycle_1")
    state = lay(table(ANITA, ring_closed=False), *cards, "magic_cloud_1")
    no = refused(travel.on_road(state, "raft_3"), "G-8")
    assert no.hint == "take it back; turn around, or stop"


def test_g_19_a_planning_card_on_the_road() -> None:
    no = refused(travel.on_road(table(ANITA), "gold_2"), "G-19")
    assert "next planning phase" in no.hint


def test_answers_not_offered() -> None:
    refused(decide(table(ANITA), "pay", "pay"), "R-TRAVEL-7")
    state = lay(table(ANITA, teleport=True), "raft_1", "raft_2")
    state = answer(state, "journey", "teleport")
    refused(decide(state, "teleport_to", "9.1"), "R-TRAVEL-16")
    refused(decide(state, "teleport_to", "1.2"), "R-TRAVEL-16")
    refused(decide(state, "journey", "teleport"), "R-TRAVEL-16")  # one is under way
    refused(decide(state, "journey", "fly"), "TABLE-NO-PROMPT")
