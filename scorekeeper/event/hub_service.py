"""The event hub: one event's players, rounds, results and standings, over its tables' logs.

``EventHub`` is what ``scorekeeper hub`` runs (and the event API serves). It holds nothing the
database does not: the event's own records (``EventDb``: scorekeeper/event/event_db.py), the
tables' replicated game logs (the store, written by ``Ingest``) and what each table last said.
In memory it keeps only caches rebuilt from those: the folded event state (records read after
the last one folded) and each game's replay (``Replicas``). So a second hub process on the same
database and broker serves the same event, and killing either loses nothing.

Every organiser action is a record: it is checked against the event as it stands
(``state.apply`` refuses an impossible one in words), then appended. Seating a round also
creates each pod's game in the store and sends it to its table as a ``create`` command; a
judge's correction of a game travels to the table as an ``input`` command and enters the
table's own log, which replicates back.

Hazard: two hub processes act on the same event at once only through the database; an action
checked against a state that another hub changed a moment before is refused by ``apply`` on
the next fold, never written twice (the log's (event, seq) key is unique).
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any, TypeVar

from scorekeeper.core.game import Game
from scorekeeper.core.table import TableConfig
from scorekeeper.errors import ConfigError, NotFound
from scorekeeper.event import wire
from scorekeeper.event.event_db import EventDb
from scorekeeper.event.records import (
    CheckedIn,
    Dropped,
    EventOpened,
    EventRecord,
    OverrideCleared,
    PlayerEntered,
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
from scorekeeper.event.replicas import Replicas
from scorekeeper.event.seating import reseat_round, seat_round
from scorekeeper.event.standings import Standing, standings
from scorekeeper.event.state import EventState, GameResult, apply, waiting_for
from scorekeeper.games import find_game
from scorekeeper.store import Store

log = logging.getLogger("scorekeeper.event.hub")

# Seconds: the longest an unchanged status or health goes unwritten (every other 5 s
# heartbeat). Hazard: its seen_at must stay well within hub_views.SILENT (20 s).
SAID_EVERY = 9.0
Seating = TypeVar("Seating", RoundSeated, RoundReseated)
Kits = Callable[[Game[Any], Mapping[str, Any], int], Mapping[str, str]]


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True)
class BrokerLogin:
    """Where the hub's ingest connects, and as whom."""

    host: str
    port: int
    username: str = ""
    password: str = ""


