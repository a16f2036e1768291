"""Person-written YAML checked by pydantic models, with messages that name file, line and field.

A file kind (zone layout, kit, board profile, table script) is a pydantic model; this module
reads the YAML and reports the first thing wrong in words a person can act on::

    class Layout(FileModel):
        model_config = ConfigDict(title="layout")
        game: Text = Field(description="the id of the game this layout is for")
        seats: int | None = None
        readers: dict[str, Text]

    layout = validate_yaml(Layout, text, "mats/club.yaml")
    # "mats/club.yaml:3: seats must be a whole number, not 'four'"
    # "mats/club.yaml:5: unknown key 'reader'; a layout has game, seats, readers"

How it reads: the text is composed into YAML nodes, so every value keeps its line. Every scalar
becomes a ``Scalar``: the text exactly as written (a uid ``12345678`` or ``0x04AB`` stays that
text), which pydantic's lax mode turns into an int where the model wants one. A null (``~``,
``null`` or nothing) becomes None. Repeated keys and keys that are not plain names are refused
before the model sees anything.

A loader that checks a file in parts (a table script checks each step once it knows the game)
calls ``read_yaml`` for a ``Document`` and then ``doc.validate(Model, "steps", 3, label="step
4")`` or ``doc.fail("...", "steps", 3)``: the same words and lines. The words themselves (which
field, what is wrong) are ``core.yaml_words``'s.

Hazards:
- An ``int`` field takes pydantic's lax reading of the text: ``1.0`` and ``1_000`` pass,
  ``0x10`` does not.
- A plain ``bool`` field accepts ``yes``/``no``/``on``/``off`` (pydantic's lax mode); use
  ``Flag`` where only ``true``/``false`` may be written.
- A plain ``str`` field accepts an empty quoted ``""``; use ``Text`` to refuse it.
- A field typed ``Any`` receives ``Scalar`` objects; ``Native`` (or ``to_native``) gives the
  values ``yaml.safe_load`` would.
- Validators raise ``ValueError`` (or ``Problem``, to point at a node below the field) with a
  whole sentence: it is shown as written, with the line of the node it names.
"""

from __future__ import annotations

import typing
from typing import Annotated, Any, TypeVar

import yaml
from pydantic import BaseModel, BeforeValidator, ConfigDict, StringConstraints, ValidationError
from yaml.constructor import SafeConstructor

from scorekeeper.core.yaml_words import Problem, explain, title, words
from scorekeeper.errors import ConfigError, ScorekeeperError

__all__ = [
    "NULL_TAG",
    "Document",
    "FileModel",
    "Flag",
    "Native",
    "Problem",
    "Scalar",
    "Text",
    "compose_text",
    "line_of",
    "read_yaml",
    "to_native",
    "validate_data",
    "validate_yaml",
]

M = TypeVar("M", bound=BaseModel)
Path = tuple[str | int, ...]
NULL_TAG = "tag:yaml.org,2002:null"


class FileModel(BaseModel):
    """Base of the models of person-written files: unknown keys are refused.

    Set ``model_config = ConfigDict(title="layout")`` on a file kind: the title is the word
    messages use for it ("unknown key 'x'; a layout has ...", "the layout file is empty").
    """

    model_config = ConfigDict(extra="forbid")


class Scalar(str):
    """A YAML scalar's text as written, keeping its node (for ``native`` and its line)."""

    __slots__ = ("node",)
    node: yaml.ScalarNode

    def __new__(cls, node: yaml.ScalarNode) -> Scalar:
        self = super().__new__(cls, node.value)
        self.node = node
        return self

    @property
    def line(self) -> int | None:
        """The 1-based line the scalar is written on."""
        return line_of(self.node)

    def native(self) -> Any:
        """What ``yaml.safe_load`` makes of it (``12`` an int, ``yes`` True, ``0412`` 266)."""
        return SafeConstructor().construct_object(self.node)


def to_native(data: Any) -> Any:
    """``data`` with every ``Scalar`` (keys too) turned into its ``yaml.safe_load`` value."""
    if isinstance(data, Scalar):
        return data.native()
    if isinstance(data, dict):
        return {to_native(k): to_native(v) for k, v in data.items()}
    if isinstance(data, list):
        return [to_native(v) for v in data]
    return data


def _flag(value: Any) -> Any:
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    if isinstance(value, bool):
        return value
    raise ValueError(f"must be true or false, not {value!r}")


INT_TAG = "tag:yaml.org,2002:int"


def _count(value: Any) -> int:
    """A whole number written as a number: not quoted text, not true/false, not 1.5."""
    if isinstance(value, Scalar):
        if value.node.tag != INT_TAG:
            raise ValueError(f"must be a whole number, not {str(value)!r}")
        native = value.native()
        assert isinstance(native, int)
        return native
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"must be a whole number, not {value!r}")
    return value


