"""Legal inputs and a seeded random walk, built from the game contract alone.

A game's own bots (its simulated world, scorekeeper/sim/) play the way people play; this walker
knows nothing of the game but its ``Game`` methods, so it goes where the bots never do. From a
state, the candidate inputs are every piece laid on or lifted off every zone, and every answer
of every pending prompt from the seat it is for (``candidates``); each is judged by the game's
pure ``observe``/``decide`` and the accepted ones are kept (``legal``). The walk picks one of
those that change the state, preferring states it has not been in and, half the time, inputs
after which the table waits for something else (``Game.waiting_for``: the game moves on); it
mixes in undos, corrections and now and then an accepted input that changes nothing, all
through the ``Referee`` (pure and in memory, as the table uses it).

Cost: a game with P pieces and Z zones has 2·P·Z sightings to try (3,200 for Arcanum at 3
seats, a few µs each). ``walk`` samples ``sample`` of them per step and enumerates all only
when the sample held no input that changes the state.

Who uses it: tests/test_conformance.py (every registered game, seeded walks: states round-trip,
refusals name declared rules) and tests/perturb_values.py (a game without a simulated
world). Hazard: a walk is no game anyone would play: it reaches the end only if the rules let a
random legal sequence get there; ``Walk.over`` and ``Walk.stuck`` say how it ended.
"""

from __future__ import annotations

import collections
import random
from collections.abc import Hashable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, cast

from scorekeeper.core.game import Game
from scorekeeper.core.inputs import Correct, Decision, GameInput, Seen, Undo
from scorekeeper.core.outcomes import Accepted, Rejected
from scorekeeper.core.referee import Referee
from scorekeeper.errors import ScorekeeperError

S = TypeVar("S")

SAMPLE = 256  # sightings tried per step before falling back to all of them
UNDO = 0.03  # share of steps that take the last accepted input back
CORRECT = 0.03  # share that replace it with another input legal where it was played
QUIET = 0.02  # share that play an accepted input changing nothing (a card lifted and so on)
ONWARD = 0.5  # share that prefer inputs after which the table waits for something else


class WalkError(ScorekeeperError, AssertionError):
    """The referee disagreed with the game's own pure judgement of an input (an impure game,
    or a referee bug): the walk stops, saying where."""


@dataclass(frozen=True, slots=True)
class Step:
    """One input the walk gave the referee, and what it made of it."""

    inp: GameInput | Undo | Correct
    accepted: bool
    events: tuple[str, ...] = ()


@dataclass
class Walk(Generic[S]):
    """A seeded walk: ``states[k]`` is the referee's state after ``steps[:k]``.

    ``refusals`` counts the rule ids of every refused candidate (each names a rule: a refusal
    without one raises); ``tried`` counts candidates judged. ``over``: the game ended;
    ``stuck``: no input changing the state was legal (the walk stopped there)."""

    game: Game[S]
    seats: int
    seed: int
    options: dict[str, Any]
    steps: list[Step] = field(default_factory=list)
    states: list[S] = field(default_factory=list)
    refusals: collections.Counter[str] = field(default_factory=collections.Counter)
    tried: int = 0
    over: bool = False
    stuck: bool = False

    def summary(self) -> str:
        """How the walk went, in one line (for test reports)."""
        ends = "game over" if self.over else "stuck" if self.stuck else "step limit"
        undos = sum(isinstance(s.inp, Undo) for s in self.steps)
        fixes = sum(isinstance(s.inp, Correct) for s in self.steps)
        return (
            f"{self.game.id}, {self.seats} seats, seed {self.seed}: {len(self.steps)} steps "
            f"({undos} undos, {fixes} corrections), {self.tried} inputs judged, "
            f"{sum(self.refusals.values())} refused by {len(self.refusals)} rules; {ends}"
        )


def candidates(
    game: Game[S], state: S, seats: int, rng: random.Random | None = None, sample: int = 0
) -> Iterator[GameInput]:
    """Inputs worth judging on ``state``: every answer of every pending prompt (from its seat,
    None being the organiser), then sightings (piece x zone x laid/lifted): all of them, in
    order, or ``sample`` of them chosen with ``rng``."""
    for prompt in game.pending(state):
        for answer in prompt.options:
            yield Decision(prompt.seat, prompt.id, answer)
    zones, pieces = game.zones(seats), game.pieces()
    total = 2 * len(zones) * len(pieces)
    picks: Any = range(total)
    if rng is not None and 0 < sample < total:
        picks = rng.sample(range(total), sample)
    for n in picks:
        rest, present = divmod(n, 2)
        z, p = divmod(rest, len(pieces))
        yield Seen(zones[z], pieces[p], not present)


