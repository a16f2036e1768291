"""Builders for the event core's tests: an open event with checked-in players, a pod's result
from its scores, and rounds played to final results."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scorekeeper.event.records import (
    CheckedIn,
    EventOpened,
    EventRecord,
    PlayerEntered,
    Pod,
    ResultConfirmed,
)
from scorekeeper.event.seating import seat_round
from scorekeeper.event.state import EventState, GameResult, apply, fold

TABLES = tuple(str(n) for n in range(1, 31))


def opened(**changes: Any) -> EventOpened:
    """An Arcanum event (3-5 seats) with the defaults, changed by ``changes``."""
    fields: dict[str, Any] = {
        "event_id": "spring",
        "name": "Spring league",
        "game": "arcanum",
        "min_seats": 3,
        "max_seats": 5,
    }
    fields.update(changes)
    return EventOpened(**fields)


def players(n: int) -> list[str]:
    return [f"p{i:02d}" for i in range(n)]


def event(n_players: int, **changes: Any) -> tuple[list[EventRecord], EventState]:
    """An open event whose ``n_players`` players (p00, p01... named P00...) are checked in."""
    records: list[EventRecord] = [opened(**changes)]
    for player in players(n_players):
        records += [PlayerEntered(player, player.upper()), CheckedIn(player)]
    return records, fold(records)


def result(pod: Pod, scores: Sequence[int], over: bool = True) -> GameResult:
    """The table's result from each seat's score: a higher score ranks first, equal scores
    share a rank (1, 1, 3)."""
    places = tuple(
        (seat, 1 + sum(other > score for other in scores), score)
        for seat, score in enumerate(scores)
    )
    return GameResult(pod.game_id, over, places)


def confirm_all(state: EventState, pods: Sequence[Pod]) -> EventState:
    for pod in pods:
        for player in pod.players:
            state = apply(state, ResultConfirmed(pod.game_id, player))
    return state


def play_round(
    state: EventState,
    results: dict[str, GameResult],
    seed: int,
    scores: dict[str, int] | None = None,
) -> tuple[EventState, dict[str, GameResult]]:
    """Seat the next round, give every pod a result (each player's score from ``scores``, else
    by seat: seat 0 scores most) and confirm it."""
    seated = seat_round(state, results, seed, TABLES)
    state = apply(state, seated)
    results = dict(results)
    for pod in seated.pods:
        given = [
            scores[p] if scores else 10 * (len(pod.players) - seat)
            for seat, p in enumerate(pod.players)
        ]
        results[pod.game_id] = result(pod, given)
    return confirm_all(state, seated.pods), results
