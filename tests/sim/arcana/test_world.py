"""Unit tests of the simulated Arcana world: determinism, options checked, every game ends with
the final points as scores, the 304 cards accounted for after every action (each card in
exactly one place, every card a seat owns in its own places or at a district), readers never
holding more than the contract's tags, every input of the shape docs/games/arcana.md gives it,
and every branch of the rules exercised over a few dozen games."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest

from scorekeeper.core.inputs import Decision, Seen
from scorekeeper.errors import ConfigError
from scorekeeper.games.arcana.cards import PIECES
from scorekeeper.sim.arcana.bots import Temper
from scorekeeper.sim.arcana.table import LIMIT
from scorekeeper.sim.arcana.world import ArcanaWorld
from scorekeeper.sim.world import WorldInput
from tests.sim.arcana.spread import setup

SEEDS = range(18)  # 6 at each of 2, 3 and 4 seats, with the options spread
COVERAGE_GAMES = 90
STEP_BOUND = 3_000
"""Actions a game may take (the longest of a thousand seeded games takes about 700)."""
ZONE = re.compile(r"^(stake|agents)_[abcdn]$|^(discard|badge):[0-3]$|^event$")
ANSWERS: dict[str, re.Pattern[str]] = {
    "location": re.compile(r"^(play|discard)$"),
    "stake_discard": re.compile(r"^(watch|discard)$"),
    "bribe_arcanum": re.compile(r"^(wand|sword|chalice)$"),
    "relic_on": re.compile(r"^\w+_\d+$"),
    "win_at": re.compile(r"^[abcdn]$"),
    "return": re.compile(r"^\w+_\d+$|^[abcdn]\.\d+$"),
    "master": re.compile(r"^use$"),
    "manual": re.compile(r"^done$|^drew:\d$"),
    "confirm": re.compile(r"^yes$"),
    "next_district": re.compile(r"^[abcdn]$"),
    "declare": re.compile(r"^(wand|sword|chalice|none)$"),
    "copy": re.compile(r"^\w+_\d+$"),
    "set_aside": re.compile(r"^(discard|badge)$"),
}
"""Every prompt the world answers, with the answers the contract gives it."""


def _world(seed: int, **kw: Any) -> ArcanaWorld:
    seats, options = setup(seed)
    return ArcanaWorld(seats, options, seed, **kw)


def _strings(world: ArcanaWorld) -> list[str]:
    return [i.to_str() for i in world.inputs()]


def test_same_seed_same_game() -> None:
    first = _strings(_world(3))
    assert first == _strings(_world(3))
    assert first != _strings(_world(6))  # the same seat count, another seed


def test_resuming_by_skipping_logged_inputs() -> None:
    """A demo resumes a game by re-running the world and skipping what is logged."""
    full = list(_world(4).inputs())
    resumed = _world(4).inputs()
    skipped = [next(resumed) for _ in range(60)]
    assert skipped == full[:60]
    assert list(resumed) == full[60:]


def test_options_are_checked() -> None:
    with pytest.raises(ConfigError, match="unknown options"):
        ArcanaWorld(3, {"colour": "red"}, 1)
    with pytest.raises(ConfigError, match="2-4 players"):
        ArcanaWorld(5, {}, 1)
    with pytest.raises(ConfigError, match="watch_call"):
        ArcanaWorld(3, {"watch_call": "never"}, 1)
    with pytest.raises(ConfigError, match="start_seat"):
        ArcanaWorld(2, {"start_seat": 2}, 1)


def test_guilds_may_be_fixed() -> None:
    world = ArcanaWorld(2, {}, 5, guilds=("ferrymen", "thieves"))
    badges = [i for i in world.next_inputs() if isinstance(i, Seen) and i.zone.startswith("b")]
    assert {(i.zone, i.piece) for i in badges} == {
        ("badge:0", "badge_ferrymen"),
        ("badge:1", "badge_thieves"),
    }


def _check_input(inp: WorldInput, on: dict[str, set[str]], where: str) -> None:
    """One input against the contract's shapes and what lies on each reader."""
    if isinstance(inp, Decision):
        assert inp.prompt in ANSWERS, f"{where}: {inp.to_str()}"
        assert ANSWERS[inp.prompt].match(inp.answer), f"{where}: {inp.to_str()}"
        if inp.prompt in ("relic_on", "confirm"):  # private to the seat; the organiser's own
            assert (inp.seat is None) == (inp.prompt == "confirm"), f"{where}: {inp.to_str()}"
        return
    assert isinstance(inp, Seen), f"{where}: {inp!r}"
    assert ZONE.match(inp.zone) and inp.piece in PIECES, f"{where}: {inp.to_str()}"
    row = on.setdefault(inp.zone, set())
    if inp.present:
        row.add(inp.piece)
        kind = re.split(r"[:_]", inp.zone)[0]
        assert len(row) <= LIMIT[kind], f"{where}: {inp.zone} holds {sorted(row)}"
    else:
        assert inp.piece in row, f"{where}: {inp.to_str()} but it was not there"
        row.discard(inp.piece)


