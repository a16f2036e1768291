"""Pod sizes: the ruling on crafted cases (the games' seat ranges) and its invariants for every
player count up to 120 and every seat range."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.event.pods import SeatingError, pod_sizes, split

ARCANUM, KING_OF_THE_ELVES, ARCANA, ANGELS_DEMONS = (3, 5), (2, 6), (2, 4), (2, 4)


@pytest.mark.parametrize(
    ("seats", "players", "pods", "byes"),
    [
        (ARCANUM, 10, (4, 3, 3), 0),
        (ARCANUM, 6, (3, 3), 0),
        (ARCANUM, 7, (4, 3), 0),
        (ARCANUM, 9, (5, 4), 0),
        (ARCANUM, 11, (4, 4, 3), 0),
        (ARCANUM, 12, (4, 4, 4), 0),
        (ARCANUM, 2, (), 2),
        (ARCANUM, 0, (), 0),
        (ARCANA, 1, (), 1),
        (ARCANA, 5, (3, 2), 0),
        (ANGELS_DEMONS, 7, (4, 3), 0),
        (KING_OF_THE_ELVES, 10, (4, 3, 3), 0),
        (ANGELS_DEMONS, 10, (4, 3, 3), 0),
        (KING_OF_THE_ELVES, 13, (5, 4, 4), 0),
        ((3, 3), 7, (3, 3), 1),
    ],
)
def test_split_follows_the_ruling(
    seats: tuple[int, int], players: int, pods: tuple[int, ...], byes: int
) -> None:
    assert split(players, *seats) == (pods, byes)


def test_pod_sizes_put_the_preferred_size_first_clamped_into_the_range() -> None:
    assert pod_sizes(*ARCANUM) == (4, 5, 3)
    assert pod_sizes(*KING_OF_THE_ELVES) == (4, 5, 3, 6, 2)
    assert pod_sizes(3, 5, preferred=9) == (5, 4, 3)
    assert pod_sizes(3, 5, preferred=3) == (3, 4, 5)
    assert split(10, 3, 5, preferred=5) == ((5, 5), 0)
    assert split(8, 3, 5, preferred=3) == ((4, 4), 0)  # not 5+3: no table 2 from 3


@pytest.mark.parametrize("seats", [(0, 4), (5, 3)])
def test_a_seat_range_that_is_no_range_is_refused_in_words(seats: tuple[int, int]) -> None:
    with pytest.raises(SeatingError, match="seat range"):
        split(8, *seats)
    with pytest.raises(ValueError):  # a built-in too
        pod_sizes(*seats)


def _splittable(low: int, high: int, limit: int) -> set[int]:
    """Every player count up to ``limit`` that pods of ``low``..``high`` seat exactly."""
    reach = {0}
    for total in range(1, limit + 1):
        if any(total - size in reach for size in range(low, high + 1)):
            reach.add(total)
    return reach


def _most_preferred(total: int, sizes: list[int], want: int) -> int:
    """The most pods of size ``want`` in any exact split of ``total`` into ``sizes`` (-1: no
    split)."""
    best = {0: 0}
    for t in range(1, total + 1):
        options = [best[t - s] + (s == want) for s in sizes if s <= t and t - s in best]
        if options:
            best[t] = max(options)
    return best.get(total, -1)


@settings(max_examples=300, deadline=None)
@given(
    n=st.integers(0, 120),
    low=st.integers(1, 6),
    width=st.integers(0, 4),
    preferred=st.none() | st.integers(1, 10),
)
def test_split_seats_everyone_it_can_within_the_range(
    n: int, low: int, width: int, preferred: int | None
) -> None:
    high = low + width
    pods, byes = split(n, low, high, preferred)
    assert all(low <= size <= high for size in pods)
    assert sum(pods) + byes == n
    assert list(pods) == sorted(pods, reverse=True)
    reach = _splittable(low, high, n)
    assert all(n - fewer not in reach for fewer in range(byes))  # no smaller number of byes
    want = pod_sizes(low, high, preferred)[0]
    # no pod further from the wanted size than some split must go, checked by brute force
    spread = max((abs(size - want) for size in pods), default=0)
    for closer in range(spread):
        near = [s for s in range(low, high + 1) if abs(s - want) <= closer]
        assert _most_preferred(n - byes, near, want) == -1
    near = [s for s in range(low, high + 1) if abs(s - want) <= spread]
    assert pods.count(want) == _most_preferred(n - byes, near, want)
