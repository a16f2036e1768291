"""The event's records and their fold: every record round-trips through JSON, a malformed or
impossible record is refused in words, replay gives the identical state, and the console is
told in words which tables the next round waits for."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest

from scorekeeper.event import records as rec
from scorekeeper.event.records import (
    KINDS,
    CheckedIn,
    Dropped,
    EventRecordError,
    OverrideCleared,
    PlayerEntered,
    Pod,
    ResultConfirmed,
    ResultOverride,
    Returned,
    RoundClosed,
    RoundReseated,
    RoundSeated,
    TimerSet,
    TimerStopped,
    record_from,
)
from scorekeeper.event.state import (
    EventState,
    GameResult,
    apply,
    can_seat_next,
    final_places,
    fold,
    waiting_for,
)
from tests.event.event_core_helpers import event, opened, result

POD_1 = Pod("1", "spring-r1-1", ("p00", "p01", "p02"))
POD_2 = Pod("2", "spring-r1-2", ("p03", "p04", "p05"))
ROUND_1 = RoundSeated(1, 7, (POD_1, POD_2), ("p06",))
EVERY_KIND: list[rec.EventRecord] = [
    opened(options={"deck": "sample"}, points="5-3-2-1", tie_breaks=("opponents",), preferred=3,
           confirmations=False, bye_points=Fraction(5, 2)),
    PlayerEntered("p00", "Ann"),
    CheckedIn("p00"),
    Dropped("p00", "left early"),
    Returned("p00"),
    ROUND_1,
    RoundReseated(1, 8, (POD_2, POD_1), ()),
    ResultConfirmed("spring-r1-1", "p00"),
    ResultOverride("spring-r1-1", (("p00", 2, 10), ("p01", 1, 12), ("p02", 2, 10)), "misread",
                   "Judge Jo"),
    OverrideCleared("spring-r1-1", "the table was right", "Judge Jo"),
    TimerSet(1, "2026-05-02T19:30:00+00:00", 50),
    TimerStopped(1, "2026-05-02T20:10:00+00:00"),
    RoundClosed(1),
]  # fmt: skip


def test_every_kind_of_record_round_trips_through_json() -> None:
    assert sorted(record.kind for record in EVERY_KIND) == sorted(KINDS)
    for record in EVERY_KIND:
        assert record_from(json.loads(json.dumps(record.to_record()))) == record
    for bye in (Fraction(1, 3), Fraction(3), Fraction(5, 2)):
        record = opened(bye_points=bye)
        assert record_from(json.loads(json.dumps(record.to_record()))) == record


def _seated_event() -> tuple[list[rec.EventRecord], EventState]:
    records, _ = event(7)
    records.append(ROUND_1)
    return records, fold(records)


BAD_RECORDS: list[tuple[Any, str]] = [
    ("round_closed", "a mapping with a kind"),
    ({"kind": "round_opened", "round": 1}, "not a kind of event record"),
    ({"kind": "round_closed", "round": 0}, "round as a whole number from 1"),
    ({"kind": "round_closed", "round": True}, "round as a whole number"),
    ({"kind": "checked_in", "player": ""}, "player as a text that is not empty"),
    ({"kind": "timer_set", "round": 1, "started_at": "half past seven", "minutes": 50}, "ISO"),
    ({**opened().to_record(), "points": "1-2-3"}, "not a points scheme"),
    ({**opened().to_record(), "tie_breaks": ["coin_toss"]}, "tie_breaks as a list of distinct"),
    ({**opened().to_record(), "min_seats": 6}, "min_seats <= max_seats"),
    ({**opened().to_record(), "bye_points": "two"}, "bye_points as a number from 0"),
    ({**opened().to_record(), "bye_points": -1}, "bye_points as a number from 0"),
    ({**ROUND_1.to_record(), "byes": ["p06", "p06"]}, "names a player twice"),
    ({**ROUND_1.to_record(), "pods": [{"table": "1"}]}, "game_id as a text"),
    (
        {
            "kind": "result_override",
            "game_id": "g",
            "places": [["p00", 0, 3]],
            "reason": "r",
            "judge": "j",
        },
        "places as a list of",
    ),  # fmt: skip
]


@pytest.mark.parametrize(("data", "words"), BAD_RECORDS)
def test_a_malformed_record_is_refused_in_words(data: Any, words: str) -> None:
    with pytest.raises(EventRecordError, match=words):
        record_from(data)


IMPOSSIBLE: list[tuple[rec.EventRecord, str]] = [
    (opened(), "already open"),
    (PlayerEntered("p00", "Again"), "already entered, as P00"),
    (CheckedIn("p00"), "P00 is already checked in"),
    (CheckedIn("zed"), "'zed' has not entered the event"),
    (Returned("p00"), "P00 has not dropped"),
    (RoundSeated(1, 1, (POD_1,)), "round 1 cannot be seated now: the next round is round 2"),
    (RoundSeated(3, 1, (POD_1,)), "the next round is round 2"),
    (ResultConfirmed("spring-r1-1", "p03"), "P03 does not play at Table 1"),
    (ResultConfirmed("spring-r9-1", "p00"), "no table of the event plays game spring-r9-1"),
    (
        ResultOverride("spring-r1-1", (("p00", 1, 3), ("p01", 2, 2)), "typo", "Jo"),
        "ranks exactly its players: P00, P01 and P02",
    ),
    (OverrideCleared("spring-r1-1", "oops", "Jo"), "has no override to clear"),
    (TimerSet(2, "2026-05-02T19:30:00+00:00", 50), "round 2 is not the round being played"),
    (TimerStopped(1, "2026-05-02T19:30:00+00:00"), "the timer of round 1 is not running"),
    (RoundReseated(2, 1, (POD_1,)), "only the last round, while open"),
]


@pytest.mark.parametrize(("record", "words"), IMPOSSIBLE)
def test_an_impossible_record_is_refused_in_words(record: rec.EventRecord, words: str) -> None:
    _, state = _seated_event()
    with pytest.raises(EventRecordError, match=words):
        apply(state, record)


def test_seating_refuses_players_not_checked_in_dropped_twice_or_pods_out_of_range() -> None:
    records, _ = event(6)
    records += [PlayerEntered("late", "Lou"), Dropped("p05", "ill")]
    state = fold(records)
    late = Pod("1", "spring-r1-1", ("p00", "p01", "late"))
    with pytest.raises(EventRecordError, match="Lou is not checked in"):
        apply(state, RoundSeated(1, 1, (late,)))
    gone = Pod("1", "spring-r1-1", ("p00", "p01", "p05"))
    with pytest.raises(EventRecordError, match="P05 has dropped and cannot be seated"):
        apply(state, RoundSeated(1, 1, (gone,)))
    with pytest.raises(EventRecordError, match="P00 is seated twice"):
        apply(state, RoundSeated(1, 1, (POD_1,), ("p00",)))
    small = Pod("1", "spring-r1-1", ("p00", "p01"))
    with pytest.raises(EventRecordError, match="Table 1 has 2 players: arcanum pods hold 3 to 5"):
        apply(state, RoundSeated(1, 1, (small,)))
    with pytest.raises(EventRecordError, match="the event is not open yet"):
        apply(EventState(), CheckedIn("p00"))
    # a dropped player can return, and is then checked in
    back = apply(state, Returned("p05"))
    assert back.players["p05"].active and not state.players["p05"].active


def test_replay_gives_the_identical_state() -> None:
    records, state = _seated_event()
    records += [
        ResultConfirmed("spring-r1-1", "p00"),
        ResultOverride("spring-r1-2", (("p03", 1, 9), ("p04", 2, 5), ("p05", 3, 1)), "typo", "Jo"),
        TimerSet(1, "2026-05-02T19:30:00+00:00", 50),
    ]
    state = fold(records)
    again = fold(record_from(json.loads(json.dumps(r.to_record()))) for r in records)
    assert again == state and state.count == len(records)


def test_waiting_for_says_which_tables_and_who_in_words() -> None:
    _, state = _seated_event()
    assert not can_seat_next(state, {})
    assert [w.why for w in waiting_for(state, {})] == [
        "Table 1 is still playing",
        "Table 2 is still playing",
    ]
    results = {
        "spring-r1-1": result(POD_1, [9, 5, 1]),
        "spring-r1-2": result(POD_2, [3, 2, 1], over=False),
    }
    state = apply(state, ResultConfirmed("spring-r1-1", "p01"))
    waiting = waiting_for(state, results)
    assert [w.why for w in waiting] == [
        "Table 1: P00 and P02 have not confirmed",
        "Table 2 is still playing",
    ]
    assert waiting[0].missing == ("p00", "p02")
    assert final_places(state, "spring-r1-1", results) is None
    state = apply(state, ResultConfirmed("spring-r1-1", "p00"))
    assert waiting_for(state, results)[0].why == "Table 1: P02 has not confirmed"
    state = apply(state, ResultConfirmed("spring-r1-1", "p02"))
    assert final_places(state, "spring-r1-1", results) == (
        ("p00", 1, 9),
        ("p01", 2, 5),
        ("p02", 3, 1),
    )
    # a judge's override is final at once, even while the table plays on
    override = ResultOverride(
        "spring-r1-2", (("p03", 1, 4), ("p04", 1, 4), ("p05", 3, 0)), "reader fault", "Jo"
    )
    state = apply(state, override)
    assert can_seat_next(state, results) and waiting_for(state, results) == ()
    assert final_places(state, "spring-r1-2", results) == override.places


def test_without_confirmations_an_ended_game_is_final_unless_its_places_are_incomplete() -> None:
    records, _ = event(7, confirmations=False)
    state = fold([*records, ROUND_1])
    broken = GameResult("spring-r1-2", True, ((0, 1, 3), (1, 2, 2)))  # seat 2 missing
    results = {"spring-r1-1": result(POD_1, [1, 2, 3]), "spring-r1-2": broken}
    assert [w.why for w in waiting_for(state, results)] == [
        "Table 2: its result does not give every seat a place; a judge must set it"
    ]


def test_a_reseating_replaces_the_round_until_a_result_is_confirmed() -> None:
    _, state = _seated_event()
    moved = RoundReseated(1, 9, (Pod("1", "spring-r1v2-1", ("p06", "p00", "p01")),), ())
    again = apply(state, moved)
    assert again.rounds[0].pods == moved.pods and again.rounds[0].seatings == 2
    assert "spring-r1-1" not in again.games and "spring-r1-1" in again.used
    reused = RoundReseated(1, 9, (POD_1,), ())
    with pytest.raises(EventRecordError, match="game spring-r1-1 was seated before"):
        apply(again, reused)
    confirmed = apply(state, ResultConfirmed("spring-r1-2", "p03"))
    with pytest.raises(EventRecordError, match="Table 2 has a result"):
        apply(confirmed, moved)


def test_the_timer_and_closing_a_round() -> None:
    _, state = _seated_event()
    state = apply(state, TimerSet(1, "2026-05-02T19:30:00+00:00", 50))
    assert state.timer is not None and state.timer.ends_at == "2026-05-02T20:20:00+00:00"
    state = apply(state, TimerStopped(1, "2026-05-02T20:00:00+00:00"))
    assert state.timer is not None and state.timer.stopped_at == "2026-05-02T20:00:00+00:00"
    closed = apply(state, RoundClosed(1))
    assert closed.rounds[0].closed
    with pytest.raises(EventRecordError, match="round 1 is not the round being played"):
        apply(closed, RoundClosed(1))
    with pytest.raises(EventRecordError, match="only the last round, while open"):
        apply(closed, RoundReseated(1, 2, (Pod("1", "spring-r1v2-1", POD_1.players),)))
