"""Table scripts: the YAML format and its loader (format: docs/table-scripts.md).

``load_script(path)`` reads a script, checks everything that can be checked before running it
(YAML syntax, the game, seats, options, layout, kit, every step and every expectation) and
returns a ``Script``; anything invalid raises ``ScriptError`` naming the file, the line and the
step. Running it is ``scorekeeper.core.script_run.run_script``.

The file's shape is checked by pydantic models (``core.yaml_model``): the top keys by
``ScriptFile``, each mapping step by the model of its kind. What needs the game (options, the
layout and kit against the table, expect keys, seats named in ``view:`` and ``winners:``) is
checked here, against the lines the document kept.

Expected values are compiled into matchers (``script_match``) at load time.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, ConfigDict, Field

from scorekeeper.core.game import ORGANISER, PUBLIC, Audience, Game
from scorekeeper.core.inputs import Input, InputSyntaxError, parse_input
from scorekeeper.core.script_match import (
    Equal,
    ListOf,
    Matcher,
    MatcherError,
    compile_matcher,
)
from scorekeeper.core.table import Table, TableConfig
from scorekeeper.core.yaml_model import (
    Document,
    FileModel,
    Native,
    Problem,
    Scalar,
    Text,
    read_yaml,
    to_native,
)
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
    game: Game[Any]
    config: TableConfig
    title: str = ""
    rule_refs: tuple[str, ...] = ()
    steps: tuple[Step, ...] = field(default_factory=tuple)

    @property
    def seats(self) -> tuple[str, ...]:
        return self.config.seats


GameFinder = Callable[[str], Game[Any]]

SPECIAL_EXPECT_KEYS = ("winners", "view")
MAX_INCLUDE_DEPTH = 4
INPUT_FORMS = (
    "an input is '+zone PIECE', '-zone PIECE', 'tag +reader UID', "
    "'decide SEAT PROMPT ANSWER', 'undo' or 'correct INPUT'"
)


# --------------------------------------------------------------------------------------------
# The file's shape


def _seat_names(raw: Any) -> tuple[str, ...]:
    """``seats: [Ann, Bea]`` (names in turn order) or ``seats: 2`` (named P1, P2)."""
    if isinstance(raw, Scalar):
        value = raw.native()
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            return tuple(f"P{i + 1}" for i in range(value))
        raise ValueError("seats must be a list of player names or a number of players")
    if not isinstance(raw, list) or not raw:
        raise ValueError("seats must be a non-empty list of player names")
    names: list[str] = []
    for i, item in enumerate(raw):
        if isinstance(item, dict | list):
            raise Problem("a seat name must be a single value, not a list or mapping", i)
        name = "" if item is None else str(item).strip()
        if not name or name in names:
            raise Problem(f"seat names must be distinct and non-empty: {name!r}", i)
        names.append(name)
    return tuple(names)


class ScriptFile(FileModel):
    """The top of a table script (docs/table-scripts.md, "The file"); steps are checked one by
    one afterwards, so they stay as read."""

    model_config = ConfigDict(title="script")

    game: Text = Field(description="the id of the game the script plays")
    title: str | None = None
    description: Native = None
    rule_refs: list[Text] = Field(default=[], json_schema_extra={"item": "rule id"})
    seats: Annotated[tuple[str, ...], BeforeValidator(_seat_names)] = Field(
        description="the players' names in turn order, or how many play"
    )
    options: dict[str, Native] = Field(default={}, json_schema_extra={"item": "option"})
    kit: dict[str, Text] | None = Field(default=None, json_schema_extra={"item": "tag"})
    kit_file: Text | None = None
    layout: dict[str, Text] | None = Field(default=None, json_schema_extra={"item": "reader"})
    steps: list[Any] = Field(description="the inputs, checks and notes, in order")


class IncludedFile(FileModel):
    """A file of shared steps that scripts ``include:`` (or just the list of steps)."""

    model_config = ConfigDict(title="included file")

    steps: list[Any] = Field(description="the steps that run where it is included")


class IncludeStep(FileModel):
    model_config = ConfigDict(title="include step")
    include: Text = Field(description="the file whose steps run here")


class NoteStep(FileModel):
    model_config = ConfigDict(title="note step")
    note: str | None


class RejectStep(FileModel):
    model_config = ConfigDict(title="reject step")
    reject: str | None = Field(description="the input that must be refused")
    rule: Native = None
    reason: Native = None


class ExpectStep(FileModel):
    model_config = ConfigDict(title="expect step")
    expect: dict[str, Any]  # values stay as read: each is checked and compiled below


STEP_MODELS: dict[str, type[FileModel]] = {
    "expect": ExpectStep,
    "reject": RejectStep,
    "note": NoteStep,
}


# --------------------------------------------------------------------------------------------
# Loading


def _default_finder(game_id: str) -> Game[Any]:
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
    doc = read_yaml(text, path, error=ScriptError, model=ScriptFile)
    if doc.data is None:
        raise ScriptError("the script is empty", path, 1)
    top = doc.validate(ScriptFile)
    finder = find_game or _default_finder
    try:
        game = finder(top.game)
    except UnknownGame as exc:
        doc.fail(str(exc), "game")
    seats = top.seats
    options = _options(doc, game, top, len(seats))
    layout = dict(top.layout) if top.layout is not None else dict(game.default_layout(len(seats)))
    kit = _kit(doc, top)
    config = TableConfig(
        game=game.id, seats=seats, options=options, layout=layout, kit=kit, name=top.title or ""
    )
    try:
        view_keys = set(Table(config, game).view(PUBLIC))
    except ConfigError as exc:
        kit_key = "kit" if top.kit is not None else "kit_file" if top.kit_file else None
        where = "layout" if "zone layout" in exc.message and top.layout is not None else kit_key
        doc.fail(exc.message, *((where,) if where else ()), key=True)
    steps = _Steps(view_keys, seats)
    steps.collect(doc, ("steps",), (Path(path).resolve(),), None)
    return Script(
        path=path,
        game=game,
        config=config,
        title=top.title or "",
        rule_refs=tuple(top.rule_refs),
        steps=tuple(steps.out),
    )


def _options(doc: Document, game: Game[Any], top: ScriptFile, seats: int) -> dict[str, Any]:
    """The options as written, checked by the game (the referee resolves defaults itself)."""
    given = dict(top.options)
    try:
        game.resolve_options({}, seats)
    except ConfigError as exc:
        doc.fail(exc.message, "seats")
    for key, value in given.items():
        try:
            game.resolve_options({key: value}, seats)
        except ConfigError as exc:
            doc.fail(exc.message, "options", key, key="unknown option" in exc.message)
    try:
        game.resolve_options(given, seats)
    except ConfigError as exc:
        doc.fail(exc.message, "options")
    return given


def _kit(doc: Document, top: ScriptFile) -> dict[str, str]:
    """``kit: {uid: piece}`` inline, or ``kit_file:`` a YAML/JSON file holding that mapping
    (alone or under a ``kit`` key), relative to the script's folder. Uids stay as written."""
    if top.kit is not None and top.kit_file is not None:
        doc.fail("give either kit or kit_file, not both", "kit_file", key=True)
    if top.kit is not None:
        return dict(top.kit)
    if top.kit_file is None:
        return {}
    file = Path(doc.source).parent / top.kit_file
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        doc.fail(f"cannot read kit_file {str(file)!r}: {exc}", "kit_file")
    data = read_yaml(text, str(file), error=ScriptError).data
    if isinstance(data, dict) and isinstance(data.get("kit"), dict):
        data = data["kit"]
    if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
        doc.fail(f"kit_file {str(file)!r} must map tag uids to piece ids", "kit_file")
    return {str(k): str(v) for k, v in data.items()}


