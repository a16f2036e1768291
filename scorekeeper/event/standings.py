"""Standings: tournament points from every final result, tie-breaks, and what a correction moved.

Computed from the records and the results every time, never kept (invariant 1): a judge's
override of a past round changes the standings with no cascade, and the rounds already seated
stay as they were. Only final results count (``state.final_places``: the override when there
is one, else the table's own result once over and confirmed); a bye gives the event's bye
points. Dropped players keep their points and their place, marked dropped.

Points come from ``points.table_points`` (the scheme's values by place, shared ranks split the
points of the places they cover). Players equal on points are separated by the event's
tie-breaks, in its order:

- ``game_points``: the total of the player's game scores;
- ``table_share``: the mean over their games of their score over the table's total score (a
  table that scored 0 in all gives each player an equal share);
- ``opponents``: the mean tournament points of the opponents met, one entry per meeting;
- ``head_to_head``: among exactly the players still tied, how many times the player finished
  ahead of one of the others at a table where they met. Its value depends on who is tied, so
  it is None for a player no longer tied when it is applied.

Players equal on everything share a place (1, 2, 2, 4) and are listed by name. ``decided_by``
names what separates a player from the one listed above: "points", a tie-break's name, or
"tied" when they share the place ("" for the first player).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from scorekeeper.event.points import show, table_points
from scorekeeper.event.state import EventState, GameResult, final_places

POINTS = "points"
TIED = "tied"


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings. ``tie_breaks`` holds (name, value) in the event's order."""

    place: int
    player: str
    name: str
    points: Fraction
    tie_breaks: tuple[tuple[str, Fraction | None], ...]
    decided_by: str
    dropped: bool = False
    games: int = 0
    byes: int = 0


@dataclass(frozen=True, slots=True)
class Change:
    """What a correction changed for one player, with a sentence for the console."""

    player: str
    place_before: int | None
    place_after: int | None
    points_before: Fraction | None
    points_after: Fraction | None
    words: str


@dataclass
class _Tally:
    """One player's record over the event's final results (built here, never returned)."""

    points: Fraction = Fraction(0)
    score: int = 0
    shares: list[Fraction] = field(default_factory=list)
    opponents: list[str] = field(default_factory=list)
    games: int = 0
    byes: int = 0


def _tallies(
    state: EventState, results: Mapping[str, GameResult]
) -> tuple[dict[str, _Tally], list[dict[str, int]]]:
    """Each player's tally, and the ranks of every final game (player -> rank)."""
    assert state.opened is not None
    tallies: dict[str, _Tally] = {}
    for entered in state.players.values():
        if entered.active:
            tallies[entered.id] = _Tally()
    tables: list[dict[str, int]] = []
    for round_ in state.rounds:
        for player in round_.byes:
            tally = tallies.setdefault(player, _Tally())
            tally.points += state.opened.bye_points
            tally.byes += 1
        for pod in round_.pods:
            for player in pod.players:
                tallies.setdefault(player, _Tally())
            places = final_places(state, pod.game_id, results)
            if places is None:
                continue
            earned = table_points(state.opened.points, [place[1] for place in places])
            total = sum(place[2] for place in places)
            for (player, _rank, score), points in zip(places, earned, strict=True):
                tally = tallies[player]
                tally.points += points
                tally.score += score
                share = Fraction(score, total) if total else Fraction(1, len(places))
                tally.shares.append(share)
                tally.opponents.extend(other for other, _r, _s in places if other != player)
                tally.games += 1
            tables.append({player: rank for player, rank, _score in places})
    return tallies, tables


def _mean(values: list[Fraction]) -> Fraction:
    return sum(values, Fraction(0)) / len(values) if values else Fraction(0)


