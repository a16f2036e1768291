"""Seating rounds: everyone seated once within the game's pod sizes, fewer repeat table-mates
than a plain split by standings, start seats that rotate, byes to different players, late
players and drops, re-seating, and no seating before the last round's results are final."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.event.pods import SeatingError, split
from scorekeeper.event.records import CheckedIn, Dropped, PlayerEntered, Pod, RoundSeated
from scorekeeper.event.seating import reseat_round, seat_round
from scorekeeper.event.standings import standings
from scorekeeper.event.state import EventState, GameResult, apply, can_seat_next, fold
from tests.event.event_core_helpers import TABLES, confirm_all, event, play_round, result

GAMES = [(3, 5), (2, 6), (2, 4)]  # Arcanum, King of the Elves, Arcana and Angels & Demons


def _check_round(state: EventState, seated: RoundSeated) -> None:
    """Every active player sits once (in a pod or with a bye), pods within the seat range."""
    assert state.opened is not None
    everyone = [p for pod in seated.pods for p in pod.players] + list(seated.byes)
    assert len(everyone) == len(set(everyone))
    assert set(everyone) == {p.id for p in state.players.values() if p.active}
    low, high = state.opened.min_seats, state.opened.max_seats
    assert all(low <= len(pod.players) <= high for pod in seated.pods)
    sizes = split(len(everyone), low, high, state.opened.preferred)
    assert (tuple(len(pod.players) for pod in seated.pods), len(seated.byes)) == sizes


def _check_moves(state: EventState, results: dict[str, GameResult], seated: RoundSeated) -> None:
    """No player sits more than one pod away from the pods their place in the standings
    could give them (players sharing a place are seated in a random order among them)."""
    active = {p.id for p in state.players.values() if p.active}
    seated_now = active - set(seated.byes)
    lines = [line for line in standings(state, results) if line.player in seated_now]
    places = [line.place for line in lines]
    bounds = list(itertools.accumulate(len(pod.players) for pod in seated.pods))
    pod_at = [next(i for i, end in enumerate(bounds) if pos < end) for pos in range(len(places))]
    for i, pod in enumerate(seated.pods):
        for player in pod.players:
            place = next(line.place for line in lines if line.player == player)
            home = [pod_at[pos] for pos, p in enumerate(places) if p == place]
            assert min(home) - 1 <= i <= max(home) + 1


@settings(max_examples=25, deadline=None)
@given(n=st.integers(0, 40), seats=st.sampled_from(GAMES), seed=st.integers(0, 2**32))
def test_three_rounds_seat_everyone_once_within_the_pod_sizes(
    n: int, seats: tuple[int, int], seed: int
) -> None:
    _, state = event(n, min_seats=seats[0], max_seats=seats[1])
    results: dict[str, GameResult] = {}
    byes: list[str] = []
    for number in range(1, 4):
        seated = seat_round(state, results, seed + number, TABLES)
        _check_round(state, seated)
        if number > 1:
            _check_moves(state, results, seated)
        byes += seated.byes
        state, results = play_round(state, results, seed + number)
        assert state.rounds[-1].pods == seated.pods  # play_round seats the same from the seed
    if len(byes) <= n:
        assert len(set(byes)) == len(byes)  # nobody has a second bye while others have none


def test_round_one_is_random_from_the_seed_and_names_each_game() -> None:
    _, state = event(12)
    first = seat_round(state, {}, 1, TABLES)
    assert seat_round(state, {}, 1, TABLES) == first
    assert len({seat_round(state, {}, seed, TABLES).pods for seed in range(6)}) > 1
    assert [pod.game_id for pod in first.pods] == ["spring-r1-1", "spring-r1-2", "spring-r1-3"]
    lettered = seat_round(state, {}, 1, ["A", "B", "C"])
    assert [pod.game_id for pod in lettered.pods] == ["spring-r1-a", "spring-r1-b", "spring-r1-c"]


def test_later_rounds_avoid_repeat_table_mates_better_than_a_plain_split() -> None:
    # table 1 shares its first place four ways (2.5 points each), so a plain split by standings
    # puts its four players together again: 6 repeat pairs, and 2 more at each other table
    _, state = event(12, confirmations=False)
    pods = tuple(
        Pod(str(t + 1), f"spring-r1-{t + 1}", tuple(f"p{4 * t + i:02d}" for i in range(4)))
        for t in range(3)
    )
    state = apply(state, RoundSeated(1, 0, pods))
    results = {
        pods[0].game_id: result(pods[0], [5, 5, 5, 5]),
        pods[1].game_id: result(pods[1], [40, 30, 20, 10]),
        pods[2].game_id: result(pods[2], [40, 30, 20, 10]),
    }
    order = [line.player for line in standings(state, results)]
    plain = [order[0:4], order[4:8], order[8:12]]
    assert sorted(plain[1]) == ["p00", "p01", "p02", "p03"]

    def repeats(round_pods: list[list[str]] | list[tuple[str, ...]]) -> int:
        pairs = (frozenset(pair) for pod in round_pods for pair in itertools.combinations(pod, 2))
        return sum(1 for pair in pairs if any(pair <= set(pod.players) for pod in pods))

    assert repeats(plain) == 10
    for seed in range(3):
        seated = seat_round(state, results, seed, TABLES)
        assert repeats([pod.players for pod in seated.pods]) == 3  # each old table split 2-1-1
        where = {p: i for i, pod in enumerate(seated.pods) for p in pod.players}
        assert all(where[p] <= 1 for p in ("p04", "p08", "p05", "p09"))  # the top pod's
        assert all(where[p] >= 1 for p in ("p07", "p11"))  # the bottom pod's


def test_start_seats_rotate() -> None:
    _, state = event(4, min_seats=4, max_seats=4)
    results: dict[str, GameResult] = {}
    starters = []
    for number in range(1, 5):
        state, results = play_round(state, results, number)
        starters.append(state.rounds[-1].pods[0].players[0])
    assert sorted(starters[:3]) == sorted(set(starters[:3]))  # 3 rounds, 3 different starters
    assert sorted(starters) == ["p00", "p01", "p02", "p03"]


def test_byes_go_to_the_lowest_placed_who_had_none() -> None:
    _, state = event(13, min_seats=4, max_seats=4, bye_points=Fraction(2))
    results: dict[str, GameResult] = {}
    byes: list[str] = []
    for number in range(1, 5):
        if number > 1:
            lines = standings(state, results)
            had = set(byes)
            place = {line.player: line.place for line in lines}
            lowest = max(place[p] for p in place if p not in had)  # players may share it
            seated = seat_round(state, results, number, TABLES)
            assert [place[p] for p in seated.byes] == [lowest] and not had & set(seated.byes)
        state, results = play_round(state, results, number)
        byes += state.rounds[-1].byes
    assert len(byes) == 4 and len(set(byes)) == 4


def test_late_additions_and_drops_between_rounds() -> None:
    records, state = event(8)
    records.append(PlayerEntered("nia", "Nia"))  # registered, never checked in
    state = apply(state, records[-1])
    state, results = play_round(state, {}, 1)
    state = apply(state, PlayerEntered("lou", "Lou"))
    state = apply(state, CheckedIn("lou"))
    state = apply(state, Dropped("p00", "had to leave"))
    seated = seat_round(state, results, 2, TABLES)
    _check_round(state, seated)
    everyone = {p for pod in seated.pods for p in pod.players}
    assert "lou" in everyone and "p00" not in everyone and "nia" not in everyone
    lines = {line.player: line for line in standings(state, results)}
    assert lines["p00"].dropped and lines["p00"].games == 1
    assert lines["lou"].points == 0 and "nia" not in lines


def test_no_seating_before_every_result_is_final() -> None:
    _, state = event(8)
    seated = seat_round(state, {}, 1, TABLES)
    state = apply(state, seated)
    with pytest.raises(SeatingError, match="Table 1 is still playing; Table 2 is still playing"):
        seat_round(state, {}, 2, TABLES)
    results = {pod.game_id: result(pod, [4, 3, 2, 1]) for pod in seated.pods}
    assert not can_seat_next(state, results)
    first = seated.pods[0].players
    with pytest.raises(SeatingError, match=f"Table 1: {first[0].upper()}, .* have not confirmed"):
        seat_round(state, results, 2, TABLES)
    state = confirm_all(state, seated.pods)
    assert can_seat_next(state, results)
    assert seat_round(state, results, 2, TABLES).round == 2


def test_tables_and_game_ids_are_checked_in_words() -> None:
    _, state = event(12)
    with pytest.raises(SeatingError, match="round 1 needs 3 tables and the event has 2"):
        seat_round(state, {}, 1, ["1", "2"])
    with pytest.raises(SeatingError, match="'spring-r1-table 1' cannot be a game id"):
        seat_round(state, {}, 1, ["Table 1", "Table 2", "Table 3"])
    _, long_named = event(12, event_id="spring-league-2026-north-side")
    with pytest.raises(SeatingError, match="give the event a shorter id"):
        seat_round(long_named, {}, 1, ["101", "102", "103"])
    with pytest.raises(SeatingError, match="distinct names"):
        seat_round(state, {}, 1, ["1", "1", "2"])


def test_a_round_is_reseated_with_new_games_until_a_result_is_in() -> None:
    records, state = event(8)
    seated = seat_round(state, {}, 1, TABLES)
    state = apply(state, seated)
    again = reseat_round(state, {}, 99, TABLES)
    assert again.round == 1 and again.seed == 99
    assert [pod.game_id for pod in again.pods] == ["spring-r1v2-1", "spring-r1v2-2"]
    after = apply(state, again)
    assert after.rounds[0].pods == again.pods
    assert fold([*records, seated, again]) == after  # replay: the re-seating replaces round 1
    over = {seated.pods[1].game_id: result(seated.pods[1], [1, 2, 3, 4])}
    with pytest.raises(SeatingError, match="round 1 cannot be re-seated: Table 2 has a result"):
        reseat_round(state, over, 100, TABLES)
    assert Counter(len(pod.players) for pod in again.pods) == {4: 2}
