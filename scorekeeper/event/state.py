"""The event as a pure fold of its records, and what the next round waits for.

``fold(records)`` gives the same ``EventState`` for the same records, always (invariant 1):
no clock, no I/O. ``apply`` refuses a record that is impossible after the ones before it with
``EventRecordError`` in words, and the state is then unchanged; the hub calls it before it
appends a record, so the event's log only ever holds records that fold.

The games' results are not records of the event: each table's Pi is the authority for its
game, and the hub replays the table's log into a ``GameResult`` per game id, passed in as a
value to the queries here and to standings and seating.

A result is final when the game is over and every player of the pod confirmed it (when the
event asks for confirmations), or when a judge overrode it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from scorekeeper.event.records import (
    CheckedIn,
    Dropped,
    EventOpened,
    EventRecord,
    EventRecordError,
    OverrideCleared,
    Place,
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
)


@dataclass(frozen=True, slots=True)
class GameResult:
    """A table's own result for one game, from a replay of its log: ``places`` holds
    (seat index in the pod, rank from 1, game score) for every seat."""

    game_id: str
    over: bool
    places: tuple[tuple[int, int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class Player:
    """One player of the event and whether they can be seated (checked in, not dropped)."""

    id: str
    name: str
    checked_in: bool = False
    dropped: bool = False
    drop_reason: str = ""

    @property
    def active(self) -> bool:
        return self.checked_in and not self.dropped


@dataclass(frozen=True, slots=True)
class Round:
    """A seated round as it stands (a re-seating replaced its pods; ``seatings`` counts)."""

    number: int
    seed: int
    pods: tuple[Pod, ...]
    byes: tuple[str, ...]
    seatings: int = 1
    closed: bool = False


@dataclass(frozen=True, slots=True)
class Timer:
    """A round's timer: started at ``started_at`` (ISO 8601) for ``minutes``."""

    round: int
    started_at: str
    minutes: int
    stopped_at: str | None = None

    @property
    def ends_at(self) -> str:
        """When the round's time is up (ISO 8601, in the start's time zone)."""
        end = datetime.fromisoformat(self.started_at) + timedelta(minutes=self.minutes)
        return end.isoformat()


