"""Replay time of a whole game: what a restart (or a ``kill -9``) costs a table.

For every registered game, the longest of its world's seeded games at its largest seat count
(one per value of the option the throughput bench varies: Arcanum's long game, both King of the
Elves variants) is played by the simulated world through a real table that logs every input to
SQLite; then the table is rebuilt from that log the way ``scorekeeper serve`` does at start
(``Store.load_table``), and from the log records already in memory (``Table.replay``: the
referee's share). Each is the median of 5.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from bench.common import report
from scorekeeper.core.table import Table, TableConfig
from scorekeeper.games import find_game, game_ids
from scorekeeper.sim import find_world, has_world
from scorekeeper.store import Store

# A restart replays the log before the first request is served: the cold-start budget.
BUDGET_S = 1.5


def _longest(game_id: str, seed: int) -> dict[str, object]:
    """The options (the varied one's values in turn) whose seeded game at the largest seat count
    has the most inputs: the worst restart a table of this game meets."""
    game = find_game(game_id)
    varied = next((o for o in game.options if o.values and not o.ask), None)
    values = list(varied.values or ()) if varied is not None else []
    candidates = [{varied.name: v} for v in values] if varied is not None else [{}]
    best: tuple[int, dict[str, object]] = (-1, {})
    for options in candidates:
        world = find_world(game_id)(game.max_seats, options, seed)
        count = sum(len(batch) for batch in iter(world.next_inputs, []))
        if count > best[0]:
            best = (count, options)
    return best[1]


def run(game_id: str, seed: int = 1, repeat: int = 5) -> float:
    game = find_game(game_id)
    seats = game.max_seats
    options = _longest(game_id, seed)
    world = find_world(game_id)(seats, options, seed)
    config = TableConfig(
        game=game_id,
        seats=tuple(f"P{i + 1}" for i in range(seats)),
        options=options,
        layout=game.default_layout(seats),
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
        f"replay a {seats}-player {game.name} game "
        f"({_words(options)}{rounds} rounds, {inputs} inputs)",
        f"{load * 1000:.0f} ms from SQLite",
        f"<= {BUDGET_S} s (cold start)",
        load <= BUDGET_S,
    )
    report("  of which the referee (records in memory)", f"{pure * 1000:.0f} ms", "(part)", None)
    return load


def _words(options: dict[str, object]) -> str:
    return "".join(f"{name} {value}, " for name, value in options.items())


def runs() -> list[tuple[str, Callable[[], float]]]:
    """One replay step per registered game with a world, named for ``make bench``'s list."""
    return [
        (f"replay of a whole {find_game(g).name} game", partial(run, g))
        for g in game_ids()
        if has_world(g)
    ]