def _text(value: Any) -> str:
    """Free text; nothing written is the empty text."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ValueError(
            "must be text, not a list or mapping"
            if isinstance(value, dict | list)
            else f"must be text, not {value!r}"
        )
    return str(value).strip()


Count = Annotated[int, BeforeValidator(_count)]
"""A whole number as YAML writes one (``'2'`` quoted is text, not a count); bound it with
``Field(ge=..., le=...)``."""
FreeText = Annotated[str, BeforeValidator(_text)]
"""Any text, possibly empty (nothing written is ``""``), with surrounding spaces removed."""
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
"""Text that is not empty, with surrounding spaces removed."""
Flag = Annotated[bool, BeforeValidator(_flag)]
"""``true`` or ``false`` only (not ``yes``, ``on``, ``1``)."""
Native = Annotated[Any, BeforeValidator(to_native)]
"""Any value, as ``yaml.safe_load`` would give it."""


def line_of(node: yaml.Node | None) -> int | None:
    """The 1-based line a YAML node starts on, or None when it has no position."""
    if node is None or node.start_mark is None:
        return None
    return int(node.start_mark.line) + 1


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


# --------------------------------------------------------------------------------------------
# Nodes to plain data, remembering lines


class _Lines:
    """The line of every value (and of every mapping key) in the data, by path."""

    def __init__(self) -> None:
        self.values: dict[Path, int | None] = {}
        self.keys: dict[Path, int | None] = {}

    def of(self, path: Path, key: bool = False) -> int | None:
        """The line of the node at ``path`` (of its key if ``key``), or of the nearest parent."""
        while path:
            found = (self.keys if key else self.values).get(path)
            if found is not None:
                return found
            path, key = path[:-1], False
        return self.values.get(())


def _plain(node: yaml.Node | None, path: Path, lines: _Lines, model: Any) -> Any:
    lines.values[path] = line_of(node)
    if node is None:
        return None
    if isinstance(node, yaml.ScalarNode):
        return None if node.tag == NULL_TAG else Scalar(node)
    if isinstance(node, yaml.SequenceNode):
        return [_plain(item, (*path, i), lines, model) for i, item in enumerate(node.value)]
    assert isinstance(node, yaml.MappingNode)
    out: dict[str, Any] = {}
    for key, value in node.value:
        if not isinstance(key, yaml.ScalarNode) or key.tag == NULL_TAG or not key.value:
            where = words(model, path) or f"the {title(model)}"
            raise _Refusal(f"{where}: every key must be a plain name", line_of(key))
        name = Scalar(key)
        if name in out:
            first = lines.keys[(*path, str(name))]
            where = words(model, path)
            prefix = f"{where}: " if where else ""
            raise _Refusal(
                f"{prefix}{str(name)!r} is listed twice (first on line {first})", name.line
            )
        lines.keys[(*path, str(name))] = name.line
        out[name] = _plain(value, (*path, str(name)), lines, model)
    return out


class _Refusal(ScorekeeperError, ValueError):
    def __init__(self, message: str, line: int | None) -> None:
        self.message, self.line = message, line


# --------------------------------------------------------------------------------------------
# Documents and the two entry points


def _first_error(exc: ValidationError) -> Any:
    """The error to show: an unknown key first (a misspelt key also makes one missing)."""
    errors = exc.errors(include_url=False)
    return next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])


class Document:
    """A composed YAML file as plain data (``Scalar`` texts, dicts, lists, None), with the line
    of every node: for loaders that check a file in parts, such as a table script's steps.

    ``validate`` checks the data (or the part at a path) against a model; ``fail`` refuses the
    node at a path in the loader's own words. Both raise ``error`` naming the file and line.
    """

    def __init__(
        self, data: Any, lines: _Lines, source: str, error: type[ConfigError] = ConfigError
    ) -> None:
        self.data = data
        self.lines = lines
        self.source = source
        self.error = error

    def at(self, *path: str | int) -> Any:
        """The data at ``path`` (keys and list indexes from the top)."""
        data = self.data
        for part in path:
            data = data[part]
        return data

    def line(self, *path: str | int, key: bool = False) -> int | None:
        """The line of the node at ``path`` (of its key when ``key``)."""
        return self.lines.of(tuple(path), key)

    def fail(self, message: str, *path: str | int, key: bool = False) -> typing.NoReturn:
        """Raise ``error(message)`` at the line of the node at ``path``."""
        raise self.error(message, self.source, self.line(*path, key=key))

    def validate(
        self,
        model: type[M],
        *path: str | int,
        context: dict[str, Any] | None = None,
        label: str = "",
    ) -> M:
        """Check the data at ``path`` against ``model``; ``label`` names that part in messages
        ("step 3"): "step 3: unknown key 'because'; a reject step has ...".
        """
        data = self.at(*path)
        try:
            return model.model_validate(data, context=context)
        except ValidationError as exc:
            message, below, key = explain(model, data, _first_error(exc), label)
            self.fail(message, *path, *below, key=key)


def read_yaml(
    text: str, source: str, *, error: type[ConfigError] = ConfigError, model: Any = None
) -> Document:
    """Compose YAML ``text`` into a ``Document``; a syntax error, a repeated key or a key that
    is not a plain name raises ``error`` (``model`` only lends its words to those messages)."""
    root = compose_text(text, source, error)
    lines = _Lines()
    try:
        data = _plain(root, (), lines, model)
    except _Refusal as refusal:
        raise error(refusal.message, source, refusal.line) from None
    return Document(data, lines, source, error)


def validate_yaml(
    model: type[M],
    text: str,
    source: str,
    *,
    error: type[ConfigError] = ConfigError,
    context: dict[str, Any] | None = None,
) -> M:
    """Check YAML ``text`` against ``model``; the first problem raises ``error`` naming
    ``source``, the line and the field. ``context`` reaches the model's validators
    (``info.context``), e.g. the game a layout is for."""
    return read_yaml(text, source, error=error, model=model).validate(model, context=context)


def validate_data(
    model: type[M],
    data: Any,
    source: str,
    *,
    error: type[ConfigError] = ConfigError,
    context: dict[str, Any] | None = None,
) -> M:
    """Check plain data (JSON, a browser's form) against ``model``: as ``validate_yaml``, with
    the field named but no line."""
    try:
        return model.model_validate(data, context=context)
    except ValidationError as exc:
        message, _, _ = explain(model, data, _first_error(exc))
        raise error(message, source, None) from None
