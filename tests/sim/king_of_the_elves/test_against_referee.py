"""Cross-check: over seeded King of the Elves games at 2 to 6 seats with the options mixed, the
referee, fed only the world's sightings and decisions, accepts every one of them and agrees
with the world (docs/design.md, "Simulation"): scores and the end after every action, every
journey's gold (collected, paid, the bonus, visits and cards) as the world's checkpoints give
it, every purse and hand size after each journey (in a tenth of the games the whole table the
public view shows after every action), and at the end every seat's gold, the winners and the
whole gold ledger, entry by entry."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from scorekeeper.core.inputs import GameInput
from scorekeeper.core.referee import Referee
from scorekeeper.core.script_match import resolve
from scorekeeper.games.king_of_the_elves.game import KingOfTheElves
from scorekeeper.sim.king_of_the_elves.bots import Temper
from scorekeeper.sim.king_of_the_elves.world import KingOfTheElvesWorld
from tests.sim.king_of_the_elves.spread import setup

GAMES = 1_000  # 200 at each of 2, 3, 4, 5 and 6 seats (issue 13)
PER_TEST = 50
STEP_BOUND = 10_000


def play(seed: int) -> tuple[KingOfTheElvesWorld, Referee]:
    """Feed world ``seed`` to a fresh referee, checking every input and every action."""
    seats, options = setup(seed)
    game = KingOfTheElves()
    referee = Referee(game, options, seats)
    # A demo builds its world from the table's options, resolved (the deck a whole manifest).
    world = KingOfTheElvesWorld(seats, referee.options if seed % 2 else options, seed)
    history: list[GameInput] = []
    where = f"seed {seed}, {seats} seats, options {options}"
    books = Books()
    while action := world.next_inputs():
        for inp in action:
            history.append(inp)
            result = referee.apply(inp)
            assert result.accepted, (
                f"{where}: {inp.to_str()} refused: {result.rejection}\n"
                + "\n".join(i.to_str() for i in history[-30:])
            )
            books.check(referee.state, lambda: _after(where, "the ledger and a purse", history))
        assert len(history) <= STEP_BOUND, f"{where}: the game did not end"
        assert game.scores(referee.state) == world.scores(), _after(where, "scores", history)
        assert game.is_over(referee.state) == world.is_over(), _after(where, "end", history)
        if seed % 10 == 0 and not world.is_over():  # a tenth of the games after every action
            shown = _table(game.view(referee.state, "public"))
            assert shown == _table_of(world), _after(where, "the table", history)
        facts = world.checkpoint()
        if not facts:
            continue
        view = game.view(referee.state, "organiser")
        for path, value in facts.items():
            assert resolve({"state": view}, path) == value, _after(where, path, history)
        purses = [entry["gold"] for entry in view["seats"]]
        hands = [entry["hand"] for entry in view["seats"]]
        assert purses == world.purse, _after(where, "purses", history)
        assert hands == [len(h) for h in world.hands], _after(where, "hands", history)
    assert game.is_over(referee.state) and world.is_over(), where
    view = game.view(referee.state, "organiser")
    assert sorted(view["winners"]) == world.winners(), where
    assert [_movement(e) for e in view["ledger"]] == [_movement(e) for e in world.ledger], (
        f"{where}: the ledgers differ"
    )
    return world, referee


class Books:
    """The referee's ledger summed as it grows (issue 13: summing the ledger reproduces every
    purse after every input). Every entry moves gold from one account to another, the bank
    included, so each account's balance is what came in less what went out; the bank's is
    whatever it paid out, never checked (it is unlimited, G-21)."""

    def __init__(self) -> None:
        self.seen = 0
        self.balance: dict[str, int] = {}

    def check(self, state: Any, words: Callable[[], str]) -> None:
        for entry in state.ledger[self.seen :]:
            assert entry.amount > 0 and entry.frm != entry.to, words()
            self.balance[entry.frm] = self.balance.get(entry.frm, 0) - entry.amount
            self.balance[entry.to] = self.balance.get(entry.to, 0) + entry.amount
        self.seen = len(state.ledger)
        for s, seat in enumerate(state.seats):
            assert self.balance.get(f"purse:{s}", 0) == seat.purse >= 0, words()
            assert self.balance.get(f"escrow:{s}", 0) == seat.escrow >= 0, words()


def _after(where: str, what: str, history: list[GameInput]) -> str:
    """A disagreement's words: what differs, after the last 30 inputs."""
    return f"{where}: {what} differ after\n" + "\n".join(i.to_str() for i in history[-30:])


def _movement(entry: dict[str, Any]) -> tuple[Any, ...]:
    """A ledger entry without its words: when, why, by which rule, from, to, how much."""
    return tuple(entry[k] for k in ("n", "round", "reason", "rule", "from", "to", "amount"))


@pytest.mark.parametrize("first", range(0, GAMES, PER_TEST))
def test_referee_agrees_with_the_world(first: int) -> None:
    """The games in batches of 50 (10 at each seat count), so that a failure names its seed
    and xdist shares the batches between its workers."""
    for seed in range(first, first + PER_TEST):
        play(seed)


