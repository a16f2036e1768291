"""What a game answers to an input: accepted with a new state, or rejected with its rule id."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, TypeVar

S = TypeVar("S")


@dataclass(frozen=True, slots=True)
class Accepted(Generic[S]):
    """The input was legal. ``events`` are plain-language lines for the table's feed."""

    state: S
    events: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Rejected:
    """The input breaks rule ``rule`` (an id of docs/rules/<game>.md, e.g. ``R-TURN-1``).

    ``reason`` says what was wrong in one line; ``hint`` says what to do instead (what to put
    back, what would be legal). A rejected input changes no state.
    """

    rule: str
    reason: str
    hint: str = ""

    def to_dict(self) -> dict[str, str]:
        return {"rule": self.rule, "reason": self.reason, "hint": self.hint}

    def typed(self) -> Rejected:
        """This refusal for an input the organiser typed (no piece to put back): the hint
        reworded by ``core.text.typed_hint``."""
        from scorekeeper.core.text import typed_hint

        return Rejected(self.rule, self.reason, typed_hint(self.hint))


Outcome = Accepted[Any] | Rejected


@dataclass(frozen=True, slots=True)
class Prompt:
    """A question the table is waiting for a person to answer.

    ``id`` is the prompt kind the answer names (``Decision.prompt``); ``seat`` is who answers
    (None: anyone at the table, or the organiser); ``options`` are the legal answers. A
    ``private`` prompt is shown only to its seat (and the organiser).
    """

    id: str
    seat: int | None
    question: str
    options: tuple[str, ...]
    private: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "seat": self.seat,
            "question": self.question,
            "options": list(self.options),
            "private": self.private,
        }
