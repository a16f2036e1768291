"""Unit tests of the simulated Angels & Demons world: registry, determinism, card conservation,
hand sizes, and that the emitted inputs follow docs/games/angels-and-demons.md."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter

import pytest

from scorekeeper.core.inputs import Decision, Seen
from scorekeeper.errors import ConfigError, UnknownGame
from scorekeeper.sim import WORLDS, find_world
from scorekeeper.sim.angels_demons.bots import Temper
from scorekeeper.sim.angels_demons.cards import ALL_CARDS
from scorekeeper.sim.angels_demons.world import AngelsDemonsWorld, resolve_options
from scorekeeper.sim.world import WorldInput

SEEDS = range(12)


def _world(seed: int, **kw: object) -> AngelsDemonsWorld:
    seats = 2 + seed % 3
    options = {"mode": "advanced" if seed % 2 else "basic", "start_seat": seed % seats}
    options.update(kw)  # type: ignore[arg-type]
    return AngelsDemonsWorld(seats, options, seed)


def _actions(world: AngelsDemonsWorld) -> list[list[WorldInput]]:
    out = []
    while action := world.next_inputs():
        out.append(action)
    return out


def test_registry_is_explicit_and_lazy() -> None:
    assert find_world("angels-and-demons") is AngelsDemonsWorld
    assert "angels-and-demons" in WORLDS
    with pytest.raises(UnknownGame):
        find_world("chess")
    code = "import sys, scorekeeper.sim; print('scorekeeper.sim.angels_demons' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_options_come_from_the_game_and_world_options_are_set_apart() -> None:
    opts = resolve_options({"jitter": True, "mode": "advanced"}, 4)
    assert "jitter" not in opts
    assert opts["mode"] == "advanced" and opts["target_points"] == 12 and opts["max_rounds"] == 8
    with pytest.raises(ConfigError):
        AngelsDemonsWorld(3, {"no_such_option": 1}, 0)
    assert AngelsDemonsWorld(2, {"jitter": True}, 0).jitter


@pytest.mark.parametrize("jitter", [False, True])
def test_same_seed_same_game(jitter: bool) -> None:
    a = list(AngelsDemonsWorld(3, {}, 7, jitter=jitter).inputs())
    b = list(AngelsDemonsWorld(3, {}, 7, jitter=jitter).inputs())
    c = list(AngelsDemonsWorld(3, {}, 8, jitter=jitter).inputs())
    assert a == b and a != c
    w1, w2 = AngelsDemonsWorld(3, {}, 7), AngelsDemonsWorld(3, {}, 7)
    for _ in w1.inputs():
        pass
    for _ in w2.inputs():
        pass
    assert w1.scores() == w2.scores() and w1.is_over() and not w1.next_inputs()


def test_resuming_by_skipping_logged_inputs() -> None:
    """The demo resumes a game by re-running the world and skipping what the log holds."""
    full = list(AngelsDemonsWorld(2, {}, 3).inputs())
    logged = full[:123]
    again = AngelsDemonsWorld(2, {}, 3).inputs()
    assert [next(again) for _ in logged] == logged
    assert list(again) == full[123:]


@pytest.mark.parametrize("seed", SEEDS)
def test_cards_are_conserved_and_hands_sized(seed: int) -> None:
    world = _world(seed)
    assert Counter(c for cs in world.locations().values() for c in cs) == Counter(ALL_CARDS)
    while world.next_inputs():
        where = world.locations()
        cards = [c for cs in where.values() for c in cs]
        assert sorted(cards) == sorted(ALL_CARDS)  # each of the 100 exactly once
        for s in range(world.seats):
            assert len(world.hands[s]) <= 7  # 8 only inside a turn, never between actions
            if world.waiting[s] and world.round_live:  # or on the pad, claiming to go out
                assert len(world.hands[s]) == 7 or (not world.hands[s] and world.out)
        assert len(world.talon) <= world.seats + 1
    assert world.is_over()


class Table:
    """A plain model of the physical table, driven only by the emitted inputs (the contract)."""

    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.at: dict[str, str] = {}  # piece -> zone
        self.zones = {
            "talon",
            "out",
            "flip",
            *(f"{z}:{s}" for z in ("meld", "discard", "wait") for s in range(seats)),
        }

    def on(self, zone: str) -> list[str]:
        return [p for p, z in self.at.items() if z == zone]

    def apply(self, inp: Seen) -> None:
        assert inp.zone in self.zones, inp
        if inp.present:
            self.at[inp.piece] = inp.zone
        elif self.at.get(inp.piece) == inp.zone:
            del self.at[inp.piece]


@pytest.mark.parametrize("seed", SEEDS)
def test_inputs_follow_the_contract(seed: int) -> None:
    world = _world(seed, post_set_draw="always2" if seed % 3 == 0 else "choice")
    n = world.seats
    table = Table(n)
    pieces = set(ALL_CARDS) | {f"W{s + 1}" for s in range(4)}
    actions = _actions(world)
    first = actions[0]  # the deal: N+1 distinct cards turned onto the talon, nothing else
    assert len({i.piece for i in first}) == n + 1
    assert all(isinstance(i, Seen) and i.zone == "talon" and i.present for i in first)
    declared: set[int] = set()
    for action in actions:
        talon_arrivals = [
            i for i in action if isinstance(i, Seen) and i.zone == "talon" and i.present
        ]
        if talon_arrivals:  # a deal or a refill: N+1 cards on an empty talon, nothing else
            assert len(action) == n + 1 and len(talon_arrivals) == n + 1
            assert not table.on("talon")
            if not table.at:  # a new round: the table was cleared
                declared.clear()
        meld_before = {s: len(table.on(f"meld:{s}")) for s in range(n)}
        for inp in action:
            if isinstance(inp, Decision):
                assert inp.prompt in ("draw_count", "claim", "claimant", "waiting"), inp
                if inp.prompt == "draw_count":
                    assert inp.answer in ("0", "1", "2") and inp.seat is not None
                    assert world.options["post_set_draw"] == "choice"
                elif inp.prompt == "claim":
                    assert inp.answer == "pass"
                elif inp.prompt == "claimant":
                    assert int(inp.answer) in range(n)
                else:
                    assert inp.answer == "yes" and inp.seat is not None
                    assert inp.seat not in declared
                    declared.add(inp.seat)
                continue
            assert inp.piece in pieces
            if inp.zone.startswith("wait:") and inp.present:
                s = int(inp.zone[5:])
                assert inp.piece == f"W{s + 1}" and s not in declared
                declared.add(s)
            table.apply(inp)
        clearing = all(isinstance(i, Seen) and not i.present for i in action)
        for s in range(n):  # sets arrive three cards at a time
            assert clearing or (len(table.on(f"meld:{s}")) - meld_before[s]) in (0, 3)
        out = table.on("out")
        assert len(out) in (0, 1, 8), out  # a whole hand, or a conditional item shown
    assert world.is_over()


def test_clearing_empties_the_table_between_rounds() -> None:
    world = AngelsDemonsWorld(3, {"max_rounds": 3, "target_points": 0}, 5)
    table = Table(3)
    rounds = 0
    for action in _actions(world):
        if all(isinstance(i, Seen) and not i.present for i in action):
            for inp in action:
                assert isinstance(inp, Seen)
                table.apply(inp)
            assert not table.at  # every card and token left every zone
            rounds += 1
        else:
            for inp in action:
                if isinstance(inp, Seen):
                    table.apply(inp)
    assert rounds == 2 and world.rounds_played == 3


def test_jitter_reports_some_departures_after_arrivals() -> None:
    def late(jitter: bool) -> int:
        count = 0
        for seed in range(6):
            world = AngelsDemonsWorld(2 + seed % 3, {}, seed, jitter=jitter)
            for action in _actions(world):
                seen = [i for i in action if isinstance(i, Seen)]
                for k, inp in enumerate(seen):
                    if not inp.present and any(
                        x.present and x.piece == inp.piece for x in seen[:k]
                    ):
                        count += 1
        return count

    assert late(False) == 0
    assert late(True) > 20


def test_every_path_of_the_contract_is_played() -> None:
    """Over a few seeds the bots reach every kind of input and every way a round ends."""
    kinds: Counter[str] = Counter()
    for seed in range(40):
        temper = Temper(item_love=10) if seed % 2 else Temper()
        world = AngelsDemonsWorld(
            2 + seed % 3, {"mode": "advanced" if seed % 4 < 2 else "basic"}, seed, temper=temper
        )
        for inp in world.inputs():
            if isinstance(inp, Decision):
                kinds[f"{inp.prompt} {inp.answer if inp.prompt == 'draw_count' else ''}"] += 1
            elif inp.zone.startswith("wait:"):
                kinds["token"] += 1
        kinds.update(world.results)
    for kind in (
        "draw_count 0",
        "draw_count 1",
        "draw_count 2",
        "claim ",
        "claimant ",
        "waiting ",
        "token",
        "self-draw",
        "claim",
        "mine",
        "exhausted",
        "item-win",
    ):
        assert kinds[kind] > 0, (kind, kinds)


def test_item_win_ends_the_game_at_once() -> None:
    for seed in range(200):
        world = AngelsDemonsWorld(
            2 + seed % 3, {"mode": "advanced"}, seed, temper=Temper(item_love=10)
        )
        for _ in world.inputs():
            pass
        if world.winner is not None:
            assert world.results[-1] == "item-win" and world.is_over()
            melds = world.melds[world.winner]
            assert sum(all(c.startswith("I") for c in m) for m in melds) >= 3
            return
    pytest.fail("no item win in 200 seeds")