def _stack(world: KingOfTheElvesWorld, in_discard: int) -> None:
    """Rearrange the unseen cards before the first input (the referee only counts them): the
    start player's hand without a village, every village in the other hands, ``in_discard`` of
    them on the discard pile instead, none in the draw pile."""
    cards = [c for hand in world.hands for c in hand] + world.draw_pile
    villages = [c for c in cards if c.startswith("village_")]
    others = [c for c in cards if not c.startswith("village_")]
    world.discard_pile = villages[:in_discard]
    pool = villages[in_discard:] + others
    world.hands[0] = others[:10]
    pool = [c for c in pool if c not in world.hands[0]]
    for seat in range(1, world.seats):
        world.hands[seat], pool = pool[:10], pool[10:]
    world.draw_pile = pool[: len(pool) - in_discard] if in_discard else pool
    assert not any(c.startswith("village_") for c in world.draw_pile)


def _played_stacked(in_discard: int) -> KingOfTheElvesWorld:
    options = {"search_fallback": True}
    game = KingOfTheElves()
    world = KingOfTheElvesWorld(4, options, 7)
    _stack(world, in_discard)
    referee = Referee(game, options, 4)
    for inp in world.inputs():
        result = referee.apply(inp)
        assert result.accepted, f"{inp.to_str()} refused: {result.rejection}"
    assert game.scores(referee.state) == world.scores()
    view = game.view(referee.state, "organiser")
    assert [_movement(e) for e in view["ledger"]] == [_movement(e) for e in world.ledger]
    return world


def test_a_search_that_finds_no_village_anywhere() -> None:
    """G-16's house rule: no village in the hand, the draw pile or the discard pile: ``searched
    none``, the seat passes from then on and makes no journey in round 1."""
    world = _played_stacked(0)
    assert world.events["search_none"] == 1
    assert [h["seat"] for h in world.history if h["round"] == 1] == [1, 2, 3]


def test_a_search_that_finds_a_village_on_the_discard_pile() -> None:
    """G-16's house rule: no village in the draw pile, so the searcher takes one from the
    discard pile (``searched found``), lays it and travels."""
    world = _played_stacked(2)
    assert world.events["search_discard"] == 1
    assert [h["seat"] for h in world.history if h["round"] == 1] == [0, 1, 2, 3]


def _table(view: dict[str, Any]) -> list[Any]:
    """What the public view shows of the table: the round and start player, the cards left to
    draw, and per seat the hand size, villages with their special cards' owners, the special
    cards placed and cards bought this round, the escrow."""
    return [
        view["round"],
        view["start_seat"],
        view["draw_pile"] + view["discard_pile"],
        [
            (
                e["hand"],
                [
                    (
                        v["card"],
                        *((x or {}).get("owner") for x in (v["gold"], v["thief"], v["obstacle"])),
                    )
                    for v in e["villages"]
                ],
                e["placed"],
                e["bought"],
                e["escrow"],
            )
            for e in view["seats"]
        ],
    ]


def _table_of(world: KingOfTheElvesWorld) -> list[Any]:
    """The same facts from the world's own knowledge."""
    cats = ("gold", "thief", "obstacle")
    return [
        world.round,
        world.start,
        len(world.draw_pile) + len(world.discard_pile),
        [
            (
                len(world.hands[s]),
                [
                    (v.card, *(v.specials[c].owner if c in v.specials else None for c in cats))
                    for v in world.princ[s]
                ],
                world.placed[s],
                world.bought[s],
                world.escrow[s],
            )
            for s in range(world.seats)
        ],
    ]


def _temper(rng: random.Random) -> Temper:
    """Bots pushed to extremes: many removals or none, every escort and turnaround or none,
    many unfinished moves and early stops, the organiser answering for everyone."""
    return Temper(
        remove=rng.choice([0.0, 0.35, 8.0]),
        escort=rng.random(),
        turnaround=rng.random(),
        teleport=rng.random(),
        unfinished=rng.choice([0.0, 0.2]),
        early_stop=rng.choice([0.0, 0.2]),
        organiser=rng.choice([0.0, 0.5, 1.0]),
        buy=rng.choice([0.0, 1.0, 5.0]),
        draw3=rng.choice([0.0, 1.0, 5.0]),
        lay_elsewhere=rng.choice([0.25, 3.0]),
        patience=rng.choice([2, 10, 30]),
        gold=rng.choice([0.0, 2.0, 6.0]),
        thief=rng.choice([0.0, 2.0, 6.0]),
        obstacle=rng.choice([0.0, 2.0, 6.0]),
    )


def test_referee_agrees_with_bots_pushed_to_extremes() -> None:
    """100 more games whose bots remove villages all the time or never, escort and turn
    around always or never, stop early and leave moves unfinished (G-25), with more noise;
    after every action the public view shows the world's table (hands, villages and their
    cards' owners, placements, purchases, escrows, cards left to draw)."""
    game = KingOfTheElves()
    for seed in range(100):
        rng = random.Random(f"elves-extreme-{seed}")
        seats, options = setup(seed)
        world = KingOfTheElvesWorld(
            seats, options, seed, temper=_temper(rng), noise=rng.choice([0.0, 0.3, 1.0])
        )
        referee = Referee(game, options, seats)
        while action := world.next_inputs():
            for inp in action:
                result = referee.apply(inp)
                assert result.accepted, f"seed {seed}: {inp.to_str()} refused: {result.rejection}"
            if not world.is_over():
                view = game.view(referee.state, "public")
                assert _table(view) == _table_of(world), f"seed {seed}: after {action}"
        assert game.scores(referee.state) == world.scores(), seed
        view = game.view(referee.state, "organiser")
        assert [_movement(e) for e in view["ledger"]] == [_movement(e) for e in world.ledger]
