"""Arcana's rounds: the draw (R-ROUND-2, G-21, G-37, T-12), events (R-OPT-F, G-25, T-16), the
step to the results (R-RES-1), the end of a round (R-EOR, R-OPT-D-4) and of the game (R-END-1,
G-7)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from scorekeeper.core.outcomes import Accepted, Rejected
from scorekeeper.games.arcana import rounds
from scorekeeper.games.arcana.state import (
    INTRIGUE,
    OVER,
    RESULTS,
    Events,
    Options,
    State,
    evolve,
    with_district,
)
from tests.games.arcana.factory import placed, state

HAND = ("ferrymen_01", "ferrymen_02")


def between_rounds(
    seats: int = 2, seat_changes: dict[int, dict[str, Any]] | None = None, **changes: Any
) -> State:
    """A table whose intrigue is over: every hand empty (``seat_changes`` as the factory's)."""
    empty: dict[int, dict[str, Any]] = {s: {"hand": 0} for s in range(seats)}
    for s, more in (seat_changes or {}).items():
        empty[s] = {**empty[s], **more}
    return state(seats, seat_changes=empty, **changes)


def test_the_draw_takes_4_from_the_deck() -> None:
    s = rounds.draw(between_rounds(), 0, 4)
    assert (s.seats[0].hand, s.seats[0].deck) == (4, 3)
    assert s.seats[0].hand_known == frozenset()


def test_a_short_deck_reshuffles_the_discard_pile_and_knows_the_last_cards_t12() -> None:
    # Deck 2, discard 6: hand 4, deck 4, discard 0; the 2 last cards of the old deck are known.
    pile = tuple(f"ferrymen_{k:02d}" for k in range(3, 9))
    base = between_rounds(seat_changes={0: {"hand": 0, "deck": 2, "discard": pile}, 1: {"hand": 0}})
    # The seat's other 3 cards lie at district A, so the deck holds exactly the 2 of HAND.
    base = with_district(
        base,
        replace(
            base.district("a"),
            agents=tuple(placed(p, 0) for p in ("ferrymen_09", "ferrymen_15", "ferrymen_18")),
        ),
    )
    s = rounds.draw(base, 0, 4)
    seat = s.seats[0]
    assert (seat.hand, seat.deck, seat.discard) == (4, 4, ())
    assert seat.hand_known == frozenset(HAND)


def test_a_draw_that_empties_the_deck_knows_the_whole_hand() -> None:
    pile = tuple(f"ferrymen_{k:02d}" for k in range(3, 10))
    base = between_rounds(seat_changes={0: {"hand": 0, "deck": 2, "discard": pile[:2]}})
    base = with_district(
        base,
        replace(
            base.district("a"),
            agents=tuple(placed(p, 0) for p in pile[2:])
            + (placed("ferrymen_15", 0), placed("ferrymen_18", 0)),
        ),
    )
    seat = rounds.draw(base, 0, 4).seats[0]
    assert (seat.hand, seat.deck) == (4, 0)
    assert seat.hand_known == frozenset(HAND + pile[:2])


def test_a_deck_and_pile_both_short_draw_what_exists() -> None:
    base = between_rounds(seat_changes={0: {"hand": 0, "deck": 1, "discard": ("ferrymen_01",)}})
    seat = rounds.draw(base, 0, 4).seats[0]
    assert (seat.hand, seat.deck, seat.discard) == (2, 0, ())


def test_start_round_draws_turns_masters_back_and_opens_the_intrigue() -> None:
    base = between_rounds(
        3,
        phase=RESULTS,
        first_seat=2,
        seat_changes={0: {"hand": 0, "master": "master_ferrymen_1", "master_used": True}},
    )
    base = evolve(base, seats=tuple(replace(s, hand=0) for s in base.seats))
    base = with_district(base, replace(base.district("a"), resolved=True))
    s, lines = rounds.start_round(base)
    assert s.round == 2 and s.phase == INTRIGUE and s.active_seat == 2 and s.actions == 1
    assert [x.hand for x in s.seats] == [4, 4, 4]
    assert not s.seats[0].master_used
    assert not any(d.resolved for d in s.districts)
    assert lines[0] == "Round 2 begins. Everyone draws 4; {seat:2} plays first"


def test_start_round_skips_a_seat_with_nothing_to_draw() -> None:
    base = between_rounds(seat_changes={0: {"hand": 0, "deck": 0}, 1: {"hand": 0}})
    s, _ = rounds.start_round(base)
    assert s.seats[0].hand == 0 and s.active_seat == 1


def test_events_move_to_the_centre_and_the_next_is_awaited() -> None:
    base = between_rounds(
        options=Options(events=True),
        events=Events(now="event_01", next="event_02", left=10),
    )
    s, lines = rounds.start_round(base)
    assert s.events == Events(now="event_02", next="", left=10, discarded=("event_01",))
    assert "Turn up the next event on the event pad" in lines
    got = rounds.observe_event(s, "event_03")
    assert isinstance(got, Accepted) and got.state.events is not None
    assert got.state.events.next == "event_03" and got.state.events.left == 9
    assert isinstance(rounds.observe_event(got.state, "event_04"), Rejected)


def test_the_princes_games_card_from_the_event_deck_makes_this_round_the_last_t16() -> None:
    base = between_rounds(
        options=Options(events=True),
        round=8,
        events=Events(now="event_08", next="event_09", left=4),
    )
    s, _ = rounds.start_round(base)
    assert s.round == 9 and not s.final_round
    got = rounds.observe_event(s, "princes_games")
    assert isinstance(got, Accepted) and got.state.final_round
    over, lines = rounds.end_round(evolve(got.state, phase=RESULTS))
    assert over.phase == OVER and over.winners
    assert lines[-1].startswith("The game is over")


def test_the_princes_games_card_on_the_neutral_district_makes_the_next_round_the_last() -> None:
    base = between_rounds(phase=RESULTS)
    base = with_district(base, replace(base.district("n"), stake="princes_games", pile=3))
    s, lines = rounds.start_round(base)
    assert s.final_round and "the last round" in lines[0]


def test_after_intrigue_opens_the_results_once_every_hand_is_empty() -> None:
    busy = state(2, seat_changes={1: {"hand": 1}})
    assert rounds.after_intrigue(busy) == (busy, ())
    s, lines = rounds.after_intrigue(between_rounds(first_seat=1, active_seat=0))
    assert s.phase == RESULTS and s.active_seat == 1
    assert lines == ("Every hand is empty: the results. {seat:1} chooses the first district",)


def test_end_round_sends_the_watch_home_awaits_won_stakes_and_passes_the_first_player() -> None:
    base = between_rounds(phase=RESULTS, options=Options(watch=True), watch_deck=4)
    base = with_district(
        base, replace(base.district("a"), agents=(placed("captain_1", 0, watch=True),))
    )
    base = with_district(base, replace(base.district("b"), stake=None, pile=5))
    base = with_district(base, replace(base.district("c"), stake=None, pile=0))
    s, lines = rounds.end_round(base)
    assert s.watch_deck == 5 and not s.district("a").agents
    assert s.district("b").awaiting and s.district("c").empty
    assert s.first_seat == 1 and s.phase == RESULTS and s.round == 1
    assert "Turn up the next stake of district B" in lines
    # The awaited stake turned up starts the next round (the draw is unseen).
    got = rounds.observe_stake(s, "b", "stake_020")
    assert isinstance(got, Accepted)
    assert got.state.round == 2 and got.state.phase == INTRIGUE
    assert got.state.district("b").stake == "stake_020" and got.state.district("b").pile == 4


def test_end_round_with_nothing_awaited_starts_the_next_round() -> None:
    s, lines = rounds.end_round(between_rounds(phase=RESULTS))
    assert s.round == 2 and s.first_seat == 1 and s.phase == INTRIGUE
    assert any(line.startswith("Round 2 begins") for line in lines)


def test_late_princes_games_card_waits_for_the_round_after() -> None:
    # Turned up at the end of a round (or mid-round with next_round): the next round is the
    # last, and the game ends after it.
    # 6 cards left in the neutral pile: the next is the 8th, the first place the Prince's
    # Games card may lie (R-SETUP-5).
    s, _ = rounds.end_round(
        with_district(
            between_rounds(phase=RESULTS), replace(state(2).district("n"), stake=None, pile=6)
        )
    )
    got = rounds.observe_stake(s, "n", "princes_games")
    assert isinstance(got, Accepted) and got.state.final_round and got.state.round == 2
    assert got.state.district("n").stake == "princes_games"
    done = evolve(
        got.state, phase=RESULTS, seats=tuple(replace(x, hand=0) for x in got.state.seats)
    )
    over, _ = rounds.end_round(done)
    assert over.phase == OVER


def test_a_stake_where_none_is_awaited_is_refused() -> None:
    got = rounds.observe_stake(state(2), "a", "stake_020")
    assert isinstance(got, Rejected) and got.rule == "R-SETUP-6"
    base = with_district(state(2), replace(state(2).district("c"), stake=None, awaiting=True))
    for known in ("stake_001", "ferrymen_01"):
        got = rounds.observe_stake(base, "c", known)
        assert isinstance(got, Rejected) and got.rule == "R-SETUP-6"
    again = rounds.observe_stake(state(2), "a", "stake_001")
    assert isinstance(again, Accepted) and not again.events


def test_a_round_where_nobody_can_draw_goes_straight_to_the_results() -> None:
    base = between_rounds(seat_changes={0: {"deck": 0}, 1: {"deck": 0}}, phase=RESULTS)
    s, lines = rounds.start_round(base)
    assert s.round == 2 and s.phase == RESULTS
    assert lines[-1] == "Every hand is empty: the results. {seat:0} chooses the first district"


def test_after_the_last_round_no_district_awaits_a_stake() -> None:
    # District A's stake was won in the last round: with the game over nothing is turned up, so
    # the table must not show it waiting for its next stake.
    base = between_rounds(final_round=True, phase=RESULTS)
    won = replace(base.district("a"), stake=None, pile=5, resolved=True)
    base = evolve(base, districts=tuple(won if d.id == "a" else d for d in base.districts))
    over, _ = rounds.end_round(base)
    assert over.phase == OVER
    assert not any(d.awaiting for d in over.districts)
    # Before the last round the same district waits for its next stake (R-EOR-2).
    going, _ = rounds.end_round(evolve(base, final_round=False))
    assert going.district("a").awaiting
