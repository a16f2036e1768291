"""Table scripts: the YAML format and its loader (format: docs/table-scripts.md).

``load_script(path)`` reads a script, checks everything that can be checked before running it
(YAML syntax, the game, seats, options, layout, kit, every step and every expectation) and
returns a ``Script``; anything invalid raises ``ScriptError`` naming the file and the line.
Running it is ``scorekeeper.core.script_run.run_script``.

Expected values are compiled into matchers (``script_match``) at load time.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

import yaml
from yaml.constructor import SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from scorekeeper.core.game import ORGANISER, PUBLIC, Audience, Game
from scorekeeper.core.inputs import Input, InputSyntaxError, parse_input
from scorekeeper.core.layout import compose_text
from scorekeeper.core.script_match import (
    Equal,
    ListOf,
    Matcher,
    MatcherError,
    compile_matcher,
)
from scorekeeper.core.table import Table, TableConfig
from scorekeeper.errors import ConfigError, ScriptError, UnknownGame

# --------------------------------------------------------------------------------------------
# The script model


@dataclass(frozen=True, slots=True)
class Check:
    """One line of an ``expect:``: the value at ``path`` must satisfy ``matcher``."""

    path: str
    matcher: Matcher
    line: int


StepKind = Literal["input", "reject", "expect", "note"]


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a script. ``index`` counts from 1; ``line`` is the YAML line (from 1).

    ``input`` is set for ``input`` and ``reject`` steps; ``rule``/``reason`` only for ``reject``;
    ``checks`` and ``audience`` only for ``expect``; ``text`` is the input's one-line form, the
    note's text, or ``expect``.
    """

    index: int
    line: int
    kind: StepKind
    text: str
    input: Input | None = None
    rule: Matcher | None = None
    reason: Matcher | None = None
    checks: tuple[Check, ...] = ()
    audience: Audience = PUBLIC


@dataclass(frozen=True)
class Script:
    """A loaded, checked table script, ready for ``run_script``."""

    path: str
    game: Game
    config: TableConfig
    title: str = ""
    rule_refs: tuple[str, ...] = ()
    steps: tuple[Step, ...] = field(default_factory=tuple)

    @property
    def seats(self) -> tuple[str, ...]:
        return self.config.seats


GameFinder = Callable[[str], Game]

TOP_KEYS = (
    "game",
    "title",
    "description",
    "rule_refs",
    "seats",
    "options",
    "kit",
    "kit_file",
    "layout",
    "steps",
)
SPECIAL_EXPECT_KEYS = ("winners", "view")


# --------------------------------------------------------------------------------------------
# YAML with line numbers


def _line(node: Node) -> int:
    return int(node.start_mark.line) + 1


def _value(node: Node) -> Any:
    """The plain Python value of a node (YAML 1.1 safe types, as yaml.safe_load gives)."""
    return SafeConstructor().construct_document(node)


class _Reader:
    """Walks the composed YAML tree of one script, raising ScriptError with file and line."""

    def __init__(self, path: str) -> None:
        self.path = path

    def error(self, message: str, node: Node | int | None) -> ScriptError:
        line = node if isinstance(node, int) or node is None else _line(node)
        return ScriptError(message, self.path, line)

    def pairs(self, node: Node, what: str) -> list[tuple[str, Node, Node]]:
        """The (key, key node, value node) pairs of a mapping; rejects duplicate keys."""
        if not isinstance(node, MappingNode):
            raise self.error(f"{what} must be a mapping (key: value lines)", node)
        seen: set[str] = set()
        out: list[tuple[str, Node, Node]] = []
        for key_node, value_node in node.value:
            if not isinstance(key_node, ScalarNode):
                raise self.error(f"a key in {what} must be plain text", key_node)
            key = key_node.value
            if key in seen:
                raise self.error(f"duplicate key {key!r} in {what}", key_node)
            seen.add(key)
            out.append((key, key_node, value_node))
        return out

    def text(self, node: Node, what: str) -> str:
        if not isinstance(node, ScalarNode):
            raise self.error(f"{what} must be a single value", node)
        return str(node.value)

    def str_map(self, node: Node, what: str) -> dict[str, str]:
        """A mapping of raw texts (``0412`` stays ``'0412'``, as tag uids need)."""
        return {k: self.text(v, f"{what} {k!r}") for k, _, v in self.pairs(node, what)}


# --------------------------------------------------------------------------------------------
# Loading


def _default_finder(game_id: str) -> Game:
    from scorekeeper.games import find_game

    return find_game(game_id)


