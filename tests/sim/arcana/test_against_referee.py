"""Cross-check: over seeded Arcana games at 2, 3 and 4 seats with the options spread, the
referee, fed only the world's sightings and decisions, accepts every one of them and agrees
with the world (docs/design.md, "Simulation"): scores (the public points, G-36) and the end
after every action, every district's result and every stake won at once as the world's
checkpoints give them (district, stake, winner, sums), after every action in a third of the
games the whole table the public view shows (stakes, piles, agents with their faces and
relics, hands, decks and discard piles, set-aside stakes, the watch deck), and at the end
every seat's points by source, its stakes and the winners; and over games whose bots are
pushed to extremes, every input accepted with the same scores, end and winners."""

from __future__ import annotations

import random
from typing import Any

import pytest

from scorekeeper.core.inputs import GameInput
from scorekeeper.core.referee import Referee
from scorekeeper.core.script_match import resolve
from scorekeeper.games.arcana.game import Arcana
from scorekeeper.sim.arcana.bots import Temper
from scorekeeper.sim.arcana.world import ArcanaWorld
from tests.sim.arcana.spread import setup

GAMES = 600  # 200 at each of 2, 3 and 4 seats: 100 without any option, 100 with (issue 14)
PER_TEST = 50
STEP_BOUND = 30_000
SOURCES = ("guild_cards", "stakes", "set_aside", "objectives", "leftovers")


def _after(where: str, what: str, history: list[GameInput]) -> str:
    """A disagreement's words: what differs, after the last 30 inputs."""
    return f"{where}: {what} differ after\n" + "\n".join(i.to_str() for i in history[-30:])


def _card(entry: Any) -> Any:
    return entry.get("card") if isinstance(entry, dict) else entry


def _table(view: dict[str, Any]) -> list[Any]:
    """What the public view shows of the table: the round and first player, each district's
    stake, pile, whether it awaits a stake and its agents (a face-down one as a back), each
    seat's hand, deck and discard counts and set-aside stakes, the watch deck."""
    return [
        view["round"],
        view["first_seat"],
        [
            (
                d["id"],
                _card(d["stake"]),
                d["pile"],
                d["awaiting"],
                [
                    (a["card"], a["owner"], a["face"], [_card(r) for r in a["relics"]], a["watch"])
                    for a in d["agents"]
                ],
            )
            for d in view["districts"]
        ],
        [
            (s["hand"], s["deck"], s["discard"], [_card(c) for c in s["set_aside"]])
            for s in view["seats"]
        ],
        view["watch_deck"] or 0,
    ]


def _table_of(world: ArcanaWorld) -> list[Any]:
    """The same facts from the world's own knowledge."""
    return [
        world.round,
        world.first,
        [
            (
                did,
                place.stake,
                len(place.pile),
                place.stake is None and bool(place.pile),  # its next stake is to come
                [
                    (
                        a.card if a.face_up else None,
                        a.owner,
                        "up" if a.face_up else "down",
                        a.relics,
                        a.watch,
                    )
                    for a in place.agents
                ],
            )
            for did, place in world.places.items()
        ],
        [(len(p.hand), len(p.deck), len(p.discard), p.set_aside) for p in world.players],
        len(world.watch_deck) if world.options["watch"] else 0,
    ]


