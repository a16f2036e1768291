"""Replay time of a whole game: what a restart (or a ``kill -9``) costs a table.

A seeded 5-player long (9-round) Arcanum game is played by the simulated world through a real
table that logs every input to SQLite; then the table is rebuilt from that log the way
``scorekeeper serve`` does at start (``Store.load_table``), and from the log records already in
memory (``Table.replay``: the referee's share). Each is the median of 5.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from bench.common import report
from scorekeeper.core.table import Table, TableConfig
from scorekeeper.games import find_game
from scorekeeper.sim import find_world
from scorekeeper.store import Store

# A restart replays the log before the first request is served: the cold-start budget.
BUDGET_S = 1.5
SEATS = 5
OPTIONS = {"board": "sample", "length": "long"}


def run(seed: int = 1, repeat: int = 5) -> float:
    game = find_game("arcanum")
    world = find_world("arcanum")(SEATS, OPTIONS, seed)
    config = TableConfig(
        game="arcanum",
        seats=tuple(f"P{i + 1}" for i in range(SEATS)),
        options=OPTIONS,
        layout=game.default_layout(SEATS),
    )
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(f"sqlite:///{Path(tmp) / 'bench.db'}")
        table_id = store.create_table(config)
        table = Table(config, game, log=store.sink(table_id))
        inputs = 0
        while batch := world.next_inputs():
            for inp in batch:
                if not table.submit(inp).accepted:
                    raise RuntimeError(f"the referee refused the world's {inp.to_str()}")
                inputs += 1
        if not game.is_over(table.state):
            raise RuntimeError("the game did not end")
        rounds = game.view(table.state, "public").get("round")
        records = list(store.records(table_id))
        loads, replays = [], []
        for _ in range(repeat):
            start = time.perf_counter()
            loaded = store.load_table(table_id, game)
            loads.append(time.perf_counter() - start)
            start = time.perf_counter()
            replayed = Table.replay(config, game, records)
            replays.append(time.perf_counter() - start)
        store.close()
    if loaded.state != table.state or replayed.state != table.state:
        raise RuntimeError("the replayed state differs from the live one")
    load, pure = statistics.median(loads), statistics.median(replays)
    report(
        f"replay a 5-player long Arcanum game ({rounds} rounds, {inputs} inputs)",
        f"{load * 1000:.0f} ms from SQLite",
        f"<= {BUDGET_S} s (cold start)",
        load <= BUDGET_S,
    )
    report("  of which the referee (records in memory)", f"{pure * 1000:.0f} ms", "(part)", None)
    return load
