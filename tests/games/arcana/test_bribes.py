"""Bribery at function level (R-BRIBE-1 … 3, G-13 … G-15, G-30, G-31): T-3 (the bribe that
wins Ayane at once), T-4 (the bribe that falls short, won later by a new agent), T-5 (where a
relic may not bribe), and what the feed may say (the outcome, never S).
"""

from __future__ import annotations

import re

from scorekeeper.core.outcomes import Accepted, Rejected
from scorekeeper.games.arcana import intrigue
from scorekeeper.games.arcana.lookup import district_with
from scorekeeper.games.arcana.state import Options, State, with_district
from tests.games.arcana import factory

MERCHANT, FUNERAL, CROSSBOWMAN = "ferrymen_01", "ferrymen_02", "ferrymen_03"
BARHAN, RELIC_3 = "ferrymen_18", "ferrymen_19"  # ducat 4 and 3
PALE_ONE = "usurers_01"
AYANE = "stake_002"  # district b (seat 0's), sword, ducat 7


def see(state: State, zone: str, piece: str) -> Accepted[State]:
    out = intrigue.observe(state, zone, piece)
    assert isinstance(out, Accepted), out
    return out


def say(state: State, prompt: str, answer: str, seat: int | None = 0) -> Accepted[State]:
    out = intrigue.decide(state, prompt, answer, seat)
    assert isinstance(out, Accepted), out
    return out


def ayane(options: Options | None = None) -> State:
    """T-3's table: at district b (Ayane) the Ferrymen's Merchant of Krak and Funeral face
    down, the Usurers' Pale One face up; seat 0 on turn, owning the ducat-3 relic too."""
    owned = factory.starting_cards("ferrymen") | {RELIC_3}
    at_b = (
        factory.placed(MERCHANT, 0, face_up=False),
        factory.placed(PALE_ONE, 1),
        factory.placed(FUNERAL, 0, face_up=False),
    )
    return factory.state(2, options=options, seat_changes={0: {"owned": owned}}, agents={"b": at_b})


def test_t_3_the_bribe_wins_ayane_at_once_and_the_district_awaits_its_next_stake() -> None:
    out = see(ayane(), "agents_b", BARHAN)
    step = out.state.steps[0]
    assert (step.kind, step.seat, step.district) == ("relic_on", 0, "b")  # G-31: it matters
    assert out.state.seats[0].hand == 3
    assert all("Funeral" not in line and "Merchant" not in line for line in out.events)
    out = say(out.state, "relic_on", FUNERAL)
    seat0, seat1 = out.state.seats
    assert seat0.discard == (AYANE, MERCHANT, FUNERAL, BARHAN)
    assert seat1.discard == (PALE_ONE,)
    assert AYANE in seat0.owned
    b = out.state.district("b")
    assert (b.stake, b.agents, b.awaiting, b.pile) == (None, (), True, 11)
    assert out.state.history[-1].winner == 0 and out.state.history[-1].immediate
    feed = " / ".join(out.events)
    assert "The bribe succeeds" in feed
    assert "To {seat:0}'s discard pile: Ayane, the Merchant of Krak, the Funeral" in feed
    assert "To {seat:1}'s discard pile: the Pale One" in feed
    assert "Turn up district B's next stake" in feed
    assert "7" not in re.sub(r"\{seat:\d\}", "", feed)  # S is never told
    assert out.state.active_seat == 1 and not out.state.steps
    refused = intrigue.observe(out.state, "agents_b", "usurers_02")
    assert isinstance(refused, Rejected) and refused.rule == "G-35"
    out = see(out.state, "stake_b", "stake_080")
    assert out.state.district("b").stake == "stake_080"


