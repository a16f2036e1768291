"""Referee faults the golden scripts found (issue 14, part F), each pinned by what the table
must do instead: a spent once-a-round master and the watch called with an empty watch deck are
refused by their rules, not by the platform (R-OPT-E-2, G-22); a card returned to the box with
the custom guild stays out of play (R-OPT-B-1); the Prince's Games card comes up only in its
place, 8th to 13th of the neutral pile (R-SETUP-5) or 10th to 13th of the event deck (R-OPT-F-1);
the feed counts the cards a seat returns to the box.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from scorekeeper.core.inputs import Decision, Seen
from scorekeeper.core.outcomes import Accepted, Rejected
from scorekeeper.games.arcana import intrigue, rounds, setup
from scorekeeper.games.arcana.cards import PRINCES_GAMES_CARD
from scorekeeper.games.arcana.game import Arcana
from scorekeeper.games.arcana.state import (
    INTRIGUE,
    NEUTRAL,
    RESULTS,
    SETUP,
    Events,
    Options,
    State,
    Step,
    evolve,
    with_district,
)
from tests.games.arcana import factory

GAME = Arcana()
PG = PRINCES_GAMES_CARD


def rejected(got: object, rule: str) -> Rejected:
    assert isinstance(got, Rejected) and got.rule == rule, got
    return got


# -- 1. answers the rules refuse before the platform's TABLE-NO-PROMPT -------------------------


def spent_master(limit: str = "once_per_round") -> State:
    """Seat 0 on turn, its guild master turned sideways this round."""
    return factory.state(
        2,
        options=Options(guild_masters=True, master_limit=limit),
        seat_changes={0: {"master": "master_ferrymen_2", "master_used": True}},
    )


@pytest.mark.parametrize("seat", [0, None])
def test_a_spent_once_a_round_master_is_refused_by_its_rule(seat: int | None) -> None:
    state = spent_master()
    got = rejected(GAME.decide(state, Decision(seat, "master", "use")), "R-OPT-E-2")
    assert "turned sideways until the next round" in got.reason
    assert "next round" in got.hint and "use" not in got.hint.split()


def test_a_master_that_is_not_spent_or_absent_is_still_no_prompt() -> None:
    # Used, but free to use again under "unlimited": it is asked, so this answer is accepted.
    assert isinstance(
        GAME.decide(spent_master("unlimited"), Decision(0, "master", "use")), Accepted
    )
    # Bea has no master, and it is not her turn: nothing to refuse by a rule of the game.
    rejected(GAME.decide(spent_master(), Decision(1, "master", "use")), "TABLE-NO-PROMPT")
    no_masters = factory.state(2)
    rejected(GAME.decide(no_masters, Decision(0, "master", "use")), "TABLE-NO-PROMPT")


CITIZEN = "stake_071"


def discarded_stake(deck: int, top: str = CITIZEN) -> State:
    """Bea has just discarded ``top`` (the turn passed back to Ann); ``deck`` watch cards."""
    owned = factory.starting_cards("usurers") | {CITIZEN}
    return factory.state(
        2,
        options=Options(watch=True),
        seat_changes={1: {"owned": owned, "discard": (top,), "hand": 3}},
        watch_deck=deck,
    )


@pytest.mark.parametrize("seat", [1, None])
def test_calling_the_watch_with_an_empty_watch_deck_is_refused_by_g_22(seat: int | None) -> None:
    state = discarded_stake(0)
    got = rejected(GAME.decide(state, Decision(seat, "stake_discard", "watch")), "G-22")
    assert "watch deck is empty" in got.reason and "discard" in got.hint


def test_other_unasked_watch_answers_are_still_no_prompt() -> None:
    # Watch cards left: the call was never asked (the stake_discard prompt is closed).
    rejected(
        GAME.decide(discarded_stake(3), Decision(1, "stake_discard", "watch")), "TABLE-NO-PROMPT"
    )
    # No stake card just discarded: there was nothing to call the watch with.
    plain = discarded_stake(0, top="usurers_04")
    rejected(GAME.decide(plain, Decision(1, "stake_discard", "watch")), "TABLE-NO-PROMPT")
    # "Just discard it" unasked, and an answer of the results during the intrigue.
    rejected(
        GAME.decide(discarded_stake(0), Decision(1, "stake_discard", "discard")), "TABLE-NO-PROMPT"
    )
    rejected(GAME.decide(discarded_stake(0), Decision(0, "declare", "sword")), "TABLE-NO-PROMPT")


# -- 2. a card returned to the box stays out ----------------------------------------------------

RETURNED = tuple(f"ferrymen_{k:02d}" for k in (10, 11, 12, 13, 14, 16, 17, 19, 20))


def custom(**changes: Any) -> State:
    """Ann built her deck of 11 and returned the other 9 (R-OPT-B-1)."""
    kept = frozenset(c.id for c in factory.pack().guild_cards("ferrymen", "AB")) - set(RETURNED)
    return factory.state(
        2,
        options=Options(custom_guild=True),
        seat_changes={0: {"owned": kept, "returned": RETURNED}},
        **changes,
    )


@pytest.mark.parametrize("zone", ["agents_b", "agents_a", "discard:0", "discard:1", "badge:0"])
def test_a_returned_card_is_refused_wherever_it_arrives(zone: str) -> None:
    state = custom()
    got = rejected(GAME.observe(state, Seen(zone, "ferrymen_10", True)), "R-OPT-B-1")
    assert got.reason.startswith("that card went back to the box at the start")
    assert "ferrymen" not in got.reason + got.hint  # the returned cards stay secret
    name = factory.pack().card("ferrymen_10")
    assert name is not None and name.name not in got.reason + got.hint


def test_a_returned_card_is_refused_in_the_results_and_a_kept_one_is_played() -> None:
    rejected(
        GAME.observe(custom(phase=RESULTS), Seen("discard:0", "ferrymen_12", True)), "R-OPT-B-1"
    )
    assert isinstance(GAME.observe(custom(), Seen("agents_b", "ferrymen_02", True)), Accepted)


def test_the_feed_counts_the_cards_returned_to_the_box() -> None:
    state = setup.new_state(2, Options(custom_guild=True), factory.pack())
    state = setup.observe(state, "badge:0", "badge_ferrymen").state  # type: ignore[union-attr]
    lines: list[str] = []
    for piece in RETURNED:
        got = setup.observe(state, "discard:0", piece)
        assert isinstance(got, Accepted)
        state, lines = got.state, [*lines, *got.events]
    assert lines[0] == "{seat:0} returns a card to the box (1 of 9)"
    assert lines[2] == "{seat:0} returns a card to the box (3 of 9)"
    assert lines[-1] == "{seat:0}'s 9 cards are back in the box"
    assert state.phase == SETUP


# -- 3. the Prince's Games card in its place ------------------------------------------------


def neutral(pile: int, *, phase: str = RESULTS) -> State:
    """A table whose neutral district awaits its next stake with ``pile`` cards left (13 at
    the start, R-SETUP-5), every district settled (between two rounds in the results)."""
    state = factory.state(2, phase=phase)
    state = evolve(state, districts=tuple(replace(d, resolved=True) for d in state.districts))
    n = state.district(NEUTRAL)
    return with_district(state, replace(n, stake=None, pile=pile, awaiting=True))


def test_the_princes_games_card_cannot_come_up_before_the_8th_card_of_the_neutral_pile() -> None:
    fresh = setup.new_state(2, Options(), factory.pack())
    got = rejected(rounds.observe_stake(fresh, NEUTRAL, PG), "R-SETUP-5")
    assert got.reason == (
        "the Prince's Games card lies among the bottom five of the neutral pile: it cannot "
        "come up yet"
    )
    assert got.hint == "put it back and turn up the top card of the neutral pile"
    rejected(GAME.observe(neutral(7), Seen("stake_n", PG, True)), "R-SETUP-5")  # the 7th
    got_ok = GAME.observe(neutral(6), Seen("stake_n", PG, True))  # the 8th
    assert isinstance(got_ok, Accepted) and got_ok.state.district(NEUTRAL).stake == PG


def test_the_neutral_piles_last_card_is_the_princes_games_card() -> None:
    got = rejected(GAME.observe(neutral(1), Seen("stake_n", "stake_090", True)), "R-SETUP-5")
    assert "turn up the Prince's Games card" in got.hint and "stake" not in got.reason
    assert isinstance(GAME.observe(neutral(2), Seen("stake_n", "stake_090", True)), Accepted)
    assert isinstance(GAME.observe(neutral(1), Seen("stake_n", PG, True)), Accepted)


def test_after_an_immediate_win_the_neutral_pile_keeps_the_same_order() -> None:
    rejected(intrigue.observe(neutral(9, phase=INTRIGUE), "stake_n", PG), "R-SETUP-5")
    rejected(intrigue.observe(neutral(1, phase=INTRIGUE), "stake_n", "stake_090"), "R-SETUP-5")
    assert isinstance(intrigue.observe(neutral(5, phase=INTRIGUE), "stake_n", PG), Accepted)


def eventful(left: int) -> State:
    """A table with events, in round 1's intrigue phase, ``left`` event cards face down."""
    return factory.state(2, options=Options(events=True), events=Events(now="event_01", left=left))


