"""A long event: start time and resident memory of ``scorekeeper serve`` with 500 finished games.

The games are written straight into a store by the code the server runs (``Hub``: a seeded bot
world's inputs submitted to each table, logged through the store's log sink, then the table
ended, which stores its summary), not through HTTP, so that the step takes about a minute. Only
here is the store's ``synchronous`` pragma turned off while it is filled: the rows are the same,
the fsync of each input (what a real table pays) would make this step last an hour.

Start time is the wall time from spawning ``scorekeeper serve`` on that store to its first 200 on
``/api/tables`` (median of 3); memory is its VmRSS after it listed every table (archived too),
and again after it showed the full view of 20 finished ones (each replayed on demand, a few
kept loaded: the first view also imports the game's code, as any server showing a table does).
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import httpx

from bench.common import percentile, report
from bench.server import _rss_mb, _spawn
from scorekeeper.service.hub import Hub
from scorekeeper.service.tokens import token_file_for
from scorekeeper.sim import find_world
from scorekeeper.store import Store

GAMES = 500
SEEDS = 10  # distinct bot games, dealt again in turn (the world is slower than the referee)
GAME = "angels-and-demons"
SEATS = ("Ann", "Bea", "Cid")
START_BUDGET_S = 1.5
RSS_BUDGET_MB = 80.0


def fill(db: Path, games: int = GAMES) -> int:
    """Write ``games`` finished games into a fresh store at ``db``; returns the inputs logged."""
    worlds = [list(find_world(GAME)(len(SEATS), {}, seed).inputs()) for seed in range(SEEDS)]
    store = Store(f"sqlite:///{db}")
    store._conn.exec_driver_sql("PRAGMA synchronous=OFF")
    hub = Hub(store, token_file=token_file_for(db))
    logged = 0
    try:
        for n in range(games):
            table_id = hub.create_table(GAME, SEATS)
            hub.start(table_id)
            for inp in worlds[n % SEEDS]:
                hub.submit(table_id, inp)
            logged += hub.inputs_seen(table_id)
            hub.end(table_id)
    finally:
        hub.close()
    return logged


def run(starts: int = 3) -> tuple[float, float, float]:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "event.db"
        began = time.perf_counter()
        logged = fill(db)
        filled = time.perf_counter() - began
        times = []
        for _ in range(starts):
            proc, url, took = _spawn(db)
            times.append(took)
            if len(times) < starts:
                proc.terminate()
                proc.wait(timeout=20)
        try:
            with httpx.Client(base_url=url, timeout=30) as client:
                listed = client.get("/api/tables", params={"archived": "true"})
                listed.raise_for_status()
                ids = [row["id"] for row in listed.json()]
                if len(ids) != GAMES:
                    raise RuntimeError(f"the server lists {len(ids)} tables, not {GAMES}")
                listed_rss = _rss_mb(proc.pid)
                for table_id in ids[:: len(ids) // 20][:20]:
                    client.get(f"/api/tables/{table_id}").raise_for_status()
            rss = _rss_mb(proc.pid)
        finally:
            proc.terminate()
            proc.wait(timeout=20)
    median = percentile(times, 50)
    report(
        f"start, {GAMES} finished games in the store (median of {starts})",
        f"{median:.2f} s (max {max(times):.2f})",
        f"<= {START_BUDGET_S} s",
        median <= START_BUDGET_S,
    )
    report(
        f"  resident memory, {GAMES} finished games listed",
        f"{listed_rss:.1f} MB",
        f"<= {RSS_BUDGET_MB:.0f} MB",
        listed_rss <= RSS_BUDGET_MB,
    )
    report(
        "  the same, after 20 of them were viewed",
        f"{rss:.1f} MB",
        f"<= {RSS_BUDGET_MB:.0f} MB",
        rss <= RSS_BUDGET_MB,
    )
    print(f"  ({GAMES} games, {logged} inputs, written in {filled:.0f} s)", flush=True)
    return median, listed_rss, rss
