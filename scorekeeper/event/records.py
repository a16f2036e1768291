"""The event's own log: what the organiser, the judges and the players did, as records.

The hub appends these to the event's log (PostgreSQL) and folds them (``state.fold``) into the
event; nothing is rewritten (invariant 1): a re-seating, an override or a cleared override is a
new record that replaces the earlier one's effect. Every record is a frozen value with a
``kind`` and round-trips to a JSON-able dict (``to_record`` / ``record_from``).

``record_from`` checks the shape of one record (fields, types, ranges) and raises
``EventRecordError`` in words; whether a record makes sense after the ones before it (a player
seated who is not checked in...) is ``state.apply``'s check.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction
from typing import Any, ClassVar

from scorekeeper.errors import ScorekeeperError
from scorekeeper.event.points import DEFAULT_TIE_BREAKS, TIE_BREAKS, scheme_problem


class EventRecordError(ScorekeeperError, ValueError):
    """An event record is malformed, or impossible after the records before it."""


Place = tuple[str, int, int]  # (player id, rank at the table from 1, game score)


@dataclass(frozen=True, slots=True)
class Pod:
    """The players of one table in one round, in seat order (seat 0 starts)."""

    table: str
    game_id: str
    players: tuple[str, ...]

    def to_record(self) -> dict[str, Any]:
        return {"table": self.table, "game_id": self.game_id, "players": list(self.players)}


@dataclass(frozen=True, slots=True)
class EventOpened:
    """The event begins: its game, the seat range of the game's pods, and its rules.

    ``event_id`` names the tables' games (``seating``), so it is lower-case letters, digits
    and dashes. ``bye_points`` is exact (``Fraction``; JSON holds it as a number).
    """

    kind: ClassVar[str] = "event_opened"
    event_id: str
    name: str
    game: str
    min_seats: int
    max_seats: int
    options: Mapping[str, Any] = field(default_factory=dict)
    points: str = "4-3-2-1"
    tie_breaks: tuple[str, ...] = DEFAULT_TIE_BREAKS
    preferred: int | None = None
    confirmations: bool = True
    bye_points: Fraction = Fraction(0)

    def to_record(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "event_id": self.event_id,
            "name": self.name,
            "game": self.game,
            "min_seats": self.min_seats,
            "max_seats": self.max_seats,
            "options": dict(self.options),
            "points": self.points,
            "tie_breaks": list(self.tie_breaks),
            "preferred": self.preferred,
            "confirmations": self.confirmations,
            "bye_points": _number(self.bye_points),
        }


@dataclass(frozen=True, slots=True)
class PlayerEntered:
    """A player joins the event: registered beforehand, or a late addition."""

    kind: ClassVar[str] = "player_entered"
    player: str
    name: str

    def to_record(self) -> dict[str, Any]:
        return {"kind": self.kind, "player": self.player, "name": self.name}


@dataclass(frozen=True, slots=True)
class CheckedIn:
    """A player is here and can be seated from the next seating on."""

    kind: ClassVar[str] = "checked_in"
    player: str

    def to_record(self) -> dict[str, Any]:
        return {"kind": self.kind, "player": self.player}


@dataclass(frozen=True, slots=True)
class Dropped:
    """A player leaves the event: not seated again; their points stay in the standings."""

    kind: ClassVar[str] = "dropped"
    player: str
    reason: str

    def to_record(self) -> dict[str, Any]:
        return {"kind": self.kind, "player": self.player, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class Returned:
    """A dropped player comes back (checked in again)."""

    kind: ClassVar[str] = "returned"
    player: str

    def to_record(self) -> dict[str, Any]:
        return {"kind": self.kind, "player": self.player}


@dataclass(frozen=True, slots=True)
class RoundSeated:
    """A round's pods (each at a table, with its game) and its byes. ``seed`` is the seed the
    seating drew with, kept so that the same seating can be computed again."""

    kind: ClassVar[str] = "round_seated"
    round: int
    seed: int
    pods: tuple[Pod, ...]
    byes: tuple[str, ...] = ()

    def to_record(self) -> dict[str, Any]:
        return _seating_record(self)


@dataclass(frozen=True, slots=True)
class RoundReseated:
    """The last round seated again (new seed, new pods and games), before any of its results:
    it replaces that round's seating."""

    kind: ClassVar[str] = "round_reseated"
    round: int
    seed: int
    pods: tuple[Pod, ...]
    byes: tuple[str, ...] = ()

    def to_record(self) -> dict[str, Any]:
        return _seating_record(self)


@dataclass(frozen=True, slots=True)
class ResultConfirmed:
    """A player of a table confirms its result (on their phone)."""

    kind: ClassVar[str] = "result_confirmed"
    game_id: str
    player: str

    def to_record(self) -> dict[str, Any]:
        return {"kind": self.kind, "game_id": self.game_id, "player": self.player}


