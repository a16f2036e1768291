"""``dataclasses.replace`` for a game's frozen state on the referee's hot path.

A referee makes a few state copies per input; ``dataclasses.replace`` runs ``__init__`` and
looks every field up by name, which costs more than the rules themselves. ``evolver(cls)``
builds, once per class, a function that copies an instance field by field as straight-line
code (no loop, no ``getattr``) without running ``__init__``.

Hazard: ``__init__`` and ``__post_init__`` do not run, so a class that checks or derives
fields there must not be copied this way; and the class must be a dataclass with slots or a
``__dict__`` (``object.__setattr__`` writes through either).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def evolver(cls: type[T]) -> Callable[..., T]:
    """``evolve(obj, **changes)`` for the dataclass ``cls``: a copy of ``obj`` with
    ``changes``, which must name fields of ``cls`` (TypeError otherwise)."""
    fields = tuple(cls.__dataclass_fields__)  # type: ignore[attr-defined]
    lines = [
        "def evolve(obj, **changes):",
        "    if not changes.keys() <= _FIELD_SET:",
        "        bad = sorted(set(changes) - _FIELD_SET)",
        f"        raise TypeError(f'{cls.__name__} has no field(s) {{bad}}')",
        "    out = _new(_cls)",
        "    get = changes.get",
    ]
    lines += [f"    _set(out, {f!r}, get({f!r}, obj.{f}))" for f in fields]
    lines.append("    return out")
    space: dict[str, Any] = {
        "_new": object.__new__,
        "_set": object.__setattr__,
        "_cls": cls,
        "_FIELD_SET": frozenset(fields),
    }
    exec("\n".join(lines), space)  # noqa: S102 - generated from the dataclass's own fields
    evolve: Callable[..., T] = space["evolve"]
    return evolve
