"""The planning phase (R-PLAN): each of the seven options, the turn passing, the pass run, and
each planning refusal with its rule id and the way on it gives."""

from __future__ import annotations

from scorekeeper.games.king_of_the_elves.state import PLANNING, TRAVEL, evolve, with_seat
from tests.games.king_of_the_elves.test_elves_helpers import (
    check_ledger,
    decide,
    decide_refused,
    new,
    pass_round,
    see,
    see_refused,
    with_villages,
)


def test_new_game_purses_deal_and_rounds() -> None:
    state = new(4)
    assert [s.purse for s in state.seats] == [7] * 4
    assert [s.hand for s in state.seats] == [10] * 4
    assert (state.draw_pile, state.rounds, state.phase, state.active_seat) == (80, 4, PLANNING, 0)
    assert [e.reason for e in state.ledger] == ["start"] * 4
    six = new(6, start_seat=2)
    assert (six.draw_pile, six.rounds, six.active_seat) == (60, 5, 2)
    two = new(2, starting_gold=12)
    assert (two.rounds, two.capacity, two.seats[1].purse) == (2, 3, 12)
    assert new(2, two_player_villages=2).capacity == 2
    assert new(3, crests="fca").options.crests == "fca"
    check_ledger(six)


def test_villages_fill_slots_in_order_then_the_principality_is_full() -> None:
    state = new(4)
    state = see(state, "village_1:1", "village_18")  # seat 0 lays in seat 1's principality
    assert state.seats[1].villages[0].terrain == "forest"
    assert (state.active_seat, state.seats[0].hand) == (1, 9)
    wrong = see_refused(state, "village_1:1", "village_19")
    assert wrong.rule == "R-PLAN-3"
    state = see(state, "village_2:1", "village_19")  # the second, left of the first
    full = see_refused(state, "village_1:1", "village_20")
    assert full.rule == "R-PLAN-3" and "room" in full.hint and "{seat:1}" not in full.hint
    skip = see_refused(state, "village_2:3", "village_20")
    assert skip.rule == "R-PLAN-3" and "first village pad" in skip.hint
    assert see_refused(state, "attach_1:3", "village_20").rule == "R-PLAN-3"
    assert see(state, "village_1:1", "village_18") == state  # seen again: nothing changes


def test_two_players_hold_three_villages() -> None:
    state = new(2)
    for slot, card in ((1, "village_01"), (2, "village_02"), (3, "village_03")):
        state = see(state, f"village_{slot}:0", card)
    assert len(state.seats[0].villages) == 3
    assert see_refused(state, "village_1:0", "village_04").rule == "R-PLAN-3"
    capped = new(2, two_player_villages=2)
    capped = see(see(capped, "village_1:0", "village_01"), "village_2:0", "village_02")
    assert see_refused(capped, "village_3:0", "village_03").rule == "R-PLAN-3"


def test_special_cards_and_their_refusals() -> None:
    state = with_villages(new(4), s1=("village_18",), s0=("village_05",))
    assert see_refused(state, "village_1:1", "gold_1").rule == "R-PLAN-8"  # wrong pad
    assert see_refused(state, "attach_1:1", "fallen_tree_1").rule == "R-PLAN-8"
    assert see_refused(state, "attach_1:2", "gold_1").rule == "R-PLAN-8"  # no village
    assert see_refused(state, "attach_1:1", "escort_1").rule == "R-PLAN-12"
    assert see_refused(state, "village_1:0", "fallen_tree_1").rule == "R-PLAN-10"
    assert see_refused(state, "village_1:1", "sea_monster_1").rule == "R-PLAN-10"
    state = see(state, "attach_1:1", "gold_1")  # seat 0's gold on seat 1's forest
    gold = state.seats[1].villages[0].gold
    assert gold is not None and (gold.owner, gold.token) == (0, None)
    assert state.seats[0].placed == 1 and state.active_seat == 1
    second = see_refused(state, "attach_1:1", "gold_2")
    assert second.rule == "R-PLAN-9"
    state = see(state, "attach_1:1", "thief_1")  # seat 1's thief beside its gold
    state = see(state, "village_1:1", "fallen_tree_1")  # seat 2's tree on the forest
    village = state.seats[1].villages[0]
    assert village.thief is not None and village.obstacle is not None
    assert (village.thief.owner, village.obstacle.owner) == (1, 2)


