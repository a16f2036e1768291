"""Event faults: hubs SIGKILLed at random, PostgreSQL and the broker restarted, a table offline
for a minute, all while the tables of a real event play; then nothing is lost or doubled.

The event runs on real servers (soak/event_field.py): a private PostgreSQL and Mosquitto (with
the event's password file and ACL), two ``scorekeeper hub serve`` processes sharing the tables
through MQTT 5 shared subscriptions, and tables that each play a simulated game on their own
SQLite log and replicate it through their TableAgent. While they play:

- a random hub process gets SIGKILL at a random moment, ``kills`` times, each time started
  again under the same hub number (its broker session keeps its share meanwhile);
- PostgreSQL is SIGKILLed and restarted now and then, and the broker restarted (soak only);
- one table loses its network for ``outage`` seconds and plays on alone, then catches up;
- when every game of a round is over, at the tables and at the hub, the next round is seated.

Then, once the hubs hold every record: for every game, the hub's copy is the table's log byte
for byte, with one row per (game, seq); its replay equals the table's state and a fresh replay
of the table's log; each hub process serves the tables' scores (``EventField.compare``).

``campaign(plan, ...)`` is the whole run (tests/event/test_faults.py runs it with 10 kills and a
5 s outage); ``run`` is the ``make soak`` row: 100 kills and a 60 s outage (docs/reliability.md).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from random import Random

from sqlalchemy.exc import SQLAlchemyError

from scorekeeper.errors import ScorekeeperError
from soak.event_field import Comparison, EventField, TableSide
from soak.report import Row, count

NAME = "event faults"
BUDGET = "all 0"
OUTAGE_S = 60.0  # the outage: a table offline for a minute while it plays


@dataclass(frozen=True)
class Plan:
    """What one run does: ``kills`` hub SIGKILLs, a table offline ``outage`` seconds,
    PostgreSQL and broker restarts spread over the kills; ``gap``: seconds between kills,
    drawn uniformly; ``pace``: seconds between two inputs at a table."""

    kills: int
    outage: float
    pg_restarts: int = 1
    broker_restarts: int = 0
    tables: int = 4
    hubs: int = 2
    gap: tuple[float, float] = (0.1, 0.8)
    pace: float = 0.04
    catch_up: float = 120.0  # seconds the hubs get to hold every record at the end


@dataclass
class Tally:
    """What a run did and found."""

    kills: int = 0
    pg_restarts: int = 0
    broker_restarts: int = 0
    offline_table: str = ""
    offline_s: float = 0.0
    rounds: int = 0
    played: int = 0
    seconds: float = 0.0
    comparison: Comparison = field(default_factory=Comparison)
    problems: list[str] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return self.comparison.clean and not self.problems


class Outage(threading.Thread):
    """One table's network gone for ``seconds`` while it plays on, then back."""

    def __init__(self, side: TableSide, seconds: float) -> None:
        super().__init__(name=f"outage-{side.name}", daemon=True)
        self.side = side
        self.seconds = seconds
        self.lasted = 0.0
        self._over = threading.Event()

    def run(self) -> None:
        self.side.offline()
        began = time.monotonic()
        end = began + self.seconds
        # the outage itself: a set length of time (a wait may wake a hair early: wait again)
        while not self._over.is_set() and (left := end - time.monotonic()) > 0:
            self._over.wait(left)
        self.lasted = time.monotonic() - began
        self.side.online()

    def cut_short(self) -> None:
        self._over.set()


