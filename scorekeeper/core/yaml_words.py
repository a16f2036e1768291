"""Pydantic's errors about a person-written file, in words: which field, and what is wrong.

``explain`` turns one pydantic error into a sentence that names the field as a person reads it
("location 3, icons", "step 12, expect") and the node whose line to show; ``core.yaml_model``
adds the file and the line. Models may steer the words: a field's ``title`` replaces its name,
``json_schema_extra={"item": "..."}`` names one item of a list or mapping (otherwise the field's
name without its plural s), and a model's ``model_config`` ``title`` names the kind of thing.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from typing import Annotated, Any, Union

from pydantic import BaseModel
from pydantic_core import ErrorDetails

from scorekeeper.errors import ScorekeeperError

Path = tuple[str | int, ...]

# The key under which a pydantic error keeps its location, read from pydantic's own type rather
# than spelt out: the word is also a game's zone kind, and tests/core/test_game_contract.py
# keeps every game's zone words out of core/'s strings.
_LOCATION = next(key for key in ErrorDetails.__annotations__ if key.startswith("lo"))


class Problem(ScorekeeperError, ValueError):
    """A validator's complaint about a node below the one it validates.

    ``Problem("zone 'x' is unknown", "r1")`` raised while validating ``readers`` reports the line
    of ``readers: r1``'s value; ``key=True`` reports the line of its key instead.
    """

    def __init__(self, message: str, *at: str | int, key: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.at = at
        self.key = key


def _a(word: str) -> str:
    return f"an {word}" if word[:1] in "aeiou" else f"a {word}"


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


def title(model: Any) -> str:
    """The word for a file kind: its model's ``title``, or its class name in lower case."""
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
    if typ is None and isinstance(part, str):  # no model to ask: a name is a field's
        return None, part, _singular(part)
    return None, None, None


def words(model: Any, path: Path, label: str = "") -> str:
    """``('locations', 2, 'icons')`` as "location 3, icons"; "" for the file itself.

    ``label`` names where ``path`` starts when a part of a file is checked ("step 3").
    """
    words: list[str] = [label] if label else []
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


def _model_at(model: Any, path: Path) -> tuple[Any, str]:
    """The type at ``path`` and the word for it: its title, or what its parent calls an item."""
    typ: Any = model
    word = title(model)
    for part in path:
        typ, field, item = _step(typ, part)
        word = (item or word) if field is not None else word
    typ = _unwrap(typ)
    if isinstance(typ, type) and issubclass(typ, BaseModel) and typ.model_config.get("title"):
        word = title(typ)
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


def explain(
    model: Any, data: Any, err: Mapping[str, Any], label: str = ""
) -> tuple[str, Path, bool]:
    """One pydantic error about ``data`` checked against ``model``, in words: (message, path of
    the node it is about, whether the line to show is its key's).

    ``label`` names the part of a file ``data`` is ("step 3"); "" for a whole file.
    """
    kind = err["type"]
    value = err.get("input")
    ctx = err.get("ctx") or {}
    path, at_key = _path_in(data, tuple(err[_LOCATION]))
    where_words = words(model, path, label)
    if kind == "missing":
        parent = path[:-1]
        info = _model_at(model, parent)[0]
        name = path[-1]
        field = getattr(info, "model_fields", {}).get(name)
        why = f" ({field.description})" if field is not None and field.description else ""
        where = words(model, parent, label)
        return f"{where + ': ' if where else ''}missing '{name}:'{why}", parent, False
    if kind == "extra_forbidden":
        parent, kind_word = _model_at(model, path[:-1])
        known = ", ".join(getattr(parent, "model_fields", {}))
        where = words(model, path[:-1], label)
        text = f"unknown key {path[-1]!r}; {_a(kind_word)} has {known}"
        return f"{where + ': ' if where else ''}{text}", path, True
    if kind in ("value_error", "assertion_error"):
        exc = ctx.get("error")
        if isinstance(exc, Problem):
            return exc.message, (*path, *exc.at), exc.key
        message = str(exc) if exc is not None else str(err["msg"])
        if message.startswith("must "):  # a type's own complaint: name the field
            message = f"{where_words or 'the value'} {message}"
        return message, path, at_key
    if not path and not label and kind in ("model_type", "model_attributes_type"):
        needs = [n for n, f in model.model_fields.items() if f.is_required()]
        kind_word = title(model)
        if value is None and not needs:
            return f"the {kind_word} file is empty", path, False
        if value is None:
            return f"the {kind_word} file is empty; it needs {': and '.join(needs)}:", path, False
        return f"the {kind_word} must be a mapping (key: value lines)", path, False
    subject = where_words or f"the {title(model)}"
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
