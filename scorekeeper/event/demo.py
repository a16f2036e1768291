"""``make event-demo``: a whole event that runs itself, with a broker restart and a hub kill.

``EventDemo(options).run()`` starts a private PostgreSQL and Mosquitto (the Mosquitto with the
event's own password file and ACL, so every table logs in as itself), creates the event
(``scorekeeper hub create``), starts the hub (``scorekeeper hub serve``) and one table server
per table (``scorekeeper serve --event ... --bots``, each with its own SQLite file), all as
child processes. Then it is the organiser and the players: it registers the players, checks
each in with their code (which gives their phone its token), seats round after round, starts
the timer, and has the players confirm their table's result on their phones as each game
ends. Round 1 suffers a broker restart, round 2 a SIGKILL of the hub (it is started again).

At the end the standings the hub serves are compared with a fresh computation from the
event's records and every table's own log (scorekeeper/event/demo_check.py). ``run`` returns
0 when they are equal and every game's log at the hub is its table's, 1 otherwise.

Everything lives under ``options.folder`` (var/event-demo/, cleared at start): the servers'
files, the event's broker files, each table's database and every program's log. Everything
is stopped on the way out, also on Ctrl-C or SIGTERM.
"""

from __future__ import annotations

import contextlib
import shutil
import signal
import subprocess
import sys
import time
import webbrowser
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

from scorekeeper.event.broker_files import EventBroker
from scorekeeper.event.demo_check import Check, fresh_check, served_rows
from scorekeeper.event.demo_procs import DemoError, HubAway, HubClient, Program, scorekeeper_argv
from scorekeeper.event.servers import PrivateMosquitto, PrivatePostgres, free_port
from scorekeeper.games import DEFAULT_GAME, find_game

EVENT = "demo"
SEATS = 4  # players per table
TIMER_MINUTES = 50
_NAMES = (
    "Ada Ben Cleo Dev Edda Finn Gus Hana Ivo Jun Kai Lena Milo Nia Otto Pia Quin Rosa Sami "
    "Tove Uma Vik Wren Xavi Yara Zeno Alba Bram Cora Dario Elin Fede Greta Hugo Ines Joel "
    "Kira Luca Maja Nils Olga Pavel Rhea Sven Tara Ugo Vera Wim"
)
FIRST_NAMES = tuple(_NAMES.split())


# What decided a place, as the standings page says it (webui/event/common.js).
TIE_WORDS = {
    "points": "points",
    "tied": "tied: shares the place",
    "game_points": "game points",
    "table_share": "share of the table",
    "opponents": "opponents",
    "head_to_head": "head to head",
}


@dataclass(frozen=True)
class DemoOptions:
    """What ``scorekeeper event-demo`` was asked for (scorekeeper/commands/event_demo.py)."""

    tables: int = 12
    rounds: int = 3
    game: str = DEFAULT_GAME
    options: tuple[str, ...] = ()  # KEY=VALUE game options (hub create --option)
    pace: float = 0.05
    folder: Path = Path("var/event-demo")
    port: int = 8100
    browser: bool = True
    keep: bool = False
    faults: bool = True
    round_timeout: float = 600.0  # seconds a round may take before the demo gives up


def player_names(count: int) -> list[str]:
    """``count`` distinct first names (a number added once the list runs out)."""
    return [
        FIRST_NAMES[n % len(FIRST_NAMES)]
        + ("" if n < len(FIRST_NAMES) else f" {n // len(FIRST_NAMES) + 1}")
        for n in range(count)
    ]


