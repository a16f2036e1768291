"""A whole event on real servers, for the event fault campaigns (soak/event_faults.py).

``EventField`` sets up what an organiser and a venue would: a private PostgreSQL and a private
Mosquitto started with the event's own password file and ACL, the event made by ``scorekeeper
hub create``, several tables (each a service Hub on its own SQLite file with its TableAgent, on
its own broker credentials), and hub processes, each running ``scorekeeper hub serve`` under a
fixed ``--hub-number`` (forked from a warm parent, soak/event_zygote.py, so that a hundred
restarts do not pay Python's start-up a hundred times). An organiser in this process (an
``EventHub`` with no broker, on the same database) registers players and seats rounds; each
table then creates its pod's game from the hub's config (what the ``create`` command does,
tested in tests/event/test_replication.py) and plays a simulated game at a set pace.

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
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from random import Random
from typing import Any, Self

import httpx
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
from scorekeeper.sim import find_world
from scorekeeper.store import Store
from scorekeeper.store.base import LOG

EVENT = "faults"
GAME = "angels-and-demons"
POD = 3  # players a table
ALL = 10_000_000  # more records than any game has
CONNECTED = "ingest connected"  # what a hub process logs once its ingest is connected
HEARTBEAT = 0.5  # seconds between a table's status messages (they let the hub ask for gaps)
REPO = str(Path(__file__).resolve().parents[1])  # where ``python -m soak.event_zygote`` is found
PYTHONPATH = os.environ.get("PYTHONPATH", "")


class HubStarter:
    """The warm parent that forks hub processes (soak/event_zygote.py) and a thread that
    hands what it says to each ``HubProcess``."""

    def __init__(self) -> None:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [REPO, PYTHONPATH])))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "soak.event_zygote"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
            env=env,
        )
        self.hubs: dict[int, HubProcess] = {}
        self._reader = threading.Thread(target=self._read, name="hub-starter", daemon=True)
        self._reader.start()

    def send(self, *message: Any) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(list(message)) + "\n")
        self.proc.stdin.flush()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            kind, number, pid, *rest = json.loads(line)
            self.hubs[int(number)].heard(str(kind), int(pid), rest)

    def close(self) -> None:
        """Stop every hub process (SIGTERM) and the parent."""
        if self.proc.stdin is not None:
            with contextlib.suppress(OSError):
                self.proc.stdin.close()
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self._reader.join(timeout=10)


class HubProcess:
    """One ``scorekeeper hub serve`` process under a fixed hub number: start, kill, stop.

    Each start is a fork of the warm parent (``HubStarter``) that runs the command; its output
    goes to ``hub<n>.log`` in the work folder. ``connected`` is set once its ingest says it is
    connected."""

    def __init__(
        self, number: int, url: str, folder: Path, workdir: Path, starter: HubStarter
    ) -> None:
        self.number = number
        self.url = url
        self.folder = folder
        self.log = workdir / f"hub{number}.log"
        self.starter = starter
        starter.hubs[number] = self
        self.pid = 0
        self.port = 0
        self.connected = threading.Event()
        self.starts = 0
        self.exits: list[int] = []  # exit codes of runs that ended other than by our kill
        self._ended: dict[int, int] = {}  # pid -> exit code
        self._heard = threading.Condition()

    def heard(self, kind: str, pid: int, rest: list[Any]) -> None:
        """What the parent said about one of this hub's processes."""
        with self._heard:
            if kind == "pid":
                self.pid = pid
            elif kind == "connected" and pid == self.pid:
                self.connected.set()
            elif kind == "exit":
                self._ended[pid] = int(rest[0])
            self._heard.notify_all()

    def start(self) -> None:
        self.port = free_port()
        self.connected.clear()
        self.starts += 1
        with self.log.open("a") as out:
            out.write(f"--- hub {self.number}, run {self.starts}\n")
        args = ["hub", "serve", EVENT, "--db", self.url, "--dir", str(self.folder)]
        args += ["--hub-number", str(self.number), "--port", str(self.port)]
        with self._heard:
            self.pid = 0
            self.starter.send("start", self.number, str(self.log), [*args, "--log-level", "info"])
            if not self._heard.wait_for(lambda: self.pid != 0, timeout=30):
                raise RuntimeError(f"hub {self.number} was not started (see {self.log})")

    def alive(self) -> bool:
        return self.pid != 0 and self.pid not in self._ended

    def _wait_end(self, timeout: float) -> int | None:
        with self._heard:
            self._heard.wait_for(lambda: self.pid in self._ended, timeout=timeout)
            return self._ended.get(self.pid)

    def kill(self) -> None:
        """SIGKILL the process and wait for its end (a run that ended by itself is noted)."""
        if self.alive():
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
        code = self._wait_end(20.0)
        if code is None:
            raise RuntimeError(f"hub {self.number} (pid {self.pid}) did not die of SIGKILL")
        if code != -signal.SIGKILL:
            self.exits.append(code)
        self.connected.clear()

    def stop(self) -> None:
        if self.alive():
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGTERM)
            if self._wait_end(20.0) is None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(self.pid, signal.SIGKILL)

    def public_view(self, timeout: float = 30.0) -> dict[str, Any]:
        """The hub's public view (``GET /api/event``), once its web server answers."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                answer = httpx.get(f"http://127.0.0.1:{self.port}/api/event", timeout=10.0)
                if answer.status_code == 200:
                    view: dict[str, Any] = answer.json()
                    return view
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline or not self.alive():
                raise RuntimeError(f"hub {self.number} does not serve its view (see {self.log})")
            time.sleep(0.05)


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
        """Create the pod's game as the hub configured it and start it (the one before
        ends), as the agent does on a ``create`` command; its simulated inputs are drawn."""
        inputs = list(find_world(config.game)(len(config.seats), config.options, seed).inputs())
        with self.lock:
            if self.games:
                self.hub.end(self.games[-1])
            self.hub.create_table(
                config.game,
                config.seats,
                options=config.options,
                layout=config.layout or None,
                kit=dict(config.kit) or None,
                name=config.name,
                table_id=game_id,
            )
            self.hub.start(game_id)
            self.games.append(game_id)
            self.inputs, self.done = inputs, 0

    def step(self) -> bool:
        """Play the next input of the current game; False when there is none."""
        with self.lock:
            if not self.games or self.done >= len(self.inputs):
                return False
            self.hub.submit(self.games[-1], self.inputs[self.done])
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
            behind = [g for side, g in self.games() if self.store.high_water(g) < side.last_seq(g)]
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
