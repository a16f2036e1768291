"""A tiny fake game for tests that must not depend on a real game module.

Pieces are ``C1``..``C9``; zones are ``hand`` (seat 0's hidden hand) and ``play`` (public).
Every arrival and removal is accepted. Cards in the hand are seat 0's secret: the public view
shows only how many there are, and the feed never names them. The game is over when all nine
cards are in play; seat 0 scores one point per card in play, other seats score 0.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scorekeeper.core.game import ORGANISER, Audience, Game
from scorekeeper.core.inputs import Decision, Seen
from scorekeeper.core.outcomes import Accepted, Outcome, Prompt, Rejected

PIECES = tuple(f"C{i}" for i in range(1, 10))


@dataclass(frozen=True)
class FakeState:
    """Which cards are in seat 0's hand and which are in play, and the seat count."""

    seats: int
    hand: tuple[str, ...] = ()
    play: tuple[str, ...] = ()


class FakeGame(Game):
    """A trivial but correct Game: nine cards, a hidden hand and a public play area."""

    id = "fake"
    name = "Fake game"
    min_seats = 1
    max_seats = 4

    def pieces(self) -> tuple[str, ...]:
        return PIECES

    def describe_piece(self, piece: str) -> str:
        return f"card {piece[1:]}"

    def zones(self, seats: int) -> tuple[str, ...]:
        return ("hand", "play")

    def default_layout(self, seats: int) -> dict[str, str]:
        return {"r1": "hand", "r2": "play"}

    def new_game(self, options: Mapping[str, Any], seats: int) -> FakeState:
        return FakeState(seats)

    def observe(self, state: FakeState, seen: Seen) -> Outcome:
        hand = tuple(p for p in state.hand if p != seen.piece)
        play = tuple(p for p in state.play if p != seen.piece)
        if seen.present and seen.zone == "hand":
            return Accepted(
                FakeState(state.seats, hand + (seen.piece,), play), ("a card went to the hand",)
            )
        if seen.present:
            return Accepted(
                FakeState(state.seats, hand, play + (seen.piece,)), (f"{seen.piece} played",)
            )
        return Accepted(FakeState(state.seats, hand, play), ("a card was taken away",))

    def decide(self, state: FakeState, decision: Decision) -> Outcome:
        return Rejected("FAKE-NO-PROMPT", "nothing is being asked", "just play a card")

    def pending(self, state: FakeState) -> tuple[Prompt, ...]:
        return ()

    def waiting_for(self, state: FakeState) -> str:
        return "a card"

    def scores(self, state: FakeState) -> tuple[int, ...]:
        return (len(state.play),) + (0,) * (state.seats - 1)

    def is_over(self, state: FakeState) -> bool:
        return len(state.play) == len(PIECES)

    def view(self, state: FakeState, audience: Audience) -> dict[str, Any]:
        out: dict[str, Any] = {"hand_count": len(state.hand), "play": list(state.play)}
        if audience in (0, ORGANISER):
            out["hand"] = list(state.hand)
        return out

    def secrets(self, state: FakeState, seat: int) -> frozenset[str]:
        return frozenset(state.hand) if seat == 0 else frozenset()


class Clock:
    """A monotonic clock the test moves by hand (for code that takes a ``clock`` callable)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class MemoryMeta:
    """The two Store methods that meta users (tokens, settings) call, on a dict."""

    def __init__(self) -> None:
        self.meta: dict[str, str] = {}

    def get_meta(self, key: str) -> str | None:
        return self.meta.get(key)

    def set_meta(self, key: str, value: str) -> None:
        self.meta[key] = value
