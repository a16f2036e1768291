"""Unit tests of the simulated King of the Elves world: determinism, every game ends with the
purses as scores, the 144 pieces accounted for after every action, readers never holding more
than the contract's 4 tags, purses never negative and equal to the ledger, and every input of
the shape docs/games/king-of-the-elves.md gives it."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest

from scorekeeper.core.inputs import Decision, Seen, parse_input
from scorekeeper.errors import ConfigError
from scorekeeper.sim.king_of_the_elves.bots import Temper
from scorekeeper.sim.king_of_the_elves.deck import manifest
from scorekeeper.sim.king_of_the_elves.world import KingOfTheElvesWorld
from scorekeeper.sim.world import WorldInput
from tests.sim.king_of_the_elves.spread import setup

SEEDS = range(25)
COVERAGE_GAMES = 120
ZONE = re.compile(r"^(village|attach)_([123]):([0-5])$|^road$|^discard$")
PIECE = re.compile(
    r"^village_(0[1-9]|1\d|2[0-6])$|^token_[a-f][1-4]$|"
    r"^(giant_pig|elfcycle|magic_cloud|unicorn|troll_wagon|dragon|raft|gold|thief|fallen_tree|"
    r"sea_monster|escort|turnaround)_\d+$"
)
ANSWERS = {
    "plan": {"pass", "buy", "draw3", "search"},
    "searched": {"found", "none"},
    "pay": {"pay"},
    "journey": {"stop", "teleport"},
}
LIMIT = {"village": 3, "attach": 4, "road": 2, "discard": 2}
"""Tags a zone may hold at once (contract, "Zones"); a tap pad 2 while one card replaces
another."""
JOURNEY_REASONS = {"village", "gold_card", "bonus", "thief", "teleport"}


def _world(seed: int, **kw: Any) -> KingOfTheElvesWorld:
    seats, options = setup(seed)
    return KingOfTheElvesWorld(seats, options, seed, **kw)


def _actions(world: KingOfTheElvesWorld) -> list[list[WorldInput]]:
    out = []
    while action := world.next_inputs():
        out.append(action)
    return out


def test_same_seed_same_game() -> None:
    first = [i.to_str() for a in _actions(_world(3)) for i in a]
    again = [i.to_str() for a in _actions(_world(3)) for i in a]
    other = [i.to_str() for a in _actions(_world(8)) for i in a]  # same seat count
    assert first == again
    assert first != other


def test_resuming_by_skipping_logged_inputs() -> None:
    """A demo resumes a game by re-running the world and skipping what is logged."""
    full = list(_world(6).inputs())
    resumed = _world(6).inputs()
    skipped = [next(resumed) for _ in range(40)]
    assert skipped == full[:40]
    assert list(resumed) == full[40:]


def test_options_are_checked_and_a_deck_may_be_a_mapping() -> None:
    with pytest.raises(ConfigError, match="unknown options"):
        KingOfTheElvesWorld(4, {"colour": "red"}, 1)
    with pytest.raises(ConfigError, match="crests"):
        KingOfTheElvesWorld(3, {"crests": "aab"}, 1)
    with pytest.raises(ConfigError, match="2-6 players"):
        KingOfTheElvesWorld(7, {}, 1)
    with pytest.raises(ConfigError, match="money"):
        KingOfTheElvesWorld(3, {"money": "cards"}, 1)
    deck = manifest("assumed")
    deck["villages"] = {c: {"terrain": "plain", "value": 2} for c in deck["villages"]}
    world = KingOfTheElvesWorld(3, {"deck": deck}, 1)
    list(world.inputs())
    incomes = {e["amount"] for e in world.ledger if e["reason"] == "village"}
    assert incomes == {2}


@pytest.mark.parametrize("seed", SEEDS)
def test_a_game_is_physically_consistent(seed: int) -> None:
    """After every action: 120 cards and 24 tokens each in exactly one place, readers within
    their tag limits and tap pads empty again, every departure of a piece that was there,
    purses and escrows never negative and equal to their ledger entries; scores 0 until the
    end, then the purses."""
    world = _world(seed)
    on: dict[str, set[str]] = {}
    shown = {k: v for k, v in world.options.items() if k != "deck"}
    where = f"seed {seed}, {world.seats} seats, {shown}"
    steps = 0
    while action := world.next_inputs():
        steps += 1
        for inp in action:
            if isinstance(inp, Seen):
                _sight(on, inp, where)
        held = Counter(z for zones in on.values() for z in zones)
        assert all(len(zones) <= 1 for zones in on.values()), f"{where}: piece on two readers"
        assert not held["road"] and not held["discard"], f"{where}: a tap pad left occupied"
        places = world.locations()
        pieces = Counter(p for spot in places.values() for p in spot)
        assert set(pieces.values()) == {1}, f"{where}: a piece in two places"
        assert len(pieces) == 144, f"{where}: {len(pieces)} pieces accounted for"
        on_readers = {p for p, zones in on.items() if zones}
        if world.is_over():  # the last round's table is not swept: the game takes nothing more
            on_readers.clear()
        assert set(places["table"]) | set(places["tokens"]) >= on_readers, (
            f"{where}: a piece on a reader that is not on the table"
        )
        _ledger_agrees(world, where)
        assert world.scores() == (tuple(world.purse) if world.is_over() else (0,) * world.seats), (
            where
        )
        assert steps < 5_000, f"{where}: the game does not end"
    assert world.is_over()
    assert world.round == world.rounds == min(world.seats, 5)
    assert sorted(world.winners()) == [
        s for s, g in enumerate(world.purse) if g == max(world.purse)
    ]


def _sight(on: dict[str, set[str]], inp: Seen, where: str) -> None:
    """Apply one sighting to the readers' model: a simulated reader reports presence changes
    only, so an arrival must be of a piece not there and a departure of one there."""
    zones = on.setdefault(inp.piece, set())
    if inp.present:
        assert inp.zone not in zones, f"{where}: {inp.to_str()} but it lies there already"
        zones.add(inp.zone)
        family = inp.zone.split("_")[0].split(":")[0]
        count = sum(1 for z in on.values() if inp.zone in z)
        assert count <= LIMIT[family], f"{where}: {count} tags on {inp.zone}"
    else:
        assert inp.zone in zones, f"{where}: {inp.to_str()} but the piece was not there"
        zones.discard(inp.zone)


def _ledger_agrees(world: KingOfTheElvesWorld, where: str) -> None:
    """Every purse and escrow is never negative and equals the sum of its ledger entries."""
    sums: Counter[str] = Counter()
    for entry in world.ledger:
        assert entry["amount"] > 0 and entry["from"] != entry["to"], where
        sums[entry["from"]] -= entry["amount"]
        sums[entry["to"]] += entry["amount"]
    for s in range(world.seats):
        assert world.purse[s] >= 0 and world.escrow[s] >= 0, where
        assert sums[f"purse:{s}"] == world.purse[s], f"{where}: seat {s}'s purse"
        assert sums[f"escrow:{s}"] == world.escrow[s], f"{where}: seat {s}'s escrow"


@pytest.mark.parametrize("seed", range(10))
def test_inputs_follow_the_contract(seed: int) -> None:
    """Every input round-trips as a string, names a zone of the table (a third village pad only
    with two players and three villages), a piece of the kit, or a prompt and answer of the
    contract's prompt table."""
    world = _world(seed)
    seats = world.seats
    for inp in world.inputs():
        assert parse_input(inp.to_str()) == inp
        if isinstance(inp, Seen):
            match = ZONE.match(inp.zone)
            assert match and PIECE.match(inp.piece), inp
            if match.group(2):
                assert int(match.group(3)) < seats, inp
                assert int(match.group(2)) <= world.capacity, inp
            continue
        assert isinstance(inp, Decision)
        assert inp.seat is None or 0 <= inp.seat < seats, inp
        if inp.prompt == "teleport_to":
            seat, _, slot = inp.answer.partition(".")
            assert int(seat) < seats and 1 <= int(slot) <= world.capacity, inp
        else:
            assert inp.answer in ANSWERS[inp.prompt], inp


