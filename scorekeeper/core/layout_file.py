"""The pydantic model of a zone layout file (``core/layout.py`` reads it through this).

Kept apart from ``core/layout.py`` so that building the model (pydantic builds a validator when
the class is defined) happens only when a layout file is read, not whenever the layout helpers
are imported: ``scorekeeper serve`` never loads it at start (tests/commands/test_serve_imports.py).
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from scorekeeper.core.game import Game
from scorekeeper.core.layout import check_game
from scorekeeper.core.yaml_model import FileModel, Problem, Text

READER_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:/@-]*$")


def _reader_id(reader: str) -> str:
    if not READER_ID.match(reader.strip()):
        raise ValueError(
            f"reader id {reader.strip()!r} may use letters, digits and _ . : / @ - "
            "only, and must start with a letter or digit"
        )
    return reader.strip()


class LayoutFile(FileModel):
    """A zone layout file as written. Validated with context ``{"game": Game, "seats": int |
    None}``: the seats a table has (None: the file must say)."""

    model_config = ConfigDict(title="layout")

    game: Text = Field(description="the id of the game this layout is for")
    seats: int | None = None
    readers: dict[Annotated[str, AfterValidator(_reader_id)], Text] = Field(
        description="reader id: zone lines"
    )

    @field_validator("game")
    @classmethod
    def _game(cls, game_id: str, info: ValidationInfo) -> str:
        return check_game(game_id, info, "layout")

    @field_validator("seats")
    @classmethod
    def _seats(cls, seats: int | None, info: ValidationInfo) -> int | None:
        game: Game[Any] = (info.context or {})["game"]
        table_seats = (info.context or {}).get("seats")
        if seats is None:
            return None
        if not game.min_seats <= seats <= game.max_seats:
            raise ValueError(
                f"{game.name} is for {game.min_seats}-{game.max_seats} players, not {seats}"
            )
        if table_seats is not None and table_seats != seats:
            raise ValueError(
                f"this layout is drawn for {seats} players, but the table has {table_seats}"
            )
        return seats

    @field_validator("readers")
    @classmethod
    def _some_reader(cls, readers: dict[str, str]) -> dict[str, str]:
        if not readers:
            raise ValueError("'readers:' lists no reader")
        return readers

    @model_validator(mode="after")
    def _zones(self, info: ValidationInfo) -> LayoutFile:
        game: Game[Any] = (info.context or {})["game"]
        seats = self.seats if self.seats is not None else (info.context or {}).get("seats")
        if seats is None:
            raise ValueError(
                "the number of players is not known: add 'seats: N' or give it when loading "
                "the layout"
            )
        zones = game.zones(seats)
        for reader, zone in self.readers.items():
            if zone not in zones:
                raise Problem(
                    f"{game.name} has no zone {zone!r} at {seats} players; valid "
                    f"zones: {', '.join(zones)}",
                    "readers",
                    reader,
                )
        return self


class LayoutGame(FileModel):
    """Only a layout file's ``game:`` (to find the game before the file is loaded)."""

    model_config = ConfigDict(extra="ignore", title="layout")
    game: Text | None = None
