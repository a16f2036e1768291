"""Seating a round into pods: who plays at which table, in which seat, and who has a bye.

Pure (invariant 2): the only randomness is ``random.Random(seed)`` from the seed passed in and
kept in the round's record, so the same records, results and seed give the same seating.

The players are those checked in and not dropped. The ruling:

- pod sizes and byes from ``pods.split`` (the game's seat range, the event's preferred size);
- byes go to the lowest-placed players among those with the fewest byes so far;
- round 1 is random; later rounds are seated by standings (players sharing a place in a random
  order), the pods filled top-down with the smaller pods at the bottom, then improved by swaps
  between neighbouring pods that lower the number of pairs who already shared a table (the
  best swap first, until none helps), a player never ending more than one pod away from the
  pod their standing gave them;
- within a pod, whoever has started least often sits first (seat 0), then whoever sat latest
  in their earlier pods (so start seats rotate), then by standing;
- pods go to the event's tables in order (the top pod at the first table), each with the game
  id ``{event_id}-r{round}-{table}``; a re-seating's games are ``{event_id}-r{round}v{n}-
  {table}`` (n = 2, 3...) so that no game id is given twice. A game id is the table Pi's id
  for the game: 1 to 32 lower-case letters, digits and dashes.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from fractions import Fraction

from scorekeeper.event.pods import SeatingError, split
from scorekeeper.event.records import Pod, RoundReseated, RoundSeated
from scorekeeper.event.standings import standings
from scorekeeper.event.state import EventState, GameResult, Round, table_label, waiting_for

_GAME_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,31}")


def game_id_for(event_id: str, round_number: int, table: str, seating: int = 1) -> str:
    """The game id of a table in a round (``seating`` > 1 for a re-seating); raises
    SeatingError when it would not be a valid id."""
    version = "" if seating == 1 else f"v{seating}"
    game_id = f"{event_id}-r{round_number}{version}-{table}".lower()
    if not _GAME_ID.fullmatch(game_id):
        raise SeatingError(
            f"{game_id!r} cannot be a game id: it must be 1 to 32 lower-case letters, digits and "
            "dashes; give the event a shorter id or the tables shorter names (such as 12)"
        )
    return game_id


def _met(history: Sequence[Round]) -> Counter[frozenset[str]]:
    """How many times each pair of players shared a table."""
    met: Counter[frozenset[str]] = Counter()
    for round_ in history:
        for pod in round_.pods:
            for i, a in enumerate(pod.players):
                for b in pod.players[i + 1 :]:
                    met[frozenset((a, b))] += 1
    return met


def _improve(pods: list[list[str]], met: Counter[frozenset[str]]) -> None:
    """Swap players between neighbouring pods while a swap lowers the repeat pairs (in place).

    Pass after pass over the neighbouring pods, top down, each pair of pods taking its best
    swap until none helps; every swap lowers a non-negative whole number, so the loop ends.
    """
    home = {player: i for i, pod in enumerate(pods) for player in pod}

    def with_others(player: str, pod: list[str], leaving: str) -> int:
        pairs = (frozenset((player, other)) for other in pod if other not in (player, leaving))
        return sum(met[pair] for pair in pairs)

    def best_swap(i: int) -> tuple[int, str, str] | None:
        upper, lower = pods[i], pods[i + 1]
        best: tuple[int, str, str] | None = None  # (change in repeats, a, b)
        for a in upper:
            if abs(i + 1 - home[a]) > 1:
                continue
            for b in lower:
                if abs(i - home[b]) > 1:
                    continue
                now = with_others(a, upper, a) + with_others(b, lower, b)
                change = with_others(b, upper, a) + with_others(a, lower, b) - now
                if change < 0 and (best is None or change < best[0]):
                    best = (change, a, b)
        return best

    swapped = True
    while swapped:
        swapped = False
        for i in range(len(pods) - 1):
            while (found := best_swap(i)) is not None:
                _, a, b = found
                pods[i][pods[i].index(a)] = b
                pods[i + 1][pods[i + 1].index(b)] = a
                swapped = True


def _seat_order(
    pod: list[str],
    starts: Counter[str],
    lateness: Mapping[str, Fraction],
    rank: Mapping[str, int],
) -> list[str]:
    """The pod's players in seat order: fewest starts first, then latest earlier seats."""
    return sorted(
        pod, key=lambda p: (starts[p], -lateness.get(p, Fraction(0)), rank.get(p, len(rank)))
    )