def test_checkpoints_give_each_journey_and_the_purses() -> None:
    """A journey's stop brings its history entry; the end brings every seat's gold."""
    world = _world(4)
    journeys = 0
    last: dict[str, Any] = {}
    while action := world.next_inputs():
        facts = world.checkpoint()
        stops = [i for i in action if isinstance(i, Decision) and i.answer == "stop"]
        assert bool(stops) == ("state.history.-1.collected" in facts), action
        if stops:
            journeys += 1
            entry = world.history[-1]
            assert facts["state.history.-1.paid"] == entry["paid"]
            assert facts["state.history.-1.bonus"] is entry["bonus"]
        last = facts
    assert journeys == len(world.history) == world.seats * world.rounds
    gold = [last[f"state.seats.{s}.gold"] for s in range(world.seats)]
    assert gold == list(world.purse) == list(world.scores())


def test_journeys_add_up() -> None:
    """Each journey's collected and paid gold is what its ledger entries moved: from the bank
    for villages, gold cards and the bonus; out of the purse for thieves and teleports."""
    for seed in range(6):
        world = _world(seed)
        start = 0
        while action := world.next_inputs():
            if not any(isinstance(i, Decision) and i.answer == "stop" for i in action):
                continue
            entry, purse = world.history[-1], f"purse:{world.history[-1]['seat']}"
            moved = [e for e in world.ledger[start:] if e["reason"] in JOURNEY_REASONS]
            start = len(world.ledger)
            assert entry["collected"] == sum(e["amount"] for e in moved if e["to"] == purse)
            assert entry["paid"] == sum(e["amount"] for e in moved if e["from"] == purse)
            assert entry["bonus"] == any(e["reason"] == "bonus" for e in moved)