def test_t_4_a_bribe_short_keeps_the_relic_and_a_later_agent_wins_it() -> None:
    out = say(see(ayane(), "agents_b", RELIC_3).state, "relic_on", FUNERAL)
    b = out.state.district("b")
    merchant, _, funeral = b.agents
    assert funeral.relics == (RELIC_3,) and funeral.face_up  # G-14: only this one turns
    assert not merchant.face_up
    assert b.stake == AYANE
    assert "The bribe falls short: the relic stays" in out.events
    told = re.sub(r"\{seat:\d\}", "", " ".join(out.events))
    assert not any(ch.isdigit() for ch in told)  # S = 6: never told
    assert out.state.active_seat == 1
    state = see(out.state, "agents_n", "usurers_02").state
    out = see(state, "agents_b", CROSSBOWMAN)  # G-13: the bribe is checked again
    assert out.state.district("b").stake is None
    assert out.state.seats[0].discard[0] == AYANE
    assert out.events[0] == "{seat:0} plays a face-down agent at district B"
    assert "The bribe succeeds" in out.events


def test_g_31_one_agent_or_only_face_up_agents_take_the_relic_without_a_question() -> None:
    alone = factory.state(2, agents={"b": (factory.placed(FUNERAL, 0, face_up=False),)})
    out = see(alone, "agents_b", BARHAN)
    assert not out.state.steps  # S = 2 + 4 = 6 < 7: short, and no question asked
    assert out.state.district("b").agents[0].relics == (BARHAN,)
    assert "The relic lies on {seat:0}'s Funeral: turn it face up" in out.events


def test_g_15_a_citizen_with_several_majors_asks_the_arcanum() -> None:
    # The Harlequin (district c, ducat 2) with the Pale One of seat 1 there: seat 1 bribes.
    state = factory.state(
        2, active_seat=1, agents={"c": (factory.placed(PALE_ONE, 1, face_up=False),)}
    )
    out = see(state, "agents_c", "usurers_18")  # ducat 2: any arcanum reaches 2
    step = out.state.steps[0]
    assert step.kind == "bribe_arcanum"  # asked before relic_on would be
    bad = intrigue.decide(out.state, "bribe_arcanum", "coin", 1)
    assert isinstance(bad, Rejected) and bad.rule == "R-MULTI-1"
    out = say(out.state, "bribe_arcanum", "sword", 1)
    assert out.state.history[-1].arcana == ((1, "sword"),)
    assert out.state.seats[1].discard[0] == "stake_003"


def test_t_5_no_bribe_at_a_relic_a_location_or_a_citizen_without_ducat() -> None:
    base = factory.state(2, agents={"a": (factory.placed(FUNERAL, 0, face_up=False),)})
    for stake in ("stake_001", "stake_007", "stake_080"):  # relic, location, ducat "-"
        state = with_district(base, district_with(base.district("a"), stake=stake))
        out = intrigue.observe(state, "agents_a", BARHAN)
        assert isinstance(out, Rejected) and out.rule == "R-BRIBE-1", out
        assert out.hint == "take it back; bribe a citizen with a ducat value"


def test_r_bribe_2_a_relic_where_the_briber_has_no_agent() -> None:
    state = factory.state(2, agents={"b": (factory.placed(PALE_ONE, 1),)})
    out = intrigue.observe(state, "agents_b", BARHAN)
    assert isinstance(out, Rejected) and out.rule == "R-BRIBE-2"
    assert out.hint == "take it back; lay an agent there first"


def test_relic_on_names_only_the_bribers_own_agents() -> None:
    out = see(ayane(), "agents_b", BARHAN)
    bad = intrigue.decide(out.state, "relic_on", PALE_ONE, 0)
    assert isinstance(bad, Rejected) and bad.rule == "R-BRIBE-2"


def test_g_15_then_g_31_the_arcanum_first_then_the_agent_and_the_arcanum_is_kept() -> None:
    hidden = (
        factory.placed(PALE_ONE, 1, face_up=False),
        factory.placed("usurers_03", 1, face_up=False),
    )
    state = factory.state(2, active_seat=1, agents={"c": hidden})
    out = say(see(state, "agents_c", "usurers_19").state, "bribe_arcanum", "wand", 1)
    assert out.state.steps[0].kind == "relic_on"
    assert out.state.district("c").bribes == ((1, "wand"),)
    out = say(out.state, "relic_on", "usurers_03", 1)  # wand 0 + 0 + ducat 3 >= 2
    assert out.state.history[-1].arcana == ((1, "wand"),)