def judge(game: Game[S], state: S, inp: GameInput) -> Accepted[S] | Rejected:
    """The game's own pure judgement of ``inp`` on ``state``."""
    return game.observe(state, inp) if isinstance(inp, Seen) else game.decide(state, inp)


def legal(
    game: Game[S], state: S, seats: int, rng: random.Random | None = None, sample: int = 0
) -> list[tuple[GameInput, Accepted[S]]]:
    """The accepted inputs among ``candidates(...)``, with what each leads to. With no
    ``sample``, every legal input the contract can name on ``state``."""
    out = []
    for inp in candidates(game, state, seats, rng, sample):
        outcome = judge(game, state, inp)
        if isinstance(outcome, Accepted):
            out.append((inp, outcome))
    return out


def _key(state: Any) -> Hashable:
    """What identifies a state among those visited: itself when hashable, else its repr."""
    try:
        hash(state)
    except TypeError:
        return repr(state)
    return cast(Hashable, state)  # hash() just took it


def walk(
    game: Game[S],
    seats: int,
    seed: int,
    *,
    options: Mapping[str, Any] | None = None,
    max_steps: int = 3000,
    sample: int = SAMPLE,
    undo: float = UNDO,
    correct: float = CORRECT,
    quiet: float = QUIET,
    onward: float = ONWARD,
) -> Walk[S]:
    """Play ``game`` from its start by seeded random legal inputs until it is over, no input
    changes the state, or ``max_steps`` inputs were given (module docstring). Raises WalkError
    when the referee disagrees with the game's pure judgement, or a refusal names no rule; an
    exception from the game propagates with a note saying the walk's seed, step and input."""
    referee = Referee(game, options or {}, seats)
    rng = random.Random(f"walk {game.id} {seats} {seed}")
    result: Walk[S] = Walk(game, seats, seed, dict(referee.options), states=[referee.state])
    visited: set[Hashable] = {_key(referee.state)}
    before: list[S] = []  # the state before each accepted input still in force

    def give(inp: GameInput | Undo | Correct, expect: S | None) -> None:
        done = referee.apply(inp)
        if not done.accepted or (expect is not None and referee.state != expect):
            raise WalkError(
                f"{result.summary()}: the referee "
                f"{'refused' if not done.accepted else 'reached another state on'} "
                f"{inp.to_str()!r}, which the game accepted"
            )
        result.steps.append(Step(inp, True, done.events))
        result.states.append(referee.state)
        visited.add(_key(referee.state))

    while len(result.steps) < max_steps and not game.is_over(referee.state):
        state = referee.state
        roll = rng.random()
        try:
            if roll < undo and before:
                expect = before.pop()
                give(Undo(), expect)
                continue
            if roll < undo + correct and before:
                options_there = _moving(game, before[-1], seats, rng, sample, result)
                if options_there:
                    inp, outcome = rng.choice(options_there)
                    give(Correct(inp), outcome.state)
                    continue
            moves = _moving(game, state, seats, rng, sample, result)
            if not moves:
                result.stuck = True
                break
            if rng.random() < quiet:
                still = [
                    (i, o) for i, o in legal(game, state, seats, rng, sample) if o.state == state
                ]
                if still:
                    inp, outcome = rng.choice(still)
                    before.append(state)
                    give(inp, outcome.state)
                    continue
            fresh = [m for m in moves if _key(m[1].state) not in visited] or moves
            if rng.random() < onward:
                waiting = game.waiting_for(state)
                fresh = [m for m in fresh if game.waiting_for(m[1].state) != waiting] or fresh
            inp, outcome = rng.choice(fresh)
            before.append(state)
            give(inp, outcome.state)
        except WalkError:
            raise
        except Exception as exc:
            last = result.steps[-1].inp.to_str() if result.steps else "none yet"
            exc.add_note(f"in {result.summary()}; the last input given: {last}")
            raise
    result.over = game.is_over(referee.state)
    return result


def _moving(
    game: Game[S], state: S, seats: int, rng: random.Random, sample: int, result: Walk[S]
) -> list[tuple[GameInput, Accepted[S]]]:
    """The legal inputs on ``state`` that change it: from a sample first, from every
    candidate when the sample held none. Counts what was judged and refused."""
    for size in (sample, 0):
        found = []
        for inp in candidates(game, state, seats, rng, size):
            result.tried += 1
            outcome = judge(game, state, inp)
            if isinstance(outcome, Rejected):
                if not outcome.rule:
                    raise WalkError(f"{result.summary()}: {inp.to_str()!r} refused with no rule")
                result.refusals[outcome.rule] += 1
            elif outcome.state != state:
                found.append((inp, outcome))
        if found or size == 0:
            return found
    return []
