"""One conformance test over every registered game that has a simulated world.

Random seeded play always ends; every input the world emits is accepted; replaying the accepted
inputs through a fresh referee reaches an equal state; no view or feed line shows another
seat's secrets; garbage inputs are accepted or refused with a rule id, and a refusal changes
nothing (docs/design.md, "Invariants").

Every registered game, with a world or without, is also walked at random from its contract
alone (core/walker.py, undos and corrections mixed in): the walk reaches the end or its step
limit, every refusal on the way names a declared rule, every state it passes round-trips
through its record form (Game.snapshot/restore, and JSON text), and a table given the same
inputs accepts them all, reaches the same states and shows every audience a view that is JSON.
"""

from __future__ import annotations

import collections
import functools
import importlib
import json
import random
import re
from typing import Any

import pytest

from scorekeeper.core.game import ORGANISER, PUBLIC, Audience, Game
from scorekeeper.core.inputs import Decision, GameInput, Seen, Undo
from scorekeeper.core.referee import Referee
from scorekeeper.core.rule_ids import TABLE_RULES, RuleRegistry
from scorekeeper.core.table import Table, TableConfig
from scorekeeper.core.walker import walk
from scorekeeper.games import find_game, game_ids, games
from scorekeeper.sim import find_world, has_world

GAMES_WITH_WORLDS = sorted(g for g in games() if has_world(g))
GAMES_TOTAL = 99  # ~100 games per registered game, a third at each player count
STEP_BOUND = 20_000  # inputs; a game that has not ended by then does not end
CHECK_VIEWS = 0.05  # share of states whose views are checked for leaks...
FULL_LEAK_GAMES = 12  # ...except in the first games, where every state is checked
GARBAGE = 0.05  # share of states at which a garbage input is tried


def _history(inputs: list[GameInput], seed: int, seats: int) -> str:
    lines = "\n".join(f"{i:5d} {inp.to_str()}" for i, inp in enumerate(inputs))
    return f"seed {seed}, {seats} seats; input history:\n{lines}"


def _new_strings(now: Any, old: Any, pattern: re.Pattern[str], path: str = "") -> list[str]:
    """Strings of ``now`` that ``pattern`` finds and ``old`` did not hold at the same place."""
    if now == old:
        return []
    found: list[str] = []
    if isinstance(now, dict):
        prev = old if isinstance(old, dict) else {}
        for k, v in now.items():
            if k not in prev and isinstance(k, str) and pattern.search(k):
                found.append(f"{path}/ key {k}")
            found += _new_strings(v, prev.get(k), pattern, f"{path}/{k}")
    elif isinstance(now, list | tuple):
        prev_list = old if isinstance(old, list | tuple) else []
        for i, v in enumerate(now):
            before = prev_list[i] if i < len(prev_list) else None
            found += _new_strings(v, before, pattern, f"{path}[{i}]")
    elif isinstance(now, str) and pattern.search(now):
        found.append(f"{path} = {now}")
    return found


def _shown(game: Game, state: Any, audience: Audience) -> dict[str, Any]:
    """What ``audience`` receives of ``state``: the game's view and the prompts it may see."""
    prompts = [p.to_dict() for p in game.pending(state) if not p.private or p.seat == audience]
    return {"view": game.view(state, audience), "prompts": prompts}


@functools.cache
def _unique_words(game: Game) -> dict[str, str]:
    """Piece id -> its words, for the pieces no other piece shares its words with."""
    words = {p: game.describe_piece(p) for p in game.pieces()}
    counts = collections.Counter(words.values())
    return {p: w for p, w in words.items() if counts[w] == 1}


def _leaks(game: Game, before: Any, state: Any, seats: int, events: tuple[str, ...]) -> list[str]:
    """Secrets of a seat that another audience is newly shown, or that a feed line names.

    A secret is matched as a whole token in the JSON an audience receives. A string already
    shown at the same place before the input is not new: public records of earlier rounds (a
    goer-out's shown hand) legitimately name cards that are dealt again and taken later, and
    showing that record again reveals nothing.
    """
    found: list[str] = []
    unique = _unique_words(game)
    # Each audience's view is built once per call, not once per other seat's secrets (views are
    # pure: the same state gives the same view); the check itself is unchanged.
    shown_now: dict[Audience, tuple[dict[str, Any], str]] = {}
    shown_before: dict[Audience, dict[str, Any]] = {}
    for seat in range(seats):
        secrets = game.secrets(state, seat)
        if not secrets:
            continue
        # Texts name cards in words, not ids: a secret whose words name only that piece
        # ("the red angel 4", "the Fool (0)") is looked for by its words too.
        names = sorted(secrets) + sorted(unique[s] for s in secrets if s in unique)
        pattern = re.compile(r"(?<![\w])(?:" + "|".join(map(re.escape, names)) + r")(?![\w])")
        for line in events:
            for match in pattern.finditer(line):
                found.append(f"seat {seat}'s {match.group(0)} is named in the feed: {line!r}")
        others: list[Audience] = [PUBLIC, *(t for t in range(seats) if t != seat)]
        for audience in others:
            if audience not in shown_now:
                view = _shown(game, state, audience)
                shown_now[audience] = (view, json.dumps(view))
            now, text = shown_now[audience]
            # a plain substring test first: a match needs one of the names in the text (the
            # alternation's search is the slow part, and almost every text holds none)
            if not any(name in text for name in names) or not pattern.search(text):
                continue
            if audience not in shown_before:
                shown_before[audience] = _shown(game, before, audience)
            for where in _new_strings(now, shown_before[audience], pattern):
                found.append(f"seat {seat}'s secret is shown to {audience}: {where}")
    return found