def test_every_rule_and_option_is_exercised() -> None:
    """Over the spread of seeded games: every planning action, special card, journey rule and
    the options' inputs (phones' payments, teleports, third villages, the organiser)."""
    events: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    for seed in range(COVERAGE_GAMES):
        world = _world(seed)
        for inp in world.inputs():
            if isinstance(inp, Decision):
                seen[f"{inp.prompt} {inp.answer}"] += 1
                seen["organiser"] += inp.seat is None
            elif inp.present:
                seen[inp.zone.split(":")[0]] += 1
        events += world.events
    for name in (
        "village",
        "village_elsewhere",
        "placed_gold",
        "placed_thief",
        "placed_fallen_tree",
        "placed_sea_monster",
        "remove",
        "slide",
        "buy",
        "draw3",
        "search",
        "journey",
        "thief_paid",
        "obstacle_paid",
        "gold_card_paid",
        "bonus",
        "escort",
        "turnaround",
        "teleport",
        "retap",
        "reshuffle",
        "fidget",
        "overlap",
        "escort_at_castle",
        "escort_mid_principality",
        "escort_teleport",
        "teleport_thief",
        "revisit",
        "ring_wrapped",
        "unfinished_move",
    ):
        assert events[name], f"never: {name}"
    for name in (
        "plan pass",
        "plan buy",
        "plan draw3",
        "plan search",
        "searched found",
        "pay pay",
        "journey stop",
        "journey teleport",
        "organiser",
        "village_3",
    ):
        assert seen[name], f"never seen: {name}"


def test_a_temper_changes_the_game() -> None:
    calm = KingOfTheElvesWorld(4, {}, 1, temper=Temper(escort=0.0, turnaround=0.0))
    list(calm.inputs())
    assert not calm.events["escort"] and not calm.events["turnaround"]
    assert calm.is_over()
