"""``core.evolve.evolver``: the referee's fast ``dataclasses.replace`` for frozen states."""

from __future__ import annotations

import dataclasses

import pytest

from scorekeeper.core.evolve import evolver


@dataclasses.dataclass(frozen=True, slots=True)
class Point:
    x: int
    y: int = 0
    tags: tuple[str, ...] = ()


evolve = evolver(Point)


def test_a_copy_with_the_changes_as_replace_gives_it() -> None:
    p = Point(1, 2, ("a",))
    q = evolve(p, y=5)
    assert q == dataclasses.replace(p, y=5) == Point(1, 5, ("a",))
    assert p == Point(1, 2, ("a",)) and q is not p
    assert evolve(p) == p and hash(evolve(p)) == hash(p)


def test_an_unknown_field_is_a_type_error_naming_the_class() -> None:
    with pytest.raises(TypeError, match=r"Point has no field\(s\) \['z'\]"):
        evolve(Point(1), z=3)