def standings(state: EventState, results: Mapping[str, GameResult]) -> tuple[Standing, ...]:
    """The standings, first place first (the module docstring gives the rulings). Players in
    them: everyone checked in and not dropped, and everyone ever seated or given a bye."""
    if state.opened is None:
        return ()
    order = state.opened.tie_breaks
    tallies, tables = _tallies(state, results)

    def fixed(player: str, name: str) -> Fraction:
        tally = tallies[player]
        if name == "game_points":
            return Fraction(tally.score)
        if name == "table_share":
            return _mean(tally.shares)
        return _mean([tallies[other].points for other in tally.opponents])

    values: dict[str, dict[str, Fraction | None]] = {
        player: {name: None if name == "head_to_head" else fixed(player, name) for name in order}
        for player in tallies
    }

    def head_to_head(group: list[str]) -> dict[str, Fraction]:
        ahead: dict[str, int] = defaultdict(int)
        for ranks in tables:
            met = [player for player in group if player in ranks]
            for player in met:
                ahead[player] += sum(1 for other in met if ranks[player] < ranks[other])
        return {player: Fraction(ahead[player]) for player in group}

    by_name = sorted(tallies, key=lambda player: (state.name(player), player))
    groups: list[tuple[str, list[str]]] = []  # (decided_by of the group's first, members)
    for player in sorted(by_name, key=lambda player: -tallies[player].points):
        if groups and tallies[groups[-1][1][0]].points == tallies[player].points:
            groups[-1][1].append(player)
        else:
            groups.append((POINTS if groups else "", [player]))
    for name in order:
        split: list[tuple[str, list[str]]] = []
        for label, group in groups:
            if len(group) == 1:
                split.append((label, group))
                continue
            if name == "head_to_head":
                for player, value in head_to_head(group).items():
                    values[player][name] = value
            key = {player: values[player][name] or Fraction(0) for player in group}
            for player in sorted(group, key=lambda player: -key[player]):
                if split and split[-1][1][0] in group and key[split[-1][1][0]] == key[player]:
                    split[-1][1].append(player)
                else:
                    first_of_group = not split or split[-1][1][0] not in group
                    split.append((label if first_of_group else name, [player]))
        groups = split

    out: list[Standing] = []
    for label, group in groups:
        place = len(out) + 1
        for i, player in enumerate(group):
            tally = tallies[player]
            found = state.players.get(player)
            out.append(
                Standing(
                    place=place,
                    player=player,
                    name=state.name(player),
                    points=tally.points,
                    tie_breaks=tuple((name, values[player][name]) for name in order),
                    decided_by=label if i == 0 else TIED,
                    dropped=found.dropped if found else False,
                    games=tally.games,
                    byes=tally.byes,
                )
            )
    return tuple(out)


def ordinal(place: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st..."""
    if 10 <= place % 100 <= 20:
        return f"{place}th"
    return f"{place}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(place % 10, 'th') }"


def changes(before: tuple[Standing, ...], after: tuple[Standing, ...]) -> tuple[Change, ...]:
    """Who moved place or points between two standings, in the order of ``after``, each with
    a sentence such as "Ann: 3rd to 1st, 5 to 8 points"."""
    old = {line.player: line for line in before}
    new = {line.player: line for line in after}
    out: list[Change] = []
    for player in [*new, *(p for p in old if p not in new)]:
        was, now = old.get(player), new.get(player)
        if was and now and (was.place, was.points) == (now.place, now.points):
            continue
        line = now or was
        assert line is not None
        name = line.name
        parts = []
        if was and now:
            if was.place != now.place:
                parts.append(f"{ordinal(was.place)} to {ordinal(now.place)}")
            else:
                parts.append(f"still {ordinal(now.place)}")
            if was.points != now.points:
                parts.append(f"{show(was.points)} to {show(now.points)} points")
        elif now:
            parts.append(f"now {ordinal(now.place)} with {show(now.points)} points")
        else:
            parts.append("no longer in the standings")
        out.append(
            Change(
                player=player,
                place_before=was.place if was else None,
                place_after=now.place if now else None,
                points_before=was.points if was else None,
                points_after=now.points if now else None,
                words=f"{name}: {', '.join(parts)}",
            )
        )
    return tuple(out)
