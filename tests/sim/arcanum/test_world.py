"""Unit tests of the simulated Arcanum world: determinism, every game ends, card conservation,
hand limits, and that every emitted input has the shape docs/games/arcanum.md gives it."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest

from scorekeeper.core.inputs import Decision, Seen, parse_input
from scorekeeper.errors import ConfigError
from scorekeeper.games.arcanum.boards import EFFECTS, find_profile
from scorekeeper.games.arcanum.cards import (
    FOOL,
    MAJORS,
    MINORS,
    PAWNS,
    SUITS,
    is_major,
    is_minor,
    is_pawn,
)
from scorekeeper.sim.arcanum.bots import Temper
from scorekeeper.sim.arcanum.world import ArcanumWorld
from scorekeeper.sim.world import WorldInput

SEEDS = range(12)
COVERAGE_GAMES = 50
PROMPTS = {
    "draw",
    "end_turn",
    "artists",
    "harbour",
    "market",
    "fields",
    "cathedral",
    "hide",
    "family",
    "empress",
    "wheel",
    "death",
    "temperance",
    "tower",
    "sun",
    "judgement",
    "fame",
    "fool",
}
PRIVATE = {"wheel", "temperance", "sun", "fool"}
FIELDS = re.compile(r"^(swords|coins|wands|cups)[+-]1$|^done$")


def _options(seed: int, seats: int) -> dict[str, Any]:
    """A spread of every table option over the seeds."""
    opts: dict[str, Any] = {"start_seat": seed % seats}
    if seed % 5 == 1:
        opts["length"] = "long"
    if seed % 7 == 2:
        opts["three_player_length"] = "always_8"
    if seed % 6 == 3:
        opts["variant"] = "first_game"
    if seed % 11 == 4:
        opts["variant"] = "simplest"
    if seed % 4 == 1:
        opts["devil_fame"] = "not_doubled"
    if seed % 3 == 2:
        opts["tied_split"] = "own_place"
    return opts


def _world(seed: int, **kw: Any) -> ArcanumWorld:
    seats = 3 + seed % 3
    return ArcanumWorld(seats, _options(seed, seats), seed, **kw)


def _actions(world: ArcanumWorld) -> list[list[WorldInput]]:
    out = []
    while action := world.next_inputs():
        out.append(action)
    return out


def test_same_seed_same_game() -> None:
    a = list(ArcanumWorld(4, {}, 7).inputs())
    b = list(ArcanumWorld(4, {}, 7).inputs())
    c = list(ArcanumWorld(4, {}, 8).inputs())
    assert a == b and a != c
    w1, w2 = ArcanumWorld(5, {"length": "long"}, 3), ArcanumWorld(5, {"length": "long"}, 3)
    list(w1.inputs())
    list(w2.inputs())
    assert w1.scores() == w2.scores() and w1.history == w2.history
    assert w1.is_over() and not w1.next_inputs()


def test_resuming_by_skipping_logged_inputs() -> None:
    full = list(ArcanumWorld(3, {}, 5).inputs())
    again = ArcanumWorld(3, {}, 5).inputs()
    assert [next(again) for _ in full[:200]] == full[:200]
    assert list(again) == full[200:]


def test_options_are_checked_and_a_board_may_be_a_mapping() -> None:
    with pytest.raises(ConfigError):
        ArcanumWorld(4, {"no_such_option": 1}, 0)
    with pytest.raises(ConfigError):
        ArcanumWorld(6, {}, 0)
    with pytest.raises(ConfigError):
        ArcanumWorld(4, {"board": "known"}, 0)  # incomplete: cannot start a table
    mapping = find_profile("sample").to_mapping()
    world = ArcanumWorld(4, {"board": mapping}, 0)
    assert list(world.inputs()) == list(ArcanumWorld(4, {}, 0).inputs())


@pytest.mark.parametrize("seed", SEEDS)
def test_games_end_with_plausible_scores(seed: int) -> None:
    world = _world(seed)
    n = world.seats
    over: list[bool] = []
    last: list[WorldInput] = []
    while action := world.next_inputs():
        over.append(world.is_over())
        last = action
        assert all(v >= 0 for v in world.scores())
        assert len(over) < 5_000
    assert over[-1] and not any(over[:-1])  # the last action ends the game, none before
    assert last[-1] == Decision(getattr(last[-1], "seat", None), "fame", "reveal")
    kinds = [h["kind"] for h in world.history]
    assert kinds.count("regular") == len(world.fame_rounds)
    assert [h["round"] for h in world.history if h["kind"] == "regular"] == list(world.fame_rounds)
    fame = sum(sum(h["gained"]) for h in world.history)
    assert sum(world.scores()) >= fame > 0  # VP lost to the Hanged Man is under what fame gives
    assert len(world.scores()) == n and world.winners()
    assert world.round == world.rounds


@pytest.mark.parametrize("seed", SEEDS)
def test_cards_are_conserved_and_hands_within_the_limit(seed: int) -> None:
    world = _world(seed)
    deck = Counter(MINORS) if world.variant == "simplest" else Counter(MINORS + MAJORS)
    calm = True  # no discard owed after the previous action
    while action := world.next_inputs():
        if any(isinstance(i, Seen) and i.zone == "play" and i.present for i in action):
            assert calm, action  # a card is played only when nobody owes a discard
        where = world.locations()
        assert Counter(c for cs in where.values() for c in cs) == deck
        for s in range(world.seats):
            assert all(is_minor(c) or c == FOOL for c in world.hidden[s])
        calm = all(world.hand_size(s) <= 7 for s in range(world.seats))
        assert world.round == 0 or sorted(world.pawns) == sorted(PAWNS)


class Model:
    """A plain model of the physical table, driven only by the emitted sightings."""

    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.at: dict[str, str] = {}
        self.zones = (
            {f"loc:{k}" for k in range(1, 11)}
            | {"tray", "play", "minor_discard", "major_discard"}
            | {f"hide:{s}" for s in range(seats)}
        )

    def apply(self, inp: Seen) -> None:
        assert inp.zone in self.zones, inp
        piece, zone = inp.piece, inp.zone
        assert is_pawn(piece) or is_major(piece) or is_minor(piece), inp
        if is_pawn(piece):
            assert zone.startswith("loc:") or zone == "tray", inp
        elif zone.startswith("loc:"):
            assert piece == "major_16", inp  # only the Tower card lies on the city
        if zone.startswith("hide:") and inp.present:
            assert is_minor(piece) or piece == FOOL, inp
        if zone == "minor_discard":
            assert is_minor(piece), inp
        if zone == "major_discard":
            assert is_major(piece), inp
        if inp.present:
            self.at[piece] = zone


def _check_decision(inp: Decision, seats: int) -> None:
    assert inp.prompt in PROMPTS, inp
    assert inp.seat is None or 0 <= inp.seat < seats, inp
    if inp.prompt in PRIVATE:  # only the seat asked answers a private prompt
        assert inp.seat is not None, inp
    answers: dict[str, set[str] | None] = {
        "draw": {"major", "minors"},
        "end_turn": {"done"},
        "artists": {"major", "minors"},
        "harbour": {"draw", "pass"},
        "market": {"none", "major", "minor"},
        "cathedral": {"hide", "draw"},
        "hide": {"pass"},
        "family": set(SUITS),
        "wheel": {"minor+minor", "minor+major", "major+major", "minor", "major"},
        "death": {"1", "2"},
        "fame": {"reveal"},
        "fool": set(SUITS),
    }
    allowed = answers.get(inp.prompt)
    if allowed is not None:
        assert inp.answer in allowed, inp
    elif inp.prompt == "fields":
        assert FIELDS.match(inp.answer), inp
    elif inp.prompt == "empress":
        up, down = inp.answer.split("/")
        assert up in SUITS and down in SUITS and up != down, inp
    elif inp.prompt == "tower":
        assert inp.answer == "done" or 1 <= int(inp.answer) <= 10, inp
    elif inp.prompt == "judgement":
        assert inp.answer in PAWNS or 1 <= int(inp.answer) <= 10, inp
    elif inp.prompt == "temperance":
        parts = inp.answer.split("+")
        assert inp.answer == "none" or (len(parts) <= 2 and all(is_minor(p) for p in parts))
    elif inp.prompt == "sun":
        assert is_minor(inp.answer) or inp.answer == FOOL, inp


@pytest.mark.parametrize("seed", SEEDS)
def test_inputs_follow_the_contract(seed: int) -> None:
    world = _world(seed)
    model = Model(world.seats)
    inputs = list(world.inputs())
    setup = [i for i in inputs[:40] if isinstance(i, Seen) and i.present]
    placed: set[str] = set()
    for inp in setup:  # nothing but pawns until the 16th pawn has landed
        assert is_pawn(inp.piece) and inp.zone.startswith("loc:"), inp
        placed.add(inp.piece)
        if len(placed) == 16:
            break
    for inp in inputs:
        assert parse_input(inp.to_str()) == inp
        if isinstance(inp, Seen):
            model.apply(inp)
        else:
            _check_decision(inp, world.seats)
    assert world.is_over()


def test_setup_respects_the_placement_limits() -> None:
    for seed in range(20):
        world = ArcanumWorld(3 + seed % 3, {}, seed)
        while len(world.pawns) < 16:
            world.next_inputs()
        for loc in range(1, 11):
            here = [p for p, x in world.pawns.items() if x == loc]
            assert len(here) <= 2 and len({p.split("_")[1] for p in here}) == len(here)


def _physical_problems(world: ArcanumWorld) -> list[str]:
    """What a reader could not report: an arrival where the piece lies, a departure from where
    it does not lie, or a piece on two zones once an action is over."""
    at: dict[str, set[str]] = {}
    problems: list[str] = []
    for n, action in enumerate(_actions(world)):
        for inp in action:
            if not isinstance(inp, Seen):
                continue
            zones = at.setdefault(inp.piece, set())
            if inp.present == (inp.zone in zones):
                problems.append(f"action {n}: {inp.to_str()}")
            (zones.add if inp.present else zones.discard)(inp.zone)
        problems += [f"action {n}: {p} on {sorted(z)}" for p, z in at.items() if len(z) > 1]
    return problems


@pytest.mark.parametrize("seed", range(30))
def test_pieces_move_as_hands_move_them(seed: int) -> None:
    """Every piece is on one zone at a time and leaves it as (or before) it lands elsewhere:
    pawn moves, played cards carried to their piles, reshuffled piles, cleared hide strips,
    the Tower, Judgement's tray, Temperance's swap (what simulated readers need)."""
    assert not _physical_problems(_world(seed))


def test_noise_adds_setup_moves_and_peeks() -> None:
    def count(noise: float) -> int:
        events = 0
        for seed in range(4):
            world = ArcanumWorld(4, {}, seed, noise=noise)
            list(world.inputs())
            events += world.events["setup_moved"] + world.events["peek"]
        return events

    assert count(0.0) == 0 and count(0.6) > 10


def test_every_major_and_location_is_exercised() -> None:
    """Over ~50 games every major is played and every location effect resolved."""
    majors: Counter[str] = Counter()
    effects: Counter[str] = Counter()
    events: Counter[str] = Counter()
    prompts: Counter[str] = Counter()
    for seed in range(COVERAGE_GAMES):
        seats = 3 + seed % 3
        world = ArcanumWorld(seats, {"start_seat": seed % seats}, seed)
        for inp in world.inputs():
            if isinstance(inp, Decision):
                prompts[inp.prompt] += 1
                if inp.seat is None and inp.prompt != "fame":
                    prompts["by the organiser"] += 1
        majors.update(world.majors_played)
        effects.update(world.effects)
        events.update(world.events)
    assert set(majors) == set(MAJORS), sorted(set(MAJORS) - set(majors))
    assert set(effects) == set(EFFECTS), sorted(set(EFFECTS) - set(effects))
    assert set(prompts) == PROMPTS | {"by the organiser"}, sorted(PROMPTS - set(prompts))
    assert events["to_pile"] > 100
    for kind in (
        "fool_hidden",
        "fool_assigned",
        "major_first",
        "end_turn",
        "hand_limit",
        "minor_reshuffle",
        "G-16",
        "R-PLAY-2",
        "judgement_returned",
        "tower_seen",
        "temperance_swap",
        "market_major",
        "market_minor",
    ):
        assert events[kind] > 0, (kind, events)


def test_a_temper_changes_the_game() -> None:
    calm = ArcanumWorld(4, {}, 1, temper=Temper(major_after=0.0, major_first=0.0))
    list(calm.inputs())
    assert not calm.majors_played
