"""The pydantic model of a kit file and its reading (``core/kit.py``'s ``load_kit`` uses it).

Kept apart from ``core/kit.py`` so that building the models (pydantic builds a validator when
a class is defined) and importing the YAML reader happen only when a kit file is read, not
whenever kits are used: ``scorekeeper serve`` never loads this at start
(tests/commands/test_serve_imports.py).
"""

from __future__ import annotations

import json
import os
from typing import Any

import yaml
from pydantic import ConfigDict, Field, ValidationInfo, field_validator, model_validator

from scorekeeper.core.game import Game
from scorekeeper.core.kit import check_kit_name, file_format, normalise_uid
from scorekeeper.core.layout import check_game, read_text
from scorekeeper.core.yaml_model import FileModel, Problem, Text, validate_data, validate_yaml
from scorekeeper.errors import ConfigError, EnrollmentError


class KitFile(FileModel):
    """A kit file as written. Validated with context ``{"game": Game, "stem": str}``: the
    game it is loaded for and the file's stem (the name when the file gives none).

    ``tags`` maps normalised uids to pieces once valid; a ``tags:`` with nothing under it is
    an empty kit.
    """

    model_config = ConfigDict(title="kit")

    game: Text = Field(description="the id of the game this kit is for")
    name: Text | None = None
    tags: dict[str, Text] | None = Field(description="tag uid: piece lines")

    @field_validator("game")
    @classmethod
    def _game(cls, game_id: str, info: ValidationInfo) -> str:
        return check_game(game_id, info, "kit")

    @field_validator("tags", mode="before")
    @classmethod
    def _tags(cls, raw: Any, info: ValidationInfo) -> Any:
        # Before pydantic's own check, while keys still carry their lines (for "first on line").
        game: Game[Any] = (info.context or {})["game"]
        if not isinstance(raw, dict):
            return raw
        # The pieces of the copy named when the file is read (a deck manifest's), if one is;
        # none ("any_piece"): a copy only the server knows, which checks the table's kit itself.
        context = info.context or {}
        pieces = tuple(context.get("pieces") or game.pieces())
        known = None if context.get("any_piece") else set(pieces)
        uid_lines: dict[str, int | None] = {}
        piece_lines: dict[str, int | None] = {}
        entries: dict[str, Any] = {}
        for key, value in raw.items():
            try:
                uid = normalise_uid(key)
            except EnrollmentError as exc:
                raise Problem(str(exc), key, key=True) from None
            if uid in uid_lines:
                first = _first(uid_lines[uid])
                raise Problem(f"tag {uid} is listed twice ({first})", key, key=True)
            if not isinstance(value, str) or not value.strip():
                return raw  # pydantic says what is wrong with this value
            piece = value.strip()
            if known is not None and piece not in known:
                sample = ", ".join(pieces[:5])
                raise Problem(
                    f"{game.name} has no piece {piece!r} (pieces look like {sample}, ...)", key
                )
            if piece in piece_lines:
                first = _first(piece_lines[piece])
                raise Problem(f"piece {piece} is tagged twice ({first})", key)
            uid_lines[uid] = getattr(key, "line", None)
            piece_lines[piece] = getattr(value, "line", None)
            entries[uid] = piece
        return entries

    @field_validator("name")
    @classmethod
    def _name(cls, name: str | None) -> str | None:
        return None if name is None else _kit_name(name)

    @model_validator(mode="after")
    def _stem(self, info: ValidationInfo) -> KitFile:
        if self.name is None:  # the file's stem must make a kit name too
            self.name = _kit_name(str((info.context or {})["stem"]))
        return self


def _kit_name(name: str) -> str:
    try:
        return check_kit_name(name)
    except ConfigError as exc:
        raise ValueError(exc.message) from None


def _first(line: int | None) -> str:
    return f"first on line {line}" if line is not None else "listed before"


def read_kit(path: str | os.PathLike[str], model: type[FileModel], context: Any) -> Any:
    """Validate a kit file (YAML or JSON by its extension) against ``model``."""
    where = str(path)
    text = read_text(path)
    if file_format(path) == "yaml":
        return validate_yaml(model, text, where, context=context)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"JSON syntax error: {exc.msg}", where, exc.lineno) from None
    try:
        # JSON is (nearly) YAML: composing the text itself keeps line numbers.
        yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return validate_data(model, data, where, context=context)
    return validate_yaml(model, text, where, context=context)


class KitGame(FileModel):
    """Only a kit file's ``game:`` (to find the game before the file is loaded)."""

    model_config = ConfigDict(extra="ignore", title="kit")
    game: Text = Field(description="the id of the game this kit is for")
