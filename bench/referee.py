"""Referee throughput: inputs per second through Referee.apply on random full games.

The world's inputs are generated first (untimed); only the referee's work is timed, on one core.
"""

from __future__ import annotations

import time

from bench.common import report
from scorekeeper.core.inputs import Decision, Seen
from scorekeeper.core.referee import Referee
from scorekeeper.games import find_game
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
    """Seats and options of the timed games: a spread of every player count and variant."""
    out: list[tuple[int, dict[str, object]]] = []
    for seed in range(games):
        if game_id == "arcanum":
            seats = 3 + seed % 3
            out.append(
                (seats, {"length": "long" if seed % 2 else "normal", "start_seat": seed % seats})
            )
        else:
            out.append((2 + seed % 3, {"mode": "advanced" if seed % 2 else "basic"}))
    return out


def run(game_id: str = "angels-and-demons", games: int = 60) -> float:
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


def run_arcanum() -> float:
    """The same figure on random Arcanum games (3-5 players, normal and long)."""
    return run("arcanum")
