"""Arcana's intrigue phase at function level: agents played face up or down (A1, A2, R-INT-2,
G-29), discards (A5), whose turn it is (R-INT-1, G-12), and every refusal of an arrival
(R-INT-1, R-INT-2, R-INT-3, R-INT-6, G-5, G-6, G-32, G-35) with its words: a card refused at
a district friendly to its owner is named to nobody.
"""

from __future__ import annotations

from scorekeeper.core.outcomes import Accepted, Rejected
from scorekeeper.games.arcana import intrigue
from scorekeeper.games.arcana.cards import PRINCES_GAMES_CARD
from scorekeeper.games.arcana.lookup import district_with
from scorekeeper.games.arcana.state import NEUTRAL, State, with_district
from scorekeeper.games.arcana.turns import next_actor
from tests.games.arcana import factory

# Seat 0 plays the Ferrymen, seat 1 the Usurers; districts a, b are seat 0's, c, d seat 1's.
CROSSBOWMAN, FUNERAL, PALE_ONE = "ferrymen_03", "ferrymen_02", "usurers_01"


def see(state: State, zone: str, piece: str) -> Accepted[State]:
    out = intrigue.observe(state, zone, piece)
    assert isinstance(out, Accepted), out
    return out


def refused(state: State, zone: str, piece: str, rule: str) -> Rejected:
    out = intrigue.observe(state, zone, piece)
    assert isinstance(out, Rejected), out
    assert out.rule == rule, out
    assert out.hint
    return out


def test_an_agent_goes_face_down_at_a_friendly_district_and_unnamed_in_the_feed() -> None:
    out = see(factory.state(2), "agents_a", CROSSBOWMAN)
    (laid,) = out.state.district("a").agents
    assert (laid.card, laid.owner, laid.face_up) == (CROSSBOWMAN, 0, False)
    assert out.events == ("{seat:0} plays a face-down agent at district A",)
    assert out.state.seats[0].hand == 3
    assert out.state.active_seat == 1


def test_an_agent_goes_face_up_at_the_neutral_and_an_enemy_district() -> None:
    out = see(factory.state(2), "agents_n", CROSSBOWMAN)
    assert out.state.district(NEUTRAL).agents[0].face_up
    assert out.events == ("{seat:0} plays the Crossbowman at the neutral district",)
    out = see(out.state, "agents_a", PALE_ONE)
    assert out.state.district("a").agents[0].face_up
    assert out.events == ("{seat:1} plays the Pale One at district A",)


def test_a_won_citizen_is_an_agent_of_its_winner() -> None:
    owned = factory.starting_cards("ferrymen") | {"stake_071"}
    state = factory.state(2, seat_changes={0: {"owned": owned}})
    out = see(state, "agents_c", "stake_071")
    assert out.state.district("c").agents[0].owner == 0
    assert out.state.district("c").agents[0].face_up


def test_a_card_read_again_in_its_row_changes_nothing() -> None:
    out = see(factory.state(2), "agents_a", CROSSBOWMAN)
    again = see(out.state, "agents_a", CROSSBOWMAN)
    assert again.state is out.state
    assert again.events == ()


def test_a_discard_names_the_card_and_passes_the_turn() -> None:
    out = see(factory.state(2), "discard:0", CROSSBOWMAN)
    assert out.state.seats[0].discard == (CROSSBOWMAN,)
    assert out.state.seats[0].hand == 3
    assert out.events == ("{seat:0} discards the Crossbowman",)
    assert out.state.active_seat == 1


def test_turns_skip_empty_hands_and_a_seat_alone_with_cards_plays_on() -> None:
    state = factory.state(3, seat_changes={1: {"hand": 0}})
    assert next_actor(state).active_seat == 2
    alone = factory.state(2, seat_changes={1: {"hand": 0}})
    out = see(alone, "agents_n", CROSSBOWMAN)
    assert out.state.active_seat == 0
    assert out.state.actions == 1
    empty = factory.state(2, seat_changes={0: {"hand": 0}, 1: {"hand": 0}}, active_seat=1)
    assert next_actor(empty).active_seat == 1  # every hand empty: the results begin


