"""The event benchmark's rig: servers, an event, two hub processes and the table workers.

``EventRig`` starts a private PostgreSQL and a private Mosquitto that runs with the event's
own generated password file and ACL (scorekeeper/event/broker_files.py), creates the event
with its tables in the database, then starts two hub processes (bench/event_hub.py) and the
worker processes that run the simulated tables (bench/event_tables.py), all as real
subprocesses. ``load(per_s, seconds)`` plays one run and measures it (``Run``).

Every process stamps with ``time.monotonic()``, the machine's one monotonic clock, so a
table's stamp and a hub's compare directly.

Hazard: everything here shares the machine's cores with whatever else runs on it; the figures
are this machine's under that load, which ``Run`` reports beside them (the CPU each part used).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, distinct, func, select

from bench import event_hub, event_tables
from bench.server import _rss_mb
from scorekeeper.core.table import TableConfig
from scorekeeper.event.broker_files import EventBroker, hash_password, table_user
from scorekeeper.event.hub_service import EventHub
from scorekeeper.event.servers import PrivateMosquitto, PrivatePostgres, free_port
from scorekeeper.store.base import LOG

EVENT = "bench"
TABLES = 100
WORKERS = 4  # processes running the tables, TABLES / WORKERS each
HUBS = 2
DRAIN_S = 20.0  # how long records may take to reach the hubs after a run, resends included
START_S = 60.0  # how long a process may take to start and connect
TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds a process has used (from /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def tree_cpu_seconds(pid: int) -> float:
    """CPU seconds of a process, its children and theirs (PostgreSQL's: ``runuser``, the
    server and its backends, each of which runs in a session of its own)."""
    parents: dict[int, int] = {}
    used: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            parents[int(entry.name)] = int(fields[1])
            used[int(entry.name)] = (int(fields[11]) + int(fields[12])) / TICK
    tree, grew = {pid}, True
    while grew:
        more = {p for p, parent in parents.items() if parent in tree} - tree
        tree |= more
        grew = bool(more)
    return sum(used.get(p, 0.0) for p in tree)


@dataclass
class Run:
    """What one run measured. Latencies in ms, from a table's accepted input to the first
    hub process whose view applied it."""

    offered: float  # inputs per second asked for
    seconds: float  # how long the tables were fed
    achieved: float  # inputs per second the tables took
    latencies: list[float]
    to_store: list[float]  # the same to the database (stored, and every record before it)
    records: int  # records the tables logged in the run
    lost: int  # logged at a table, not stored at the hub after the drain
    arriving: bool  # records were still arriving when the drain gave up (a backlog)
    duplicated: int  # rows beyond one per (game, seq) in the hub's database
    not_applied: int  # accepted inputs no hub's view applied
    drained_in: float  # seconds from the run's end until the hub held every record
    counted_after: float  # seconds from the run's end until the hubs' counters were read
    behind: float  # the longest a table worker ran behind its schedule, seconds
    errors: int  # inputs a table refused with an error (none expected)
    published: int  # records the tables published as they were logged
    resent: int  # records the tables sent again when a hub asked
    hubs: list[dict[str, Any]] = field(default_factory=list)  # per hub: rss, cpu, counters
    cpu: dict[str, float] = field(default_factory=dict)  # CPU seconds by part, during the run


def _stored_at(highs: list[tuple[float, str, int]]) -> dict[tuple[str, int], float]:
    """(game, seq) -> the first time a hub's ingest said records 1..n (n >= seq) were stored,
    from the (when, game, n) each told."""
    covered: dict[str, int] = {}
    out: dict[tuple[str, int], float] = {}
    for at, game, high in sorted(highs):
        for seq in range(covered.get(game, 0) + 1, high + 1):
            out[game, seq] = at
        covered[game] = max(covered.get(game, 0), high)
    return out


class EventRig:
    """The whole rig (a context manager): ``load(per_s, seconds)`` runs and measures."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.tables = [str(n) for n in range(1, TABLES + 1)]
        self._stack = contextlib.ExitStack()
        self._procs: list[BaseProcess] = []
        self.hubs: list[tuple[BaseProcess, Connection]] = []
        self.workers: list[tuple[BaseProcess, Connection]] = []
        self._counted: list[dict[str, int]] = []  # each hub's counters as a run began

    def __enter__(self) -> EventRig:
        try:
            self._start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _start(self) -> None:
        # In a folder of its own: as root its files belong to the postgres user, who could
        # not enter this one.
        self.pg = self._stack.enter_context(PrivatePostgres())
        self.url = self.pg.create_database("bench_event")
        port = free_port()
        broker = EventBroker.generate(EVENT, self.tables, host="127.0.0.1", port=port)
        folder = self.tmp / "event"
        broker.write(folder)
        self.mosquitto = self._stack.enter_context(
            PrivateMosquitto(
                port=port, config=broker.conf(folder, listener=False, persistence=False)
            )
        )
        self.setup = EventHub(self.url, EVENT)
        self._stack.callback(self.setup.stop)
        self.setup.db.create_event(EVENT, "Benchmark", event_tables.GAME)
        for table in self.tables:
            user = table_user(EVENT, table)
            self.setup.db.add_table(EVENT, table, user, hash_password(broker.passwords[user]))
        self.setup.open()
        self.engine = create_engine(self.url)
        self._stack.callback(self.engine.dispose)
        self._stack.callback(self._stop_processes)
        spawn = multiprocessing.get_context("spawn")
        for n in range(1, HUBS + 1):
            self.hubs.append(
                self._spawn(spawn, event_hub.serve, (self.url, EVENT, broker.hub_credentials(), n))
            )
        share = TABLES // WORKERS
        for w in range(WORKERS):
            creds = [broker.credentials_for(t) for t in self.tables[w * share : (w + 1) * share]]
            (self.tmp / f"tables-{w}").mkdir()
            self.workers.append(
                self._spawn(
                    spawn, event_tables.serve, (str(self.tmp / f"tables-{w}"), EVENT, creds)
                )
            )
        for proc, conn in self.hubs + self.workers:
            try:
                ready = conn.poll(START_S) and conn.recv() == ("ready",)
            except EOFError:  # it died: its traceback is on stderr
                ready = False
            if not ready:
                raise RuntimeError(
                    f"the benchmark's process {proc.name} did not start within {START_S:.0f} s "
                    "(its error, if any, is above)"
                )

    def _spawn(
        self, ctx: Any, target: Any, args: tuple[Any, ...]
    ) -> tuple[BaseProcess, Connection]:
        mine, theirs = ctx.Pipe()
        proc = ctx.Process(target=target, args=(theirs, *args), daemon=True)
        proc.start()
        theirs.close()
        self._procs.append(proc)
        return proc, mine

    def _stop_processes(self) -> None:
        for _proc, conn in self.workers + self.hubs:
            with contextlib.suppress(OSError, ValueError):
                conn.send(("stop",))
        for proc in self._procs:
            proc.join(timeout=20)
            if proc.is_alive():
                proc.kill()
                proc.join(timeout=5)

    def close(self) -> None:
        self._stack.close()

    # -- one run ------------------------------------------------------------------------------

    def _cpu(self) -> dict[str, float]:
        parts = {f"hub {n}": cpu_seconds(p.pid or 0) for n, (p, _c) in enumerate(self.hubs, 1)}
        parts["tables"] = sum(cpu_seconds(p.pid or 0) for p, _c in self.workers)
        parts["PostgreSQL"] = tree_cpu_seconds(self.pg.proc.pid if self.pg.proc else -1)
        parts["Mosquitto"] = cpu_seconds(self.mosquitto.proc.pid if self.mosquitto.proc else -1)
        return parts

    def load(self, per_s: float, seconds: float) -> Run:
        """Feed every table ``per_s / TABLES`` inputs a second for ``seconds``, wait until the
        hubs hold every record, and measure."""
        wanted = int(per_s * seconds / TABLES) + 1
        for _proc, conn in self.workers:
            conn.send(("plan", wanted))
        plans = [game for _proc, conn in self.workers for game in conn.recv()]
        for game in plans:  # what seating a round does on the hub
            config = TableConfig.from_dict(game["config"])
            self.setup.store.create_table(config, table_id=game["game"])
        _late, _told, self._counted = self._take({}, 0)  # what came late from the last run
        before = self._cpu()
        start_at = time.monotonic() + 1.0
        for w, (_proc, conn) in enumerate(self.workers):
            share = per_s / len(self.workers)
            conn.send(("go", start_at, share, seconds, w / per_s))
        results = [conn.recv() for _proc, conn in self.workers]
        ended = time.monotonic()
        during = {k: v - before[k] for k, v in self._cpu().items()}
        last: dict[str, tuple[int, str]] = {}
        for result in results:
            last.update(result["last"])
        stored, arriving = self._wait_stored(last, ended)
        drained_in = time.monotonic() - ended
        applied, stored_at, counted = self._take(last, sum(u for _n, u, _top in stored.values()))
        counted_after = time.monotonic() - ended
        counters = [
            {name: now - then.get(name, 0) for name, now in hub.items()}
            for hub, then in zip(counted, self._counted, strict=True)
        ]
        stored = self._counts(list(last))  # as the counters stand: records stored meanwhile
        lost = sum(max(0, seq - stored.get(g, (0, 0, 0))[1]) for g, (seq, _c) in last.items())
        duplicated = sum(count - uniq for count, uniq, _top in stored.values())
        latencies: list[float] = []
        to_store: list[float] = []
        not_applied = 0
        for result in results:
            for game, seq, at in result["stamps"]:
                got = applied.get((game, seq))
                if got is None:
                    not_applied += 1
                else:
                    latencies.append((got - at) * 1000)
                if (game, seq) in stored_at:
                    to_store.append((stored_at[game, seq] - at) * 1000)
        submitted = sum(r["submitted"] for r in results)
        hubs = [
            {"rss": _rss_mb(proc.pid or 0), "cpu": during[f"hub {n}"], **counters[n - 1]}
            for n, (proc, _conn) in enumerate(self.hubs, 1)
        ]
        self._check_chains(last)
        return Run(
            offered=per_s,
            seconds=seconds,
            achieved=submitted / max(r["seconds"] for r in results),
            latencies=latencies,
            to_store=to_store,
            records=submitted,
            lost=lost,
            arriving=bool(lost) and arriving,
            duplicated=duplicated,
            not_applied=not_applied,
            drained_in=drained_in,
            counted_after=counted_after,
            behind=max(r["behind"] for r in results),
            errors=sum(r["errors"] for r in results),
            published=sum(r["published"] for r in results),
            resent=sum(r["resent"] for r in results),
            hubs=hubs,
            cpu=during,
        )

    def _counts(self, games: list[str]) -> dict[str, tuple[int, int, int]]:
        """Per game in the hub's database: (rows, distinct seqs, highest seq)."""
        query = (
            select(
                LOG.c.table_id, func.count(), func.count(distinct(LOG.c.seq)), func.max(LOG.c.seq)
            )
            .where(LOG.c.table_id.in_(games))
            .group_by(LOG.c.table_id)
        )
        with self.engine.connect() as conn:
            return {str(g): (int(n), int(u), int(top)) for g, n, u, top in conn.execute(query)}

    def _wait_stored(
        self, last: dict[str, tuple[int, str]], ended: float
    ) -> tuple[dict[str, tuple[int, int, int]], bool]:
        """Wait (up to DRAIN_S) until the hub's database holds records 1..last of every game;
        the counts, and whether records were still arriving in the last second."""
        games = list(last)
        history: list[tuple[float, int]] = []
        while True:
            stored = self._counts(games)
            now = time.monotonic()
            history.append((now, sum(u for _n, u, _top in stored.values())))
            whole = all(
                stored.get(g, (0, 0, 0))[1] == seq and stored[g][2] == seq
                for g, (seq, _c) in last.items()
            )
            if whole or now - ended > DRAIN_S:
                second_ago = [n for at, n in history if at <= now - 1.0]
                return stored, bool(second_ago) and history[-1][1] > second_ago[-1]
            time.sleep(0.1)

    def _take(
        self, last: dict[str, tuple[int, str]], wanted: int
    ) -> tuple[dict[tuple[str, int], float], dict[tuple[str, int], float], list[dict[str, Any]]]:
        """Every record's earliest apply time over the hubs (waiting up to 5 s for their views
        to apply the ``wanted`` records stored), the earliest time a hub's ingest knew it
        stored with every record before it, and each hub's ingest counters."""
        applied: dict[tuple[str, int], float] = {}
        highs: list[tuple[float, str, int]] = []
        deadline = grew = time.monotonic() + 5
        grew -= 5
        seen = 0
        while True:
            counters = []
            for _proc, conn in self.hubs:
                conn.send(("take",))
                stamps, told, counted = conn.recv()
                counters.append(counted)
                highs.extend((at, game, high) for game, high, at in told if game in last)
                for game, seq, at in stamps:
                    key = (game, seq)
                    if game in last and (key not in applied or at < applied[key]):
                        applied[key] = at
            now = time.monotonic()
            if len(applied) > seen:
                seen, grew = len(applied), now
            if len(applied) >= wanted or now > deadline or now - grew > 2.0:
                return applied, _stored_at(highs), counters
            time.sleep(0.1)

    def _check_chains(self, last: dict[str, tuple[int, str]]) -> None:
        """Each game's last record at the hub has the table's chain value (which covers every
        record before it): else the copies differ, which no figure may hide."""
        with self.engine.connect() as conn:
            for game, (seq, chain) in last.items():
                got = conn.execute(
                    select(LOG.c.chain).where(LOG.c.table_id == game, LOG.c.seq == seq)
                ).scalar()
                if got is not None and got != chain:
                    raise RuntimeError(
                        f"game {game}: the hub's record {seq} differs from the table's"
                    )
