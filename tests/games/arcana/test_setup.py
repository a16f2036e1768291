"""Arcana's setup (docs/games/arcana.md, "Setup"): the new table's counts (R-SETUP-3 … 6,
T-14), the arrivals it waits for in any order, their refusals, and round 1 starting once all
is seen."""

from __future__ import annotations

import pytest

from scorekeeper.core.outcomes import Accepted, Rejected
from scorekeeper.games.arcana import setup
from scorekeeper.games.arcana.state import INTRIGUE, SETUP, Options, State
from tests.games.arcana.factory import pack, starting_cards

GUILDS = ("ferrymen", "usurers", "thieves", "blades")


def fresh(seats: int = 2, **options: object) -> State:
    return setup.new_state(seats, Options(**options), pack())  # type: ignore[arg-type]


def seen(state: State, *arrivals: tuple[str, str]) -> State:
    """``state`` after ``arrivals`` (zone, piece), each of which must be accepted."""
    for zone, piece in arrivals:
        got = setup.observe(state, zone, piece)
        assert isinstance(got, Accepted), (zone, piece, got)
        state = got.state
    return state


def badges(seats: int) -> list[tuple[str, str]]:
    return [(f"badge:{s}", f"badge_{GUILDS[s]}") for s in range(seats)]


def stakes(seats: int) -> list[tuple[str, str]]:
    ids = "abcn" if seats == 3 else "abcdn"
    return [(f"stake_{d}", f"stake_{k:03d}") for k, d in enumerate(ids, start=1)]


@pytest.mark.parametrize(("seats", "used", "piles"), [(2, 60, 5), (3, 48, 4), (4, 60, 5)])
def test_a_new_table_deals_piles_of_12_and_13_under_the_neutral(
    seats: int, used: int, piles: int
) -> None:
    state = fresh(seats)
    assert setup.stakes_in_play(seats) == used
    assert len(state.districts) == piles
    # Each pile's first card is still to be turned up: 12 each, 13 under the neutral district
    # (the Prince's Games card among them, R-SETUP-5); with events, 12 there too (R-OPT-F-1).
    assert [d.pile for d in state.districts] == [12] * (piles - 1) + [13]
    assert all(d.awaiting and d.stake is None and not d.empty for d in state.districts)
    assert fresh(seats, events=True).district("n").pile == 12


def test_round_1_starts_when_badges_and_stakes_are_seen_in_any_order() -> None:
    state = fresh(2, start_seat=1)
    arrivals = stakes(2) + badges(2)
    state = seen(state, *arrivals[::-1][:-1])
    assert state.phase == SETUP
    assert setup.missing(state) == ("the stake of district A",)
    got = setup.observe(state, *arrivals[0])
    assert isinstance(got, Accepted)
    state = got.state
    assert state.phase == INTRIGUE and state.round == 1
    assert state.active_seat == state.first_seat == 1
    assert [(s.hand, s.deck) for s in state.seats] == [(4, 7), (4, 7)]
    assert state.seats[0].owned == starting_cards("ferrymen")
    assert [d.stake for d in state.districts] == [f"stake_{k:03d}" for k in range(1, 6)]
    assert [d.pile for d in state.districts] == [11, 11, 11, 11, 12]
    assert any("Round 1 begins" in line for line in got.events)


def test_missing_names_what_the_table_waits_for() -> None:
    state = seen(fresh(2, guild_masters=True, objectives=True, custom_guild=True, events=True))
    state = seen(state, ("badge:0", "badge_ferrymen"), ("stake_c", "stake_003"))
    missing = setup.missing(state)
    assert "the stake of district A" in missing
    assert "the stake of district C" not in missing
    assert "{seat:1}'s badge" in missing
    assert "{seat:0}'s guild master" in missing
    assert "{seat:0}'s 2 kept objectives" in missing
    assert "{seat:0}'s 9 returned cards" in missing
    assert "the first event" in missing


