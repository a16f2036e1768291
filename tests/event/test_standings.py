"""Standings: points by table rank (schemes, shared ranks, byes), the tie-breaks and which one
decided each place, dropped players, and a judge's correction after a later round was seated."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.event.points import scheme_values, show, table_points
from scorekeeper.event.records import (
    CheckedIn,
    Dropped,
    OverrideCleared,
    PlayerEntered,
    Pod,
    ResultOverride,
    RoundSeated,
)
from scorekeeper.event.seating import seat_round
from scorekeeper.event.standings import changes, standings
from scorekeeper.event.state import EventState, GameResult, apply, fold
from tests.event.event_core_helpers import TABLES, confirm_all, event, result

F = Fraction


@pytest.mark.parametrize(
    ("scheme", "ranks", "points"),
    [
        ("4-3-2-1", [1, 2, 3, 4], [4, 3, 2, 1]),
        ("4-3-2-1", [2, 1, 2, 4], [F(5, 2), 4, F(5, 2), 1]),  # shared 2nd: (3 + 2) / 2
        ("4-3-2-1", [1, 2, 3], [4, 3, 2]),  # a pod of 3 gets the first 3 values
        ("4-3-2-1", [1, 2, 3, 4, 5], [4, 3, 2, 1, 0]),  # a 5th place beyond the scheme
        ("4-3-2-1", [1, 1, 1], [3, 3, 3]),
        ("5-3-2-1", [1, 2, 3, 4], [5, 3, 2, 1]),
        ("5-3-2-1", [1, 1, 3], [4, 4, 2]),
        ("5-3-2-1", [1, 1, 2], [4, 4, 2]),  # ranks read as an order: 1, 1, 2 is 1, 1, 3
        ("win-draw-loss", [1, 2, 3, 4], [3, 0, 0, 0]),
        ("win-draw-loss", [1, 1, 3], [1, 1, 0]),
    ],
)
def test_table_points_by_rank(scheme: str, ranks: list[int], points: list[Fraction]) -> None:
    assert table_points(scheme, ranks) == tuple(F(p) for p in points)


def test_points_are_shown_as_people_read_them() -> None:
    assert [show(F(3)), show(F(7, 2)), show(F(10, 3)), show(F(0))] == ["3", "3.5", "3.33", "0"]


@settings(max_examples=100, deadline=None)
@given(
    scheme=st.sampled_from(["4-3-2-1", "5-3-2-1", "6-4-2-1"]),
    ranks=st.lists(st.integers(1, 5), min_size=1, max_size=6),
)
def test_sharing_a_rank_never_changes_a_tables_total(scheme: str, ranks: list[int]) -> None:
    values = scheme_values(scheme)
    assert values is not None
    covered = sum(values[i] if i < len(values) else 0 for i in range(len(ranks)))
    points = table_points(scheme, ranks)
    assert sum(points) == covered
    for a, b in zip(ranks, points, strict=True):  # a better rank never earns less
        assert all(q <= b for r, q in zip(ranks, points, strict=True) if r > a)


def _one_round(
    n: int, scores: list[list[int]], **changes_: object
) -> tuple[EventState, dict[str, GameResult], list[Pod]]:
    """An event whose first round seats players in order into pods of ``scores``' sizes, each
    pod given its scores and confirmed."""
    records, state = event(n, **changes_)
    pods: list[Pod] = []
    start = 0
    for i, pod_scores in enumerate(scores):
        ids = tuple(f"p{j:02d}" for j in range(start, start + len(pod_scores)))
        pods.append(Pod(TABLES[i], f"spring-r1-{TABLES[i]}", ids))
        start += len(pod_scores)
    byes = tuple(f"p{j:02d}" for j in range(start, n))
    state = apply(state, RoundSeated(1, 0, tuple(pods), byes))
    results = {pod.game_id: result(pod, s) for pod, s in zip(pods, scores, strict=True)}
    return confirm_all(state, pods), results, pods


def test_tie_breaks_in_order_and_what_decided_each_place() -> None:
    # p00 and p04 both win (4 points): p00 scored more. p01 and p05 both second on equal
    # scores: p01's table scored less in all, so p01 has the bigger share of it. p08 has a bye.
    state, results, _ = _one_round(9, [[30, 20, 5, 1], [25, 20, 10, 9]], bye_points=F(2))
    lines = standings(state, results)
    assert [(line.player, line.place, line.decided_by) for line in lines] == [
        ("p00", 1, ""),
        ("p04", 2, "game_points"),
        ("p01", 3, "points"),
        ("p05", 4, "table_share"),
        ("p06", 5, "points"),  # 2 points each for p06, p02 and p08 (the bye)
        ("p02", 6, "game_points"),
        ("p08", 7, "game_points"),
        ("p07", 8, "points"),
        ("p03", 9, "game_points"),
    ]
    p00, p01, p08 = lines[0], lines[2], lines[6]
    assert p00.tie_breaks[:3] == (
        ("game_points", F(30)),
        ("table_share", F(30, 56)),
        ("opponents", F(3 + 2 + 1, 3)),
    )
    assert p01.tie_breaks[1] == ("table_share", F(20, 56))
    assert (p08.points, p08.byes, p08.games) == (2, 1, 0)


def test_tie_break_order_is_the_events_and_equals_share_a_place() -> None:
    # p04 scored more (60 against 30); p00 took the bigger share of their table (30/56)
    scores = [[30, 20, 5, 1], [60, 40, 30, 20]]
    by_points, results, _ = _one_round(8, scores, tie_breaks=("game_points", "table_share"))
    assert [line.player for line in standings(by_points, results)[:2]] == ["p04", "p00"]
    by_share, results, _ = _one_round(8, scores, tie_breaks=("table_share", "game_points"))
    top = standings(by_share, results)[:2]
    assert [(line.player, line.decided_by) for line in top] == [("p00", ""), ("p04", "table_share")]
    only_points, results, _ = _one_round(8, scores, tie_breaks=())
    top = standings(only_points, results)[:2]
    assert [(line.player, line.place, line.decided_by) for line in top] == [
        ("p00", 1, ""),
        ("p04", 1, "tied"),
    ]


def test_head_to_head_counts_only_among_the_tied_players() -> None:
    # two rounds at 3-player tables (4-3-2 points), crafted so that players tie on points
    records, state = event(6, tie_breaks=("head_to_head",))
    round_1 = (
        Pod("1", "spring-r1-1", ("p00", "p01", "p02")),
        Pod("2", "spring-r1-2", ("p03", "p04", "p05")),
    )
    state = confirm_all(apply(state, RoundSeated(1, 0, round_1)), round_1)
    results = {
        "spring-r1-1": result(round_1[0], [9, 5, 1]),  # p00 4, p01 3, p02 2
        "spring-r1-2": result(round_1[1], [9, 5, 1]),  # p03 4, p04 3, p05 2
    }
    round_2 = (
        Pod("1", "spring-r2-1", ("p00", "p03", "p01")),
        Pod("2", "spring-r2-2", ("p02", "p04", "p05")),
    )
    state = confirm_all(apply(state, RoundSeated(2, 1, round_2)), round_2)
    results["spring-r2-1"] = result(round_2[0], [1, 5, 9])  # p01 4, p03 3, p00 2: 7, 7, 6
    results["spring-r2-2"] = result(round_2[1], [9, 5, 1])  # p02 4, p04 3, p05 2: 6, 6, 4
    lines = {line.player: line for line in standings(state, results)}
    # p01 and p03 on 7: they met once, p01 ahead of p03
    assert (lines["p01"].place, lines["p03"].place, lines["p03"].decided_by) == (
        1,
        2,
        "head_to_head",
    )
    assert lines["p01"].tie_breaks == (("head_to_head", F(1)),)
    # p00, p02 and p04 on 6: p00 finished ahead of p02 (round 1), p02 ahead of p04 (round 2),
    # p00 and p04 never met: p00 and p02 share the place, p04 is behind them
    assert [lines[p].place for p in ("p00", "p02", "p04")] == [3, 3, 5]
    assert (lines["p02"].decided_by, lines["p04"].decided_by) == ("tied", "head_to_head")
    assert lines["p05"].tie_breaks == (("head_to_head", None),)  # alone on 4: never tied


def test_only_final_results_count_and_dropped_players_keep_their_points() -> None:
    records, state = event(6)
    pods = (
        Pod("1", "spring-r1-1", ("p00", "p01", "p02")),
        Pod("2", "spring-r1-2", ("p03", "p04", "p05")),
    )
    state = apply(state, RoundSeated(1, 0, pods))
    results = {pod.game_id: result(pod, [3, 2, 1]) for pod in pods}
    assert all(line.points == 0 for line in standings(state, results))  # nobody confirmed
    state = confirm_all(state, pods[:1])
    state = apply(state, Dropped("p00", "went home"))
    lines = {line.player: line for line in standings(state, results)}
    assert (lines["p00"].points, lines["p00"].dropped, lines["p00"].place) == (4, True, 1)
    assert lines["p03"].points == 0 and lines["p03"].games == 0


def test_a_correction_after_the_next_round_changes_standings_not_the_seating() -> None:
    records, state = event(8, confirmations=False)
    results: dict[str, GameResult] = {}
    round_1 = seat_round(state, results, 11, TABLES)
    state = apply(state, round_1)
    for pod in round_1.pods:
        results[pod.game_id] = result(pod, [40, 30, 20, 10])
    round_2 = seat_round(state, results, 12, TABLES)
    state = apply(state, round_2)
    before = standings(state, results)

    wrong = round_1.pods[0]
    places = tuple((p, 4 - seat, 10 * (seat + 1)) for seat, p in enumerate(wrong.players))
    corrected = apply(state, ResultOverride(wrong.game_id, places, "scores misread", "Jo"))
    after = standings(corrected, results)
    assert corrected.rounds[1].pods == round_2.pods and corrected.rounds[1].byes == round_2.byes
    first, last = wrong.players[0], wrong.players[-1]
    points = {line.player: line.points for line in after}
    assert (points[first], points[last]) == (1, 4)
    moved = {change.player: change for change in changes(before, after)}
    assert set(moved) == set(wrong.players)
    assert moved[last].words == f"{last.upper()}: 7th to 1st, 1 to 4 points"
    assert moved[first].points_before == 4 and moved[first].points_after == 1

    # a later override replaces the earlier one; clearing it restores the table's own result
    again = tuple((p, 1, 5) for p in wrong.players)
    twice = apply(corrected, ResultOverride(wrong.game_id, again, "all tied", "Jo"))
    shared = {line.points for line in standings(twice, results) if line.player in wrong.players}
    assert shared == {F(5, 2)}
    cleared = apply(twice, OverrideCleared(wrong.game_id, "back to the table's", "Jo"))
    assert standings(cleared, results) == before
    assert len(cleared.audit) == 3
    assert cleared.rounds == corrected.rounds == state.rounds


def test_changes_say_who_moved_in_words() -> None:
    state, results, pods = _one_round(4, [[3, 2, 1, 0]])
    unconfirmed = apply(fold(event(4)[0]), RoundSeated(1, 0, tuple(pods)))
    before = standings(unconfirmed, results)  # all on 0, sharing the first place
    assert [change.words for change in changes(before, standings(state, results))] == [
        "P00: still 1st, 0 to 4 points",
        "P01: 1st to 2nd, 0 to 3 points",
        "P02: 1st to 3rd, 0 to 2 points",
        "P03: 1st to 4th, 0 to 1 points",
    ]
    late = apply(apply(state, PlayerEntered("lou", "Lou")), CheckedIn("lou"))
    assert [c.words for c in changes(standings(state, results), standings(late, results))] == [
        "Lou: now 5th with 0 points"
    ]
    assert changes(before, before) == ()