class EventHub:
    """One event served by one hub process (see the module docstring).

    ``kits``: the tag registry each new game is created with, from (game, options, seats); by
    default none, and the table uses its own (docs/events.md); the demo gives its bots' kit.
    """

    def __init__(
        self,
        url: str,
        event_id: str,
        *,
        broker: BrokerLogin | None = None,
        hub_number: int = 1,
        kits: Kits | None = None,
    ) -> None:
        self.event_id = event_id
        self.hub_number = hub_number
        self._stopping = threading.Event()
        self.db = EventDb(url)
        self.store = Store(url)
        self.replicas = Replicas(self.store)
        self.kits = kits
        self._lock = threading.RLock()
        self._state = EventState()
        self._folded = 0  # the last event record folded
        self.changed = threading.Condition()
        self.version = 0  # grows whenever something the views show may have changed
        self.ingest: Any = None
        if broker is not None:
            from scorekeeper.event.ingest import Ingest  # paho only where a broker is used

            self.ingest = Ingest(
                self.store,
                event_id,
                broker.host,
                broker.port,
                broker.username,
                broker.password,
                client_id=wire.hub_client_id(event_id, hub_number),
                on_records=self._on_records,
                on_status=self._on_status,
                on_health=self._on_health,
                on_reply=self._on_reply,
                replicas=self.replicas,  # each stored run applied as it is, not read back
            )
        self.replies: dict[str, wire.Reply] = {}
        self._looked: dict[str, tuple[tuple[str, ...], float]] = {}  # table -> last look
        self._said: dict[tuple[str, str], tuple[float, Any]] = {}  # see _say

    # -- running --------------------------------------------------------------------------------

    def start(self) -> None:
        self.db.event(self.event_id)  # NotFound in words before anything connects
        if self.ingest is not None:
            self.ingest.start()
            if self.hub_number == 1:
                threading.Thread(target=self._watch_timer, name="round-timer", daemon=True).start()

    def stop(self) -> None:
        self._stopping.set()
        if self.ingest is not None:
            self.ingest.stop()
        self.store.close()
        self.db.close()

    def _watch_timer(self) -> None:
        """Announce the end of a round on every table's screen, once (hub number 1 only, so
        that two hubs do not say it twice; a hub restarted within a minute of the end still
        says it)."""
        announced: set[tuple[int, str]] = set()
        while not self._stopping.wait(1.0):
            try:
                timer = self.state().timer
                if timer is None or timer.stopped_at is not None:
                    continue
                key = (timer.round, timer.started_at)
                late = (datetime.now(UTC) - datetime.fromisoformat(timer.ends_at)).total_seconds()
                if key not in announced and 0 <= late < 60:
                    announced.add(key)
                    self.announce(f"Round {timer.round}: time is up. Finish the turn in play.")
                    self._bump()
            except Exception:  # noqa: BLE001 - the watcher must outlive a database outage
                log.warning("round timer check failed", exc_info=True)

    def _bump(self) -> None:
        with self.changed:
            self.version += 1
            self.changed.notify_all()

    def _on_records(self, game: str, _high: int) -> None:
        self._bump()

    def _on_status(self, table: str, status: Any) -> None:
        games = dict(status.games or {})
        online = bool(status.online)
        # Written when it changed (online, which games), else at most every SAID_EVERY
        # seconds: a write costs 4-8 ms and 100 tables say it every few seconds.
        self._say(table, "status", (online, sorted(games)), online=online, games=games)
        if status.online and self._due(table, games):
            self._send_missing(table, games)
        self._bump()

    def _due(self, table: str, games: Mapping[str, Any]) -> bool:
        """Whether to look for a table's missing game now: when what it holds changed, else
        every SAID_EVERY seconds (the look reads the event from the database)."""
        seen = (tuple(sorted(games)), time.monotonic() // max(SAID_EVERY, 0.001))
        if self._looked.get(table) == seen:
            return False
        self._looked[table] = seen
        return True

    def _send_missing(self, table: str, games: Mapping[str, Any]) -> None:
        """Send ``table`` this round's game again when its status does not list it.

        A hub killed just after seating a round has written the round but may never have
        sent (or even created) its games: the create commands were still in its client's
        queue. The next hub, or this one, makes up for it when the table next says what it
        holds (on connecting and every heartbeat). A create is idempotent at the table, so
        one that crosses the table's status on the way costs nothing."""
        last = self.state().last_round
        if last is None or last.closed:
            return
        for pod in last.pods:
            if pod.table == table and pod.game_id not in games:
                log.info(
                    "a table lacks its game of this round: sending it again",
                    extra={"event": self.event_id, "table": table, "game": pod.game_id},
                )
                self._send_games(RoundSeated(last.number, last.seed, (pod,)))

    def _on_health(self, table: str, health: Any) -> None:
        readers = list(health.readers)
        # Changed: a reader came, went, or its state or words changed (not its read count).
        shape = [(r.get("reader"), r.get("online"), r.get("detail")) for r in readers]
        self._say(table, "health", shape, health={"readers": readers})
        self._bump()

    def _say(self, table: str, what: str, shape: Any, **said: Any) -> None:
        """Write what ``table`` said (``EventDb.table_said``) when its ``shape`` (the part
        whose change matters at once) changed, or SAID_EVERY seconds after the last write.
        The cache is of writes that succeeded: a failed one is tried at the next message."""
        now = time.monotonic()
        last = self._said.get((table, what))
        if last is not None and last[1] == shape and now - last[0] < SAID_EVERY:
            return
        self.db.table_said(self.event_id, table, **said)
        self._said[(table, what)] = (now, shape)

    def _on_reply(self, table: str, reply: Any) -> None:
        if len(self.replies) > 1000:  # a few recent ones, for tests and the console
            self.replies.clear()
        self.replies[reply.id] = reply
        if reply.ok and reply.game is not None and reply.config is not None:
            self._take_config(reply.game, TableConfig.from_dict(reply.config))
        if not reply.ok:
            log.warning(
                "a table refused a command",
                extra={"event": self.event_id, "table": table, "error": reply.error},
            )
        self._bump()

    def _take_config(self, game_id: str, made: TableConfig) -> None:
        """Keep the config a table made its game with (its own kit filled in), so that the
        replica replays the table's log exactly as the table plays it."""
        try:
            if self.store.config(game_id).to_dict() == made.to_dict():
                return
            self.store.replace_config(game_id, made)
        except NotFound:
            return
        self.replicas.forget(game_id)
        log.info("a table's own config taken", extra={"event": self.event_id, "game": game_id})

    # -- the event as it stands -----------------------------------------------------------------

    def state(self) -> EventState:
        """The event folded up to its last record in the database."""
        with self._lock:
            for seq, data in self.db.records(self.event_id, after=self._folded):
                self._state = apply(self._state, record_from(data))
                self._folded = seq
            return self._state

    def opened(self) -> EventOpened:
        found = self.state().opened
        if found is None:
            raise ConfigError("the event is not open yet: open it first")
        return found

    def game(self) -> Game[Any]:
        return find_game(self.db.event(self.event_id)["game"])

    def results(self) -> dict[str, GameResult]:
        """Each seated game's result as its replica stands (games not yet created: none)."""
        out: dict[str, GameResult] = {}
        for game_id in self.state().games:
            try:
                over, places = self.replicas.result(game_id)
            except NotFound:
                continue
            out[game_id] = GameResult(game_id, over, places)
        return out

    def standings(self) -> tuple[Standing, ...]:
        return standings(self.state(), self.results())

    def table_names(self) -> list[str]:
        return [t["name"] for t in self.db.tables(self.event_id)]

    # -- records --------------------------------------------------------------------------------

    def record(self, record: EventRecord) -> int:
        """Check ``record`` against the event as it stands, then append it; returns its seq."""
        with self._lock:
            apply(self.state(), record)  # EventRecordError in words: nothing written
            seq = self.db.append(self.event_id, record.to_record())
        self.state()
        self._bump()
        log.info("event record", extra={"event": self.event_id, "seq": seq, "kind": record.kind})
        return seq

    def open(
        self,
        *,
        options: Mapping[str, Any] | None = None,
        points: str = "4-3-2-1",
        tie_breaks: Sequence[str] | None = None,
        preferred: int | None = None,
        confirmations: bool = True,
        bye_points: Fraction = Fraction(0),
    ) -> int:
        row = self.db.event(self.event_id)
        game = find_game(row["game"])
        extra: dict[str, Any] = {} if tie_breaks is None else {"tie_breaks": tuple(tie_breaks)}
        return self.record(
            EventOpened(
                event_id=self.event_id,
                name=row["name"],
                game=game.id,
                min_seats=game.min_seats,
                max_seats=game.max_seats,
                options=dict(options or {}),
                points=points,
                preferred=preferred,
                confirmations=confirmations,
                bye_points=bye_points,
                **extra,
            )
        )

    def enter(self, player: str) -> str:
        """Enter a registered player (by id) into the event; returns the id."""
        found = self.db.player(player)
        self.record(PlayerEntered(found["id"], found["name"]))
        return str(found["id"])

    def register(self, name: str, *, check_in: bool = False) -> str:
        """Register a new person, enter them, and check them in when asked; returns the id."""
        player = self.db.add_player(name)
        self.enter(player)
        if check_in:
            self.check_in(player)
        return player

    def check_in(self, player: str) -> None:
        """Check a player in (again: nothing happens)."""
        found = self.state().players.get(player)
        if found is None or not found.checked_in:
            self.record(CheckedIn(player))

    def drop(self, player: str, reason: str = "") -> None:
        self.record(Dropped(player, reason))

    def come_back(self, player: str) -> None:
        self.record(Returned(player))

    # -- rounds ---------------------------------------------------------------------------------

    def seat_next(self, seed: int | None = None) -> RoundSeated:
        """Seat the next round (refused in words while a result is not final; it closes the
        last round, which can no longer be re-seated), create each pod's game and send it to
        its table."""
        return self._seat(seat_round, seed)

    def reseat(self, seed: int | None = None) -> RoundReseated:
        """Seat the last round again (while none of its games has a result)."""
        return self._seat(reseat_round, seed)

    def _seat(self, how: Callable[..., Seating], seed: int | None) -> Seating:
        drawn = secrets.randbits(31) if seed is None else seed  # recorded with the seating
        seating = how(self.state(), self.results(), drawn, self.table_names())
        self.record(seating)
        self._send_games(seating)
        return seating

    def _send_games(self, seating: RoundSeated | RoundReseated) -> None:
        opened = self.opened()
        game = find_game(opened.game)
        state = self.state()
        for pod in seating.pods:
            seats = len(pod.players)
            options = game.resolve_options(opened.options, seats)
            config = TableConfig(
                game=game.id,
                seats=tuple(state.name(p) for p in pod.players),
                options=options,
                layout=game.default_layout(seats),
                kit=dict(self.kits(game, options, seats)) if self.kits else {},
                name=f"Round {seating.round}, table {pod.table}",
            )
            with contextlib.suppress(ConfigError):  # a second hub or an earlier try made it
                self.store.create_table(config, table_id=pod.game_id)
            self.send_create(pod.table, pod.game_id)

    def send_create(self, table: str, game_id: str) -> str | None:
        """(Re)send a game's ``create`` command to its table; idempotent at the table."""
        if self.ingest is None:
            return None
        config = self.store.config(game_id).to_dict()
        return str(self.ingest.send(table, wire.Create(wire_id(), game_id, config, start=True)))

    def start_timer(self, minutes: int, at: str | None = None) -> None:
        last = self.state().last_round
        if last is None:
            raise ConfigError("seat a round before starting its timer")
        self.record(TimerSet(last.number, at or now_iso(), minutes))
        self.announce(f"Round {last.number} has started: {minutes} minutes to play")

    def stop_timer(self, at: str | None = None) -> None:
        last = self.state().last_round
        if last is None:
            raise ConfigError("no round has a timer")
        self.record(TimerStopped(last.number, at or now_iso()))

    def announce(self, text: str, until: str | None = None) -> None:
        """Show ``text`` on every table's screen (a ``notice`` command to each)."""
        if self.ingest is None:
            return
        for table in self.table_names():
            self.ingest.send(table, wire.Notice(wire_id(), text, until))

    # -- results --------------------------------------------------------------------------------

    def confirm(self, game_id: str, player: str) -> None:
        """A player confirms their table's result: only once the game is over."""
        result = self.results().get(game_id)
        if result is None or not result.over:
            raise ConfigError("this game is still being played: confirm it once it has ended")
        self.record(ResultConfirmed(game_id, player))

    def close_round(self) -> None:
        """End the last round for good (it can no longer be re-seated)."""
        last = self.state().last_round
        if last is None:
            raise ConfigError("no round has been seated")
        self.record(RoundClosed(last.number))

    def override(
        self, game_id: str, places: Sequence[tuple[str, int, int]], reason: str, judge: str
    ) -> None:
        chosen = tuple((str(p), int(rank), int(score)) for p, rank, score in places)
        self.record(ResultOverride(game_id, chosen, reason, judge))

    def clear_override(self, game_id: str, reason: str, judge: str) -> None:
        self.record(OverrideCleared(game_id, reason, judge))

    def correct(
        self,
        game_id: str,
        record: Mapping[str, Any],
        *,
        expect_seq: int | None,
        by: str,
        reason: str,
    ) -> str:
        """Send a judge's input (an undo, a correction, a decision) to the game's table; it
        enters the table's own log when the table gets it (at once, or when it is back)."""
        found = self.state().games.get(game_id)
        if found is None:
            raise NotFound(f"no game {game_id!r} in this event")
        if self.ingest is None:
            raise ConfigError("this hub has no broker: it cannot reach the tables")
        command = wire.InputCommand(wire_id(), game_id, dict(record), expect_seq, by, reason)
        return str(self.ingest.send(found[1].table, command))

    def waiting(self) -> list[dict[str, Any]]:
        return [
            {"table": w.table, "game": w.game_id, "why": w.why, "missing": list(w.missing)}
            for w in waiting_for(self.state(), self.results())
        ]


def wire_id() -> str:
    from scorekeeper.event.ingest import new_command_id

    return new_command_id()