def campaign(plan: Plan, *, seed: int, workdir: Path, progress: Callable[[str], None]) -> Tally:
    """Run ``plan`` on a fresh event in ``workdir`` (see the module docstring)."""
    rng = Random(seed)
    tally = Tally()
    began = time.monotonic()
    with EventField(workdir, plan.tables, plan.hubs, rng) as fld:
        fld.all_connected()
        tally.rounds = fld.seat_round()
        fld.play(plan.pace)
        restarts = _restart_moments(plan, rng)
        outage_at = rng.randrange(max(1, plan.kills // 3))
        outage = Outage(rng.choice(list(fld.tables.values())), plan.outage)
        tally.offline_table = outage.side.name
        try:
            for kill in range(plan.kills):
                if kill == outage_at:
                    outage.start()
                time.sleep(rng.uniform(*plan.gap))  # a random moment of play
                hub = rng.choice(fld.hubs)
                if not hub.connected.wait(60.0):
                    tally.problems.append(f"hub {hub.number} did not connect (see {hub.log})")
                    break
                hub.kill()
                hub.start()
                tally.kills += 1
                _restart(fld, restarts.get(kill), tally)
                _next_round(fld, tally)
                if tally.kills % 10 == 0:
                    progress(_progress(tally, fld))
            while outage.is_alive():
                outage.join(0.2)
                _next_round(fld, tally)
        finally:
            outage.cut_short()
            if outage.is_alive():
                outage.join()
            tally.offline_s = outage.lasted
        fld.stop_playing()
        tally.played = fld.played
        tally.problems += fld.play_problems
        fld.all_connected()
        progress(f"faults over after {time.monotonic() - began:.0f} s; waiting for the hubs")
        if not fld.caught_up(plan.catch_up):
            tally.problems.append(f"the hubs did not hold every record within {plan.catch_up} s")
        tally.comparison = fld.compare()
        for hub in fld.hubs:
            tally.problems += [f"hub {hub.number} ended by itself ({code})" for code in hub.exits]
    tally.seconds = time.monotonic() - began
    progress(_progress(tally, None))
    return tally


def _restart_moments(plan: Plan, rng: Random) -> dict[int, str]:
    """After which kills PostgreSQL and the broker restart (never two at one kill)."""
    wanted = ["postgres"] * plan.pg_restarts + ["broker"] * plan.broker_restarts
    moments = rng.sample(range(plan.kills), min(len(wanted), plan.kills))
    return dict(zip(moments, wanted, strict=False))


def _restart(fld: EventField, what: str | None, tally: Tally) -> None:
    if what == "postgres":
        fld.all_connected()  # a hub starting while the database is away would fail to open it
        fld.postgres.restart(kill=True)
        tally.pg_restarts += 1
    elif what == "broker" and fld.broker is not None:
        fld.broker.restart()
        tally.broker_restarts += 1


def _next_round(fld: EventField, tally: Tally) -> None:
    """Seat the next round once every game of this one is over (at the tables and the hub)."""
    try:
        if fld.round_over():
            tally.rounds = fld.seat_round()
    except (ScorekeeperError, SQLAlchemyError):
        pass  # the database restarting, or a result the hub has not replayed yet: next time


def _progress(tally: Tally, fld: EventField | None) -> str:
    played = fld.played if fld is not None else tally.played
    text = (
        f"{tally.kills} hub kills, {tally.pg_restarts} PostgreSQL and "
        f"{tally.broker_restarts} broker restarts, round {tally.rounds}, {played:,} inputs played"
    )
    if fld is None:
        c = tally.comparison
        text += (
            f"; {c.records:,} records compared: {c.lost} lost, {c.duplicated} duplicated, "
            f"{c.differ} differ"
        )
    return text


def row(plan: Plan, tally: Tally) -> Row:
    """The soak table's row for a run of ``plan``."""
    c = tally.comparison
    done = (
        f"{count(tally.kills, 'hub kill')}, {count(tally.pg_restarts, 'PostgreSQL restart')}, "
        f"{count(tally.broker_restarts, 'broker restart')}, table {tally.offline_table} "
        f"offline {tally.offline_s:.0f} s; {count(c.records, 'record')} of "
        f"{count(c.games, 'game')} compared ({count(tally.rounds, 'round')})"
    )
    lost = (
        f"{c.lost:,} lost, {c.duplicated:,} duplicated, {c.differ:,} differ, "
        f"{c.replays_differ} replays and {c.views_differ} scores differ"
    )
    ok = tally.clean and tally.kills == plan.kills and tally.offline_s >= plan.outage
    problems = (*c.problems, *tally.problems)
    if tally.kills < plan.kills:
        problems += (f"only {tally.kills} of {plan.kills} kills were made",)
    return Row(NAME, done, lost, BUDGET, ok, problems=problems[:10])


def run(kills: int, *, seed: int, workdir: Path, progress: Callable[[str], None]) -> Row:
    """The ``make soak`` row: ``kills`` hub SIGKILLs (100 at SOAK_SCALE=1) 0.1 to 1.5 s apart,
    a table offline for 60 s, PostgreSQL restarted every 25 kills and the broker every 50, six
    tables."""
    plan = Plan(
        kills=kills,
        outage=OUTAGE_S,
        pg_restarts=max(1, kills // 25),
        broker_restarts=max(1, kills // 50),
        tables=6,
        gap=(0.1, 1.5),  # kills spread over a few rounds of play
    )
    return row(plan, campaign(plan, seed=seed, workdir=workdir, progress=progress))
