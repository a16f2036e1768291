"""Referee throughput: inputs per second through Referee.apply on random full games.

The world's inputs are generated first (untimed); only the referee's work is timed, on one core.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial

from bench.common import report
from scorekeeper.core.inputs import Decision, Seen
from scorekeeper.core.referee import Referee
from scorekeeper.games import DEFAULT_GAME, find_game, game_ids
from scorekeeper.sim import find_world

BUDGET = 20_000.0


def _game_inputs(
    game_id: str, seats: int, options: dict[str, object], seed: int
) -> list[Seen | Decision]:
    world = find_world(game_id)(seats, options, seed)
    out: list[Seen | Decision] = []
    while True:
        batch = world.next_inputs()
        if not batch:
            return out
        out.extend(batch)


def _setups(game_id: str, games: int) -> list[tuple[int, dict[str, object]]]:
    """Seats and options of the timed games: every player count in turn, and the values of
    the game's first option with a list of them (its main variant or length) in turn, the rest
    at their defaults. Built from the game's declared options, so a new game needs no line
    here; one option only, so that the figure stays comparable from one version to the next."""
    game = find_game(game_id)
    seat_counts = range(game.min_seats, game.max_seats + 1)
    varied = next((o for o in game.options if o.values and not o.ask), None)
    out: list[tuple[int, dict[str, object]]] = []
    for seed in range(games):
        options: dict[str, object] = {}
        if varied is not None and varied.values:
            options[varied.name] = varied.values[seed % len(varied.values)]
        out.append((seat_counts[seed % len(seat_counts)], options))
    return out


def run(game_id: str = DEFAULT_GAME, games: int = 60) -> float:
    game = find_game(game_id)
    corpus = [
        (seats, options, _game_inputs(game_id, seats, options, seed))
        for seed, (seats, options) in enumerate(_setups(game_id, games))
    ]
    total = 0
    rejected = 0
    start = time.perf_counter()
    for seats, options, inputs in corpus:
        referee = Referee(game, options, seats)
        for inp in inputs:
            if not referee.apply(inp).accepted:
                rejected += 1
        total += len(inputs)
    elapsed = time.perf_counter() - start
    rate = total / elapsed
    report(
        f"referee throughput, {game_id} ({games} games, {total} inputs)",
        f"{rate:,.0f} inputs/s",
        f">= {BUDGET:,.0f}/s",
        rate >= BUDGET,
    )
    if rejected:
        print(f"  warning: {rejected} world inputs were rejected by the referee")
    return rate


def runs() -> list[tuple[str, Callable[[], float]]]:
    """One throughput step per registered game, named for ``make bench``'s list."""
    return [
        (f"referee throughput, {find_game(game_id).name}", partial(run, game_id))
        for game_id in game_ids()
    ]