def test_tokens_confirm_the_owner() -> None:
    state = with_villages(new(4), s1=("village_18",))
    state = see(state, "attach_1:1", "gold_1")  # seat 0, crest A
    other = see_refused(state, "attach_1:1", "token_b1")
    assert other.rule == "R-PLAN-8" and "crest A" in other.hint
    assert see_refused(state, "attach_1:1", "token_e1").rule == "R-SETUP-3"  # nobody plays E
    state = see(state, "attach_1:1", "token_a1")
    gold = state.seats[1].villages[0].gold
    assert gold is not None and gold.token == "token_a1"
    assert see(state, "attach_1:1", "token_a1") == state
    assert see_refused(state, "road", "token_a2").rule == "R-PLAN-8"


def test_a_fifth_placement_in_a_round_is_refused() -> None:
    state = with_villages(new(4), s1=("village_18", "village_13"), s2=("village_09",))
    state = with_seat(state, 0, placed=4)
    assert see_refused(state, "attach_1:2", "gold_1").rule == "R-PLAN-11"
    table = new(4, token_limit="on_table")
    table = with_seat(with_villages(table, s1=("village_18",), s2=("village_09",)), 0, placed=4)
    assert see(table, "attach_1:2", "gold_1").seats[0].placed == 5  # tokens on table: 0


def test_buy_three_then_refused_and_paid_at_the_end_of_planning() -> None:
    state = with_villages(new(2), s0=("village_05",), s1=("village_18",))
    escrows = []
    for _ in range(3):
        state = decide(state, 0, "plan", "buy")
        escrows.append(state.seats[0].escrow)
        state = decide(state, 1, "plan", "pass")
    assert escrows == [1, 3, 6]
    assert (state.seats[0].purse, state.seats[0].hand, state.seats[0].bought) == (1, 13, 3)
    assert decide_refused(state, 0, "plan", "buy").rule == "R-PLAN-6"
    state = decide(state, 0, "plan", "pass")  # seat 1 passed just before: 2 in a row
    assert state.phase == TRAVEL and state.seats[0].escrow == 0
    assert [e.reason for e in state.ledger][-1] == "buy_paid"
    assert state.ledger[-1].amount == 6


def test_a_purchase_the_purse_cannot_pay_is_refused_without_stating_it() -> None:
    state = with_seat(new(4), 0, purse=0)
    refusal = decide_refused(state, 0, "plan", "buy")
    assert refusal.rule == "G-13"
    assert refusal.reason == (
        "{seat:0} cannot pay the 1 gold this card costs "
        "(gold set aside for purchases does not count)"
    )
    empty = evolve(new(4), draw_pile=0, discard_pile=0)
    assert decide_refused(empty, 0, "plan", "buy").rule == "G-14"


def test_draw3_discard4() -> None:
    state = with_villages(new(4), s1=("village_18",))
    state = decide(state, 0, "plan", "draw3")
    assert (state.seats[0].hand, state.draw_pile) == (13, 77)
    assert decide_refused(state, 0, "plan", "pass").rule == "R-PLAN-1"
    assert see_refused(state, "village_1:0", "village_01").rule == "R-PLAN-1"
    assert see_refused(state, "discard", "village_18").rule == "R-PLAN-5"
    for k, card in enumerate(("raft_1", "raft_2", "dragon_1", "raft_3")):
        assert state.active_seat == 0, k
        state = see(state, "discard", card)
        assert see(state, "discard", card) == state  # seen again: counted once
    assert (state.seats[0].hand, state.discard_pile, state.active_seat) == (9, 4, 1)
    short = with_seat(new(4), 0, hand=0)
    short = evolve(short, draw_pile=2, discard_pile=0)
    assert decide_refused(short, 0, "plan", "draw3").rule == "G-15"