@dataclass(frozen=True)
class EventState:
    """The folded event. Mappings are read-only by convention: ``apply`` builds new ones.

    ``games`` maps each game id of the rounds as they stand to (round number, pod); ``used``
    holds every game id ever seated, re-seated ones too, so that none is given twice.
    ``audit`` lists every override and cleared override in log order.
    """

    opened: EventOpened | None = None
    players: Mapping[str, Player] = field(default_factory=dict)
    rounds: tuple[Round, ...] = ()
    games: Mapping[str, tuple[int, Pod]] = field(default_factory=dict)
    used: frozenset[str] = frozenset()
    confirmed: Mapping[str, frozenset[str]] = field(default_factory=dict)
    overrides: Mapping[str, ResultOverride] = field(default_factory=dict)
    audit: tuple[ResultOverride | OverrideCleared, ...] = ()
    timer: Timer | None = None
    count: int = 0  # records folded

    def name(self, player: str) -> str:
        """A player's name for messages (their id when they never entered)."""
        found = self.players.get(player)
        return found.name if found else player

    @property
    def last_round(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None


def names(state: EventState, players: Iterable[str]) -> str:
    """Players' names as a phrase: "Ann", "Ann and Bo", "Ann, Bo and Cy"."""
    words = [state.name(p) for p in players]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def table_label(table: str) -> str:
    """A table's name as people read it: "Table 3" for "3" (a name that says table is kept)."""
    return table if table.lower().startswith("table") else f"Table {table}"


def _player(state: EventState, player: str) -> Player:
    found = state.players.get(player)
    if found is None:
        raise EventRecordError(f"{player!r} has not entered the event: enter them first")
    return found


def _with_player(state: EventState, player: Player) -> EventState:
    return replace(state, players={**state.players, player.id: player})


def _check_seating(state: EventState, seating: RoundSeated | RoundReseated) -> None:
    opened = state.opened
    assert opened is not None
    seen: set[str] = set()
    tables: set[str] = set()
    for pod in seating.pods:
        where = table_label(pod.table)
        if not opened.min_seats <= len(pod.players) <= opened.max_seats:
            raise EventRecordError(
                f"{where} has {len(pod.players)} players: {opened.game} pods hold "
                f"{opened.min_seats} to {opened.max_seats}"
            )
        if pod.table in tables:
            raise EventRecordError(f"{where} has two pods in round {seating.round}")
        if pod.game_id in state.used:
            raise EventRecordError(f"game {pod.game_id} was seated before: give a new game id")
        tables.add(pod.table)
    game_ids = [pod.game_id for pod in seating.pods]
    if len(set(game_ids)) != len(game_ids):
        raise EventRecordError(f"round {seating.round} gives one game id to two pods")
    for player in [p for pod in seating.pods for p in pod.players] + list(seating.byes):
        found = _player(state, player)
        if player in seen:
            raise EventRecordError(f"{found.name} is seated twice in round {seating.round}")
        seen.add(player)
        if found.dropped:
            raise EventRecordError(f"{found.name} has dropped and cannot be seated")
        if not found.checked_in:
            raise EventRecordError(f"{found.name} is not checked in and cannot be seated")


def _seat(state: EventState, record: RoundSeated | RoundReseated) -> EventState:
    last = state.last_round
    if isinstance(record, RoundSeated):
        expected = 1 if last is None else last.number + 1
        if record.round != expected:
            raise EventRecordError(
                f"round {record.round} cannot be seated now: the next round is round {expected}"
            )
    else:
        if last is None or record.round != last.number or last.closed:
            raise EventRecordError(
                f"round {record.round} cannot be re-seated: only the last round, while open"
            )
        started = [
            pod.game_id
            for pod in last.pods
            if pod.game_id in state.confirmed or pod.game_id in state.overrides
        ]
        if started:
            raise EventRecordError(
                f"round {record.round} cannot be re-seated: "
                f"{table_label(state.games[started[0]][1].table)} has a result"
            )
    _check_seating(state, record)
    rounds = list(state.rounds)
    games = dict(state.games)
    if isinstance(record, RoundReseated):
        assert last is not None
        for pod in last.pods:
            del games[pod.game_id]
        rounds[-1] = Round(record.round, record.seed, record.pods, record.byes, last.seatings + 1)
    else:
        if last is not None:
            rounds[-1] = replace(last, closed=True)
        rounds.append(Round(record.round, record.seed, record.pods, record.byes))
    for pod in record.pods:
        games[pod.game_id] = (record.round, pod)
    used = state.used | {pod.game_id for pod in record.pods}
    return replace(state, rounds=tuple(rounds), games=games, used=used)


def _pod(state: EventState, game_id: str) -> Pod:
    found = state.games.get(game_id)
    if found is None:
        raise EventRecordError(f"no table of the event plays game {game_id}")
    return found[1]


def _result(state: EventState, record: EventRecord) -> EventState:
    if isinstance(record, ResultConfirmed):
        pod = _pod(state, record.game_id)
        if record.player not in pod.players:
            raise EventRecordError(
                f"{state.name(record.player)} does not play at {table_label(pod.table)}"
            )
        done = state.confirmed.get(record.game_id, frozenset())
        if record.player in done:
            raise EventRecordError(f"{state.name(record.player)} has already confirmed")
        return replace(state, confirmed={**state.confirmed, record.game_id: done | {record.player}})
    if isinstance(record, ResultOverride):
        pod = _pod(state, record.game_id)
        if sorted(place[0] for place in record.places) != sorted(pod.players):
            raise EventRecordError(
                f"an override of {table_label(pod.table)} ranks exactly its players: "
                f"{names(state, pod.players)}"
            )
        overrides = {**state.overrides, record.game_id: record}
        return replace(state, overrides=overrides, audit=(*state.audit, record))
    assert isinstance(record, OverrideCleared)
    if record.game_id not in state.overrides:
        raise EventRecordError(f"game {record.game_id} has no override to clear")
    overrides = {k: v for k, v in state.overrides.items() if k != record.game_id}
    return replace(state, overrides=overrides, audit=(*state.audit, record))


def _round_record(state: EventState, record: TimerSet | TimerStopped | RoundClosed) -> EventState:
    last = state.last_round
    if last is None or record.round != last.number or last.closed:
        raise EventRecordError(f"round {record.round} is not the round being played")
    if isinstance(record, TimerSet):
        return replace(state, timer=Timer(record.round, record.started_at, record.minutes))
    if isinstance(record, TimerStopped):
        timer = state.timer
        if timer is None or timer.round != record.round or timer.stopped_at is not None:
            raise EventRecordError(f"the timer of round {record.round} is not running")
        return replace(state, timer=replace(timer, stopped_at=record.at))
    rounds = (*state.rounds[:-1], replace(last, closed=True))
    return replace(state, rounds=rounds)


def _apply(state: EventState, record: EventRecord) -> EventState:
    if isinstance(record, EventOpened):
        if state.opened is not None:
            raise EventRecordError(f"the event {state.opened.name} is already open")
        return replace(state, opened=record)
    if state.opened is None:
        raise EventRecordError("the event is not open yet: its first record opens it")
    if isinstance(record, PlayerEntered):
        if record.player in state.players:
            found = state.players[record.player]
            raise EventRecordError(f"{record.player!r} has already entered, as {found.name}")
        return _with_player(state, Player(record.player, record.name))
    if isinstance(record, CheckedIn | Dropped | Returned):
        found = _player(state, record.player)
        if isinstance(record, CheckedIn):
            if found.dropped:
                raise EventRecordError(f"{found.name} has dropped: bring them back with return")
            if found.checked_in:
                raise EventRecordError(f"{found.name} is already checked in")
            return _with_player(state, replace(found, checked_in=True))
        if isinstance(record, Dropped):
            if found.dropped:
                raise EventRecordError(f"{found.name} has already dropped")
            return _with_player(state, replace(found, dropped=True, drop_reason=record.reason))
        if not found.dropped:
            raise EventRecordError(f"{found.name} has not dropped")
        return _with_player(state, replace(found, dropped=False, checked_in=True, drop_reason=""))
    if isinstance(record, RoundSeated | RoundReseated):
        return _seat(state, record)
    if isinstance(record, ResultConfirmed | ResultOverride | OverrideCleared):
        return _result(state, record)
    return _round_record(state, record)


def apply(state: EventState, record: EventRecord) -> EventState:
    """The state after ``record``; raises EventRecordError (state unchanged) when the record
    is impossible here."""
    return replace(_apply(state, record), count=state.count + 1)


def fold(records: Iterable[EventRecord]) -> EventState:
    """The event after every record in order (an empty log gives an event not yet open)."""
    state = EventState()
    for record in records:
        state = apply(state, record)
    return state


# -- results ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Waiting:
    """A pod whose result is not final yet, and why in words (``missing``: who has not
    confirmed, when that is the reason)."""

    table: str
    game_id: str
    why: str
    missing: tuple[str, ...] = ()


def _places_of(pod: Pod, result: GameResult) -> tuple[Place, ...] | None:
    """The table's result by player, or None when it does not cover the pod's seats."""
    seats = sorted(place[0] for place in result.places)
    if seats != list(range(len(pod.players))):
        return None
    return tuple((pod.players[seat], rank, score) for seat, rank, score in result.places)


def _why_not_final(
    state: EventState, pod: Pod, results: Mapping[str, GameResult]
) -> Waiting | None:
    if pod.game_id in state.overrides:
        return None
    where = table_label(pod.table)
    result = results.get(pod.game_id)
    if result is None or not result.over:
        return Waiting(pod.table, pod.game_id, f"{where} is still playing")
    if _places_of(pod, result) is None:
        why = f"{where}: its result does not give every seat a place; a judge must set it"
        return Waiting(pod.table, pod.game_id, why)
    assert state.opened is not None
    if state.opened.confirmations:
        done = state.confirmed.get(pod.game_id, frozenset())
        missing = tuple(p for p in pod.players if p not in done)
        if missing:
            verb = "has" if len(missing) == 1 else "have"
            why = f"{where}: {names(state, missing)} {verb} not confirmed"
            return Waiting(pod.table, pod.game_id, why, missing)
    return None


def final_places(
    state: EventState, game_id: str, results: Mapping[str, GameResult]
) -> tuple[Place, ...] | None:
    """A game's final places by player (the judge's override when there is one); None while
    the result is not final."""
    found = state.games.get(game_id)
    if found is None:
        return None
    pod = found[1]
    if game_id in state.overrides:
        return state.overrides[game_id].places
    if _why_not_final(state, pod, results) is not None:
        return None
    return _places_of(pod, results[game_id])


def waiting_for(state: EventState, results: Mapping[str, GameResult]) -> tuple[Waiting, ...]:
    """The pods of the last seated round whose result is not final, in table order."""
    last = state.last_round
    if last is None:
        return ()
    found = (_why_not_final(state, pod, results) for pod in last.pods)
    return tuple(waiting for waiting in found if waiting is not None)


def can_seat_next(state: EventState, results: Mapping[str, GameResult]) -> bool:
    """Whether the next round may be seated: the event is open and every result of the last
    round is final."""
    return state.opened is not None and not waiting_for(state, results)
