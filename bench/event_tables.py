"""A worker process of the event benchmark: a share of the simulated tables (bench/event.py).

Real table servers are too heavy to run 100 of on one machine, so each worker process runs
several tables, each the code a table's Pi runs: a service ``Hub`` on its own SQLite file with
a ``TableAgent`` publishing its event games' records over MQTT with the table's own broker
credentials. The worker's agents share one network thread (bench/mqtt_loop.py says why): a
record is written to the broker on the table's thread as it is committed. The inputs are a
simulated game's (scorekeeper/sim): the sightings and decisions a real table would produce,
so the referee accepts them. When a table's game runs out of
inputs it is ended and the table's next game (the next round) starts.

One pacing loop feeds the worker's tables in turn at the rate asked for; an input is accepted
when ``Hub.submit`` returns, and then stamped ``time.monotonic()`` (one clock for every process
of the machine) with its game and seq, which the hubs' stamps are matched against.

Hazards: where 100 tables on the hubs' own 2 cores are not 100 Pis, and what is done about it.

- Only here are the tables' stores run with ``synchronous=OFF``: 100 tables fsyncing on one
  disk is not what an event is (each Pi has its own card), and the fsync happens before an
  input counts as accepted, outside the latency measured. The records are the same. With no
  fsync to overlap, each table's log sink appends plainly (its measured choice is misled by
  25 tables in one process, and a hand-off to another thread is then only a cost).
- A worker's tables share one heap: ``gc.freeze()`` once they are open keeps the collection
  at each game's end (scorekeeper/service/memory.py) to what the games made since, as on a Pi
  with one table, instead of every table's objects.
- The workers run under Linux's ``SCHED_IDLE`` policy: at an event the tables are other
  machines, so the hubs, the broker and the database never wait here for a simulated table
  to give up a core; the tables get what the event's side leaves. They do all their work
  all the same; when the machine cannot keep up they fall behind their schedule, which the
  run reports (the inputs per second achieved, and how far the tables ran behind). (Niced
  instead, by 10, they still took their share of a busy moment: p99 66 against 38 ms at
  2,000 inputs/s, one run each.)

The parent drives a worker through a pipe: ``("plan", inputs_per_table)`` makes each
table's next games for a run and answers their configs; ``("go", start_at, per_s, seconds,
offset)`` plays them and answers the stamps and each game's last seq and chain; ``("stop",)``.
"""

from __future__ import annotations

import gc
import logging
import os
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from bench.mqtt_loop import SharedLoop
from scorekeeper.core.inputs import Decision, Seen
from scorekeeper.errors import ScorekeeperError
from scorekeeper.event import wire
from scorekeeper.event.table_agent import TableAgent
from scorekeeper.event.table_credentials import TableCredentials
from scorekeeper.games import find_game
from scorekeeper.service import Hub
from scorekeeper.service.log_sink import LockedSink
from scorekeeper.sim import find_world

GAME = "angels-and-demons"
SEATS = ("Ann", "Bea", "Cid")

Stamp = tuple[str, int, float]  # (game, seq, time.monotonic())


@dataclass
class SimTable:
    """One simulated table: its Hub, agent and the inputs of this run's games."""

    name: str
    hub: Hub
    agent: TableAgent
    plan: list[tuple[str, list[Seen | Decision]]] = field(default_factory=list)
    game: int = 0  # index into plan of the game being played
    cursor: int = 0  # next input of that game
    running: str | None = None  # the game started last
    touched: set[str] = field(default_factory=set)  # games played in the current run

    def left(self) -> int:
        """Inputs planned and not yet played."""
        return sum(len(inputs) for _game, inputs in self.plan[self.game :]) - self.cursor

    def step(self, stamps: list[Stamp]) -> bool:
        """Submit the table's next input and stamp it; False when its plan is used up."""
        while self.game < len(self.plan) and self.cursor >= len(self.plan[self.game][1]):
            self.game, self.cursor = self.game + 1, 0
        if self.game >= len(self.plan):
            return False
        game_id, inputs = self.plan[self.game]
        if self.running != game_id:
            if self.running is not None:
                self.hub.end(self.running)
            self.hub.start(game_id)
            self.running = game_id
            sink = self.hub.table(game_id).log
            if isinstance(sink, LockedSink):
                sink._overlap = False  # see the module's hazards
        inp = inputs[self.cursor]
        self.cursor += 1
        done = self.hub.submit(game_id, inp)
        stamps.append((game_id, done.seq, time.monotonic()))
        self.touched.add(game_id)
        return True