def test_the_princes_games_card_comes_up_only_after_9_events() -> None:
    got = rejected(rounds.observe_event(eventful(5), PG), "R-OPT-F-1")  # it would be the 9th
    assert "before 9 events" in got.reason and "put it back" in got.hint
    rejected(rounds.observe_event(eventful(12), PG), "R-OPT-F-1")  # the 2nd
    tenth = rounds.observe_event(eventful(4), PG)
    assert isinstance(tenth, Accepted) and tenth.state.final_round


def test_the_event_decks_last_card_is_the_princes_games_card() -> None:
    got = rejected(GAME.observe(eventful(1), Seen("event", "event_05", True)), "R-OPT-F-1")
    assert "turn up the Prince's Games card" in got.hint
    assert isinstance(rounds.observe_event(eventful(2), "event_05"), Accepted)
    assert isinstance(rounds.observe_event(eventful(1), PG), Accepted)


# -- 5. refusals in words: no input syntax, no card from a hand named ---------------------------


@pytest.mark.parametrize(
    ("kind", "card"),
    [
        ("location", "ferrymen_15"),
        ("stake_discard", CITIZEN),
        ("move", "ferrymen_15"),
        ("manual", "ferrymen_15"),
        ("confirm", "ferrymen_15"),
    ],
)
def test_a_wrong_answer_is_refused_in_words_not_input_syntax(kind: str, card: str) -> None:
    state = factory.state(2, options=Options(watch=True), steps=(Step(kind, 0, card=card),))
    got = rejected(intrigue.decide(state, kind, "bogus", 0), "TABLE-NO-PROMPT")
    assert not got.hint.startswith("answer ") and "bogus" not in got.reason + got.hint
    master = rejected(intrigue.decide(factory.state(2), "master", "bogus", 0), "TABLE-NO-PROMPT")
    assert master.hint == "use it, or play on"


@pytest.mark.parametrize("zone", ["stake_a", "badge:1", "event"])
def test_a_card_from_a_hand_on_a_wrong_pad_is_not_named(zone: str) -> None:
    # Ann's Funeral (a card of her hand) tapped on a pad where it has no place.
    got = intrigue.observe(factory.state(2), zone, "ferrymen_02")
    assert isinstance(got, Rejected) and got.reason.startswith("that card"), got
    assert "Funeral" not in got.reason + got.hint


def test_without_the_custom_guild_a_card_marked_b_stays_in_the_box() -> None:
    # ferrymen_10 is marked B: the Ferrymen's deck is their 11 A cards (R-OPT-B-1, R-SETUP-3).
    for zone in ("agents_b", "agents_c", "discard:0"):
        got = rejected(GAME.observe(factory.state(2), Seen(zone, "ferrymen_10", True)), "R-OPT-B-1")
        assert "marked B" in got.reason and "ferrymen" not in got.reason + got.hint
    # A guild nobody plays is no seat's: refused as nobody's card, as before.
    rejected(GAME.observe(factory.state(2), Seen("agents_c", "blades_02", True)), "R-INT-3")
