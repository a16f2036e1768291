"""Cross-check: over many seeded Angels & Demons games, the referee, seeing only the world's
sightings and decisions, ends with exactly the world's scores (docs/design.md, "Simulation")."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from scorekeeper.core.inputs import GameInput
from scorekeeper.core.referee import Referee
from scorekeeper.games import find_game
from scorekeeper.sim.angels_demons.bots import Temper
from scorekeeper.sim.angels_demons.world import AngelsDemonsWorld

GAMES = 210
STEP_BOUND = 20_000


def _setup(seed: int) -> tuple[int, dict[str, Any], bool, Temper]:
    """Seats, table options, jitter and bot temper for game ``seed``: a spread of every option."""
    rng = random.Random(f"crosscheck-{seed}")
    seats = 2 + seed % 3
    options: dict[str, Any] = {
        "mode": "advanced" if seed % 2 else "basic",
        "start_seat": rng.randrange(seats),
        "post_set_draw": rng.choice(["choice", "choice", "always2"]),
        "item_win_timing": rng.choice(["on_lay", "on_lay", "on_go_out"]),
        "red17_counts_itself": rng.random() < 0.7,
    }
    if rng.random() < 0.2:
        options.update(
            go_out_base=rng.randint(0, 3),
            basic_red_bonus=rng.randint(0, 2),
            plain_item_points=rng.randint(0, 2),
        )
    if rng.random() < 0.1:
        options["target_points"] = 0  # switched off: the round limit alone ends the game
    temper = Temper(item_love=10) if seed % 4 == 3 else Temper()
    return seats, options, (seed // 3) % 2 == 0, temper


def test_referee_reaches_the_worlds_scores() -> None:
    """Every emitted input is accepted; final scores and is_over agree, game after game."""
    game = find_game("angels-and-demons")
    outcomes: Counter[str] = Counter()
    for seed in range(GAMES):
        seats, options, jitter, temper = _setup(seed)
        world = AngelsDemonsWorld(seats, options, seed, jitter=jitter, temper=temper)
        referee = Referee(game, options, seats)
        history: list[GameInput] = []
        where = f"seed {seed}, {seats} seats, options {options}, jitter {jitter}"
        while action := world.next_inputs():
            for inp in action:
                history.append(inp)
                result = referee.apply(inp)
                assert result.accepted, (
                    f"{where}: {inp.to_str()} refused: {result.rejection}\n"
                    + "\n".join(i.to_str() for i in history[-40:])
                )
            assert len(history) <= STEP_BOUND, f"{where}: the game did not end"
            # The world is ahead of the referee by nothing once a whole action is performed.
            assert game.is_over(referee.state) == world.is_over(), f"{where}: {action}"
            assert game.scores(referee.state) == world.scores(), f"{where}: {action}"
        assert game.scores(referee.state) == world.scores(), where
        assert game.is_over(referee.state) and world.is_over(), where
        outcomes.update(world.results)
    # The seeds exercise every way a round can end, so the comparison covers all of them.
    for kind in ("self-draw", "claim", "mine", "exhausted", "item-win"):
        assert outcomes[kind] > 0, f"no {kind} in {GAMES} games: {outcomes}"