def play(seed: int) -> tuple[ArcanaWorld, Referee]:
    """Feed world ``seed`` to a fresh referee, checking every input and every action."""
    seats, options = setup(seed)
    game = Arcana()
    referee = Referee(game, options, seats)
    # A demo builds its world from the table's options, resolved (the pack a whole mapping).
    world = ArcanaWorld(seats, referee.options if seed % 2 else options, seed)
    history: list[GameInput] = []
    where = f"seed {seed}, {seats} seats, options {options}"
    while action := world.next_inputs():
        for inp in action:
            history.append(inp)
            result = referee.apply(inp)
            assert result.accepted, (
                f"{where}: {inp.to_str()} refused: {result.rejection}\n"
                + "\n".join(i.to_str() for i in history[-30:])
            )
        assert len(history) <= STEP_BOUND, f"{where}: the game did not end"
        assert game.scores(referee.state) == world.scores(), _after(where, "scores", history)
        assert game.is_over(referee.state) == world.is_over(), _after(where, "end", history)
        if (seed // 3) % 3 == 0 and not world.is_over():  # every seat count in turn
            shown = _table(game.view(referee.state, "public"))
            assert shown == _table_of(world), _after(where, "the table", history)
        facts = world.checkpoint()
        if facts:  # the results and the end's figures are public
            view = game.view(referee.state, "public")
            for path, value in facts.items():
                assert resolve({"state": view}, path) == value, _after(where, path, history)
    assert game.is_over(referee.state) and world.is_over(), where
    view = game.view(referee.state, "organiser")
    assert sorted(view["winners"]) == world.winners(), where
    for s, entry in enumerate(view["seats"]):
        final = world.final(s)
        assert {k: entry["vp_sources"][k] for k in SOURCES} == {k: final[k] for k in SOURCES}
    return world, referee


@pytest.mark.parametrize("first", range(0, GAMES, PER_TEST))
def test_referee_agrees_with_the_world(first: int) -> None:
    """The games in batches of 12 (4 at each seat count), so that a failure names its seed
    and xdist shares the batches between its workers."""
    for seed in range(first, first + PER_TEST):
        play(seed)


def _temper(rng: random.Random) -> Temper:
    """Bots pushed to extremes: agents, locations, discards, the watch, masters and set-asides
    weighed from almost never to all the time, the organiser answering for nobody or for
    everyone (a bot that never bribes is left out: a citizen no seat reaches alone would then
    stand for ever)."""
    return Temper(
        agent=rng.choice([0.5, 3.0, 10.0]),
        neutral=rng.choice([0.5, 2.5, 8.0]),
        bribe=rng.choice([2.0, 6.0, 30.0]),
        short_bribe=rng.choice([0.0, 0.4, 5.0]),
        location=rng.choice([0.0, 2.0, 10.0]),
        discard=rng.choice([0.05, 0.3, 3.0]),
        watch=rng.choice([0.0, 1.5, 10.0]),
        master=rng.choice([0.0, 0.5, 1.0]),
        master_uses=rng.choice([1, 2, 5]),
        set_aside=rng.choice([0.0, 0.3, 1.0]),
        watch_by_itself=rng.random(),
        badge_pad=rng.random(),
        manual_drew=rng.random(),
        organiser=rng.choice([0.0, 0.5, 1.0]),
    )


def test_referee_agrees_with_bots_pushed_to_extremes() -> None:
    """24 more games whose bots take each kind of action almost never or all the time, with
    no noise or much more (cards read twice, lifted and laid back): every input accepted, the
    same scores and end after every action, the same winners."""
    game = Arcana()
    for seed in range(24):
        rng = random.Random(f"arcana-extreme-{seed}")
        seats, options = setup(seed)
        world = ArcanaWorld(
            seats, options, seed, temper=_temper(rng), noise=rng.choice([0.0, 0.3, 1.0])
        )
        referee = Referee(game, options, seats)
        steps = 0
        while action := world.next_inputs():
            steps += 1
            assert steps <= STEP_BOUND, f"seed {seed}: the game did not end"
            for inp in action:
                result = referee.apply(inp)
                assert result.accepted, f"seed {seed}: {inp.to_str()} refused: {result.rejection}"
            assert game.scores(referee.state) == world.scores(), f"seed {seed}: {action}"
            assert game.is_over(referee.state) == world.is_over(), f"seed {seed}: {action}"
        view = game.view(referee.state, "organiser")
        assert sorted(view["winners"]) == world.winners(), seed


def test_the_games_cover_every_seat_count_with_and_without_the_options() -> None:
    """Issue 14's figure: at least 200 games at each player count, half of them without any
    option and half with some (the spread must not tie the options to a seat count)."""
    counts: dict[tuple[int, bool], int] = {}
    for seed in range(GAMES):
        seats, options = setup(seed)
        plain = set(options) <= {"pack", "start_seat"}
        counts[(seats, plain)] = counts.get((seats, plain), 0) + 1
    for seats in (2, 3, 4):
        assert counts.get((seats, True), 0) >= 100, counts
        assert counts.get((seats, False), 0) >= 100, counts