def _open_table(folder: Path, creds: dict[str, Any], network: SharedLoop) -> SimTable:
    login = TableCredentials.from_dict(creds)
    hub = Hub.open(folder / f"table-{login.table}.db")
    hub.store._conn.exec_driver_sql("PRAGMA synchronous=OFF")  # see the module's hazard
    agent = TableAgent(hub, login, network=network)
    agent.start()
    return SimTable(login.table, hub, agent)


def _plan(table: SimTable, event: str, wanted: int) -> list[dict[str, Any]]:
    """Create the table's next games until ``wanted`` inputs are planned beyond the ones
    played (a run goes on with the game the last one stopped in, so the tables' games start
    at different times, as they do once an event is under way); the new games' configs."""
    game = find_game(GAME)
    made: list[dict[str, Any]] = []
    count = table.left()
    while count < wanted:
        round_no = len(table.plan) + 1
        game_id = wire.game_id(event, round_no, table.name)
        seed = round_no * 1000 + int(table.name)  # a game of its own at every table
        inputs = list(find_world(GAME)(len(SEATS), {}, seed).inputs())
        table.hub.create_table(
            GAME,
            SEATS,
            options=game.resolve_options({}, len(SEATS)),
            layout=game.default_layout(len(SEATS)),
            table_id=game_id,
        )
        table.plan.append((game_id, inputs))
        made.append({"game": game_id, "config": table.hub.config(game_id).to_dict()})
        count += len(inputs)
    return made


def _play(
    tables: list[SimTable], start_at: float, per_s: float, seconds: float, offset: float
) -> dict[str, Any]:
    """Feed the tables in turn, ``per_s`` inputs a second in all, from ``start_at + offset``
    for ``seconds``; behind schedule it catches up without sleeping (an open loop)."""
    stamps: list[Stamp] = []
    for table in tables:
        table.touched = set()
    interval = 1.0 / per_s
    due = start_at + offset
    end = start_at + seconds
    turn = errors = ran_out = 0
    behind = 0.0
    while due < end:
        now = time.monotonic()
        if due > now:
            time.sleep(due - now)
        else:
            behind = max(behind, now - due)
        table = tables[turn % len(tables)]
        turn += 1
        due += interval
        try:
            if not table.step(stamps):
                ran_out += 1
        except ScorekeeperError:
            errors += 1
            logging.getLogger("bench.event").exception("a table refused an input")
    took = time.monotonic() - (start_at + offset)
    last: dict[str, tuple[int, str]] = {}
    for table in tables:
        for game_id, _status, seq in table.hub.store.overview():
            if seq and game_id in table.touched:
                chain = table.hub.store.raw_records(game_id, seq - 1, 1)[0][2]
                last[game_id] = (seq, chain)
    return {
        "stamps": stamps,
        "last": last,
        "submitted": len(stamps),
        "seconds": took,
        "errors": errors,
        "ran_out": ran_out,
        "behind": behind,
        "published": sum(t.agent.published for t in tables),
        "resent": sum(t.agent.resent for t in tables),
    }


def serve(conn: Connection, folder: str, event: str, creds: list[dict[str, Any]]) -> None:
    """The worker's life: open its tables, then do what the parent asks until ``stop``."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s %(message)s")
    os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))  # see the module's hazards
    tables = []
    network = SharedLoop()
    for creds_of_one in creds:
        # Spread over a heartbeat, as tables that joined at different times are: started
        # together, all of them would send their status in the same instant every 5 s.
        tables.append(_open_table(Path(folder), creds_of_one, network))
        time.sleep(wire.HEARTBEAT_S / len(creds))
    gc.freeze()  # see the module's hazards
    try:
        deadline = time.monotonic() + 50
        while not all(t.agent.connected for t in tables):
            if time.monotonic() > deadline:
                raise RuntimeError("a table could not connect to the broker within 50 s")
            time.sleep(0.02)
        conn.send(("ready",))
        while True:
            ask = conn.recv()
            if ask[0] == "plan":
                _, wanted = ask
                conn.send([g for t in tables for g in _plan(t, event, wanted)])
            elif ask[0] == "go":
                _, start_at, per_s, seconds, offset = ask
                conn.send(_play(tables, start_at, per_s, seconds, offset))
            else:
                return
    finally:
        for table in tables:
            table.agent.stop()
            table.hub.close()
        network.stop()
