"""Zone layout files: which reader sits under which zone of the table mat.

A layout file is YAML written by a person::

    game: angels-and-demons
    seats: 4            # optional: the player count this layout is drawn for
    readers:
      r1: play          # reader id: zone name
      r2: discard
      r3: discard       # several readers may watch one zone

``load_layout`` turns it into the ``{reader id: zone}`` mapping a ``TableConfig`` carries, and
refuses anything doubtful with a ``ConfigError`` that names the file and line. The small YAML
helpers here (``compose_file``, ``mapping_items``, ``scalar_text``) are shared with
``core.kit``: they work on composed nodes, so every value keeps its line number and a uid such
as ``12345678`` stays the text it was written as instead of becoming an integer.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path

import yaml

from scorekeeper.core.game import Game
from scorekeeper.errors import ConfigError

READER_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:/@-]*$")
LAYOUT_KEYS = ("game", "seats", "readers")
NULL_TAG = "tag:yaml.org,2002:null"


def line_of(node: yaml.Node | None) -> int | None:
    """The 1-based line a YAML node starts on, or None when it has no position."""
    if node is None or node.start_mark is None:
        return None
    return int(node.start_mark.line) + 1


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


def compose_text(text: str, path: str, error: type[ConfigError] = ConfigError) -> yaml.Node | None:
    """Parse YAML text into a node tree (no type conversion); syntax errors name path and line.

    ``error`` is the ConfigError subclass to raise (table scripts raise ScriptError).
    """
    try:
        return yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        problem = exc.problem or exc.context or "unreadable"
        raise error(f"YAML syntax error: {problem}", path, line) from None
    except yaml.YAMLError as exc:
        raise error(f"YAML syntax error: {exc}", path) from None


def compose_file(path: str | os.PathLike[str]) -> yaml.Node | None:
    """Read and compose a YAML file; None for an empty file."""
    return compose_text(read_text(path), str(path))


def mapping_items(
    node: yaml.Node | None,
    path: str,
    what: str,
) -> list[tuple[yaml.ScalarNode, yaml.Node]]:
    """The (key, value) nodes of a mapping, refusing non-mappings, odd keys and repeated keys."""
    if not isinstance(node, yaml.MappingNode):
        raise ConfigError(f"{what} must be a mapping (key: value lines)", path, line_of(node))
    seen: dict[str, int | None] = {}
    items: list[tuple[yaml.ScalarNode, yaml.Node]] = []
    for key, value in node.value:
        if not isinstance(key, yaml.ScalarNode) or key.tag == NULL_TAG or not key.value:
            raise ConfigError(f"{what}: every key must be a plain name", path, line_of(key))
        if key.value in seen:
            raise ConfigError(
                f"{what}: {key.value!r} is listed twice (first on line {seen[key.value]})",
                path,
                line_of(key),
            )
        seen[key.value] = line_of(key)
        items.append((key, value))
    return items


def scalar_text(node: yaml.Node, path: str, what: str) -> str:
    """The text of a scalar node exactly as written; refuses lists, mappings and empty values."""
    if not isinstance(node, yaml.ScalarNode):
        raise ConfigError(
            f"{what} must be a single value, not a list or mapping", path, line_of(node)
        )
    if node.tag == NULL_TAG or not str(node.value).strip():
        raise ConfigError(f"{what} is empty", path, line_of(node))
    return str(node.value).strip()


def scalar_int(node: yaml.Node, path: str, what: str) -> int:
    """A whole number written as a scalar; ConfigError otherwise."""
    text = scalar_text(node, path, what)
    try:
        return int(text)
    except ValueError:
        raise ConfigError(
            f"{what} must be a whole number, not {text!r}", path, line_of(node)
        ) from None


def checked_items(
    root: yaml.Node,
    items: Mapping[str, tuple[yaml.Node, yaml.Node]],
    where: str,
    what: str,
    keys: tuple[str, ...],
    game: Game,
    line: Callable[[yaml.Node | None], int | None] = line_of,
) -> None:
    """Refuse unknown top-level keys and a missing or different ``game:`` in a data file.

    ``what`` names the file kind in messages ("layout", "kit"); ``line`` maps a node to the
    line reported (kits read as JSON report none).
    """
    for name, (key, _) in items.items():
        if name not in keys:
            raise ConfigError(
                f"unknown key {name!r}; a {what} has {', '.join(keys)}", where, line(key)
            )
    if "game" not in items:
        raise ConfigError(
            f"missing 'game:' (the id of the game this {what} is for)", where, line(root)
        )
    game_node = items["game"][1]
    game_id = scalar_text(game_node, where, "game")
    if game_id != game.id:
        raise ConfigError(
            f"this {what} is for {game_id!r}, not {game.id!r}", where, line(game_node)
        )


def load_layout(
    path: str | os.PathLike[str], game: Game, seats: int | None = None
) -> dict[str, str]:
    """Read and validate a zone layout file for ``game`` at ``seats`` players.

    Returns ``{reader id: zone}``. ``seats`` may be None when the file says ``seats:``; when
    both are given they must agree. Raises ConfigError naming the file and line for: YAML
    syntax errors, a missing or different ``game``, unknown keys, a reader id listed twice,
    a malformed reader id, and a zone the game does not have (the message lists valid zones).
    Two readers may watch the same zone.
    """
    where = str(path)
    root = compose_file(path)
    if root is None:
        raise ConfigError("the layout file is empty; it needs game: and readers:", where)
    items = {key.value: (key, value) for key, value in mapping_items(root, where, "the layout")}
    checked_items(root, items, where, "layout", LAYOUT_KEYS, game)
    if "seats" in items:
        seats_node = items["seats"][1]
        file_seats = scalar_int(seats_node, where, "seats")
        if not game.min_seats <= file_seats <= game.max_seats:
            raise ConfigError(
                f"{game.name} is for {game.min_seats}-{game.max_seats} players, not {file_seats}",
                where,
                line_of(seats_node),
            )
        if seats is not None and seats != file_seats:
            raise ConfigError(
                f"this layout is drawn for {file_seats} players, but the table has {seats}",
                where,
                line_of(seats_node),
            )
        seats = file_seats
    if seats is None:
        raise ConfigError(
            "the number of players is not known: add 'seats: N' or give it when loading the layout",
            where,
            line_of(root),
        )
    if "readers" not in items:
        raise ConfigError("missing 'readers:' (reader id: zone lines)", where, line_of(root))
    zones = game.zones(seats)
    layout: dict[str, str] = {}
    for key, value in mapping_items(items["readers"][1], where, "readers"):
        reader = key.value.strip()
        if not READER_ID.match(reader):
            raise ConfigError(
                f"reader id {reader!r} may use letters, digits and _ . : / @ - "
                "only, and must start with a letter or digit",
                where,
                line_of(key),
            )
        zone = scalar_text(value, where, f"the zone of reader {reader}")
        if zone not in zones:
            raise ConfigError(
                f"{game.name} has no zone {zone!r} at {seats} players; valid "
                f"zones: {', '.join(zones)}",
                where,
                line_of(value),
            )
        layout[reader] = zone
    if not layout:
        raise ConfigError("'readers:' lists no reader", where, line_of(items["readers"][1]))
    return layout


def dump_layout(
    layout: Mapping[str, str],
    game: Game | str,
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
