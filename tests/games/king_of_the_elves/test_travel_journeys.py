"""Journeys that go through: the rulebook's two (Anita's net 32, Éva's 40), revisits paying
again, stopping mid-move (G-25), the thief paid from a journey's income (G-4), a thief with
phones (``pay``), the teleport, the ring's ends (G-8), and what the journey shows."""

from __future__ import annotations

from scorekeeper.core.outcomes import Accepted
from scorekeeper.games.king_of_the_elves import rounds, travel
from scorekeeper.games.king_of_the_elves.journey import (
    journey_prompts,
    journey_view,
    journey_waiting,
)
from scorekeeper.games.king_of_the_elves.state import (
    TRAVEL,
    Options,
    Village,
    evolve,
    seat_with,
    with_seat,
)
from tests.games.king_of_the_elves.test_travel_helpers import (
    ANITA,
    DECK,
    EVA,
    JENO,
    MARK,
    NAMES,
    accepted,
    answer,
    gold_from,
    lay,
    table,
)

ANITAS = ("raft_1", "raft_2", "unicorn_1", "unicorn_2", "dragon_1", "elfcycle_1", "magic_cloud_1")


def test_anitas_journey() -> None:
    state = table(ANITA)
    state = lay(state, *ANITAS)
    j = state.journey
    assert j is not None
    assert [(v.seat, v.slot) for v in j.visits] == [(0, 1), (1, 1), (2, 1), (2, 2), (3, 1)]
    assert [len(v.cards) for v in j.visits] == [2, 2, 1, 1, 1]  # sea monster, fallen tree: +1
    assert (j.collected, j.paid, j.bonus) == (34, 2, True)
    pile = state.discard_pile
    state = answer(state, "journey", "stop")
    assert state.journey is None and state.seats[ANITA].travelled
    assert [s.purse for s in state.seats] == [7 + 32, 7 + 2, 7, 7]
    assert state.seats[ANITA].hand == 3
    assert state.discard_pile == pile and set(ANITAS) <= state.discarded
    record = state.history[-1]
    assert (record.seat, record.visits, record.cards) == (ANITA, 5, 7)
    assert (record.collected, record.paid, record.bonus) == (34, 2, True)
    # Thief before income (G-4): Jenő's 2 come right before the desert's 6 in the ledger.
    reasons = [(e.reason, e.amount) for e in state.ledger if e.round == 1 and e.reason != "start"]
    assert reasons == [
        ("village", 2),
        ("village", 4),
        ("gold_card", 4),
        ("thief", 2),
        ("village", 6),
        ("village", 3),
        ("village", 5),
        ("bonus", 10),
    ]


EVAS = (
    "dragon_1",  # her mountain 5
    "raft_1",  # Anita's river 2: the sea monster is Éva's own
    "giant_pig_1",
    "giant_pig_2",  # Jenő's forest 4: Márk's fallen tree
    "escort_1",  # entering Márk's principality
    "dragon_2",  # his desert 6: Jenő's thief kept off by the escort
    "troll_wagon_1",  # his plain 3, every village visited: +10
    "turnaround_1",
    "dragon_3",  # his desert again, the escort still protecting
    "elfcycle_1",
    "elfcycle_2",  # Jenő's forest again: out of the escort, the tree counts
)


def test_evas_journey() -> None:
    state = table(EVA, hand=11)
    for k, card in enumerate(EVAS, start=1):
        state = lay(state, card)
        j = state.journey
        assert j is not None
        if card == "escort_1":
            assert j.escort == MARK and "escort_1" not in state.discarded  # kept face up
        if card == "turnaround_1":
            assert j.escort == MARK and j.direction == -1
        assert state.seats[EVA].hand == 11 - k
    j = state.journey
    assert j is not None
    assert j.escort == -1 and "escort_1" in state.discarded  # discarded on leaving Márk's
    assert [v.income + v.gold_card + v.bonus for v in j.visits] == [5, 2, 4, 6, 13, 6, 4]
    assert (j.collected, j.paid) == (40, 0)
    state = answer(state, "journey", "stop")
    assert [s.purse for s in state.seats] == [7, 7, 7, 47]
    assert state.seats[EVA].hand == 0
    assert gold_from(state, "thief", JENO) == 0
    assert state.history[-1].cards == 11


