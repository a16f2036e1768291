"""States in a record form: a game's frozen state as JSON-able data, and back.

``snapshot(state)`` turns a state into a record (a dict that ``json.dumps`` takes as it is);
``restore(record, root)`` builds an equal state from it. The event hub keeps such records so
that a table need not be replayed from its first input; ``Game.snapshot``/``Game.restore`` call
these by default, and a game whose state holds something else overrides them.

What the generic form carries: frozen or plain dataclasses, tuples, lists, frozensets, sets,
dicts (any hashable keys), enum members, None, bools, ints, floats and strings. A JSON list is
a tuple (the common case in frozen states); the other containers, dataclasses and enums are
tagged objects (``{"@frozenset": [...]}``, ``{"@dataclass": "module:Class", "fields": ...}``).
The record carries a format version (``FORMAT``): a record of another version is refused, never
guessed at.

Hazard, and why restore is safe: a record names classes. ``restore`` builds only classes it
was given leave to build: those reachable from the root state class's field types, and the
dataclasses and enums defined in the root's module (a field typed ``Any`` may hold them). It
never imports a module a record names. A record naming anything else is a SnapshotError.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import json
import sys
import typing
from collections.abc import Iterable, Mapping
from typing import Any, TypeVar, cast

from scorekeeper.errors import ScorekeeperError

FORMAT = 1  # the version of the record form; bump it when the form changes
S = TypeVar("S")

_DATACLASS = "@dataclass"
_ENUM = "@enum"
_TAGS = ("@frozenset", "@set", "@list", "@dict")


class SnapshotError(ScorekeeperError, ValueError):
    """A state cannot be put in record form, or a record cannot be restored: says what and
    where (the path of the value in the state)."""


def class_name(cls: type) -> str:
    """How a record names a class: ``module:QualifiedName``."""
    return f"{cls.__module__}:{cls.__qualname__}"


def snapshot(state: Any) -> dict[str, Any]:
    """``state`` as a JSON-able record: ``{"format": FORMAT, "type": <its class>, "state":
    <the encoded value>}``. Raises SnapshotError naming the first value of a kind the form
    does not carry, and where it lies."""
    return {"format": FORMAT, "type": class_name(type(state)), "state": _encode(state, "state")}


def restore(record: Mapping[str, Any], root: type[S]) -> S:
    """The state ``record`` describes, of class ``root``: equal to the one snapshotted.
    Raises SnapshotError for a record of another format or class, or one naming a class
    ``restore`` may not build (module docstring)."""
    if not isinstance(record, Mapping) or record.get("format") != FORMAT:
        got = record.get("format") if isinstance(record, Mapping) else type(record).__name__
        raise SnapshotError(f"a state record of format {FORMAT} was expected, not {got!r}")
    if record.get("type") != class_name(root):
        raise SnapshotError(
            f"the record holds a {record.get('type')!r}, not a {class_name(root)!r}"
        )
    allowed = _by_name(cast(type, root))
    value = _decode(record.get("state"), allowed, "state")
    if not isinstance(value, root):
        raise SnapshotError(f"the record's state is a {type(value).__name__}, not {root.__name__}")
    return value


def round_trips(state: S, root: type[S]) -> bool:
    """Whether ``state`` survives snapshot, json text and restore equal to itself (tests)."""
    return restore(json.loads(json.dumps(snapshot(state))), root) == state


# -- which classes a record may name ------------------------------------------------------------


@functools.cache
def buildable(root: type) -> frozenset[type]:
    """The dataclasses and enums ``restore`` may build for a ``root`` state: those its field
    types name, followed through every container, union and nested dataclass, and those
    defined in ``root``'s module. Worked out from the classes alone, never from a record, once
    per class (cached)."""
    found: set[type] = set()
    todo: list[Any] = [root]
    module = sys.modules.get(root.__module__)
    if module is not None:
        todo += [
            v
            for v in vars(module).values()
            if isinstance(v, type) and v.__module__ == root.__module__
        ]
    while todo:
        hint = todo.pop()
        if isinstance(hint, type) and (
            dataclasses.is_dataclass(hint) or issubclass(hint, enum.Enum)
        ):
            if hint in found:
                continue
            found.add(hint)
            if dataclasses.is_dataclass(hint):
                todo += _field_types(hint)
        else:
            todo += typing.get_args(hint)
    return frozenset(found)


@functools.cache
def _by_name(root: type) -> dict[str, type]:
    """``buildable(root)`` by the names records give them. Hazard: cached and shared: read it,
    never change it."""
    return {class_name(c): c for c in buildable(root)}


def _field_types(cls: type) -> Iterable[Any]:
    """The types of ``cls``'s fields (strings resolved in its module); none it cannot resolve
    (a name imported only for type checking: its module's own classes still count)."""
    try:
        return list(typing.get_type_hints(cls).values())
    except (NameError, TypeError, AttributeError):
        return []


# -- encoding and decoding -------------------------------------------------------------------


def _encode(value: Any, path: str) -> Any:
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise SnapshotError(f"{path} is {value}, which JSON cannot hold")
        return value
    if isinstance(value, enum.Enum):
        return {_ENUM: class_name(type(value)), "name": value.name}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            _DATACLASS: class_name(type(value)),
            "fields": {
                f.name: _encode(getattr(value, f.name), f"{path}.{f.name}")
                for f in dataclasses.fields(value)
            },
        }
    if isinstance(value, tuple):
        if hasattr(value, "_fields"):
            raise SnapshotError(f"{path} is a named tuple ({type(value).__name__}): not carried")
        return [_encode(v, f"{path}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, list):
        return {"@list": [_encode(v, f"{path}[{i}]") for i, v in enumerate(value)]}
    if isinstance(value, frozenset | set):
        items = [_encode(v, f"{path}{{}}") for v in value]
        # Sorted by their JSON text, so equal sets give equal records (and byte-equal files).
        items.sort(key=lambda v: json.dumps(v, sort_keys=True))
        return {"@frozenset" if isinstance(value, frozenset) else "@set": items}
    if isinstance(value, Mapping):
        return {
            "@dict": [
                [_encode(k, f"{path} key"), _encode(v, f"{path}[{k!r}]")] for k, v in value.items()
            ]
        }
    raise SnapshotError(
        f"{path} is a {type(value).__name__}, which a state record does not carry: a game "
        "whose state holds one overrides Game.snapshot and Game.restore"
    )


def _decode(data: Any, allowed: Mapping[str, type], path: str) -> Any:
    if data is None or isinstance(data, bool | int | float | str):
        return data
    if isinstance(data, list):
        return tuple(_decode(v, allowed, f"{path}[{i}]") for i, v in enumerate(data))
    if not isinstance(data, Mapping):
        raise SnapshotError(f"{path}: a {type(data).__name__} has no place in a state record")
    if _DATACLASS in data or _ENUM in data:
        tag = _DATACLASS if _DATACLASS in data else _ENUM
        name = data[tag]
        cls = allowed.get(name) if isinstance(name, str) else None
        if cls is None:
            raise SnapshotError(f"{path} names {name!r}, which is no part of this game's state")
        if tag == _ENUM:
            try:
                return cls[data["name"]]  # type: ignore[index]
            except (KeyError, TypeError):
                raise SnapshotError(f"{path}: {name} has no member {data.get('name')!r}") from None
        return _build(cls, data.get("fields"), allowed, path)
    tags = [t for t in _TAGS if t in data]
    if len(tags) != 1 or len(data) != 1 or not isinstance(data[tags[0]], list):
        raise SnapshotError(f"{path}: not a value of a state record: {dict(data)!r:.80}")
    items = data[tags[0]]
    if tags[0] == "@dict":
        out = {}
        for i, pair in enumerate(items):
            if not (isinstance(pair, list) and len(pair) == 2):
                raise SnapshotError(f"{path}: entry {i} of a dict is not a [key, value] pair")
            out[_decode(pair[0], allowed, f"{path} key")] = _decode(pair[1], allowed, path)
        return out
    values = [_decode(v, allowed, f"{path}[{i}]") for i, v in enumerate(items)]
    if tags[0] == "@list":
        return values
    return frozenset(values) if tags[0] == "@frozenset" else set(values)


def _build(cls: type, fields: Any, allowed: Mapping[str, type], path: str) -> Any:
    """An instance of the dataclass ``cls`` from its encoded ``fields``: every field named,
    no other; fields outside ``__init__`` set after it, as the dataclass would hold them."""
    if not isinstance(fields, Mapping):
        raise SnapshotError(f"{path}: a {cls.__name__} without its fields")
    declared = {f.name: f for f in dataclasses.fields(cls)}
    if set(fields) != set(declared):
        missing = sorted(set(declared) - set(fields))
        extra = sorted(set(fields) - set(declared))
        raise SnapshotError(
            f"{path}: a {cls.__name__} record with fields missing {missing} or unknown {extra}"
        )
    values = {k: _decode(v, allowed, f"{path}.{k}") for k, v in fields.items()}
    try:
        obj = cls(**{k: v for k, v in values.items() if declared[k].init})
    except (TypeError, ValueError) as exc:
        raise SnapshotError(f"{path}: a {cls.__name__} cannot be built: {exc}") from None
    for k, v in values.items():
        if not declared[k].init:
            object.__setattr__(obj, k, v)
    return obj


__all__ = ["FORMAT", "SnapshotError", "buildable", "restore", "round_trips", "snapshot"]
