"""Test games for the API tests: the shared fake game, and one that asks each seat a question."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from scorekeeper.core.game import ORGANISER, Audience, Game
from scorekeeper.core.inputs import Decision, Seen
from scorekeeper.core.outcomes import Accepted, Outcome, Prompt, Rejected
from scorekeeper.errors import UnknownGame
from tests.fakes import FakeGame, FakeState

COLOURS = ("red", "blue")


@dataclass(frozen=True)
class PromptState:
    """The fake game's state plus each seat's secret pick."""

    base: FakeState
    picks: tuple[tuple[int, str], ...] = ()


class PromptGame(FakeGame):
    """FakeGame where every seat must also pick a colour, privately (prompt ``pick``)."""

    id = "prompt"
    name = "Prompt game"

    def new_game(self, options: Any, seats: int) -> PromptState:
        return PromptState(FakeState(seats))

    def observe(self, state: PromptState, seen: Seen) -> Outcome:  # type: ignore[override]
        out = super().observe(state.base, seen)
        if isinstance(out, Accepted):
            return Accepted(replace(state, base=out.state), out.events)
        return out

    def decide(self, state: PromptState, decision: Decision) -> Outcome:  # type: ignore[override]
        answered = dict(state.picks)
        if decision.prompt != "pick" or decision.seat is None or decision.seat in answered:
            return Rejected("TABLE-NO-PROMPT", "nobody asked that", "answer a pending prompt")
        if decision.answer not in COLOURS:
            return Rejected("R-PICK-1", f"{decision.answer!r} is not a colour", "red or blue")
        return Accepted(
            replace(state, picks=state.picks + ((decision.seat, decision.answer),)),
            (f"seat {decision.seat} picked a colour",),
        )

    def pending(self, state: PromptState) -> tuple[Prompt, ...]:  # type: ignore[override]
        answered = dict(state.picks)
        return tuple(
            Prompt("pick", s, f"Seat {s}: pick a colour", COLOURS, private=True)
            for s in range(state.base.seats)
            if s not in answered
        )

    def scores(self, state: PromptState) -> tuple[int, ...]:  # type: ignore[override]
        return super().scores(state.base)

    def is_over(self, state: PromptState) -> bool:  # type: ignore[override]
        return super().is_over(state.base)

    def view(self, state: PromptState, audience: Audience) -> dict[str, Any]:  # type: ignore[override]
        out = super().view(state.base, audience)
        out["picked"] = len(state.picks)
        out["picks"] = {str(s): c for s, c in state.picks if audience in (s, ORGANISER)}
        return out

    def secrets(self, state: PromptState, seat: int) -> frozenset[str]:  # type: ignore[override]
        return super().secrets(state.base, seat)


def find_test_game(game_id: str) -> Game:
    """``fake`` and ``prompt`` for these tests, else the real registry."""
    if game_id == "fake":
        return FakeGame()
    if game_id == "prompt":
        return PromptGame()
    if game_id == "toy-purse":
        from tests.toy_gold import Purse

        return Purse()
    from scorekeeper.games import find_game

    try:
        return find_game(game_id)
    except UnknownGame:
        raise