class _Steps:
    """Collects the steps of a script and of the files it includes, checking each one."""

    def __init__(self, view_keys: set[str], seats: tuple[str, ...]) -> None:
        self.view_keys = view_keys
        self.seats = seats
        self.out: list[Step] = []

    def collect(
        self, doc: Document, at: tuple[str | int, ...], chain: tuple[Path, ...], line: int | None
    ) -> None:
        """Append the steps listed at ``at`` in ``doc``, inlining ``include:`` steps.

        Steps read from an included file report the line of the ``include:`` step in the
        script (``line``), so a failure points at the script a person runs; errors in the
        included file itself name that file and its line.
        """
        for i, raw in enumerate(doc.at(*at)):
            where = (*at, i)
            if isinstance(raw, dict) and "include" in raw:
                self._include(doc, where, chain, line if line is not None else doc.line(*where))
                continue
            step = self._step(doc, where, len(self.out) + 1)
            if line is not None:
                checks = tuple(replace(c, line=line) for c in step.checks)
                step = replace(step, line=line, checks=checks)
            self.out.append(step)

    def _include(
        self, doc: Document, at: tuple[str | int, ...], chain: tuple[Path, ...], line: int | None
    ) -> None:
        """``- include: FILE``: the steps of FILE (relative to this file) run here, in order.

        FILE holds ``steps: [...]`` (or just the list). Used for shared preludes such as placing
        the pawns at setup; includes nest up to MAX_INCLUDE_DEPTH and may not loop.
        """
        label = f"step {len(self.out) + 1}"
        name = doc.validate(IncludeStep, *at, label=label).include
        file = (Path(doc.source).parent / name).resolve()
        if file in chain:
            doc.fail(f"{file.name} includes itself (through {chain[-1].name})", *at, "include")
        if len(chain) > MAX_INCLUDE_DEPTH:
            doc.fail(f"includes nest deeper than {MAX_INCLUDE_DEPTH} files", *at, "include")
        try:
            text = file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            doc.fail(f"cannot read the included file {str(file)!r}: {exc}", *at, "include")
        inner = read_yaml(text, str(file), error=ScriptError, model=IncludedFile)
        if inner.data is None:
            raise ScriptError("the included file is empty", str(file), 1)
        where: tuple[str | int, ...] = ()
        if not isinstance(inner.data, list):
            inner.validate(IncludedFile)
            where = ("steps",)
        self.collect(inner, where, (*chain, file), line)

    def _step(self, doc: Document, at: tuple[str | int, ...], index: int) -> Step:
        raw = doc.at(*at)
        line = doc.line(*at) or 0
        label = f"step {index}"
        if raw is None or isinstance(raw, str):
            inp = _parse_input(doc, raw, at, label)
            return Step(index, line, "input", inp.to_str(), input=inp)
        if not isinstance(raw, dict):
            doc.fail(
                f"{label}: a step is an input line or a mapping (expect:, reject:, note:, "
                "include:)",
                *at,
            )
        kinds = [k for k in STEP_MODELS if k in raw]
        if len(kinds) != 1:
            doc.fail(f"{label}: a mapping step has exactly one of expect:, reject:, note:", *at)
        model = doc.validate(STEP_MODELS[kinds[0]], *at, label=label)
        if isinstance(model, NoteStep):
            return Step(index, line, "note", model.note or "")
        if isinstance(model, RejectStep):
            inp = _parse_input(doc, model.reject, (*at, "reject"), label)
            rule = reason = None
            if "rule" in model.model_fields_set:
                rule = _matcher(doc, model.rule, (*at, "rule"), label)
            if "reason" in model.model_fields_set:
                reason = _matcher(doc, model.reason, (*at, "reason"), label)
            return Step(index, line, "reject", inp.to_str(), input=inp, rule=rule, reason=reason)
        assert isinstance(model, ExpectStep)
        return self._expect(doc, model, at, index, line)

    def _expect(
        self, doc: Document, model: ExpectStep, at: tuple[str | int, ...], index: int, line: int
    ) -> Step:
        label = f"step {index}"
        if not model.expect:
            doc.fail(f"{label}: expect: needs at least one key", *at, "expect")
        audience: Audience = PUBLIC
        checks = []
        known = sorted(self.view_keys | set(SPECIAL_EXPECT_KEYS))
        for key, raw in model.expect.items():
            where = (*at, "expect", key)
            if key == "view":
                audience = self._audience(doc, to_native(raw), where, label)
                continue
            head = key.split(".", 1)[0]
            if (
                head not in self.view_keys
                and key not in SPECIAL_EXPECT_KEYS
                or not all(key.split("."))
            ):
                doc.fail(
                    f"{label}: unknown expect key {key!r}: a key is a dotted path that starts "
                    f"with one of {', '.join(known)}",
                    *where,
                    key=True,
                )
            if key == "winners":
                matcher = self._winners(doc, to_native(raw), where, label)
            else:
                matcher = _matcher(doc, to_native(raw), where, label)
            checks.append(Check(key, matcher, doc.line(*where, key=True) or line))
        if not checks:
            doc.fail(f"{label}: expect: has only a view:, nothing to check", *at, "expect")
        return Step(index, line, "expect", "expect", checks=tuple(checks), audience=audience)

    def _audience(
        self, doc: Document, value: Any, at: tuple[str | int, ...], label: str
    ) -> Audience:
        seats = self.seats
        if value in (PUBLIC, ORGANISER):
            return PUBLIC if value == PUBLIC else ORGANISER
        if isinstance(value, str) and value in seats:
            return seats.index(value)
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(seats):
            return value
        doc.fail(
            f"{label}: view must be public, organiser, a seat number (0-{len(seats) - 1}) "
            f"or a seat name, not {value!r}",
            *at,
        )

    def _winners(self, doc: Document, value: Any, at: tuple[str | int, ...], label: str) -> Matcher:
        """``winners: [Ann]`` or ``[0]``: compared as a sorted list of seat numbers."""
        seats = self.seats
        if not isinstance(value, list):
            doc.fail(f"{label}: winners must be a list of seat names or numbers", *at)
        out = []
        for item in value:
            if isinstance(item, str) and item in seats:
                out.append(seats.index(item))
            elif isinstance(item, int) and not isinstance(item, bool) and 0 <= item < len(seats):
                out.append(item)
            else:
                doc.fail(
                    f"{label}: {item!r} is not a seat (names: {', '.join(seats)}; "
                    f"numbers 0-{len(seats) - 1})",
                    *at,
                )
        return ListOf(tuple(Equal(s) for s in sorted(set(out))))


def _parse_input(doc: Document, text: str | None, at: tuple[str | int, ...], label: str) -> Input:
    try:
        return parse_input((text or "").strip())
    except InputSyntaxError as exc:
        doc.fail(f"{label}: {exc}; {INPUT_FORMS}", *at)


def _matcher(doc: Document, value: Any, at: tuple[str | int, ...], label: str) -> Matcher:
    try:
        return compile_matcher(value)
    except MatcherError as exc:
        doc.fail(f"{label}: {exc}", *at)
