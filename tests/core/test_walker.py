"""Legal inputs and the seeded random walk from the contract alone (core/walker.py), on Gold
(tests/toy_gold.py): what counts as legal, a walk that ends with undos and corrections in it,
and the walk's verdicts on a game that gets stuck, is impure or refuses without a rule."""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from scorekeeper.core.inputs import Correct, Decision, Seen, Undo
from scorekeeper.core.outcomes import Accepted, Prompt, Rejected
from scorekeeper.core.referee import Referee
from scorekeeper.core.walker import WalkError, candidates, legal, walk
from tests.toy_gold import Gold, GoldState


def test_the_legal_inputs_at_the_start_are_the_answers_and_the_crown_lifted() -> None:
    game = Gold()
    state = game.new_game({"rounds": 1}, 3)
    every = list(candidates(game, state, 3))
    assert len(every) == 3 + 2 * 1 * 3  # three answers; the crown laid on/lifted off 3 thrones
    got = {inp for inp, _ in legal(game, state, 3)}
    assert got == {Decision(0, "take", a) for a in "123"} | {
        Seen(f"throne:{s}", "crown", False) for s in range(3)
    }


def test_a_sample_is_a_seeded_subset() -> None:
    import random

    game = Gold()
    state = game.new_game({"rounds": 1}, 3)
    one = list(candidates(game, state, 3, random.Random(1), sample=2))
    assert one == list(candidates(game, state, 3, random.Random(1), sample=2))
    assert len(one) == 3 + 2 and set(one) <= set(candidates(game, state, 3))


def test_a_walk_ends_the_game_with_undos_and_corrections_and_replays() -> None:
    game = Gold()
    kinds: set[type] = set()
    for seed in range(6):
        done = walk(game, 3, seed, options={"rounds": 3}, undo=0.1, correct=0.1)
        assert done.over and not done.stuck, done.summary()
        assert done.refusals and done.tried > len(done.steps)
        kinds |= {type(step.inp) for step in done.steps}
        replay = Referee(game, {"rounds": 3}, 3)
        for step, state in zip(done.steps, done.states[1:], strict=True):
            assert replay.apply(step.inp).accepted and replay.state == state
    assert {Seen, Decision, Undo, Correct} <= kinds
    again = walk(game, 3, 0, options={"rounds": 3}, undo=0.1, correct=0.1)
    first = walk(game, 3, 0, options={"rounds": 3}, undo=0.1, correct=0.1)
    assert [s.inp for s in again.steps] == [s.inp for s in first.steps]  # seeded


class _NoBuying(Gold):
    """After the first take nothing is asked and the crown may not move: stuck."""

    def pending(self, state: GoldState) -> tuple[Prompt, ...]:
        return () if state.phase == "buy" else super().pending(state)


def test_a_game_where_nothing_changes_the_state_is_stuck_not_over() -> None:
    done = walk(_NoBuying(), 2, 0)
    assert done.stuck and not done.over and len(done.steps) >= 1, done.summary()
    assert "stuck" in done.summary()


class _Impure(Gold):
    """Counts the answers it judged in its own attribute: the referee's answer differs."""

    calls = itertools.count()

    def decide(self, state: GoldState, decision: Decision) -> Accepted[GoldState] | Rejected:
        out = super().decide(state, decision)
        if isinstance(out, Accepted):
            vp = (next(self.calls), *out.state.vp[1:])
            return Accepted(dataclasses.replace(out.state, vp=vp), out.events)
        return out


def test_an_impure_game_is_caught() -> None:
    with pytest.raises(WalkError, match="reached another state"):
        walk(_Impure(), 2, 0)


class _Mute(Gold):
    """Refuses a crown laid in the wrong place without naming a rule."""

    def observe(self, state: GoldState, seen: Seen) -> Accepted[GoldState] | Rejected:
        out = super().observe(state, seen)
        return Rejected("", out.reason) if isinstance(out, Rejected) else out


def test_a_refusal_without_a_rule_is_caught() -> None:
    with pytest.raises(WalkError, match="refused with no rule"):
        walk(_Mute(), 2, 0)