def test_revisits_pay_again_thief_included() -> None:
    # Anita turns at Márk's plain and goes back to his desert: Jenő's thief again, 6 again.
    state = lay(table(ANITA, hand=20), *ANITAS[:6], "turnaround_1", "dragon_2")
    j = state.journey
    assert j is not None
    assert [v.village for v in j.visits][-2:] == ["village_23", "village_09"]
    assert gold_from(state, "thief", JENO) == 4 and gold_from(state, "thief", ANITA) == -4
    assert gold_from(state, "village", ANITA) == 2 + 4 + 6 + 3 + 6
    assert not j.bonus  # Éva's mountain not visited yet
    # Back through Jenő's forest, her own river and past her castle (G-8) to Éva's mountain:
    # every village visited, the bonus; then Márk's plain again: no second bonus (G-18).
    state = lay(state, "unicorn_3", "unicorn_4", "raft_3", "raft_4", "magic_cloud_2")
    assert state.journey is not None and state.journey.at == (EVA, 1)
    assert gold_from(state, "bonus", ANITA) == 10
    state = lay(state, "troll_wagon_1")
    assert state.journey is not None and state.journey.at == (MARK, 2)
    assert (
        gold_from(state, "bonus", ANITA) == 10
        and gold_from(state, "village", ANITA) == 21 + 4 + 2 + 5 + 3
    )


def test_stop_mid_move_gives_the_cards_back() -> None:
    state = lay(table(ANITA), "raft_1")
    assert state.seats[ANITA].hand == 9 and "raft_1" in state.discarded
    pile = state.discard_pile
    state = answer(state, "journey", "stop")
    assert state.seats[ANITA].hand == 10  # G-25: nothing reached, nothing spent
    assert state.discard_pile == pile - 1 and "raft_1" not in state.discarded
    assert state.history[-1].cards == 0 and state.history[-1].visits == 0
    assert [s.purse for s in state.seats] == [7, 7, 7, 7]


def test_a_card_seen_again_changes_nothing() -> None:
    state = lay(table(ANITA), "raft_1")
    again = travel.on_road(state, "raft_1")
    assert isinstance(again, Accepted) and not again.events
    assert accepted(again) == state


def test_a_journeys_income_pays_a_later_thief() -> None:
    # G-4: starting with no gold, the river's 2 and the forest's 8 pay Jenő's thief.
    state = lay(table(ANITA, starting_gold=0), *ANITAS[:5])
    assert state.seats[ANITA].purse == 2 + 8 - 2 + 6 and state.seats[JENO].purse == 2


def test_with_phones_the_thief_waits_for_pay() -> None:
    state = lay(table(ANITA, money="phones"), *ANITAS[:5])
    j = state.journey
    assert j is not None and j.awaiting_pay and j.pay_to == JENO
    assert gold_from(state, "thief", JENO) == 0 and j.at == (JENO, 1)  # nothing moved yet
    assert [p.id for p in journey_prompts(state)] == ["pay", "journey"]
    assert (
        journey_waiting(state, NAMES) == "Anita confirms on the phone: 2 gold to Jenő for the thief"
    )
    state = answer(state, "pay", "pay")
    assert gold_from(state, "thief", JENO) == 2 and state.journey is not None
    assert state.journey.at == (MARK, 1) and not state.journey.awaiting_pay
    # Stopping instead of paying is an unfinished move (G-25): the dragon goes back.
    waiting = lay(table(ANITA, money="phones"), *ANITAS[:5])
    hand = waiting.seats[ANITA].hand
    stopped = answer(waiting, "journey", "stop")
    assert stopped.seats[ANITA].hand == hand + 1 and stopped.seats[JENO].purse == 7


def test_teleport() -> None:
    state = lay(table(ANITA, teleport=True), "raft_1", "raft_2")
    assert [p.options for p in journey_prompts(state)] == [("stop", "teleport")]
    state = answer(state, "journey", "teleport")
    assert [p.id for p in journey_prompts(state)] == ["teleport_to", "journey"]
    state = answer(state, "teleport_to", "2.1")  # Márk's desert, Jenő's thief
    state = lay(state, "escort_1")  # arriving by teleport enters Márk's principality
    state = lay(state, "raft_3", "dragon_1", "unicorn_1", "giant_pig_1")  # any 4 travel cards
    j = state.journey
    assert j is not None and j.at == (MARK, 1) and j.escort == MARK and j.direction == 1
    assert j.visits[-1].teleport == 3 and j.visits[-1].thief == 0
    assert gold_from(state, "teleport", ANITA) == -3
    assert state.seats[ANITA].purse == 7 + 2 - 3 + 6
    # On clockwise (R-TRAVEL-18) to Márk's plain, still escorted.
    assert journey_view(state)["next"]["slot"] == 2  # type: ignore[index]


