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

Hazards:
- A plain ``bool`` field accepts ``yes``/``no``/``on``/``off`` (pydantic's lax mode); use
  ``Flag`` where only ``true``/``false`` may be written.
- A plain ``str`` field accepts an empty quoted ``""``; use ``Text`` to refuse it.
- A field typed ``Any`` receives ``Scalar`` objects; ``Native`` (or ``to_native``) gives the
  values ``yaml.safe_load`` would.
- Validators raise ``ValueError`` (or ``Problem``, to point at a node below the field) with a
  whole sentence: it is shown as written, with the line of the node it names.
"""

from __future__ import annotations

import types
import typing
from typing import Annotated, Any, TypeVar, Union

import yaml
from pydantic import BaseModel, BeforeValidator, ConfigDict, StringConstraints, ValidationError
from yaml.constructor import SafeConstructor

from scorekeeper.errors import ConfigError

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


Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
"""Text that is not empty, with surrounding spaces removed."""
Flag = Annotated[bool, BeforeValidator(_flag)]
"""``true`` or ``false`` only (not ``yes``, ``on``, ``1``)."""
Native = Annotated[Any, BeforeValidator(to_native)]
"""Any value, as ``yaml.safe_load`` would give it."""


class Problem(ValueError):
    """A validator's complaint about a node below the one it validates.

    ``Problem("zone 'x' is unknown", "r1")`` raised while validating ``readers`` reports the line
    of ``readers: r1``'s value; ``key=True`` reports the line of its key instead.
    """

    def __init__(self, message: str, *at: str | int, key: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.at = at
        self.key = key


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


def _plain(node: yaml.Node | None, path: Path, lines: _Lines, model: type[BaseModel]) -> Any:
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
            where = _words(model, path) or f"the {_title(model)}"
            raise _Refusal(f"{where}: every key must be a plain name", line_of(key))
        name = Scalar(key)
        if name in out:
            first = lines.keys[(*path, str(name))]
            where = _words(model, path)
            prefix = f"{where}: " if where else ""
            raise _Refusal(
                f"{prefix}{str(name)!r} is listed twice (first on line {first})", name.line
            )
        lines.keys[(*path, str(name))] = name.line
        out[name] = _plain(value, (*path, str(name)), lines, model)
    return out


class _Refusal(Exception):
    def __init__(self, message: str, line: int | None) -> None:
        self.message, self.line = message, line


# --------------------------------------------------------------------------------------------
# Field words: where in the file, as a person reads it


def _unwrap(typ: Any) -> Any:
    """The type behind Annotated[...] and Optional[...] (a union of several stays a union)."""
    while True:
        origin = typing.get_origin(typ)
        if origin is Annotated:
            typ = typing.get_args(typ)[0]
        elif origin in (Union, types.UnionType):
            members = [a for a in typing.get_args(typ) if a is not type(None)]
            if len(members) != 1:
                return typ
            typ = members[0]
        else:
            return typ


def _title(model: Any) -> str:
    if isinstance(model, type) and issubclass(model, BaseModel):
        return str(model.model_config.get("title") or model.__name__.lower())
    return "file"


def _singular(name: str) -> str:
    if name.endswith("ies"):
        return name[:-3] + "y"
    if name.endswith("s") and not name.endswith("ss"):
        return name[:-1]
    return name


def _step(typ: Any, part: str | int) -> tuple[Any, str | None, str | None]:
    """(type below ``part``, the field's word or None, the word for one of its items)."""
    typ = _unwrap(typ)
    if isinstance(typ, type) and issubclass(typ, BaseModel) and isinstance(part, str):
        for name, info in typ.model_fields.items():
            if part in (name, info.alias):
                extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
                word = info.title or part
                item = str(extra.get("item") or _singular(word))
                return info.annotation, word, item
        return None, part, _singular(part)
    args = typing.get_args(typ)
    origin = typing.get_origin(typ)
    if origin in (list, tuple) and args:
        return args[0], None, None
    if origin is dict and len(args) == 2:
        return args[1], None, None
    if origin in (Union, types.UnionType):
        for member in args:  # a union's tag names the member the error is about
            if getattr(member, "__name__", None) == part:
                return member, None, None
    return None, None, None


def _words(model: type[BaseModel], path: Path) -> str:
    """``('locations', 2, 'icons')`` as "location 3, icons"; "" for the file itself."""
    words: list[str] = []
    typ: Any = model
    item = ""
    for part in path:
        below, word, item_word = _step(typ, part)
        if word is not None:
            words.append(word)
            item = item_word or word
        else:
            label = f"{item} {part + 1}" if isinstance(part, int) else f"{item} {part}"
            if words:
                words[-1] = label.strip()
            else:
                words.append(label.strip())
        typ = below
    return ", ".join(words)


def _model_at(model: type[BaseModel], path: Path) -> tuple[Any, str]:
    """The type at ``path`` and the word for it: its title, or what its parent calls an item."""
    typ: Any = model
    word = _title(model)
    for part in path:
        typ, field, item = _step(typ, part)
        word = (item or word) if field is not None else word
    typ = _unwrap(typ)
    if isinstance(typ, type) and issubclass(typ, BaseModel) and typ.model_config.get("title"):
        word = _title(typ)
    return typ, word


# --------------------------------------------------------------------------------------------
# Pydantic's first error in plain words


def _has(data: Any, part: Any) -> bool:
    """Whether ``part`` is a key of the mapping or an index of the list ``data``."""
    if isinstance(data, dict):
        return isinstance(part, str) and part in data
    return isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data)


def _path_in(data: Any, loc: tuple[Any, ...]) -> tuple[Path, bool]:
    """The real path of ``loc`` in ``data`` (union tags dropped), and whether it ends at a key."""
    path: list[str | int] = []
    at_key = False
    for part in loc:
        if part == "[key]":
            at_key = True
        elif _has(data, part):
            path.append(part)
            data = data[part]
        elif isinstance(data, dict) and isinstance(part, str) and part == loc[-1]:
            path.append(part)  # a missing key: named, but not in the data
    return tuple(path), at_key


def _shape(value: Any) -> str | None:
    """What is wrong when a value has the wrong shape altogether, or None."""
    if value is None:
        return "is empty"
    if isinstance(value, dict | list):
        return "must be a single value, not a list or mapping"
    return None


def _say(model: type[BaseModel], data: Any, err: Any) -> tuple[str, Path, bool]:
    """(message, path of the node it is about, whether the line is the key's)."""
    kind = err["type"]
    value = err.get("input")
    ctx = err.get("ctx") or {}
    path, at_key = _path_in(data, tuple(err["loc"]))
    words = _words(model, path)
    if kind == "missing":
        parent = path[:-1]
        info = _model_at(model, parent)[0]
        name = path[-1]
        field = getattr(info, "model_fields", {}).get(name)
        why = f" ({field.description})" if field is not None and field.description else ""
        where = _words(model, parent)
        return f"{where + ': ' if where else ''}missing '{name}:'{why}", parent, False
    if kind == "extra_forbidden":
        parent, title = _model_at(model, path[:-1])
        known = ", ".join(getattr(parent, "model_fields", {}))
        where = _words(model, path[:-1])
        text = f"unknown key {path[-1]!r}; a {title} has {known}"
        return f"{where + ': ' if where else ''}{text}", path, True
    if kind in ("value_error", "assertion_error"):
        exc = ctx.get("error")
        if isinstance(exc, Problem):
            return exc.message, (*path, *exc.at), exc.key
        message = str(exc) if exc is not None else str(err["msg"])
        if message.startswith("must "):  # a type's own complaint: name the field
            message = f"{words or 'the value'} {message}"
        return message, path, at_key
    if not path and not isinstance(value, dict) and kind in ("model_type", "model_attributes_type"):
        needs = [n for n, f in model.model_fields.items() if f.is_required()]
        title = _title(model)
        if value is None and not needs:
            return f"the {title} file is empty", path, False
        if value is None:
            return f"the {title} file is empty; it needs {': and '.join(needs)}:", path, False
        return f"the {title} must be a mapping (key: value lines)", path, False
    subject = words or f"the {_title(model)}"
    shape = _shape(value)
    if kind in ("dict_type", "model_type", "model_attributes_type", "mapping_type"):
        said = "is empty" if value is None else "must be a mapping (key: value lines)"
    elif kind in ("list_type", "tuple_type", "set_type"):
        said = "is empty" if value is None else "must be a list (lines starting with '- ')"
    elif shape is not None:
        said = shape
    elif kind in ("string_type",):
        said = f"must be text, not {value!r}"
    elif kind in ("string_too_short",):
        said = "is empty"
    elif kind.startswith("int_"):
        said = f"must be a whole number, not {str(value)!r}"
    elif kind.startswith("float_") or kind.startswith("decimal_"):
        said = f"must be a number, not {str(value)!r}"
    elif kind.startswith("bool_"):
        said = f"must be true or false, not {str(value)!r}"
    elif kind in ("literal_error", "enum"):
        said = f"must be {ctx.get('expected')}, not {str(value)!r}"
    elif kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
        bound = {"greater_than_equal": ("at least", "ge"), "greater_than": ("more than", "gt")}
        bound |= {"less_than_equal": ("at most", "le"), "less_than": ("less than", "lt")}
        word, key = bound[kind]
        said = f"must be {word} {ctx.get(key)}, not {str(value)}"
    elif kind == "too_short":
        n = ctx.get("min_length")
        said = "lists nothing" if not value else f"must list at least {n}"
    elif kind == "too_long":
        said = f"must list at most {ctx.get('max_length')}"
    elif kind == "string_too_long":
        said = f"must be at most {ctx.get('max_length')} characters long"
    else:
        said = f"is not valid here ({err['msg']})"
    return f"{subject} {said}", path, at_key


def _raise_first(
    exc: ValidationError,
    model: type[BaseModel],
    data: Any,
    source: str,
    lines: _Lines | None,
    error: type[ConfigError],
) -> typing.NoReturn:
    err = exc.errors(include_url=False)[0]
    message, path, at_key = _say(model, data, err)
    line = lines.of(path, at_key) if lines is not None else None
    raise error(message, source, line) from None


# --------------------------------------------------------------------------------------------
# The two entry points


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
    root = compose_text(text, source, error)
    lines = _Lines()
    try:
        data = _plain(root, (), lines, model)
    except _Refusal as refusal:
        raise error(refusal.message, source, refusal.line) from None
    try:
        return model.model_validate(data, context=context)
    except ValidationError as exc:
        _raise_first(exc, model, data, source, lines, error)


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
        _raise_first(exc, model, data, source, None, error)