@dataclass(frozen=True, slots=True)
class ResultOverride:
    """A judge sets a table's result (every player's rank and score), with who and why.

    It replaces the table's own result in the standings and is final at once; a later override
    of the same game replaces this one.
    """

    kind: ClassVar[str] = "result_override"
    game_id: str
    places: tuple[Place, ...]
    reason: str
    judge: str

    def to_record(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "game_id": self.game_id,
            "places": [list(place) for place in self.places],
            "reason": self.reason,
            "judge": self.judge,
        }


@dataclass(frozen=True, slots=True)
class OverrideCleared:
    """A judge withdraws a game's override: the table's own result counts again."""

    kind: ClassVar[str] = "override_cleared"
    game_id: str
    reason: str
    judge: str

    def to_record(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "game_id": self.game_id,
            "reason": self.reason,
            "judge": self.judge,
        }


@dataclass(frozen=True, slots=True)
class TimerSet:
    """A round's timer starts (or restarts) at ``started_at`` (ISO 8601) for ``minutes``."""

    kind: ClassVar[str] = "timer_set"
    round: int
    started_at: str
    minutes: int

    def to_record(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "round": self.round,
            "started_at": self.started_at,
            "minutes": self.minutes,
        }


@dataclass(frozen=True, slots=True)
class TimerStopped:
    """A round's timer stops at ``at`` (ISO 8601)."""

    kind: ClassVar[str] = "timer_stopped"
    round: int
    at: str

    def to_record(self) -> dict[str, Any]:
        return {"kind": self.kind, "round": self.round, "at": self.at}


@dataclass(frozen=True, slots=True)
class RoundClosed:
    """The organiser closes a round: it can no longer be re-seated. Seating the next round
    closes the one before it too; this record is how the last round of an event ends."""

    kind: ClassVar[str] = "round_closed"
    round: int

    def to_record(self) -> dict[str, Any]:
        return {"kind": self.kind, "round": self.round}


EventRecord = (
    EventOpened
    | PlayerEntered
    | CheckedIn
    | Dropped
    | Returned
    | RoundSeated
    | RoundReseated
    | ResultConfirmed
    | ResultOverride
    | OverrideCleared
    | TimerSet
    | TimerStopped
    | RoundClosed
)


def _number(value: Fraction) -> int | float | str:
    """An exact number for JSON: a whole number, a decimal that reads back exactly (2.5), or
    else a fraction in a string ("1/3")."""
    if value.denominator == 1:
        return value.numerator
    as_float = float(value)
    return as_float if Fraction(str(as_float)) == value else str(value)


def _seating_record(seating: RoundSeated | RoundReseated) -> dict[str, Any]:
    return {
        "kind": seating.kind,
        "round": seating.round,
        "seed": seating.seed,
        "pods": [pod.to_record() for pod in seating.pods],
        "byes": list(seating.byes),
    }


# -- parsing ---------------------------------------------------------------------------------


class _Fields:
    """Typed reads of one record's fields, each refusing in words what it cannot take."""

    def __init__(self, data: Mapping[str, Any], kind: str) -> None:
        self.data = data
        self.kind = kind

    def bad(self, key: str, want: str) -> EventRecordError:
        got = self.data.get(key)
        return EventRecordError(f"a {self.kind} record needs {key} as {want}, not {got!r}")

    def text(self, key: str, *, empty: bool = False) -> str:
        value = self.data.get(key)
        if not isinstance(value, str) or not (empty or value.strip()):
            raise self.bad(key, "a text" if empty else "a text that is not empty")
        return value

    def number(self, key: str, low: int = 0) -> int:
        value = self.data.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise self.bad(key, f"a whole number from {low}")
        return value

    def moment(self, key: str) -> str:
        value = self.text(key)
        try:
            datetime.fromisoformat(value)
        except ValueError:
            raise self.bad(key, "an ISO 8601 time such as 2026-05-02T19:30:00+00:00") from None
        return value

    def players(self, key: str, value: object = None) -> tuple[str, ...]:
        value = self.data.get(key) if value is None else value
        if not isinstance(value, list) or not all(isinstance(p, str) and p for p in value):
            raise self.bad(key, "a list of player ids")
        if len(set(value)) != len(value):
            raise EventRecordError(f"a {self.kind} record names a player twice in {key}")
        return tuple(value)