def test_teleport_ignores_the_obstacle_and_counts_for_the_bonus() -> None:
    # Anita's river, a teleport to Jenő's forest, then on by road: the bonus at Éva's.
    state = lay(table(ANITA, teleport=True), "raft_1", "raft_2")
    state = answer(state, "journey", "teleport")
    state = answer(state, "teleport_to", "1.1")  # Jenő's forest: Márk's tree ignored
    state = lay(state, "raft_3", "raft_4", "raft_5", "raft_6")
    j = state.journey
    assert j is not None and j.visits[-1].gold_card == 4 and j.visits[-1].income == 4
    state = lay(state, "dragon_1", "elfcycle_1", "magic_cloud_1")
    assert gold_from(state, "bonus", ANITA) == 10


def test_ring_open_ends_at_the_castle() -> None:
    state = lay(table(EVA, ring_closed=False), "dragon_1", "raft_1", "giant_pig_1", "giant_pig_2")
    state = lay(state, "dragon_2", "troll_wagon_1")
    view = journey_view(state)
    assert view is not None and view["next"] is None
    assert journey_waiting(state, NAMES) == (
        "Éva's journey: the way ends at the castle: turn around, or stop"
    )
    state = lay(state, "turnaround_1", "troll_wagon_2", "troll_wagon_3")
    assert state.journey is not None and state.journey.at == (MARK, 1)


def test_the_view_and_the_waiting_line() -> None:
    state = table(ANITA)
    assert (
        journey_waiting(state, NAMES)
        == "Anita's journey: next, Anita's river village (2): 2 rafts; or stop"
    )
    state = lay(state, "raft_1", "raft_2", "unicorn_1")
    assert journey_waiting(state, NAMES) == (
        "Anita's journey: next, Jenő's forest village (4): 1 more unicorn, or stop"
    )
    view = journey_view(state)
    assert view is not None
    assert view["at"] == {"seat": 0, "slot": 1} and view["direction"] == "clockwise"
    assert view["next"] == {
        "seat": 1,
        "slot": 1,
        "terrain": "forest",
        "value": 4,
        "costs": {
            "giant_pig": 2,
            "elfcycle": 2,
            "magic_cloud": 3,
            "unicorn": 2,
            "troll_wagon": 3,
            "dragon": 3,
        },
    }
    assert view["move"] == {"type": "unicorn", "cards": ["unicorn_1"], "needed": 2}
    assert (view["visited"], view["villages"], view["collected"], view["paid"]) == (1, 5, 2, 0)
    assert view["visits"][0]["cards"] == ["raft_1", "raft_2"]


def test_nothing_shown_depends_on_a_purse() -> None:
    # Prompts, waiting line and view are the same whatever the traveller holds.
    for cards in ((), ANITAS[:2], ANITAS[:5]):
        state = lay(table(ANITA, teleport=True), *cards)
        for gold in (0, 1, 2, 3, 5, 40):
            other = with_seat(state, ANITA, purse=gold)
            assert journey_prompts(other) == journey_prompts(state)
            assert journey_waiting(other, NAMES) == journey_waiting(state, NAMES)
            assert journey_view(other) == journey_view(state)


def test_with_phones_a_teleports_thief_waits_for_pay_too() -> None:
    state = lay(table(ANITA, teleport=True, money="phones"), "raft_1", "raft_2")
    state = answer(answer(state, "journey", "teleport"), "teleport_to", "2.1")
    state = lay(state, "raft_3", "raft_4", "raft_5", "raft_6")
    j = state.journey
    assert j is not None and j.awaiting_pay and gold_from(state, "teleport", ANITA) == 0
    state = answer(state, "pay", "pay")
    j = state.journey
    assert j is not None and j.at == (MARK, 1) and j.visits[-1].teleport == 3
    assert [(e.reason, e.amount) for e in state.ledger[-3:]] == [
        ("teleport", 3),
        ("thief", 2),
        ("village", 6),
    ]


def test_two_players_turn_back_into_the_opponents_third_village() -> None:
    # G-9: Anita's plain, then a turnaround: Jenő's third, second, first village.
    villages = {
        ANITA: (Village("village_23", "plain", 3), Village("village_24", "plain", 3)),
        JENO: (
            Village("village_18", "forest", 4),
            Village("village_19", "forest", 4),
            Village("village_20", "forest", 3),
        ),
    }
    state = rounds.new_state(2, Options(crests="ab", villages=3), DECK)
    seats = tuple(seat_with(seat, villages=villages[s]) for s, seat in enumerate(state.seats))
    state = evolve(state, seats=seats, phase=TRAVEL, planning=None, active_seat=ANITA)
    state = evolve(state, journey=travel.new_journey(state, ANITA))
    state = lay(state, "giant_pig_1", "turnaround_1", "giant_pig_2", "giant_pig_3")
    j = state.journey
    assert j is not None and [v.place for v in j.visits] == [(0, 1), (1, 3), (1, 2)]
    assert j.collected == 3 + 3 + 4