def _garbage(rng: random.Random, game: Game, seats: int, prompt_ids: list[str]) -> GameInput:
    """A random card arriving at (or leaving) a random zone, or a decision nobody asked for."""
    if rng.random() < 0.7:
        return Seen(rng.choice(game.zones(seats)), rng.choice(game.pieces()), rng.random() < 0.8)
    seat = rng.choice([None, *range(seats)])
    prompt = rng.choice([*prompt_ids, "nonsense"])
    return Decision(seat, prompt, rng.choice(["yes", "pass", "0", "1", "2", "9", "x"]))


# The seeds in blocks, each a test of its own: one game's 99 took up to 33 s, the last test
# of make test's run on one core while the other idled.
BLOCKS = 3


@pytest.mark.parametrize("block", range(BLOCKS))
@pytest.mark.parametrize("game_id", GAMES_WITH_WORLDS)
def test_random_play_conforms(game_id: str, block: int) -> None:
    """Random seeded games through the referee: see the module docstring."""
    game = games()[game_id]
    world_cls = find_world(game_id)
    counts = [s for s in (2, 3, 4, 5) if game.min_seats <= s <= game.max_seats]
    prompt_ids: list[str] = []
    for seed in range(block, GAMES_TOTAL, BLOCKS):  # (the fully checked first games spread)
        seats = counts[seed % len(counts)]
        rng = random.Random(seed)
        world = world_cls(seats, {}, seed)
        referee = Referee(game, {}, seats)
        history: list[GameInput] = []
        for inp in world.inputs():
            history.append(inp)
            assert len(history) <= STEP_BOUND, "the game did not end\n" + _history(
                history[-200:], seed, seats
            )
            before = referee.state
            result = referee.apply(inp)
            assert result.accepted, f"{inp.to_str()} refused: {result.rejection}\n" + _history(
                history, seed, seats
            )
            state = referee.state
            for p in game.pending(state):
                if p.id not in prompt_ids:
                    prompt_ids.append(p.id)
            if seed < FULL_LEAK_GAMES or rng.random() < CHECK_VIEWS:
                leaks = _leaks(game, before, state, seats, result.events)
                assert not leaks, f"{leaks[:5]}\n" + _history(history, seed, seats)
            if rng.random() < GARBAGE and not game.is_over(state):
                junk = _garbage(rng, game, seats, prompt_ids)
                tried = referee.apply(junk)
                if tried.accepted:
                    assert referee.apply(Undo()).accepted
                else:
                    assert tried.rejection is not None and tried.rejection.rule, junk.to_str()
                assert referee.state == state, f"{junk.to_str()} changed the state\n" + _history(
                    history, seed, seats
                )
        assert world.is_over() and game.is_over(referee.state), _history(history, seed, seats)
        assert game.scores(referee.state) == world.scores(), _history(history, seed, seats)
        assert _round_trip(game, referee.state), f"seed {seed}: the final state's record differs"
        replay = Referee(game, {}, seats)
        for inp in history:
            assert replay.apply(inp).accepted, inp.to_str()
        assert replay.state == referee.state, _history(history, seed, seats)


WALKS = 3  # seeded walks per game, at the player counts in turn
WALK_STEPS = 250  # inputs per walk at most (Angels & Demons never ends by random play)


def _round_trip(game: Game, state: Any) -> bool:
    """Whether ``state`` comes back equal from its record, through JSON text."""
    return game.restore(json.loads(json.dumps(game.snapshot(state)))) == state


def _rules(game: Game) -> RuleRegistry:
    """The game's rule registry (games/<game>/rule_ids.py: tests/test_game_gate.py requires
    one)."""
    package = type(game).__module__.rpartition(".")[0]
    rules = importlib.import_module(f"{package}.rule_ids").RULES
    assert isinstance(rules, RuleRegistry)
    return rules