def test_every_option_is_waited_for_before_round_1() -> None:
    state = fresh(2, guild_masters=True, objectives=True, custom_guild=True, events=True)
    state = seen(state, *badges(2), *stakes(2))
    state = seen(
        state,
        ("badge:0", "master_ferrymen_2"),
        ("badge:1", "master_usurers_1"),
        ("badge:0", "objective_01"),
        ("badge:0", "objective_02"),
        ("badge:1", "objective_03"),
        ("badge:1", "objective_04"),
        ("event", "event_05"),
    )
    returned = [f"ferrymen_{k:02d}" for k in range(12, 21)]
    state = seen(state, *[("discard:0", p) for p in returned])
    state = seen(state, *[("discard:1", f"usurers_{k:02d}") for k in range(1, 9)])
    assert state.phase == SETUP
    got = setup.observe(state, "discard:1", "usurers_09")
    assert isinstance(got, Accepted) and got.state.phase == INTRIGUE
    state = got.state
    # The custom guild keeps the other 11 of 20; the 9 returned are named to no one.
    assert len(state.seats[0].owned) == 11 and not set(returned) & state.seats[0].owned
    assert state.seats[0].deck == 7 and state.seats[0].hand == 4
    assert state.seats[0].master == "master_ferrymen_2"
    assert state.seats[1].objectives == ("objective_03", "objective_04")
    assert state.events is not None and state.events.now == "event_05"
    assert state.events.next == "" and state.events.left == 12
    assert not any("objective" in line or "ferrymen_12" in line for line in got.events)


@pytest.mark.parametrize(
    ("arrivals", "rule"),
    [
        ([("badge:0", "badge_ferrymen"), ("badge:1", "badge_ferrymen")], "R-SETUP-2"),
        ([("badge:0", "badge_ferrymen"), ("badge:0", "badge_thieves")], "R-SETUP-2"),
        ([("badge:0", "ferrymen_01")], "R-SETUP-2"),
        ([("badge:0", "master_ferrymen_1")], "R-OPT-E-1"),
        ([("stake_a", "stake_001"), ("stake_a", "stake_002")], "R-SETUP-6"),
        ([("stake_a", "ferrymen_01")], "R-SETUP-6"),
        ([("stake_a", "princes_games")], "R-SETUP-6"),
        ([("agents_a", "ferrymen_01")], "R-INT-1"),
        ([("discard:0", "ferrymen_01")], "R-INT-1"),
        ([("badge:0", "objective_01")], "R-OPT-C-1"),
        ([("event", "event_01")], "R-OPT-F-1"),
    ],
)
def test_setup_refusals(arrivals: list[tuple[str, str]], rule: str) -> None:
    state = seen(fresh(2), *arrivals[:-1])
    got = setup.observe(state, *arrivals[-1])
    assert isinstance(got, Rejected) and got.rule == rule, got
    assert got.hint


@pytest.mark.parametrize(
    ("arrivals", "rule"),
    [
        ([("badge:0", "master_ferrymen_1")], "R-OPT-E-1"),
        ([("badge:0", "badge_ferrymen"), ("badge:0", "master_usurers_1")], "R-OPT-E-1"),
        (
            [("badge:0", "badge_ferrymen"), *[("badge:0", f"master_ferrymen_{k}") for k in (1, 2)]],
            "R-OPT-E-1",
        ),
        ([("badge:0", f"objective_0{k}") for k in (1, 2, 3)], "R-OPT-C-1"),
        ([("discard:0", "ferrymen_12")], "R-OPT-B-1"),
        ([("badge:0", "badge_ferrymen"), ("discard:0", "usurers_12")], "R-OPT-B-1"),
        (
            [("badge:0", "badge_ferrymen")]
            + [("discard:0", f"ferrymen_{k:02d}") for k in range(1, 11)],
            "R-OPT-B-1",
        ),
        ([("event", "princes_games")], "R-OPT-F-1"),
        ([("event", "event_01"), ("event", "event_02")], "R-OPT-F-1"),
    ],
)
def test_option_refusals(arrivals: list[tuple[str, str]], rule: str) -> None:
    state = fresh(2, guild_masters=True, objectives=True, custom_guild=True, events=True)
    state = seen(state, *arrivals[:-1])
    got = setup.observe(state, *arrivals[-1])
    assert isinstance(got, Rejected) and got.rule == rule, got


def test_a_card_seen_again_changes_nothing() -> None:
    state = seen(
        fresh(2, objectives=True), ("badge:0", "badge_ferrymen"), ("badge:0", "objective_01")
    )
    for zone, piece in (("badge:0", "badge_ferrymen"), ("badge:0", "objective_01")):
        got = setup.observe(state, zone, piece)
        assert isinstance(got, Accepted) and got.state == state and not got.events


def test_kept_objectives_are_not_named_in_the_feed() -> None:
    got = setup.observe(fresh(2, objectives=True), "badge:0", "objective_07")
    assert isinstance(got, Accepted)
    assert got.events == ("{seat:0} keeps an objective",)
