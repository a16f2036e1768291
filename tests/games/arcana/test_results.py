"""Arcana's results phase (R-RES, R-MULTI, R-HARL-1, G-9, G-11, G-20): the first player names
each district, agents turn face up, declarations and copies are asked in order, the winner takes
the stake (T-01), nobody wins and everything stays (T-02), the set-aside (R-OPT-T-1), and the
round ends once every district is settled."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from scorekeeper.core.outcomes import Accepted, Rejected
from scorekeeper.games.arcana import results
from scorekeeper.games.arcana.state import INTRIGUE, RESULTS, Options, Placed, State, evolve
from tests.games.arcana.factory import placed, starting_cards, state

OWNED = starting_cards("usurers") | {"stake_003"}


def at_results(agents: dict[str, tuple[Placed, ...]], **changes: Any) -> State:
    """A 2-seat table whose hands are empty, in the results phase, with ``agents``."""
    changes.setdefault("seat_changes", {0: {"hand": 0}, 1: {"hand": 0}})
    return state(2, agents=agents, phase=RESULTS, **changes)


def answer(s: State, prompt: str, value: str) -> Accepted[State]:
    asked = results.question(s)
    assert asked is not None and asked[0] == prompt, asked
    got = results.decide(s, prompt, value, asked[1])
    assert isinstance(got, Accepted), got
    return got


def test_the_ferrymen_win_the_sword_5_to_3_t01() -> None:
    s = at_results(
        {
            # District A is seat 0's: its agents lie face down there.
            "a": (
                placed("ferrymen_02", 0, face_up=False),
                placed("usurers_01", 1),
                placed("ferrymen_03", 0, face_up=False, relics=("ferrymen_18",)),
            )
        }
    )
    assert results.question(s) == ("next_district", 0, ("a", "b", "c", "d", "n"), "")
    got = answer(s, "next_district", "a")
    after = got.state
    assert "Turned face up: {seat:0}'s Funeral, {seat:0}'s Crossbowman" in got.events
    assert "District A: {seat:0} wins with 5 against 3" in got.events
    (result,) = after.history
    assert (result.district, result.stake, result.winner) == ("a", "stake_001", 0)
    assert result.sums == ((0, 5), (1, 3)) and result.arcana == ((0, "sword"), (1, "sword"))
    # Every card to its owner's discard pile, the stake to the winner's (R-RES-4).
    assert set(after.seats[0].discard) == {"stake_001", "ferrymen_02", "ferrymen_03", "ferrymen_18"}
    assert after.seats[1].discard == ("usurers_01",)
    assert "stake_001" in after.seats[0].owned
    a = after.district("a")
    assert a.resolved and a.awaiting and a.stake is None and not a.agents
    assert results.question(after) == ("next_district", 0, ("b", "c", "d", "n"), "")


def test_nobody_reaches_the_threshold_everything_stays_face_up_t02() -> None:
    s = at_results({"a": (placed("ferrymen_02", 0, face_up=False), placed("usurers_01", 1))})
    after = answer(s, "next_district", "a").state
    a = after.district("a")
    assert a.stake == "stake_001" and a.resolved and not a.awaiting
    assert [p.face_up for p in a.agents] == [True, True]
    assert after.history[0].winner is None


def test_several_majors_ask_each_seat_in_turn_from_the_first_player() -> None:
    # The Harlequin as a stake (district C): sword, wand and chalice, 5 each.
    s = at_results({"c": (placed("usurers_02", 1), placed("ferrymen_02", 0))}, first_seat=1)
    s = answer(s, "next_district", "c").state
    assert results.question(s) == ("declare", 1, ("sword", "wand", "chalice", "none"), "")
    refused = results.decide(s, "declare", "coin", 1)
    assert isinstance(refused, Rejected) and refused.rule == "R-MULTI-1"
    s = answer(s, "declare", "wand").state
    assert results.question(s) == ("declare", 0, ("sword", "wand", "chalice", "none"), "")
    got = answer(s, "declare", "chalice")
    (result,) = got.state.history
    # Lord Treasurer wand 6 reaches 5; the Funeral's chalice 3 does not.
    assert result.winner == 1 and result.arcana == ((0, "chalice"), (1, "wand"))
    assert result.sums == ((0, 3), (1, 6))


def test_a_harlequin_copies_an_agent_at_its_district_t07() -> None:
    harlequin = placed("stake_003", 1)
    s = at_results(
        {
            "b": (harlequin, placed("usurers_01", 1), placed("ferrymen_03", 0)),
            "c": (placed("usurers_03", 1),),
        },
        seat_changes={0: {"hand": 0}, 1: {"hand": 0, "owned": OWNED}},
    )
    s = answer(s, "next_district", "b").state
    assert results.question(s) == ("copy", 1, ("usurers_01", "ferrymen_03"), "stake_003")
    refused = results.decide(s, "copy", "usurers_03", 1)
    assert isinstance(refused, Rejected) and refused.rule == "R-HARL-1"
    got = answer(s, "copy", "usurers_01")
    assert "{seat:1}'s Harlequin copies {seat:1}'s Pale One" in got.events
    # Ayane (sword 5): 3 + 3 = 6 against the Crossbowman's 3.
    assert got.state.history[0].sums == ((0, 3), (1, 6)) and got.state.history[0].winner == 1


def test_a_lone_harlequin_copies_nothing_without_asking() -> None:
    s = at_results(
        {"b": (placed("stake_003", 1),)},
        seat_changes={0: {"hand": 0}, 1: {"hand": 0, "owned": OWNED}},
    )
    got = answer(s, "next_district", "b")
    assert got.state.history[0].sums == ((1, 0),) and got.state.history[0].winner is None


def test_the_winner_may_set_the_stake_aside_and_the_round_then_ends() -> None:
    s = at_results(
        {"a": (placed("ferrymen_03", 0), placed("ferrymen_02", 0))},
        options=Options(set_aside=True),
    )
    s = evolve_districts(s, keep=("a",))
    s = answer(s, "next_district", "a").state
    assert results.question(s) == ("set_aside", 0, ("discard", "badge"), "stake_001")
    # Laying the stake on the badge pad answers "badge".
    got = results.observe(s, "badge:0", "stake_001")
    assert isinstance(got, Accepted)
    after = got.state
    assert after.seats[0].set_aside == ("stake_001",) and "stake_001" not in after.seats[0].discard
    # The round is over: district A awaits its next stake, the first player passed left.
    assert after.phase == RESULTS and after.first_seat == 1
    assert results.question(after) is None
    nxt = results.observe(after, "stake_a", "stake_030")
    assert isinstance(nxt, Accepted) and nxt.state.phase == INTRIGUE and nxt.state.round == 2


def test_nothing_is_played_during_the_results() -> None:
    s = at_results({})
    for zone in ("agents_a", "discard:0"):
        got = results.observe(s, zone, "ferrymen_05")
        assert isinstance(got, Rejected) and got.rule == "R-INT-1"


def test_every_district_settled_ends_the_round_and_the_next_begins() -> None:
    s = evolve_districts(at_results({"b": (placed("usurers_01", 1),)}), keep=("b",))
    got = answer(s, "next_district", "b")
    assert got.state.phase == INTRIGUE and got.state.round == 2 and got.state.first_seat == 1
    assert [x.hand for x in got.state.seats] == [4, 4]


def evolve_districts(s: State, keep: tuple[str, ...]) -> State:
    """``s`` with every district but ``keep`` already settled this round."""
    return evolve(
        s, districts=tuple(d if d.id in keep else replace(d, resolved=True) for d in s.districts)
    )


def test_a_kept_objective_read_again_changes_nothing() -> None:
    s = at_results(
        {}, seat_changes={0: {"hand": 0, "objectives": ("objective_01",)}, 1: {"hand": 0}}
    )
    assert results.observe(s, "badge:0", "objective_01") == Accepted(s)
    refused = results.observe(s, "badge:1", "objective_01")
    assert isinstance(refused, Rejected) and "objective" not in refused.reason


def test_declarations_go_clockwise_from_the_first_player_at_four_seats() -> None:
    # District C (the Harlequin, 3 majors): seats 0, 1 and 2 have agents there; seat 2 is first.
    there = (placed("thieves_01", 2, face_up=False), placed("usurers_02", 1))
    s = state(
        4,
        agents={"c": (*there, placed("ferrymen_03", 0))},
        seat_changes={k: {"hand": 0} for k in range(4)},
        phase=RESULTS,
        first_seat=2,
    )
    s = answer(s, "next_district", "c").state
    order = []
    while (asked := results.question(s)) is not None and asked[0] == "declare":
        order.append(asked[1])
        s = answer(s, "declare", "sword").state
    assert order == [2, 0, 1]
    assert s.resolution is None and s.district("c").resolved
