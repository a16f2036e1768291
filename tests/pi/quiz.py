"""A test game whose prompts the test chooses by playing cards, for the GPIO feedback tests.

Zone ``play`` (reader ``r1``) and ``side`` (reader ``r2``). Playing ``OK`` is accepted, ``BAD``
is refused (``R-QUIZ-1``). ``CLAIM`` opens a table prompt ``claim`` answered ``pass``; ``COUNT``
opens a seat-0 prompt ``draw_count`` answered 0, 1 or 2; ``ONE`` opens a table prompt ``go``
whose only answer is ``yes``. Every seat always has the declaration ``waiting: yes`` open, like
Angels & Demons. Answering a prompt closes it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from scorekeeper.core.game import Audience, Game
from scorekeeper.core.inputs import Decision, Seen
from scorekeeper.core.outcomes import Accepted, Outcome, Prompt, Rejected

OPENS = {
    "CLAIM": Prompt("claim", None, "claim the discard? answer pass if nobody does", ("pass",)),
    "COUNT": Prompt("draw_count", 0, "how many did you draw?", ("0", "1", "2"), True),
    "ONE": Prompt("go", None, "go on?", ("yes",)),
}


@dataclass(frozen=True)
class QuizState:
    seats: int
    played: int = 0
    open: tuple[Prompt, ...] = ()
    answers: tuple[str, ...] = ()


class QuizGame(Game):
    id = "quiz"
    name = "Quiz"
    min_seats = 1
    max_seats = 4

    def pieces(self) -> tuple[str, ...]:
        return ("OK", "BAD", *OPENS)

    def describe_piece(self, piece: str) -> str:
        return piece

    def zones(self, seats: int) -> tuple[str, ...]:
        return ("play", "side")

    def default_layout(self, seats: int) -> dict[str, str]:
        return {"r1": "play", "r2": "side"}

    def new_game(self, options: Mapping[str, Any], seats: int) -> QuizState:
        return QuizState(seats)

    def observe(self, state: QuizState, seen: Seen) -> Outcome:
        if not seen.present:
            return Accepted(state, ())
        if seen.piece == "BAD":
            return Rejected("R-QUIZ-1", "that card may not be played", "play OK")
        prompt = OPENS.get(seen.piece)
        opened = state.open + ((prompt,) if prompt is not None else ())
        return Accepted(
            replace(state, played=state.played + 1, open=opened), (f"{seen.piece} played",)
        )

    def decide(self, state: QuizState, decision: Decision) -> Outcome:
        if decision.prompt == "waiting":
            return Accepted(state, ("declared",))
        for prompt in state.open:
            if prompt.id == decision.prompt and decision.answer in prompt.options:
                rest = tuple(p for p in state.open if p is not prompt)
                return Accepted(
                    replace(state, open=rest, answers=state.answers + (decision.answer,)),
                    (f"{prompt.id}: {decision.answer}",),
                )
        return Rejected("TABLE-NO-PROMPT", "nobody asked that", "answer a pending prompt")

    def pending(self, state: QuizState) -> tuple[Prompt, ...]:
        waiting = tuple(
            Prompt("waiting", s, "declare waiting?", ("yes",)) for s in range(state.seats)
        )
        return state.open + waiting

    def waiting_for(self, state: QuizState) -> str:
        return "a card"

    def scores(self, state: QuizState) -> tuple[int, ...]:
        return (state.played,) + (0,) * (state.seats - 1)

    def is_over(self, state: QuizState) -> bool:
        return False

    def view(self, state: QuizState, audience: Audience) -> dict[str, Any]:
        return {"played": state.played, "answers": list(state.answers)}

    def secrets(self, state: QuizState, seat: int) -> frozenset[str]:
        return frozenset()


def find_quiz(game_id: str) -> Game:
    if game_id == "quiz":
        return QuizGame()
    from scorekeeper.games import find_game

    return find_game(game_id)
