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
the pydantic model ``LayoutFile`` (core/layout_file.py, imported only when a file is read),
checked through ``core.yaml_model``. ``read_text``, ``write_atomically`` and ``check_game``
serve the other person-written files too (kits, game data).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scorekeeper.core.game import Game
from scorekeeper.errors import ConfigError

if TYPE_CHECKING:
    from pydantic import ValidationInfo


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


def layout_file_game(path: str | os.PathLike[str]) -> str | None:
    """The ``game:`` a layout file names, or None (to find the game before ``load_layout``)."""
    from scorekeeper.core.layout_file import LayoutGame
    from scorekeeper.core.yaml_model import validate_yaml

    return validate_yaml(LayoutGame, read_text(path), str(path)).game


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
    # The file's model (pydantic, built on import) loads only when a layout is read: never at
    # serve start.
    from scorekeeper.core.layout_file import LayoutFile
    from scorekeeper.core.yaml_model import validate_yaml

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
    import yaml

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