class EventDemo:
    """One run of the event demo (see the module docstring); ``say`` prints progress."""

    def __init__(self, options: DemoOptions, say: Callable[[str], None] | None = None) -> None:
        self.o = options
        self.say = say or (lambda text: print(text, flush=True))
        self.folder = options.folder.resolve()
        self.event_dir = self.folder / "event"
        self.pg: PrivatePostgres | None = None
        self.broker: PrivateMosquitto | None = None
        self.hub: Program | None = None
        self.tables: dict[str, Program] = {}
        self.client: HubClient | None = None
        self.url = ""
        self.tokens: dict[str, str] = {}  # player id -> their phone's token

    # -- the whole run --------------------------------------------------------------------

    def run(self) -> int:
        """The demo from start to end; 0 when the standings check out, 1 when not."""
        old = signal.signal(signal.SIGTERM, _interrupt)
        try:
            self.start()
            for number in range(1, self.o.rounds + 1):
                self.play_round(number)
            code = self.finish()
            if self.o.keep:
                with contextlib.suppress(KeyboardInterrupt):
                    self.keep_serving()
                self.say("stopping: everything is shut down")
            return code
        except KeyboardInterrupt:
            self.say("stopped: everything is shut down")
            return 130
        finally:
            self.stop()
            signal.signal(signal.SIGTERM, old)

    # -- starting -------------------------------------------------------------------------

    def start(self) -> None:
        if self.folder.exists():
            shutil.rmtree(self.folder)
        self.folder.mkdir(parents=True)
        self.say(f"starting a private PostgreSQL and Mosquitto under {self.folder}")
        self.pg = PrivatePostgres(root=_postgres_root(self.folder)).start()
        self.url = self.pg.create_database("event_demo")
        broker_port = free_port()
        self._hub_create(broker_port)
        conf = EventBroker.load(self.event_dir).conf(
            self.event_dir, listener=False, persistence=False
        )
        self.broker = PrivateMosquitto(
            root=self.folder / "mosquitto", port=broker_port, config=conf
        ).start()
        tokens = self.event_dir / "organiser-token"
        token = tokens.read_text().strip()
        port = self.o.port if _port_free(self.o.port) else free_port()
        self.hub = Program(
            "the hub",
            scorekeeper_argv(
                "hub",
                "serve",
                EVENT,
                "--db",
                self.url,
                "--dir",
                str(self.event_dir),
                "--port",
                str(port),
                "--demo-kits",
                "--log-level",
                "warning",
            ),
            self.folder / "logs" / "hub.log",
        )
        self.hub.start()
        self.client = HubClient(f"http://127.0.0.1:{port}", token)
        for n in range(1, self.o.tables + 1):
            name = str(n)
            self.tables[name] = program = Program(
                f"table {name}",
                scorekeeper_argv(
                    "serve",
                    "--event",
                    str(self.event_dir / "tables" / f"{name}.json"),
                    "--db",
                    str(self.table_db(name)),
                    "--port",
                    str(free_port()),
                    "--bots",
                    "--bots-pace",
                    str(self.o.pace),
                    "--log-level",
                    "warning",
                ),
                self.folder / "logs" / f"table-{name}.log",
            )
            program.start()
        self.client.wait_up(self.hub)
        projector = f"http://127.0.0.1:{port}/projector"
        self.say(f"the hub serves the event: the projector is at {projector}")
        if sys.stdout.isatty():  # not into a log that outlives the demo
            self.say(f"  the organiser's console: http://127.0.0.1:{port}/?token={token}")
        else:
            self.say(f"  the organiser's console: http://127.0.0.1:{port}/ (token in {tokens})")
        self._register()
        self._wait_tables_online()
        if self.o.browser and _display():
            with contextlib.suppress(webbrowser.Error):
                webbrowser.open(projector)

    def table_db(self, name: str) -> Path:
        return self.folder / "tables" / f"{name}.db"

    def _hub_create(self, broker_port: int) -> None:
        argv = scorekeeper_argv(
            "hub", "create", EVENT, "--name", "Event demo", "--game", self.o.game,
            "--tables", str(self.o.tables), "--broker-host", "127.0.0.1",
            "--broker-port", str(broker_port), "--db", self.url, "--dir", str(self.event_dir),
            *(arg for pair in self.o.options for arg in ("--option", pair)),
        )  # fmt: skip
        done = subprocess.run(argv, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise DemoError(f"the event could not be created: {done.stderr.strip()}")
        self.say(
            f"event created: {self.o.tables} tables of {find_game(self.o.game).name}, "
            "each with its own broker login"
        )

    def _register(self) -> None:
        """Register the players at the desk; each checks in with their code on their phone."""
        client = self._client()
        for name in player_names(self.o.tables * SEATS):
            player = client.organiser(
                "POST", "/api/event/players", json={"name": name, "check_in": False}
            )["player"]
            self.tokens[player] = client.call(
                "POST", "/api/event/check-in", json={"player": player}
            )["token"]
        self.say(f"{len(self.tokens)} players registered and checked in on their phones")

    def _wait_tables_online(self, timeout: float = 90.0) -> None:
        """Wait until every table has logged in to the broker (a table that never connected
        has no session yet, so a command sent to it before would be lost)."""
        client = self._client()
        deadline = time.monotonic() + timeout
        while True:
            for program in self.tables.values():
                program.check()
            tables = client.organiser("GET", "/api/event/console")["tables"]
            online = sum(1 for t in tables if t["online"])
            if online == len(self.tables):
                self.say(f"all {online} tables are online")
                return
            if time.monotonic() > deadline:
                raise DemoError(f"only {online} of {len(self.tables)} tables came online")
            time.sleep(0.2)

    # -- a round --------------------------------------------------------------------------

    def play_round(self, number: int) -> None:
        """Seat round ``number``, start its timer, let the tables play, have the players
        confirm each result, and return once every result is final."""
        client = self._client()
        view = client.organiser("POST", "/api/event/rounds")
        client.organiser("POST", "/api/event/timer", json={"minutes": TIMER_MINUTES})
        pods = len(view["pods"])
        self.say(f"round {number}: seated at {pods} tables, the {TIMER_MINUTES}-minute timer runs")
        fault = {1: self._restart_broker, 2: self._kill_hub}.get(number) if self.o.faults else None
        finished = -1
        deadline = time.monotonic() + self.o.round_timeout
        for view in self._views(deadline, number):
            states = [p["status"] for p in view["pods"]]
            done = sum(1 for s in states if s in ("over", "final"))
            if done != finished:
                finished = done
                self.say(f"round {number}: {done} of {len(states)} tables finished")
            if fault is not None and "playing" in states:
                fault(number, done, len(states))
                fault = None
                continue
            if all(s == "final" for s in states) and not view["waiting"]:
                self.say(f"round {number}: every result is final")
                return
            with contextlib.suppress(HubAway):  # the next view, once it is back
                self._confirm(view)

    def _views(self, deadline: float, number: int) -> Iterator[dict[str, Any]]:
        """The public view each time the event changes (at most ~4 times a second), waiting
        out a hub that is away; DemoError past ``deadline`` or when a program died."""
        client = self._client()
        hub = self._hub()
        while True:
            for program in self.tables.values():
                program.check()
            if time.monotonic() > deadline:
                raise DemoError(
                    f"round {number} did not end within {self.o.round_timeout:.0f} s; the "
                    f"hub waits for: {self._waiting_words()} (logs in {self.folder / 'logs'})"
                )
            began, starts = time.monotonic(), hub.starts
            try:
                view = client.call("GET", "/api/event")
            except HubAway:
                hub.check()
                time.sleep(0.2)
                continue
            yield view
            if hub.starts == starts:  # a new hub counts its versions from 0 again
                with contextlib.suppress(HubAway):
                    client.changes(int(view["version"]))
            time.sleep(max(0.0, 0.25 - (time.monotonic() - began)))

    def _waiting_words(self) -> str:
        with contextlib.suppress(DemoError):
            waits = self._client().call("GET", "/api/event")["waiting"]
            return "; ".join(f"table {w['table']}: {w['why']}" for w in waits) or "nothing"
        return "(the hub does not answer)"

    def _confirm(self, view: dict[str, Any]) -> None:
        """Each player of a finished game confirms its result on their phone."""
        client = self._client()
        for pod in view["pods"]:
            if pod["status"] != "over":
                continue
            for seat in pod["seats"]:
                if seat["confirmed"]:
                    continue
                try:
                    client.call(
                        "POST",
                        f"/api/event/games/{pod['game']}/confirm",
                        self.tokens[seat["player"]],
                    )
                except DemoError as exc:
                    # Confirmed just before a hub was killed, which never answered.
                    if "already confirmed" not in str(exc):
                        raise

    # -- faults ---------------------------------------------------------------------------

    def _restart_broker(self, number: int, done: int, pods: int) -> None:
        assert self.broker is not None
        self.say(
            f"round {number}: the broker restarts now ({done} of {pods} tables finished); "
            "the tables play on and catch up when it is back"
        )
        self.broker.restart(down_for=0.5)
        self.say(f"round {number}: the broker is back")

    def _kill_hub(self, number: int, done: int, pods: int) -> None:
        hub = self._hub()
        self.say(
            f"round {number}: the hub is killed now (SIGKILL, {done} of {pods} tables "
            "finished); the tables play on and the broker keeps their records for it"
        )
        hub.kill()
        time.sleep(0.5)  # down for a moment: the tables go on meanwhile
        hub.start()
        self._client().wait_up(hub)
        self.say(f"round {number}: the hub is back, from the database alone")

    # -- the end --------------------------------------------------------------------------

    def finish(self, timeout: float = 20.0) -> int:
        """Close the last round, print the final standings and check them; 0 or 1."""
        client = self._client()
        client.organiser("POST", "/api/event/rounds/close")
        served = client.call("GET", "/api/event/standings.json")
        rows = served_rows(served)
        deadline = time.monotonic() + timeout
        while True:  # the hub's copies catch up with the tables' last records
            check = self._check()
            if not check.differing or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        self.say("final standings:")
        for s in served["standings"]:
            decided = TIE_WORDS.get(s.get("decided_by") or "", s.get("decided_by") or "")
            why = f"  (decided by {decided})" if decided else ""
            self.say(f"  {s['place']:>3}. {s['name']:<12} {s['points']:>5} points{why}")
        same = check.standings_equal(rows)
        self.say(
            "standings equal a fresh computation from every table's log: "
            + ("yes" if same else "NO")
        )
        if not same:
            self.say(f"  the hub served: {rows}")
            self.say(f"  computed afresh: {check.fresh}")
        logs_same = not check.differing
        self.say(
            f"every game's log at the hub is its table's, record for record: "
            f"{'yes' if logs_same else 'NO'} ({check.records} records)"
        )
        for words in check.differing:
            self.say(f"  {words}")
        return 0 if same and logs_same else 1

    def _check(self) -> Check:
        dbs = {name: self.table_db(name) for name in self.tables}
        return fresh_check(self.url, EVENT, dbs, self.folder / "check")

    def keep_serving(self) -> None:
        port = self._client().base
        self.say(f"still serving the event at {port}/projector: Ctrl-C stops it")
        while True:
            self._hub().check()
            time.sleep(1.0)

    def stop(self) -> None:
        """Stop every program and server (each once; safe after a failed start)."""
        programs = list(self.tables.values())
        for program in programs:
            program.signal(signal.SIGTERM)
        for program in programs:
            program.stop()
        if self.hub is not None:
            self.hub.stop()
        if self.client is not None:
            self.client.close()
        if self.broker is not None:
            self.broker.stop()
        if self.pg is not None:
            self.pg.stop()
            if not self.pg.root.is_relative_to(self.folder):  # a temp folder of its own
                shutil.rmtree(self.pg.root, ignore_errors=True)

    def _client(self) -> HubClient:
        assert self.client is not None
        return self.client

    def _hub(self) -> Program:
        assert self.hub is not None
        return self.hub


def _interrupt(_signum: int, _frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def _display() -> bool:
    import os

    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _postgres_root(folder: Path) -> Path | None:
    """Where the private PostgreSQL keeps its files: ``folder/postgres``, unless the demo runs
    as root in a folder the ``postgres`` user cannot reach (PostgreSQL refuses to run as root,
    so its files are that user's): then a folder of its own in the system's temp folder."""
    import os

    if os.geteuid() == 0 and any(
        not os.stat(parent).st_mode & 0o001 for parent in (folder, *folder.parents)
    ):
        return None
    return folder / "postgres"


def _port_free(port: int) -> bool:
    import socket

    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True