def test_r_int_1_a_card_of_a_seat_not_on_turn_is_named_only_where_it_would_be_face_up() -> None:
    state = factory.state(2)
    hidden = refused(state, "agents_c", PALE_ONE, "R-INT-1")  # c is friendly to seat 1
    assert "Pale One" not in hidden.reason
    assert hidden.reason.startswith("{seat:1}'s card cannot be played at district C")
    assert "{seat:0}'s turn" in hidden.reason
    shown = refused(state, "agents_a", PALE_ONE, "R-INT-1")
    assert "the Pale One" in shown.reason
    refused(state, "discard:1", PALE_ONE, "R-INT-1")
    refused(state, "discard:1", CROSSBOWMAN, "R-INT-1")  # another seat's pad


def test_r_int_2_a_location_is_never_laid_at_a_district() -> None:
    out = refused(factory.state(2), "agents_n", "ferrymen_15", "R-INT-2")
    assert "discard pad" in out.hint


def test_r_int_3_a_card_that_is_no_agent() -> None:
    state = factory.state(2)
    for piece in ("badge_ferrymen", "master_ferrymen_1", "objective_01", "event_01"):
        refused(state, "agents_n", piece, "R-INT-3")
    refused(state, "agents_n", "stake_090", "R-INT-3")  # a stake nobody won


def test_r_int_6_an_agent_moved_with_no_ability_moving_one() -> None:
    state = see(factory.state(2), "agents_a", CROSSBOWMAN).state
    state = see(state, "agents_n", PALE_ONE).state
    out = refused(state, "agents_c", CROSSBOWMAN, "R-INT-6")
    assert "Crossbowman" not in out.reason  # face down at district A
    assert out.hint == "put it back at district A"
    out = refused(state, "agents_a", PALE_ONE, "R-INT-6")
    assert "Pale One" in out.reason


def _closed(state: State, did: str, **changes: object) -> State:
    return with_district(state, district_with(state.district(did), **changes))


def test_g_5_g_6_g_35_nothing_at_a_district_without_a_stake() -> None:
    state = factory.state(2)
    empty = _closed(state, "a", stake=None, pile=0)
    out = refused(empty, "agents_a", CROSSBOWMAN, "G-5")
    assert "Crossbowman" not in out.reason
    princes = _closed(state, NEUTRAL, stake=PRINCES_GAMES_CARD)
    refused(princes, "agents_n", CROSSBOWMAN, "G-6")
    awaiting = _closed(state, "c", stake=None, awaiting=True)
    out = refused(awaiting, "agents_c", CROSSBOWMAN, "G-35")
    assert "turn up district C's next stake" in out.hint
    refused(awaiting, "agents_c", "ferrymen_18", "G-35")  # a relic too


def test_g_35_the_next_stake_turned_up_opens_the_district_again() -> None:
    state = _closed(factory.state(2), "c", stake=None, awaiting=True)
    refused(state, "stake_c", CROSSBOWMAN, "G-35")
    out = see(state, "stake_c", "stake_050")
    district = out.state.district("c")
    assert (district.stake, district.pile, district.awaiting) == ("stake_050", 10, False)
    see(out.state, "agents_c", CROSSBOWMAN)
    refused(factory.state(2), "stake_a", "stake_050", "R-INT-1")  # its stake is not won


def test_g_32_a_card_from_an_empty_hand_or_from_a_pile() -> None:
    state = factory.state(2, seat_changes={0: {"hand": 0}})  # seat 0 still on turn
    out = refused(state, "agents_n", CROSSBOWMAN, "G-32")
    assert "put it back where it came from" in out.hint
    refused(state, "discard:0", CROSSBOWMAN, "G-32")
    piled = factory.state(2, seat_changes={0: {"discard": (FUNERAL,)}})
    refused(piled, "agents_n", FUNERAL, "G-32")


def test_a_second_action_in_one_turn_waits_for_the_open_step() -> None:
    state = see(factory.state(2, guilds=("blades", "usurers")), "discard:0", "blades_15").state
    assert state.steps[0].kind == "location"
    out = refused(state, "agents_n", "blades_01", "R-INT-1")
    assert "not finished" in out.reason