def _opened(f: _Fields) -> EventOpened:
    low, high = f.number("min_seats", 1), f.number("max_seats", 1)
    if low > high:
        raise EventRecordError(f"an event's pods need min_seats <= max_seats, not {low}-{high}")
    options = f.data.get("options", {})
    if not isinstance(options, dict) or not all(isinstance(k, str) for k in options):
        raise f.bad("options", "a mapping of option names to values")
    points = f.data.get("points", "4-3-2-1")
    if (problem := scheme_problem(points)) is not None:
        raise EventRecordError(problem)
    tie_breaks = f.data.get("tie_breaks", list(DEFAULT_TIE_BREAKS))
    if (
        not isinstance(tie_breaks, list)
        or not all(name in TIE_BREAKS for name in tie_breaks)
        or len(set(tie_breaks)) != len(tie_breaks)
    ):
        raise f.bad("tie_breaks", f"a list of distinct names among {', '.join(TIE_BREAKS)}")
    preferred = f.data.get("preferred")
    if preferred is not None:
        preferred = f.number("preferred", 1)
    confirmations = f.data.get("confirmations", True)
    if not isinstance(confirmations, bool):
        raise f.bad("confirmations", "true or false")
    bye = f.data.get("bye_points", 0)
    try:
        if isinstance(bye, bool) or not isinstance(bye, int | float | str):
            raise ValueError(bye)
        bye_points = Fraction(str(bye))
    except ValueError:
        raise f.bad("bye_points", "a number from 0 (such as 2.5, or 1/3)") from None
    if bye_points < 0:
        raise f.bad("bye_points", "a number from 0 (such as 2.5, or 1/3)")
    return EventOpened(
        event_id=f.text("event_id"),
        name=f.text("name"),
        game=f.text("game"),
        min_seats=low,
        max_seats=high,
        options=dict(options),
        points=points,
        tie_breaks=tuple(tie_breaks),
        preferred=preferred,
        confirmations=confirmations,
        bye_points=bye_points,
    )


def _pods(f: _Fields) -> tuple[Pod, ...]:
    raw = f.data.get("pods")
    if not isinstance(raw, list):
        raise f.bad("pods", "a list of pods")
    pods = []
    for item in raw:
        if not isinstance(item, dict):
            raise f.bad("pods", "a list of pods (table, game_id, players)")
        inner = _Fields(item, f"{f.kind} pod")
        pods.append(Pod(inner.text("table"), inner.text("game_id"), inner.players("players")))
    return tuple(pods)


def _seated(f: _Fields) -> RoundSeated:
    return RoundSeated(f.number("round", 1), f.number("seed"), _pods(f), f.players("byes"))


def _reseated(f: _Fields) -> RoundReseated:
    return RoundReseated(f.number("round", 1), f.number("seed"), _pods(f), f.players("byes"))


def _override(f: _Fields) -> ResultOverride:
    raw = f.data.get("places")
    want = "a list of [player, rank from 1, score]"
    if not isinstance(raw, list) or not raw:
        raise f.bad("places", want)
    places: list[Place] = []
    for item in raw:
        if (
            not isinstance(item, list | tuple)
            or len(item) != 3
            or not isinstance(item[0], str)
            or not item[0]
            or any(isinstance(x, bool) or not isinstance(x, int) for x in item[1:])
            or item[1] < 1
        ):
            raise f.bad("places", want)
        places.append((item[0], item[1], item[2]))
    f.players("places", [place[0] for place in places])  # each player once
    return ResultOverride(f.text("game_id"), tuple(places), f.text("reason"), f.text("judge"))


_PARSERS: dict[str, Callable[[_Fields], EventRecord]] = {
    EventOpened.kind: _opened,
    PlayerEntered.kind: lambda f: PlayerEntered(f.text("player"), f.text("name")),
    CheckedIn.kind: lambda f: CheckedIn(f.text("player")),
    Dropped.kind: lambda f: Dropped(f.text("player"), f.text("reason", empty=True)),
    Returned.kind: lambda f: Returned(f.text("player")),
    RoundSeated.kind: _seated,
    RoundReseated.kind: _reseated,
    ResultConfirmed.kind: lambda f: ResultConfirmed(f.text("game_id"), f.text("player")),
    ResultOverride.kind: _override,
    OverrideCleared.kind: lambda f: OverrideCleared(
        f.text("game_id"), f.text("reason"), f.text("judge")
    ),
    TimerSet.kind: lambda f: TimerSet(
        f.number("round", 1), f.moment("started_at"), f.number("minutes", 1)
    ),
    TimerStopped.kind: lambda f: TimerStopped(f.number("round", 1), f.moment("at")),
    RoundClosed.kind: lambda f: RoundClosed(f.number("round", 1)),
}
KINDS = tuple(_PARSERS)


def record_from(data: object) -> EventRecord:
    """The record a dict written by ``to_record`` describes; raises EventRecordError."""
    if not isinstance(data, Mapping):
        raise EventRecordError(f"an event record is a mapping with a kind, not {data!r}")
    kind = data.get("kind")
    parser = _PARSERS.get(kind) if isinstance(kind, str) else None
    if parser is None or not isinstance(kind, str):
        raise EventRecordError(
            f"{kind!r} is not a kind of event record: use one of {', '.join(KINDS)}"
        )
    return parser(_Fields(data, kind))