@pytest.mark.parametrize("game_id", game_ids())
def test_random_walks_round_trip_and_refuse_by_declared_rules(game_id: str) -> None:
    """Seeded walks from the contract alone (module docstring)."""
    game = find_game(game_id)
    declared = set(_rules(game).refusals) | set(TABLE_RULES.refusals)
    counts = range(game.min_seats, game.max_seats + 1)
    for seed in range(WALKS):
        seats = counts[seed % len(counts)]
        done = walk(game, seats, seed, max_steps=WALK_STEPS)
        where = f"{done.summary()}; waiting for: {game.waiting_for(done.states[-1])}"
        print(where)
        assert done.over or len(done.steps) == WALK_STEPS, f"{where}: no legal input changed it"
        undeclared = sorted(set(done.refusals) - declared)
        assert not undeclared, f"{where}: refused by undeclared rules {undeclared}"
        # The same inputs through a table (feed, put-back words after undos and corrections):
        # each is accepted, and every audience's whole view is JSON.
        names = tuple(f"P{i}" for i in range(seats))
        table = Table(TableConfig(game.id, names, done.options, game.default_layout(seats)), game)
        for k, state in enumerate(done.states):
            assert _round_trip(game, state), f"{where}: state {k} does not round-trip"
            if k:
                inp = done.steps[k - 1].inp
                assert table.submit(inp).accepted, f"{where}: the table refused {inp.to_str()}"
            assert table.state == state, f"{where}: the table reached another state {k}"
            if k % 10 == 0 or k == len(done.states) - 1:
                for audience in (PUBLIC, ORGANISER, *range(seats)):
                    json.dumps(table.view(audience))


def test_every_registered_world_names_a_game() -> None:
    """The world registry only lists games that exist, and each world says which game it plays."""
    from scorekeeper.sim import WORLDS

    for game_id in WORLDS:
        assert game_id in games()
        assert find_world(game_id).game_id == game_id


def _physical_problems(world_actions: list[list[GameInput]]) -> list[str]:
    """What a simulated reader could not have reported: a piece arriving where it already lies,
    leaving where it does not lie, or lying on two zones once an action is over. Simulated
    readers (``make demo``) report presence changes only, exactly like real ones."""
    at: dict[str, set[str]] = {}
    problems: list[str] = []
    for n, action in enumerate(world_actions):
        for inp in action:
            if not isinstance(inp, Seen):
                continue
            zones = at.setdefault(inp.piece, set())
            if inp.present and inp.zone in zones:
                problems.append(f"action {n}: {inp.to_str()}: already lies there")
            elif not inp.present and inp.zone not in zones:
                problems.append(f"action {n}: {inp.to_str()}: does not lie there")
            (zones.add if inp.present else zones.discard)(inp.zone)
        for piece, zones in at.items():
            if len(zones) > 1:
                problems.append(f"action {n}: {piece} lies on {sorted(zones)} at once")
    return problems


@pytest.mark.parametrize("game_id", GAMES_WITH_WORLDS)
def test_worlds_are_physically_consistent(game_id: str) -> None:
    """Every world moves pieces the way hands do: a piece is on one zone at a time, and leaves
    one zone before (or while) it lands on another, so sim readers report every move."""
    game = games()[game_id]
    counts = [s for s in (2, 3, 4, 5) if game.min_seats <= s <= game.max_seats]
    for seed in range(12):
        seats = counts[seed % len(counts)]
        world = find_world(game_id)(seats, {}, seed)
        actions: list[list[GameInput]] = []
        while action := world.next_inputs():
            actions.append(list(action))
        problems = _physical_problems(actions)
        assert not problems, f"seed {seed}, {seats} seats: {problems[:5]}"


def test_the_leak_check_finds_a_secret_named_in_words() -> None:
    """Feed lines name cards in words: a hidden card named by its words is a leak."""
    game = games()["arcanum"]
    world = find_world("arcanum")(3, {}, 1)
    referee = Referee(game, {}, 3)
    for inp in world.inputs():
        assert referee.apply(inp).accepted
        hidden = sorted(game.secrets(referee.state, 0) & set(_unique_words(game)))
        if hidden:
            break
    else:  # pragma: no cover - every Arcanum game hides cards in round 1
        raise AssertionError("no seat ever hid a card")
    state = referee.state
    line = f"Ann hid {game.describe_piece(hidden[0])} face down"
    assert _leaks(game, state, state, 3, (line,))
    assert not _leaks(game, state, state, 3, ("Ann hid a card face down",))