def _check_places(world: ArcanaWorld, where: str) -> None:
    """Every one of the 304 cards in exactly one place; every card a seat owns in its deck,
    hand, discard pile, under its badge or at a district; hand sizes as the world keeps them."""
    places = world.locations()
    count = Counter(p for cards in places.values() for p in cards)
    assert set(count.values()) == {1}, f"{where}: {[p for p, n in count.items() if n > 1]}"
    assert sum(count.values()) == len(PIECES) == 304, where
    at_districts = {p for k, cards in places.items() if k.startswith("district:") for p in cards}
    for s, p in enumerate(world.players):
        mine = {c for k in ("deck", "hand", "discard", "badge") for c in places[f"{k}:{s}"]}
        lost = p.owned - mine - at_districts
        assert not lost, f"{where}: seat {s} owns {sorted(lost)} but they lie nowhere"
    for watch in places["watch_deck"]:
        assert watch not in world.watch_owner, f"{where}: {watch} in the deck and called"


@pytest.mark.parametrize("seed", SEEDS)
def test_a_game_is_physically_consistent(seed: int) -> None:
    """After every action: the cards accounted for, readers within their limits and every
    departure of a card that was there, the inputs of the contract's shapes, the public points
    as scores until the end and the final points then."""
    world = _world(seed)
    where = f"seed {seed}, {world.seats} seats, {world.options}"
    on: dict[str, set[str]] = {}
    steps = 0
    while action := world.next_inputs():
        steps += 1
        assert steps <= STEP_BOUND, f"{where}: the game did not end"
        for inp in action:
            _check_input(inp, on, where)
        _check_places(world, where)
        if not world.is_over():
            assert world.scores() == tuple(world.public_vp(s) for s in range(world.seats))
    assert world.is_over()
    finals = [world.final(s) for s in range(world.seats)]
    assert world.scores() == tuple(f["vp"] for f in finals), where
    for f in finals:
        assert f["vp"] == sum(
            f[k] for k in ("guild_cards", "stakes", "set_aside", "objectives", "leftovers")
        )
    best = max((f["vp"], f["stake_count"]) for f in finals)
    assert world.winners() == [
        s for s, f in enumerate(finals) if (f["vp"], f["stake_count"]) == best
    ]
    assert world.next_inputs() == []


def test_checkpoints_follow_the_history() -> None:
    """After each result or stake won at once, its history entry; at the end every seat's
    points and stakes."""
    world = _world(7)
    seen = 0
    facts: dict[str, Any] = {}
    while world.next_inputs():
        facts = world.checkpoint()
        if len(world.history) > seen:
            seen = len(world.history)
            entry = world.history[-1]
            assert facts["state.history.-1.district"] == entry["district"]
            assert facts["state.history.-1.winner"] == entry["winner"]
            assert facts["state.history.-1.stake.card"] == entry["stake"]
            if not entry["immediate"]:
                assert facts["state.history.-1.sums"] == {
                    str(s): v for s, v in entry["sums"].items()
                }
        elif not world.is_over():
            assert facts == {}
    for s in range(world.seats):
        assert facts[f"state.seats.{s}.vp"] == world.final(s)["vp"]
        assert facts[f"state.seats.{s}.stakes"] == world.final(s)["stake_count"]


def test_every_branch_occurs() -> None:
    """Over 90 seeded games with the options spread, every action, ability, prompt and result
    of the contract occurs (counted in ``events``)."""
    events: Counter[str] = Counter()
    prompts: Counter[str] = Counter()
    for seed in range(COVERAGE_GAMES):
        world = _world(seed, temper=Temper(organiser=0.1))
        for inp in world.inputs():
            if isinstance(inp, Decision):
                prompts[inp.prompt] += 1
        events.update(world.events)
    assert set(ANSWERS) <= set(prompts), set(ANSWERS) - set(prompts)
    wanted = {
        "agent_face_down", "agent_face_up", "citizen_agent", "discard", "location_play",
        "location_discard", "bribe_wins", "bribe_short", "bribe_recheck_wins", "bribe_arcanum",
        "relic_on", "effect_draw", "effect_draw_keep", "effect_extra_action",
        "effect_move_agent", "moved_face_up", "moved_face_down", "effect_immediate_win",
        "effect_return_agent", "return_face_down", "effect_manual", "manual_drew", "master",
        "watch_answered", "watch_by_itself", "watch_home", "set_aside", "declare",
        "declare_none", "copy", "copy_alone", "result_below", "result_highest",
        "result_tie", "result_tie_won", "result_tie_cancel", "neutral_won", "princes_games",
        "princes_games_mid_round", "princes_games_event", "reshuffle", "fidget", "retap",
        "event_draw",
    }  # fmt: skip
    assert wanted <= set(events), sorted(wanted - set(events))
