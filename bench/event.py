"""Event mode's figures: 100 tables through the real broker into two hub processes.

The rig (bench/event_rig.py) runs a private PostgreSQL, a private Mosquitto with the event's
generated password file and ACL, two hub processes (an ``EventHub`` and its ``Ingest`` each,
bench/event_hub.py) and 100 simulated tables in 4 worker processes (a service ``Hub`` on its
own SQLite file and a ``TableAgent`` each, bench/event_tables.py), playing simulated games of
Angels & Demons. 20 inputs a second at each table (sightings, with the decisions the game asks
for among them) is what 8 readers give at 2.5 sightings a second each: 2,000 a second in all.

- latency: from a table's accepted input (``Hub.submit`` returned) to the first hub process
  whose view has it (stored in PostgreSQL, chain-checked and applied to the game's replica),
  one stamp each on the machine's monotonic clock; p50 and p99 over every input of the run;
- lost: records logged at a table that the hub's database lacks after the drain (up to 20 s,
  the resend protocol included); duplicated: rows beyond one per (game, seq) there;
- each hub process's resident memory at the end and CPU seconds during the run;
- the knee: shorter runs at rising loads until p99 passes 50 ms.

A 3-second run first warms the caches (the game's code imported, the database's plans made,
each table's first game started); it is not reported. The knee's runs come before the main
one (see ``_knee``); each run goes on with the games the last one stopped in, so the tables
start their next games at different times, as they do once an event is under way.
``python -m bench "event mode"`` runs only this.
"""

from __future__ import annotations

import math
import os
import tempfile
import time
from pathlib import Path

from bench.common import percentile, report
from bench.event_rig import HUBS, TABLES, EventRig, Run

LOAD = 2_000.0  # inputs per second in all: 100 tables x 8 readers x 2.5 sightings/s
SECONDS = 60.0
P99_BUDGET_MS = 50.0
# From 500/s, where every run so far kept the budget (p99 10-35 ms at 50-500/s), in steps
# fine enough to place the knee near the budget's 2,000/s.
KNEE_LADDER = (500.0, 1_000.0, 1_500.0, 2_000.0, 3_000.0, 4_000.0)
KNEE_SECONDS = 15.0
KNEE_TIME_S = 75.0  # the knee's share of the section's time: no new step after it


def _p(run: Run, pct: float) -> float:
    """The ``pct`` percentile of the run's latencies, an input no hub applied counting as
    infinitely late (so a run that left records behind cannot pass)."""
    every = run.latencies + [math.inf] * run.not_applied
    return percentile(every, pct) if every else math.inf


def _p_store(run: Run, pct: float) -> float:
    """The same to the hub's database: until an ingest knew the record stored, and every one
    before it (a record never stored counts as infinitely late)."""
    every = run.to_store + [math.inf] * (run.records - len(run.to_store))
    return percentile(every, pct) if every else math.inf


def _ms(value: float) -> str:
    if math.isinf(value):
        return "never (records missing)"
    return f"{value / 1000:.1f} s" if value >= 1000 else f"{value:.1f} ms"


def _passes(run: Run) -> bool:
    return _p(run, 99) <= P99_BUDGET_MS and run.lost == 0


def _short_of(run: Run) -> bool:
    """The tables could not offer the load asked for (10 % short): the rig's own limit."""
    return run.achieved < 0.9 * run.offered


def run(seconds: float = SECONDS, load: float = LOAD, knee_seconds: float = KNEE_SECONDS) -> Run:
    """Measure and print event mode's figures (the knee's runs, then the main one); returns
    the main run."""
    began = time.monotonic()
    load_avg = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="sk-bench-event-") as tmp, EventRig(Path(tmp)) as rig:
        rig.load(200.0, 3.0)
        # The knee first: the main run may leave a backlog behind that would hold up a run
        # after it.
        knee = _knee(rig, knee_seconds)
        main = rig.load(load, seconds)
    _report_main(main, load_avg)
    _report_knee(knee, main)
    print(f"  (the section took {time.monotonic() - began:.0f} s)", flush=True)
    return main


