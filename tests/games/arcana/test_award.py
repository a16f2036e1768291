"""award.py: a stake won (R-RES-4, G-30, G-34, G-5, G-35), nobody winning (R-RES-5, G-9), the
tactical set-aside's answer (R-OPT-T-1, G-26) and the next stake turned up after an immediate
win, the Prince's Games card included (G-7).
"""

from __future__ import annotations

from scorekeeper.core.outcomes import Accepted, Rejected
from scorekeeper.games.arcana import award
from scorekeeper.games.arcana.cards import PRINCES_GAMES_CARD
from scorekeeper.games.arcana.lookup import district_with
from scorekeeper.games.arcana.state import (
    NEUTRAL,
    DistrictResult,
    Options,
    State,
    with_district,
)
from tests.games.arcana import factory

CROSSBOWMAN, FUNERAL, PALE_ONE = "ferrymen_03", "ferrymen_02", "usurers_01"
SWORD = "stake_001"  # district a


def t_1(options: Options | None = None, pile: int = 11) -> State:
    """T-1's district a: the Crossbowman and the Funeral against the Pale One."""
    at_a = (
        factory.placed(CROSSBOWMAN, 0),
        factory.placed(FUNERAL, 0),
        factory.placed(PALE_ONE, 1),
    )
    state = factory.state(2, options=options, agents={"a": at_a})
    return with_district(state, district_with(state.district("a"), pile=pile))


RESULT = DistrictResult(1, "a", SWORD, ((0, "sword"), (1, "sword")), ((0, 5), (1, 3)), 0, "5")


def test_t_1_the_winner_takes_the_stake_and_every_card_goes_to_its_owner() -> None:
    state, lines = award.win_stake(t_1(), "a", 0, RESULT)
    assert state.seats[0].discard == (SWORD, CROSSBOWMAN, FUNERAL)
    assert state.seats[1].discard == (PALE_ONE,)
    assert SWORD in state.seats[0].owned
    a = state.district("a")
    assert (a.stake, a.agents, a.awaiting, a.pile) == (None, (), True, 11)
    assert state.history == (RESULT,)
    assert lines == (
        "{seat:0} wins the Sword at district A",
        "To {seat:0}'s discard pile: the Sword, the Crossbowman and the Funeral",
        "To {seat:1}'s discard pile: the Pale One",
    )


def test_g_5_a_spent_pile_leaves_the_district_empty_for_good() -> None:
    immediate = DistrictResult(1, "a", SWORD, (), (), 0, "", True)
    state, lines = award.win_stake(t_1(pile=0), "a", 0, immediate)
    assert state.district("a").empty
    assert lines[-1] == "District A's pile is used up: it stays empty"


def test_set_aside_asks_and_the_badge_pad_answers() -> None:
    state, lines = award.win_stake(t_1(Options(set_aside=True)), "a", 0, RESULT)
    assert SWORD not in state.seats[0].discard
    step = award.set_aside_step(state)
    assert step is not None and (step.seat, step.card) == (0, SWORD)
    assert lines[-1] == "{seat:0} puts the Sword on the discard pile or under the badge"
    assert award.pad_answer(state, "badge:0", SWORD) == "badge"
    assert award.pad_answer(state, "discard:0", SWORD) == "discard"
    assert award.pad_answer(state, "badge:1", SWORD) is None
    done = award.answer_set_aside(state, "discard")
    assert not isinstance(done, Rejected)
    assert done[0].seats[0].discard[-1] == SWORD and not done[0].steps
    assert isinstance(award.answer_set_aside(done[0], "badge"), Rejected)


def test_r_res_5_nobody_wins_and_everything_stays_face_up() -> None:
    state = factory.state(2, agents={"a": (factory.placed(FUNERAL, 0, face_up=False),)})
    none = DistrictResult(1, "a", SWORD, ((0, "sword"),), ((0, 2),), None, "below 4")
    state, lines = award.keep_all(state, "a", none)
    assert state.district("a").agents[0].face_up
    assert state.district("a").stake == SWORD
    assert state.history == (none,)
    assert lines == ("Nobody wins the Sword at district A: every card stays there, face up",)


def awaiting_neutral(late: str) -> State:
    state = factory.state(2, options=Options(late_princes_games=late))
    # 5 cards left: the next is the 9th, where the Prince's Games card may lie (R-SETUP-5).
    neutral = district_with(state.district(NEUTRAL), stake=None, pile=5, awaiting=True)
    return with_district(state, neutral)


def test_g_7_the_princes_games_card_turned_up_mid_round() -> None:
    out = award.turn_up(awaiting_neutral("next_round"), NEUTRAL, PRINCES_GAMES_CARD)
    assert isinstance(out, Accepted)
    assert not out.state.final_round
    assert out.state.district(NEUTRAL).stake == PRINCES_GAMES_CARD  # rounds.end_round reads it
    assert out.events == (
        "The Prince's Games card is turned up: one more round after this one, the last",
    )
    out = award.turn_up(awaiting_neutral("this_round"), NEUTRAL, PRINCES_GAMES_CARD)
    assert isinstance(out, Accepted) and out.state.final_round
    wrong = award.turn_up(awaiting_neutral("this_round"), NEUTRAL, CROSSBOWMAN)
    assert isinstance(wrong, Rejected) and wrong.rule == "G-35"