def test_search_for_a_village() -> None:
    state = with_villages(new(4), s0=("village_05",))
    assert decide_refused(state, 0, "plan", "search").rule == "R-PLAN-4"
    state = decide(new(4), 0, "plan", "search")
    assert state.seats[0].hand == 11
    state = see(state, "discard", "raft_1")  # the card put back
    assert (state.seats[0].hand, state.active_seat) == (10, 1)
    empty = decide(with_seat(new(4), 0, hand=0), 0, "plan", "search")
    assert (empty.seats[0].hand, empty.active_seat) == (1, 1)  # nothing put back (G-16)


def test_search_fallback_found_or_none() -> None:
    state = decide(new(2, search_fallback=True), 0, "plan", "search")
    found = decide(state, 0, "searched", "found")
    assert found.seats[0].hand == 11 and found.planning is not None
    none = decide(state, 0, "searched", "none")
    assert none.seats[0].stranded and none.active_seat == 1
    none = see(none, "village_1:1", "village_18")
    none = decide(none, 0, "plan", "pass")  # stranded: passes without a village
    none = decide(none, 1, "plan", "pass")
    assert none.phase == TRAVEL and none.seats[0].travelled and none.active_seat == 1


def test_remove_a_village_with_its_cards_and_slide() -> None:
    state = with_villages(new(4), s0=("village_18", "village_05"), s1=("village_09",))
    state = with_villages(state, s2=("village_23",), s3=("village_13",))
    state = see(state, "attach_1:0", "gold_1")  # seat 0
    state = see(state, "village_1:0", "fallen_tree_1")  # seat 1
    state = decide(decide(state, 2, "plan", "pass"), 3, "plan", "pass")
    assert see_refused(state, "discard", "village_09").rule == "R-PLAN-13"
    assert see_refused(state, "discard", "gold_1").rule == "R-PLAN-13"
    state = see(state, "discard", "village_18")  # 2 + 2 special cards
    assert state.seats[0].purse == 3 and state.ledger[-1].reason == "remove"
    assert [v.card for v in state.seats[0].villages] == ["village_05"]
    assert state.discarded >= {"village_18", "gold_1", "fallen_tree_1"}
    assert see(state, "discard", "gold_1") == state  # its cards follow: confirmations
    assert state.planning is not None and state.planning.slides[0].to == 1
    slide = see_refused(state, "village_2:0", "village_14")
    assert slide.rule == "R-PLAN-3" and "one pad right" in slide.hint  # the slide first
    state = see(state, "village_1:0", "village_05")  # the slid village seen on its new pad
    assert state.planning is not None and state.planning.slides == ()
    poor = with_seat(with_villages(new(4), s0=("village_18",)), 0, purse=1)
    assert see_refused(poor, "discard", "village_18").rule == "G-12"


def test_removal_with_phones_waits_for_pay() -> None:
    state = with_villages(new(4, money="phones"), s0=("village_18",))
    state = see(state, "discard", "village_18")
    assert state.seats[0].purse == 7 and state.active_seat == 0
    assert see_refused(state, "village_1:0", "village_01").rule == "R-PLAN-1"
    state = decide(state, 0, "pay", "pay")
    assert (state.seats[0].purse, state.active_seat) == (5, 1)


def test_pass_needs_a_village_and_n_passes_end_planning() -> None:
    state = new(4)
    assert decide_refused(state, 0, "plan", "pass").rule == "R-PLAN-14"
    assert decide_refused(state, 1, "plan", "buy").rule == "TABLE-WRONG-SEAT"
    state = with_villages(state, s0=("village_05",), s1=("village_18",))
    state = with_villages(state, s2=("village_09",), s3=("village_13",))
    state = decide(decide(decide(state, 0, "plan", "pass"), 1, "plan", "pass"), 2, "plan", "buy")
    assert state.planning is not None and state.planning.passes == 0  # the run is broken
    state = pass_round(state)
    assert state.phase == TRAVEL and state.journey is not None and state.active_seat == 0
    assert see_refused(state, "village_2:0", "village_01").rule == "R-PLAN-3"
    assert decide_refused(new(4), 0, "journey", "stop").rule == "R-TRAVEL-1"
    assert see_refused(new(4), "road", "raft_1").rule == "R-TRAVEL-1"
