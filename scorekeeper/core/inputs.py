"""The three kinds of input a table takes: sightings, decisions and corrections.

Every input is a frozen value that round-trips to a one-line string (``to_str``/``parse_input``)
and to a JSON-able record (``to_record``/``input_from_record``), which is what the log stores.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorekeeper.errors import ScorekeeperError

ORGANISER_WORD = "organiser"


class InputSyntaxError(ScorekeeperError, ValueError):
    """A string or record does not describe an input."""


@dataclass(frozen=True, slots=True)
class Sighting:
    """A reader saw a tag arrive (``present``) or leave, after debounce. Raw: uid, not card."""

    reader: str
    uid: str
    present: bool

    def to_str(self) -> str:
        return f"tag {'+' if self.present else '-'}{self.reader} {self.uid}"

    def to_record(self) -> dict[str, Any]:
        return {"type": "sighting", "reader": self.reader, "uid": self.uid, "present": self.present}


@dataclass(frozen=True, slots=True)
class Seen:
    """A piece (card or pawn id) arrived at (``present``) or left a zone: a game-level sighting."""

    zone: str
    piece: str
    present: bool

    def to_str(self) -> str:
        return f"{'+' if self.present else '-'}{self.zone} {self.piece}"

    def to_record(self) -> dict[str, Any]:
        return {"type": "seen", "zone": self.zone, "piece": self.piece, "present": self.present}


@dataclass(frozen=True, slots=True)
class Decision:
    """A person answers a prompt. ``seat`` is None when the organiser answers for the table."""

    seat: int | None
    prompt: str
    answer: str

    def to_str(self) -> str:
        who = ORGANISER_WORD if self.seat is None else str(self.seat)
        return f"decide {who} {self.prompt} {self.answer}"

    def to_record(self) -> dict[str, Any]:
        return {"type": "decision", "seat": self.seat, "prompt": self.prompt, "answer": self.answer}


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the last accepted input. Appended to the log like anything else."""

    def to_str(self) -> str:
        return "undo"

    def to_record(self) -> dict[str, Any]:
        return {"type": "undo"}


@dataclass(frozen=True, slots=True)
class Correct:
    """Replace the last accepted input with another one, atomically (fixing a misread)."""

    replacement: Seen | Decision

    def to_str(self) -> str:
        return f"correct {self.replacement.to_str()}"

    def to_record(self) -> dict[str, Any]:
        return {"type": "correct", "replacement": self.replacement.to_record()}


GameInput = Seen | Decision
Input = Sighting | Seen | Decision | Undo | Correct


def parse_input(text: str) -> Input:
    """Parse the one-line form written by ``to_str``; raises InputSyntaxError."""
    words = text.split()
    if not words:
        raise InputSyntaxError("empty input")
    head = words[0]
    if head == "undo" and len(words) == 1:
        return Undo()
    if head == "correct":
        inner = parse_input(" ".join(words[1:]))
        if not isinstance(inner, Seen | Decision):
            raise InputSyntaxError(f"a correction replaces a seen piece or a decision: {text!r}")
        return Correct(inner)
    if head == "decide" and len(words) == 4:
        who = words[1]
        if who == ORGANISER_WORD:
            return Decision(None, words[2], words[3])
        if who.isdigit():
            return Decision(int(who), words[2], words[3])
    if head == "tag" and len(words) == 3 and words[1][:1] in "+-" and len(words[1]) > 1:
        return Sighting(words[1][1:], words[2], words[1][0] == "+")
    if len(words) == 2 and head[:1] in "+-" and len(head) > 1:
        return Seen(head[1:], words[1], head[0] == "+")
    raise InputSyntaxError(f"not an input: {text!r}")


def input_from_record(record: dict[str, Any]) -> Input:
    """Rebuild an input from its log record; raises InputSyntaxError on a bad record."""
    try:
        kind = record["type"]
        if kind == "sighting":
            return Sighting(str(record["reader"]), str(record["uid"]), bool(record["present"]))
        if kind == "seen":
            return Seen(str(record["zone"]), str(record["piece"]), bool(record["present"]))
        if kind == "decision":
            seat = record["seat"]
            return Decision(
                None if seat is None else int(seat), str(record["prompt"]), str(record["answer"])
            )
        if kind == "undo":
            return Undo()
        if kind == "correct":
            inner = input_from_record(record["replacement"])
            if not isinstance(inner, Seen | Decision):
                raise InputSyntaxError("a correction replaces a seen piece or a decision")
            return Correct(inner)
    except (KeyError, TypeError, ValueError) as exc:
        raise InputSyntaxError(f"bad input record {record!r}: {exc}") from exc
    raise InputSyntaxError(f"unknown input type in {record!r}")
