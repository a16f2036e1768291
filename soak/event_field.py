"""A whole event on real servers, for the event fault campaigns (soak/event_faults.py).

``EventField`` sets up what an organiser and a venue would: a private PostgreSQL and a private
Mosquitto started with the event's own password file and ACL, the event made by ``scorekeeper
hub create``, several tables (each a service Hub on its own SQLite file with its TableAgent, on
its own broker credentials), and hub processes, each running ``scorekeeper hub serve`` under a
fixed ``--hub-number`` (forked from a warm parent, soak/event_zygote.py, so that a hundred
restarts do not pay Python's start-up a hundred times). An organiser in this process (an
``EventHub`` with no broker, on the same database) registers players and seats rounds; the hub
processes send each table its pod's game (a ``create`` command, when the table's status does
not list it) and the table plays a simulated game in it at a set pace.

``compare`` is what every fault ends with: for every game of every table, the hub's copy in
PostgreSQL is the table's own log byte for byte (none missing, none doubled: rows are also
counted per (game, seq)), its replay equals the table's live state and a fresh replay of the
table's log, and each hub process serves the same scores as the tables.

Hazards: a hub's broker session keeps its share of the shared subscription while it is dead
(scorekeeper/event/wire.py), so a killed hub must be started again under its number. A hub is
known to be connected when its log says "ingest connected" (the parent watches its output).
PostgreSQL must not be restarted while a hub process is starting (it would fail to open its
database): ``all_connected`` first.
"""

from __future__ import annotations

import contextlib
import io
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from random import Random
from typing import Any, Self

from sqlalchemy import func, select

from scorekeeper.core.inputs import Decision, Seen
from scorekeeper.core.table import TableConfig
from scorekeeper.event.broker_files import EventBroker
from scorekeeper.event.hub_service import EventHub
from scorekeeper.event.servers import PrivateMosquitto, PrivatePostgres, free_port
from scorekeeper.event.table_agent import TableAgent
from scorekeeper.event.table_credentials import TableCredentials
from scorekeeper.games import find_game
from scorekeeper.service import Hub
from scorekeeper.service.texts import RUNNING
from scorekeeper.sim import find_world
from scorekeeper.store import Store
from scorekeeper.store.base import LOG
from soak.event_hubs import EVENT, HubProcess, HubStarter

GAME = "angels-and-demons"
POD = 3  # players a table
ALL = 10_000_000  # more records than any game has
CONNECTED = "ingest connected"  # what a hub process logs once its ingest is connected
HEARTBEAT = 0.5  # seconds between a table's status messages (they let the hub ask for gaps)


class TableSide:
    """One table's Pi: a service Hub on its own SQLite file, its agent, its current game."""

    def __init__(self, name: str, creds: TableCredentials, db: Path) -> None:
        self.name = name
        self.creds = creds
        self.hub = Hub.open(db)
        self.agent = TableAgent(self.hub, creds, heartbeat=HEARTBEAT)
        self.games: list[str] = []
        self.inputs: list[Seen | Decision] = []
        self.done = 0
        self.lock = threading.Lock()

    def assign(self, game_id: str, config: TableConfig, seed: int) -> None:
        """The pod's game, seated at the hub: its simulated inputs are drawn, and they are
        played once the game is running here (a hub's ``create`` command makes it: the hubs
        send it when the table's status does not list the round's game)."""
        inputs = list(find_world(config.game)(len(config.seats), config.options, seed).inputs())
        with self.lock:
            self.games.append(game_id)
            self.inputs, self.done = inputs, 0

    def has(self, game_id: str) -> bool:
        """True once the game has been created at this table (by its agent)."""
        return game_id in self.hub.table_ids()

    def step(self) -> bool:
        """Play the next input of the current game; False when there is none (yet)."""
        with self.lock:
            if not self.games or self.done >= len(self.inputs):
                return False
            game = self.games[-1]
            if not self.has(game) or self.hub.status(game) != RUNNING:
                return False  # its create command has not come yet
            self.hub.submit(game, self.inputs[self.done])
            self.done += 1
            return True

    @property
    def over(self) -> bool:
        with self.lock:
            return bool(self.games) and self.done >= len(self.inputs)

    def offline(self) -> None:
        """The table's network goes: it plays on alone (its broker session stays)."""
        self.agent.stop()

    def online(self) -> None:
        """The network is back: a new agent connects and the hub asks for what it lacks."""
        self.agent = TableAgent(self.hub, self.creds, heartbeat=HEARTBEAT)
        self.agent.start()

    def last_seq(self, game_id: str) -> int:
        """The game's last record at this table (-1 while the table does not have it)."""
        if not self.has(game_id):
            return -1
        rows = self.hub.store.raw_records(game_id, 0, ALL)
        return int(rows[-1][0]) if rows else 0

    def close(self) -> None:
        self.agent.stop()
        self.hub.close()


