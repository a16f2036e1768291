"""The watch in the intrigue phase (R-OPT-D-2 … 4, G-22, G-34): T-19 (a citizen discarded, a
constable face down counts, back to the watch deck), ``watch_call: extra``, and the refusals
R-OPT-D-2, G-22 and G-34.
"""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.core.outcomes import Accepted, Rejected
from scorekeeper.games.arcana import award, intrigue, rounds, sums
from scorekeeper.games.arcana.cards import Pack
from scorekeeper.games.arcana.state import RESULTS, DistrictResult, Options, State, evolve
from tests.games.arcana import factory

CITIZEN = "stake_071"  # a won citizen in seat 0's hand
CONSTABLE = "constable_1"  # sword 2


def see(state: State, zone: str, piece: str) -> Accepted[State]:
    out = intrigue.observe(state, zone, piece)
    assert isinstance(out, Accepted), out
    return out


def say(state: State, prompt: str, answer: str) -> Accepted[State]:
    out = intrigue.decide(state, prompt, answer, 0)
    assert isinstance(out, Accepted), out
    return out


def refused(state: State, zone: str, piece: str, rule: str) -> Rejected:
    out = intrigue.observe(state, zone, piece)
    assert isinstance(out, Rejected) and out.rule == rule, out
    return out


def watch(call: str = "action", deck: int = 6) -> State:
    owned = factory.starting_cards("ferrymen") | {CITIZEN}
    return factory.state(
        2,
        options=Options(watch=True, watch_call=call),
        seat_changes={0: {"owned": owned}},
        watch_deck=deck,
    )


def test_t_19_a_constable_called_face_down_counts_and_goes_back_to_the_watch_deck() -> None:
    out = see(watch(), "discard:0", CITIZEN)
    assert out.state.steps[0].kind == "stake_discard"
    assert out.state.seats[0].discard == (CITIZEN,)
    out = say(out.state, "stake_discard", "watch")
    assert out.state.steps[0].kind == "watch_card"
    out = see(out.state, "agents_a", CONSTABLE)
    (laid,) = out.state.district("a").agents
    assert (laid.card, laid.owner, laid.face_up, laid.watch) == (CONSTABLE, 0, False, True)
    assert out.events == ("{seat:0} calls the watch: a face-down watch card at district A",)
    assert out.state.watch_deck == 5
    assert out.state.active_seat == 1 and not out.state.steps
    assert sums.district_sums(out.state, "a", {}, {})[0] == 2  # the Sword counts sword
    result = DistrictResult(1, "a", "stake_001", ((0, "sword"),), ((0, 2),), 0, "test")
    won, lines = award.win_stake(out.state, "a", 0, result)
    assert won.watch_deck == 6
    assert CONSTABLE not in won.seats[0].discard
    assert "The Constable goes back to the watch deck" in lines


def test_watch_call_extra_leaves_the_action_to_take() -> None:
    out = see(watch("extra"), "discard:0", CITIZEN)
    out = say(out.state, "stake_discard", "watch")
    out = see(out.state, "agents_n", CONSTABLE)
    assert out.state.district("n").agents[0].face_up
    assert out.events == ("{seat:0} calls the watch: the Constable at the neutral district",)
    assert out.state.active_seat == 0  # the turn's action is still to come
    assert see(out.state, "agents_n", "ferrymen_03").state.active_seat == 1


def test_a_stake_just_discarded_passes_the_turn() -> None:
    out = see(watch(), "discard:0", CITIZEN)
    out = say(out.state, "stake_discard", "discard")
    assert out.state.active_seat == 1 and out.state.watch_deck == 6


def test_r_opt_d_2_a_watch_card_with_no_stake_discarded_for_it() -> None:
    out = refused(watch(), "agents_a", CONSTABLE, "R-OPT-D-2")
    assert out.hint == "take it back; discard a stake card first"


def test_g_22_no_watch_with_the_watch_deck_empty() -> None:
    state = watch(deck=0)
    refused(state, "agents_a", CONSTABLE, "G-22")
    out = see(state, "discard:0", CITIZEN)  # a plain discard: no question
    assert not out.state.steps and out.state.active_seat == 1
    asked = see(watch(deck=1), "discard:0", CITIZEN).state
    got = intrigue.decide(evolve(asked, watch_deck=0), "stake_discard", "watch", 0)
    assert isinstance(got, Rejected) and got.rule == "G-22"


def test_g_34_a_watch_card_never_goes_on_a_discard_pile() -> None:
    out = refused(watch(), "discard:0", CONSTABLE, "G-34")
    assert out.hint == "take it off; it goes back to the watch deck"


def test_the_watch_card_laid_while_the_table_asks_calls_the_watch_by_itself() -> None:
    asked = see(watch(), "discard:0", CITIZEN).state
    out = see(asked, "agents_n", CONSTABLE)
    assert out.state.district("n").agents[0].watch
    assert out.state.active_seat == 1 and not out.state.steps
    assert out.state.watch_deck == 5


def test_a_location_stake_is_asked_play_or_discard_not_the_watch() -> None:
    owned = factory.starting_cards("ferrymen") | {"stake_007"}
    base = factory.pack()
    draw = factory.ability("play", factory.effect("draw", n=1))
    cards = tuple(replace(c, ability=draw) if c.id == "stake_007" else c for c in base.cards)
    pack = Pack(base.name, base.sample, base.domains, cards)
    state = factory.state(
        2, options=Options(watch=True), seat_changes={0: {"owned": owned}}, pack=pack
    )
    out = see(state, "discard:0", "stake_007")
    assert out.state.steps[0].kind == "location"


def test_a_relic_on_a_watch_card_goes_to_its_owners_pile_when_the_watch_goes_home() -> None:
    bribed = factory.placed(CONSTABLE, 0, watch=True, relics=("ferrymen_18",))
    state = factory.state(2, options=Options(watch=True), watch_deck=5, agents={"b": (bribed,)})
    after, _ = rounds.end_round(evolve(state, phase=RESULTS))
    assert after.seats[0].discard == ("ferrymen_18",)
    assert after.watch_deck == 6 and not after.district("b").agents