def load_script(path: str | Path, *, find_game: GameFinder | None = None) -> Script:
    """Read and check the table script at ``path``; raises ScriptError (with path and line).

    ``find_game`` maps a game id to a Game (default: the registry, scorekeeper.games.find_game)
    and should raise UnknownGame for an id it does not know.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ScriptError(f"cannot read the script: {exc}", str(path)) from None
    return parse_script(text, str(path), find_game=find_game)


def parse_script(
    text: str, path: str = "<script>", *, find_game: GameFinder | None = None
) -> Script:
    """Check a script given as text; ``path`` is used in messages and to find ``kit_file``."""
    reader = _Reader(path)
    root = compose_text(text, path, ScriptError)
    if root is None:
        raise ScriptError("the script is empty", path, 1)
    top = {k: (kn, vn) for k, kn, vn in reader.pairs(root, "a table script")}
    for key, (key_node, _) in top.items():
        if key not in TOP_KEYS:
            raise reader.error(f"unknown key {key!r}; a script has {', '.join(TOP_KEYS)}", key_node)
    for required in ("game", "seats", "steps"):
        if required not in top:
            raise reader.error(f"the script has no {required!r}", root)

    game_node = top["game"][1]
    finder = find_game or _default_finder
    try:
        game = finder(reader.text(game_node, "game"))
    except UnknownGame as exc:
        raise reader.error(str(exc), game_node) from None

    seats = _seats(reader, top["seats"][1])
    options = _options(reader, game, top, len(seats))
    layout = (
        reader.str_map(top["layout"][1], "layout")
        if "layout" in top
        else dict(game.default_layout(len(seats)))
    )
    kit = _kit(reader, top)
    title = reader.text(top["title"][1], "title") if "title" in top else ""
    refs: tuple[str, ...] = ()
    if "rule_refs" in top:
        node = top["rule_refs"][1]
        if not isinstance(node, SequenceNode):
            raise reader.error("rule_refs must be a list of rule ids", node)
        refs = tuple(reader.text(n, "a rule id") for n in node.value)
    config = TableConfig(
        game=game.id, seats=seats, options=options, layout=layout, kit=kit, name=title
    )
    try:
        view_keys = set(Table(config, game).view(PUBLIC))
    except ConfigError as exc:
        where = (
            top.get("layout")
            if "zone layout" in exc.message
            else (top.get("kit") or top.get("kit_file"))
        )
        raise reader.error(exc.message, where[0] if where else root) from None
    steps = _steps(reader, top["steps"][1], view_keys, seats)
    return Script(path=path, game=game, config=config, title=title, rule_refs=refs, steps=steps)


def _seats(reader: _Reader, node: Node) -> tuple[str, ...]:
    """``seats: [Ann, Bea]`` (names in turn order) or ``seats: 2`` (named P1, P2)."""
    if isinstance(node, ScalarNode):
        value = _value(node)
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            return tuple(f"P{i + 1}" for i in range(value))
        raise reader.error("seats must be a list of player names or a number of players", node)
    if not isinstance(node, SequenceNode) or not node.value:
        raise reader.error("seats must be a non-empty list of player names", node)
    names = tuple(reader.text(n, "a seat name") for n in node.value)
    for i, name in enumerate(names):
        if not name or name in names[:i]:
            raise reader.error(
                f"seat names must be distinct and non-empty: {name!r}", node.value[i]
            )
    return names


def _options(
    reader: _Reader, game: Game, top: dict[str, tuple[Node, Node]], seats: int
) -> dict[str, Any]:
    """The options as written, checked by the game (the referee resolves defaults itself)."""
    pairs = reader.pairs(top["options"][1], "options") if "options" in top else []
    given = {k: _value(v) for k, _, v in pairs}
    try:
        game.resolve_options({}, seats)
    except ConfigError as exc:
        raise reader.error(exc.message, top["seats"][1]) from None
    for key, key_node, value_node in pairs:
        try:
            game.resolve_options({key: given[key]}, seats)
        except ConfigError as exc:
            bad = key_node if "unknown option" in exc.message else value_node
            raise reader.error(exc.message, bad) from None
    try:
        game.resolve_options(given, seats)
    except ConfigError as exc:
        raise reader.error(exc.message, top["options"][1]) from None
    return given


def _kit(reader: _Reader, top: dict[str, tuple[Node, Node]]) -> dict[str, str]:
    """``kit: {uid: piece}`` inline, or ``kit_file:`` a YAML/JSON file holding that mapping
    (alone or under a ``kit`` key), relative to the script's folder."""
    if "kit" in top and "kit_file" in top:
        raise reader.error("give either kit or kit_file, not both", top["kit_file"][0])
    if "kit" in top:
        return reader.str_map(top["kit"][1], "kit")
    if "kit_file" not in top:
        return {}
    node = top["kit_file"][1]
    name = reader.text(node, "kit_file")
    file = Path(reader.path).parent / name
    try:
        data = yaml.safe_load(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise reader.error(f"cannot read kit_file {str(file)!r}: {exc}", node) from None
    if isinstance(data, Mapping) and isinstance(data.get("kit"), Mapping):
        data = data["kit"]
    if not isinstance(data, Mapping) or not all(isinstance(v, str) for v in data.values()):
        raise reader.error(f"kit_file {str(file)!r} must map tag uids to piece ids", node)
    return {str(k): str(v) for k, v in data.items()}


MAX_INCLUDE_DEPTH = 4


def _steps(
    reader: _Reader, node: Node, view_keys: set[str], seats: tuple[str, ...]
) -> tuple[Step, ...]:
    steps: list[Step] = []
    _collect_steps(reader, node, view_keys, seats, steps, (Path(reader.path).resolve(),), None)
    return tuple(steps)


def _collect_steps(
    reader: _Reader,
    node: Node,
    view_keys: set[str],
    seats: tuple[str, ...],
    out: list[Step],
    chain: tuple[Path, ...],
    at_line: int | None,
) -> None:
    """Append the steps of ``node`` to ``out``, inlining ``include:`` steps.

    Steps read from an included file report the line of the ``include:`` step in the script
    (``at_line``), so a failure points at the script a person runs; errors in the included
    file itself name that file and its line.
    """
    if not isinstance(node, SequenceNode):
        raise reader.error("steps must be a list", node)
    for child in node.value:
        if isinstance(child, MappingNode) and any(
            isinstance(k, ScalarNode) and k.value == "include" for k, _ in child.value
        ):
            _include(
                reader,
                child,
                view_keys,
                seats,
                out,
                chain,
                at_line if at_line is not None else _line(child),
            )
            continue
        step = _step(reader, child, len(out) + 1, view_keys, seats)
        if at_line is not None:
            step = replace(
                step, line=at_line, checks=tuple(replace(c, line=at_line) for c in step.checks)
            )
        out.append(step)


def _include(
    reader: _Reader,
    node: MappingNode,
    view_keys: set[str],
    seats: tuple[str, ...],
    out: list[Step],
    chain: tuple[Path, ...],
    at_line: int,
) -> None:
    """``- include: FILE``: the steps of FILE (relative to this file) run here, in order.

    FILE holds ``steps: [...]`` (or just the list). Used for shared preludes such as placing the
    pawns at setup; includes nest up to MAX_INCLUDE_DEPTH and may not loop.
    """
    parts = {k: (kn, vn) for k, kn, vn in reader.pairs(node, "an include step")}
    if set(parts) != {"include"}:
        raise reader.error("an include step has only the key include: FILE", node)
    value_node = parts["include"][1]
    file = (Path(reader.path).parent / reader.text(value_node, "include")).resolve()
    if file in chain:
        raise reader.error(f"{file.name} includes itself (through {chain[-1].name})", value_node)
    if len(chain) > MAX_INCLUDE_DEPTH:
        raise reader.error(f"includes nest deeper than {MAX_INCLUDE_DEPTH} files", value_node)
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise reader.error(
            f"cannot read the included file {str(file)!r}: {exc}", value_node
        ) from None
    inner = _Reader(str(file))
    root = compose_text(text, str(file), ScriptError)
    if isinstance(root, MappingNode):
        top = {k: vn for k, _, vn in inner.pairs(root, "an included file")}
        if set(top) != {"steps"}:
            raise inner.error("an included file holds only steps: [...]", root)
        root = top["steps"]
    if root is None:
        raise inner.error("the included file is empty", 1)
    _collect_steps(inner, root, view_keys, seats, out, (*chain, file), at_line)


def _parse_input(reader: _Reader, node: Node) -> Input:
    text = reader.text(node, "an input step").strip()
    try:
        return parse_input(text)
    except InputSyntaxError as exc:
        raise reader.error(
            f"{exc}; an input is '+zone PIECE', '-zone PIECE', "
            "'tag +reader UID', 'decide SEAT PROMPT ANSWER', 'undo' or "
            "'correct INPUT'",
            node,
        ) from None


def _matcher(reader: _Reader, node: Node, value: Any) -> Matcher:
    try:
        return compile_matcher(value)
    except MatcherError as exc:
        raise reader.error(str(exc), node) from None


def _step(
    reader: _Reader, node: Node, index: int, view_keys: set[str], seats: tuple[str, ...]
) -> Step:
    line = _line(node)
    if isinstance(node, ScalarNode):
        inp = _parse_input(reader, node)
        return Step(index, line, "input", inp.to_str(), input=inp)
    if not isinstance(node, MappingNode):
        raise reader.error(
            "a step is an input line or a mapping (expect:, reject:, note:, include:)", node
        )
    parts = {k: (kn, vn) for k, kn, vn in reader.pairs(node, "a step")}
    kinds = [k for k in ("expect", "reject", "note") if k in parts]
    if len(kinds) != 1:
        raise reader.error("a mapping step has exactly one of expect:, reject:, note:", node)
    kind = kinds[0]
    allowed = {"reject": {"reject", "rule", "reason"}}.get(kind, {kind})
    for key, (key_node, _) in parts.items():
        if key not in allowed:
            raise reader.error(
                f"unknown key {key!r} in a {kind} step; allowed: {', '.join(sorted(allowed))}",
                key_node,
            )
    if kind == "note":
        return Step(index, line, "note", reader.text(parts["note"][1], "a note"))
    if kind == "reject":
        inp = _parse_input(reader, parts["reject"][1])
        rule = reason = None
        if "rule" in parts:
            rule = _matcher(reader, parts["rule"][1], _value(parts["rule"][1]))
        if "reason" in parts:
            reason = _matcher(reader, parts["reason"][1], _value(parts["reason"][1]))
        return Step(index, line, "reject", inp.to_str(), input=inp, rule=rule, reason=reason)
    return _expect(reader, parts["expect"][1], index, line, view_keys, seats)


def _audience(reader: _Reader, node: Node, seats: tuple[str, ...]) -> Audience:
    value = _value(node)
    if value in (PUBLIC, ORGANISER):
        return PUBLIC if value == PUBLIC else ORGANISER
    if isinstance(value, str) and value in seats:
        return seats.index(value)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(seats):
        return value
    raise reader.error(
        f"view must be public, organiser, a seat number (0-{len(seats) - 1}) "
        f"or a seat name, not {value!r}",
        node,
    )


def _winners(reader: _Reader, node: Node, seats: tuple[str, ...]) -> Matcher:
    """``winners: [Ann]`` or ``[0]``: compared as a sorted list of seat numbers."""
    value = _value(node)
    if not isinstance(value, list):
        raise reader.error("winners must be a list of seat names or numbers", node)
    out = []
    for item in value:
        if isinstance(item, str) and item in seats:
            out.append(seats.index(item))
        elif isinstance(item, int) and not isinstance(item, bool) and 0 <= item < len(seats):
            out.append(item)
        else:
            raise reader.error(
                f"{item!r} is not a seat (names: {', '.join(seats)}; numbers 0-{len(seats) - 1})",
                node,
            )
    return ListOf(tuple(Equal(s) for s in sorted(set(out))))


def _expect(
    reader: _Reader, node: Node, index: int, line: int, view_keys: set[str], seats: tuple[str, ...]
) -> Step:
    pairs = reader.pairs(node, "expect")
    if not pairs:
        raise reader.error("expect: needs at least one key", node)
    audience: Audience = PUBLIC
    checks = []
    known = sorted(view_keys | set(SPECIAL_EXPECT_KEYS))
    for key, key_node, value_node in pairs:
        if key == "view":
            audience = _audience(reader, value_node, seats)
            continue
        head = key.split(".", 1)[0]
        if head not in view_keys and key not in SPECIAL_EXPECT_KEYS or not all(key.split(".")):
            raise reader.error(
                f"unknown expect key {key!r}: a key is a dotted path that starts "
                f"with one of {', '.join(known)}",
                key_node,
            )
        if key == "winners":
            matcher = _winners(reader, value_node, seats)
        else:
            matcher = _matcher(reader, value_node, _value(value_node))
        checks.append(Check(key, matcher, _line(key_node)))
    if not checks:
        raise reader.error("expect: has only a view:, nothing to check", node)
    return Step(index, line, "expect", "expect", checks=tuple(checks), audience=audience)
