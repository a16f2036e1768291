"""Recording a copy while it is tagged: the questions a data kind's ``PerPiece`` asks about
each piece, the answers checked, kept and turned into the kind's entry.

``scorekeeper enroll`` (commands/enroll.py) and the console's enrollment
(service/enrolling.py) share these. The answers of a kit are kept in the store's settings as
they are given (``AnswerBook``), so stopping loses nothing and the next session carries on;
once tagging stops, ``save_entry`` builds the entry from them and from the pieces tagged, and
saves it under the kit's name, checked by the kind's model as the data editor's entries are.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from scorekeeper.core.data_kind import DataKind, Entry, PerPiece
from scorekeeper.errors import ConfigError

ANSWERS_META = "enroll-answers:"  # + game/kind/kit: the answers given so far, as JSON
MAX_RANGE = 30  # a whole number with at most this many values lists them as choices


@dataclass(frozen=True)
class Question:
    """One field asked about a piece: its words, and its choices as ``(value, label)`` (empty
    when any value the model accepts goes)."""

    field: str
    title: str
    help: str
    choices: tuple[tuple[Any, str], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "field": self.field,
            "title": self.title,
            "help": self.help,
            "choices": [{"value": v, "label": label} for v, label in self.choices],
        }

    def choice_words(self) -> str:
        """The choices in words: "red, blue" or "a whole number from 2 to 7"."""
        values = [v for v, _ in self.choices]
        whole = bool(values) and all(isinstance(v, int) for v in values)
        if whole and len(values) > 2 and values == list(range(values[0], values[-1] + 1)):
            return f"a whole number from {values[0]} to {values[-1]}"
        return ", ".join(label for _, label in self.choices)


def per_piece_kind(kinds: Iterable[DataKind]) -> DataKind | None:
    """The first of ``kinds`` that asks about pieces while a copy is tagged, or None."""
    return next((k for k in kinds if k.per_piece is not None), None)


def questions(per_piece: PerPiece) -> tuple[Question, ...]:
    """The fields of ``per_piece.model`` in order, with their words and choices (from the
    model's JSON schema: ``enum`` with ``x-labels``, or an integer's bounds)."""
    schema = per_piece.model.model_json_schema()
    defs = schema.get("$defs", {})
    out = []
    for name, outer in schema.get("properties", {}).items():
        prop = {**_inner(outer, defs), **outer}
        labels = prop.get("x-labels") or {}
        choices: list[tuple[Any, str]] = []
        if "enum" in prop:
            choices = [(v, str(labels.get(v, v))) for v in prop["enum"]]
        elif "const" in prop:
            choices = [(prop["const"], str(labels.get(prop["const"], prop["const"])))]
        elif prop.get("type") == "integer" and "minimum" in prop and "maximum" in prop:
            low, high = int(prop["minimum"]), int(prop["maximum"])
            if high - low < MAX_RANGE:
                choices = [(v, str(v)) for v in range(low, high + 1)]
        title = str(prop.get("title") or name.replace("_", " "))
        out.append(Question(name, title, str(prop.get("description") or ""), tuple(choices)))
    return tuple(out)


def _inner(prop: Mapping[str, Any], defs: Mapping[str, Any]) -> dict[str, Any]:
    """What a property's schema says under a reference or an optional's ``anyOf`` (an enum
    class is a ``$ref`` to its definition; ``X | None`` is ``anyOf`` with a null)."""
    if "$ref" in prop:
        return dict(defs.get(str(prop["$ref"]).rpartition("/")[2], {}))
    for option in prop.get("anyOf", ()):
        if option.get("type") != "null":
            return {**_inner(option, defs), **option}
    return {}


def answer_value(per_piece: PerPiece, question: Question, text: Any) -> Any:
    """The value ``text`` (typed, or sent by the console) gives ``question``: a choice by its
    value or its label (any case), checked by the model's field. ValueError, in words listing
    the choices, for anything else."""
    given = str(text).strip()
    value: Any = text
    for choice, label in question.choices:
        if given.lower() in (str(choice).lower(), label.lower()):
            value = choice
            break
    else:
        if question.choices:
            shown = given or "nothing"
            raise ValueError(
                f"{shown!r} is not a {question.title}; answer {question.choice_words()}"
            )
    model = per_piece.model
    try:
        checked = model.__pydantic_validator__.validate_assignment(
            model.model_construct(), question.field, value
        )
    except ValidationError as exc:
        reason = exc.errors()[0].get("msg", "not accepted")
        raise ValueError(f"{given!r} is not a {question.title}: {reason}") from None
    return getattr(checked, question.field)


class AnswerBook:
    """The answers given so far for one kit, by piece, kept in the store's settings as they
    are given (``store`` has ``get_meta`` and ``set_meta``)."""

    def __init__(self, store: Any, kind: DataKind, kit: str) -> None:
        self.store = store
        self.kind = kind
        self.key = f"{ANSWERS_META}{kind.game}/{kind.kind}/{kit}"
        text = store.get_meta(self.key)
        loaded = json.loads(text) if text else {}
        self.answers: dict[str, dict[str, Any]] = loaded if isinstance(loaded, dict) else {}

    def put(self, piece: str, values: Mapping[str, Any]) -> None:
        """Keep ``piece``'s answers (durable at once), replacing earlier ones."""
        self.answers.pop(piece, None)  # a piece tagged again goes last, as tagged
        self.answers[piece] = dict(values)
        self.store.set_meta(self.key, json.dumps(self.answers))

    def forget(self, piece: str) -> None:
        """Drop ``piece``'s answers (it is being tagged again: it is asked again)."""
        if self.answers.pop(piece, None) is not None:
            self.store.set_meta(self.key, json.dumps(self.answers))

    def unanswered(self, tagged: Iterable[str]) -> list[str]:
        """The pieces of ``tagged`` (in that order) the kind asks about and have no answers."""
        per_piece = self.kind.per_piece
        if per_piece is None:
            return []
        return [p for p in tagged if per_piece.asks(p) and p not in self.answers]


def check_answers(per_piece: PerPiece, given: Mapping[str, Any]) -> dict[str, Any]:
    """Every question's value from ``given`` (field -> text or value); ValueError in words for
    a missing or bad one (the first found)."""
    out = {}
    for question in questions(per_piece):
        if question.field not in given or given[question.field] in (None, ""):
            raise ValueError(f"the {question.title} is missing; answer {question.choice_words()}")
        out[question.field] = answer_value(per_piece, question, given[question.field])
    return out


def save_entry(store: Any, kind: DataKind, kit: str, tagged: Iterable[str]) -> Entry:
    """Build the entry of ``kind`` for the copy a kit records (the answers kept for it, the
    pieces ``tagged`` counted by type) and save it under the kit's name in the store's data
    table, as the console's editor would (checked by the kind's model; replacing an entry of
    that name). ConfigError in words when it cannot be built or saved."""
    from scorekeeper.core import data

    per_piece = kind.per_piece
    if per_piece is None:
        raise ConfigError(f"enrollment records no {kind.noun}")
    book = AnswerBook(store, kind, kit)
    tagged = list(tagged)
    answers = {p: book.answers[p] for p in tagged if p in book.answers}
    counts = Counter(per_piece.piece_type(p) for p in tagged)
    mapping = per_piece.build(answers, dict(counts))
    mapping = {
        "description": f"recorded while the kit {kit} was tagged",
        **mapping,
        "name": kit,
        "sample": False,
    }
    return data.save(kind, store, kit, mapping)