def _seat_history(history: Sequence[Round]) -> tuple[Counter[str], dict[str, Fraction]]:
    """How often each player started (seat 0), and the sum of their earlier seats, each
    counted from 0 (first) to 1 (last) whatever the pod's size."""
    starts: Counter[str] = Counter()
    lateness: dict[str, Fraction] = {}
    for round_ in history:
        for earlier in round_.pods:
            last = max(len(earlier.players) - 1, 1)
            for seat, player in enumerate(earlier.players):
                starts[player] += seat == 0
                lateness[player] = lateness.get(player, Fraction(0)) + Fraction(seat, last)
    return starts, lateness


def _seat(
    state: EventState,
    results: Mapping[str, GameResult],
    seed: int,
    tables: Sequence[str],
    history: Sequence[Round],
    round_number: int,
    seating: int,
) -> tuple[tuple[Pod, ...], tuple[str, ...]]:
    """The pods and byes of ``round_number`` after the rounds in ``history``."""
    opened = state.opened
    assert opened is not None
    if len(set(tables)) != len(tables):
        raise SeatingError("the event's tables need distinct names")
    rng = random.Random(seed)
    players = [player.id for player in state.players.values() if player.active]
    sizes, bye_count = split(len(players), opened.min_seats, opened.max_seats, opened.preferred)
    if len(sizes) > len(tables):
        raise SeatingError(
            f"round {round_number} needs {len(sizes)} tables and the event has {len(tables)}: "
            "add tables to the event"
        )
    earlier = replace(state, rounds=tuple(history))
    byes_had: Counter[str] = Counter(p for round_ in history for p in round_.byes)
    if not history:
        rng.shuffle(players)
        order = players
    else:
        active = set(players)
        by_place: dict[int, list[str]] = {}
        for line in standings(earlier, results):
            if line.player in active:
                by_place.setdefault(line.place, []).append(line.player)
        order = []
        for place in sorted(by_place):
            group = by_place[place]
            rng.shuffle(group)
            order.extend(group)
    position = {player: i for i, player in enumerate(order)}
    byes = sorted(order, key=lambda p: (byes_had[p], -position[p]))[:bye_count]
    seated = [player for player in order if player not in byes]
    pods: list[list[str]] = []
    for size in sizes:
        pods.append(seated[:size])
        seated = seated[size:]
    if history:
        _improve(pods, _met(history))
        starts, lateness = _seat_history(history)
        pods = [_seat_order(pod, starts, lateness, position) for pod in pods]
    made = tuple(
        Pod(table, game_id_for(opened.event_id, round_number, table, seating), tuple(pod))
        for table, pod in zip(tables, pods, strict=False)
    )
    return made, tuple(sorted(byes, key=lambda p: position[p]))


def seat_round(
    state: EventState, results: Mapping[str, GameResult], seed: int, tables: Sequence[str]
) -> RoundSeated:
    """The next round's seating (see the module docstring), to append to the event's log.

    Raises SeatingError in words when the event is not open, a result of the last round is
    not final (naming the tables it waits for) or there are too few tables.
    """
    if state.opened is None:
        raise SeatingError("the event is not open: open it before seating a round")
    waiting = waiting_for(state, results)
    if waiting:
        raise SeatingError(
            f"round {len(state.rounds) + 1} cannot be seated yet: "
            + "; ".join(item.why for item in waiting)
        )
    number = len(state.rounds) + 1
    pods, byes = _seat(state, results, seed, tables, state.rounds, number, 1)
    return RoundSeated(number, seed, pods, byes)


def reseat_round(
    state: EventState, results: Mapping[str, GameResult], seed: int, tables: Sequence[str]
) -> RoundReseated:
    """The last round seated again with a new seed, for the players checked in now; allowed
    while the round is open and none of its games is over, confirmed or overridden."""
    last = state.last_round
    if state.opened is None or last is None or last.closed:
        raise SeatingError("there is no open round to re-seat")
    for pod in last.pods:
        result = results.get(pod.game_id)
        if (
            (result is not None and result.over)
            or pod.game_id in state.confirmed
            or pod.game_id in state.overrides
        ):
            raise SeatingError(
                f"round {last.number} cannot be re-seated: {table_label(pod.table)} has a result"
            )
    pods, byes = _seat(
        state, results, seed, tables, state.rounds[:-1], last.number, last.seatings + 1
    )
    return RoundReseated(last.number, seed, pods, byes)
