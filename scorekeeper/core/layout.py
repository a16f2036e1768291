"""Zone layout files: which reader sits under which zone of the table mat.

A layout file is YAML written by a person::

    game: angels-and-demons
    seats: 4            # optional: the player count this layout is drawn for
    readers:
      r1: play          # reader id: zone name
      r2: discard
      r3: discard       # several readers may watch one zone

``load_layout`` turns it into the ``{reader id: zone}`` mapping a ``TableConfig`` carries, and
refuses anything doubtful with a ``ConfigError`` that names the file and line: the file is
the pydantic model ``LayoutFile``, checked through ``core.yaml_model``. ``read_text``,
``write_atomically`` and ``check_game`` serve the other person-written files too (kits, game
data).
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import yaml
from pydantic import (
    AfterValidator,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from scorekeeper.core.game import Game
from scorekeeper.core.yaml_model import FileModel, Problem, Text, validate_yaml
from scorekeeper.errors import ConfigError

READER_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:/@-]*$")


def read_text(path: str | os.PathLike[str]) -> str:
    """Read a person-written UTF-8 file; ConfigError naming the file when that fails."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError("no such file", str(path)) from None
    except UnicodeDecodeError:
        raise ConfigError("not a UTF-8 text file", str(path)) from None
    except OSError as exc:
        raise ConfigError(f"cannot read it: {exc.strerror or exc}", str(path)) from None


def check_game(game_id: str, info: ValidationInfo, what: str) -> str:
    """A file's ``game:`` must be the game it is loaded for (``info.context["game"]``)."""
    game: Game[Any] | None = (info.context or {}).get("game")
    if game is not None and game_id != game.id:
        raise ValueError(f"this {what} is for {game_id!r}, not {game.id!r}")
    return game_id


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


class _GameOnly(FileModel):
    model_config = ConfigDict(extra="ignore", title="layout")
    game: Text | None = None


def layout_file_game(path: str | os.PathLike[str]) -> str | None:
    """The ``game:`` a layout file names, or None (to find the game before ``load_layout``)."""
    return validate_yaml(_GameOnly, read_text(path), str(path)).game


def load_layout(
    path: str | os.PathLike[str], game: Game[Any], seats: int | None = None
) -> dict[str, str]:
    """Read and validate a zone layout file for ``game`` at ``seats`` players.

    Returns ``{reader id: zone}``. ``seats`` may be None when the file says ``seats:``; when
    both are given they must agree. Raises ConfigError naming the file and line for: YAML
    syntax errors, a missing or different ``game``, unknown keys, a reader id listed twice,
    a malformed reader id, and a zone the game does not have (the message lists valid zones).
    Two readers may watch the same zone.
    """
    context: dict[str, Any] = {"game": game, "seats": seats}
    return dict(validate_yaml(LayoutFile, read_text(path), str(path), context=context).readers)


def dump_layout(
    layout: Mapping[str, str],
    game: Game[Any] | str,
    seats: int | None = None,
    path: str | os.PathLike[str] | None = None,
) -> str:
    """The YAML text of a layout file (what ``load_layout`` reads); written to ``path`` if given.

    The file is replaced atomically, so a crash never leaves half a layout behind.
    """
    game_id = game if isinstance(game, str) else game.id
    data: dict[str, object] = {"game": game_id}
    if seats is not None:
        data["seats"] = seats
    data["readers"] = {str(k): str(v) for k, v in layout.items()}
    text = "# scorekeeper zone layout: reader id -> zone\n" + yaml.safe_dump(
        data, sort_keys=False, allow_unicode=True, default_flow_style=False
    )
    if path is not None:
        write_atomically(path, text)
    return text


def write_atomically(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename (all or nothing)."""
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent or Path("."))
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