@dataclass
class Comparison:
    """What ``EventField.compare`` found: counts, and each difference in a line."""

    games: int = 0
    records: int = 0  # the tables' records compared with the hub's copies
    hub_rows: int = 0  # the hub's rows for those games
    lost: int = 0  # a table's record the hub does not hold
    duplicated: int = 0  # rows beyond the first under one (game, seq)
    differ: int = 0  # a record the hub holds other than the table's, or one the table lacks
    replays_differ: int = 0  # games whose replay at the hub is not the table's state
    views_differ: int = 0  # seats whose score a hub process serves other than the table's
    problems: list[str] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        counts = (self.lost, self.duplicated, self.differ, self.replays_differ, self.views_differ)
        return not self.problems and not any(counts) and self.records > 0


class EventField:
    """The servers, the event, its tables and its hub processes (a context manager)."""

    def __init__(self, workdir: Path, tables: int, hubs: int, rng: Random) -> None:
        self.workdir = workdir
        self.rng = rng
        self.names = [str(n) for n in range(1, tables + 1)]
        self.hub_count = hubs
        self.folder = workdir / "event"
        self.postgres = PrivatePostgres()
        self.broker: PrivateMosquitto | None = None
        self.tables: dict[str, TableSide] = {}
        self.hubs: list[HubProcess] = []
        self.starter: HubStarter | None = None
        self.organiser: EventHub | None = None
        self.store: Store | None = None
        self.url = ""
        self.played = 0  # inputs the tables have submitted
        self.play_problems: list[str] = []
        self._stop = threading.Event()
        self._player: threading.Thread | None = None

    def __enter__(self) -> Self:
        try:
            self._set_up()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def _set_up(self) -> None:
        from scorekeeper.cli import main as cli

        self.postgres.start()
        self.url = self.postgres.create_database("event")
        port = free_port()
        create = ["hub", "create", EVENT, "--game", GAME, "--tables", str(len(self.names))]
        create += ["--broker-host", "127.0.0.1", "--broker-port", str(port), "--no-confirmations"]
        create += ["--pod-size", str(POD), "--db", self.url, "--dir", str(self.folder)]
        with contextlib.redirect_stdout(io.StringIO()):
            if cli(create) != 0:
                raise RuntimeError("scorekeeper hub create failed")
        event = EventBroker.load(self.folder)
        self.broker = PrivateMosquitto(
            port=port, config=event.conf(self.folder, listener=False, persistence=False)
        ).start()
        self.organiser = EventHub(self.url, EVENT)
        for n in range(POD * len(self.names)):
            self.organiser.register(f"Player {n + 1}", check_in=True)
        (self.workdir / "tables").mkdir(exist_ok=True)
        for name in self.names:
            creds = TableCredentials.read(self.folder / "tables" / f"{name}.json")
            side = TableSide(name, creds, self.workdir / "tables" / f"{name}.db")
            self.tables[name] = side
            side.agent.start()
        self.starter = HubStarter()
        for number in range(1, self.hub_count + 1):
            hub = HubProcess(number, self.url, self.folder, self.workdir, self.starter)
            self.hubs.append(hub)
            hub.start()

    def close(self) -> None:
        self.stop_playing()
        for hub in self.hubs:
            hub.stop()
        if self.starter is not None:
            self.starter.close()
        for side in self.tables.values():
            with contextlib.suppress(Exception):  # a close must reach every server
                side.close()
        for held in (self.organiser, self.store):
            if held is not None:
                with contextlib.suppress(Exception):
                    held.stop() if isinstance(held, EventHub) else held.close()
        if self.broker is not None:
            self.broker.remove()
        self.postgres.remove()

    # -- the event ------------------------------------------------------------------------------

    def seat_round(self) -> int:
        """Seat the next round and give each table its pod's game; returns the round."""
        assert self.organiser is not None
        seating = self.organiser.seat_next(seed=self.rng.randrange(1 << 31))
        for pod in seating.pods:
            config = self.organiser.store.config(pod.game_id)
            self.tables[pod.table].assign(pod.game_id, config, self.rng.randrange(1 << 30))
        return seating.round

    def play(self, pace: float) -> None:
        """Start the tables playing on a thread: each its next input every ``pace`` s."""
        self._stop.clear()
        self._player = threading.Thread(target=self._play, args=(pace,), daemon=True)
        self._player.start()

    def _play(self, pace: float) -> None:
        while not self._stop.wait(pace):
            for side in self.tables.values():
                try:
                    self.played += side.step()
                except Exception as exc:  # noqa: BLE001 - said in the result, play goes on
                    if len(self.play_problems) < 10:
                        self.play_problems.append(f"table {side.name} failed to play: {exc!r}")

    def stop_playing(self) -> None:
        self._stop.set()
        if self._player is not None:
            self._player.join(timeout=30)
            self._player = None

    def round_over(self) -> bool:
        """True when every table's game is over at the table and at the hub."""
        assert self.organiser is not None
        return all(s.over for s in self.tables.values()) and not self.organiser.waiting()

    def all_connected(self, timeout: float = 60.0) -> None:
        """Wait until every hub process's ingest is connected (RuntimeError on timeout)."""
        deadline = time.monotonic() + timeout
        for hub in self.hubs:
            if not hub.connected.wait(max(0.0, deadline - time.monotonic())):
                raise RuntimeError(f"hub {hub.number} did not connect (see {hub.log})")

    def games(self) -> Iterator[tuple[TableSide, str]]:
        for side in self.tables.values():
            for game in list(side.games):
                yield side, game

    def caught_up(self, timeout: float) -> bool:
        """Wait until the hub's store holds every table's every record without a gap (the
        tables' status heartbeats make the hubs ask for what they lack); False on timeout.

        Call it once the faults are over: its store connects then (a connection from before
        a PostgreSQL crash fails once more before it is replaced)."""
        if self.store is None:
            self.store = Store(self.url)
        deadline = time.monotonic() + timeout
        while True:
            behind = []
            for side, game in self.games():
                last = side.last_seq(game)
                if last < 0 or self.store.high_water(game) < last:
                    behind.append(game)
            if not behind:
                return True
            if time.monotonic() > deadline:
                return False
            time.sleep(0.05)  # the hubs are other processes: their inserts are polled for

    # -- the check every fault ends with --------------------------------------------------------

    def compare(self) -> Comparison:
        """Every game at the hub against its table's own log, replay and scores."""
        assert self.store is not None
        found = Comparison()
        game_rules = find_game(GAME)
        scores: dict[str, tuple[int, ...]] = {}
        for side, game in self.games():
            found.games += 1
            if not side.has(game):
                found.problems.append(f"table {side.name} never got its game {game}")
                continue
            mine = side.hub.store.raw_records(game, 0, ALL)
            copy = self.store.raw_records(game, 0, ALL)
            found.records += len(mine)
            have = {seq: (text, chain) for seq, text, chain in copy}
            want = {seq: (text, chain) for seq, text, chain in mine}
            lost = sorted(set(want) - set(have))
            differ = sorted(s for s in have if want.get(s) != have[s])
            found.lost += len(lost)
            found.differ += len(differ)
            if lost:
                found.problems.append(f"{game}: the hub lacks records {_span(lost)}")
            if differ:
                found.problems.append(f"{game}: the hub's records {_span(differ)} differ")
            fresh = side.hub.store.load_table(game, game_rules)
            replica = self.store.load_table(game, game_rules)
            live: Any = side.hub._get(game).table  # None once the game has ended
            states = [replica.state, fresh.state] + ([live.state] if live is not None else [])
            if any(state != fresh.state for state in states):
                found.replays_differ += 1
                found.problems.append(f"{game}: the hub's replay is not the table's state")
            scores[game] = tuple(int(s) for s in game_rules.scores(fresh.state))
        self._count_rows(found)
        self._compare_views(found, scores)
        return found

    def _count_rows(self, found: Comparison) -> None:
        """Rows per (game, seq) in the hub's database: one each, never two."""
        assert self.store is not None
        games = [g for _side, g in self.games()]
        per_key = (
            select(LOG.c.table_id, LOG.c.seq, func.count().label("n"))
            .where(LOG.c.table_id.in_(games))
            .group_by(LOG.c.table_id, LOG.c.seq)
            .subquery()
        )
        with self.store.engine.connect() as conn:
            keys, rows, most = conn.execute(
                select(func.count(), func.sum(per_key.c.n), func.max(per_key.c.n))
            ).one()
        found.hub_rows = int(rows or 0)
        found.duplicated = found.hub_rows - int(keys or 0)
        if found.duplicated:
            found.problems.append(f"{found.duplicated} rows doubled (up to {most} under one seq)")

    def _compare_views(self, found: Comparison, scores: dict[str, tuple[int, ...]]) -> None:
        """Each hub process's public view: the current round's scores are the tables'."""
        views = [hub.public_view() for hub in self.hubs]
        for hub, view in zip(self.hubs, views, strict=True):
            for pod in view["pods"]:
                served = tuple(seat["score"] for seat in pod["seats"])
                if served != scores.get(pod["game"]):
                    found.views_differ += 1
                    found.problems.append(
                        f"hub {hub.number} serves {pod['game']} with scores {served}, "
                        f"the table has {scores.get(pod['game'])}"
                    )
            if not view["pods"]:
                found.problems.append(f"hub {hub.number} serves no round")
        same = [{k: v for k, v in view.items() if k not in ("now", "version")} for view in views]
        if any(other != same[0] for other in same[1:]):
            found.problems.append("the hub processes serve different views of the event")


def _span(seqs: list[int]) -> str:
    """A few seqs in words: '3, 4, 9 (and 12 more)'."""
    shown = ", ".join(str(s) for s in seqs[:5])
    return shown + (f" (and {len(seqs) - 5} more)" if len(seqs) > 5 else "")