def _knee(rig: EventRig, seconds: float) -> list[Run]:
    """Runs up the ladder until one misses p99 (or loses a record), or the tables cannot
    offer more, or the knee's time is up. Upwards, so that the backlog a run that missed
    leaves behind holds up no run measured after it but the main one."""
    began = time.monotonic()
    done: list[Run] = []
    for load in KNEE_LADDER:
        if time.monotonic() - began > KNEE_TIME_S:
            break
        done.append(rig.load(load, seconds))
        if not _passes(done[-1]) or _short_of(done[-1]):
            break
    return done


def _report_main(run: Run, load_avg: float) -> None:
    report(
        f"event: {TABLES} tables -> {HUBS} hubs, {run.offered:,.0f} inputs/s, p99",
        f"{_ms(_p(run, 99))} (p50 {_ms(_p(run, 50))})",
        f"<= {P99_BUDGET_MS:.0f} ms",
        _p(run, 99) <= P99_BUDGET_MS,
    )
    report(
        "  the same to the hub's database (stored, none missing before)",
        f"{_ms(_p_store(run, 99))} (p50 {_ms(_p_store(run, 50))})",
        "a part of it",
        None,
    )
    if run.lost and run.arriving:
        said = f"{run.lost:,} not yet / {run.duplicated} (still arriving)"
    else:
        said = f"{run.lost:,} / {run.duplicated}"
    report(
        f"  records lost / duplicated at the hub, of {run.records:,}",
        said,
        "0 / 0",
        run.lost == 0 and run.duplicated == 0,
    )
    for n, hub in enumerate(run.hubs, 1):
        report(
            f"  hub process {n}: resident memory, CPU during the run",
            f"{hub['rss']:.0f} MB, {hub['cpu']:.1f} s ({100 * hub['cpu'] / run.seconds:.0f}%)",
            "reported",
            None,
        )
    cpu = ", ".join(f"{part} {sec:.0f} s" for part, sec in run.cpu.items())
    hubs = "; ".join(
        f"hub {n} stored {h['received']:,} (and {h['duplicates']:,} again), asked "
        f"{h['resends']:,} resends"
        for n, h in enumerate(run.hubs, 1)
    )
    drained = (
        f"every record at the hub {run.drained_in:.1f} s after the end"
        if not run.lost
        else f"{run.lost:,} records still missing {run.drained_in:.0f} s after the end"
    )
    stored = sum(h["received"] for h in run.hubs) / (run.seconds + run.counted_after)
    print(
        f"  ({run.seconds:.0f} s at {run.achieved:,.0f} inputs/s achieved; {drained}; "
        f"{hubs}, {stored:,.0f} records/s in all; the tables sent {run.resent:,} records "
        "again)\n"
        f"  (CPU seconds during the run: {cpu}; {os.cpu_count()} cores, shared with other "
        f"work: load average {load_avg:.1f} as this section began)",
        flush=True,
    )


def _report_knee(steps: list[Run], main: Run) -> None:
    for step in steps:
        print(
            f"  knee step: {step.offered:,.0f} inputs/s for {step.seconds:.0f} s "
            f"({step.achieved:,.0f}/s achieved): p99 {_ms(_p(step, 99))} "
            f"(to the database {_ms(_p_store(step, 99))}), "
            f"{step.lost:,} records missing after the drain",
            flush=True,
        )
    kept = [s.offered for s in steps if _passes(s)]
    missed = [s.offered for s in steps if not _passes(s) and s.offered > max(kept, default=0)]
    if missed:
        said = f"{min(missed):,.0f} inputs/s"
        said += f" ({max(kept):,.0f} kept it)" if kept else " (the lowest tried)"
        ok = min(missed) > LOAD
    elif steps and _short_of(steps[-1]):
        said = f"not reached: the tables gave {steps[-1].achieved:,.0f}/s at most"
        ok = True
    elif kept and not _passes(main):
        # The ladder ran out of time below the main run's load, which missed: between them.
        said = f"between {max(kept):,.0f} and {main.offered:,.0f} inputs/s"
        ok = False
    else:
        said = f"not reached up to {max(kept):,.0f} inputs/s" if kept else "not run"
        ok = bool(kept)
    report("  knee: the load at which p99 passes 50 ms", said, f"above {LOAD:,.0f}/s", ok)
