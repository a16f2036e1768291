"""States in record form (core/snapshot.py, Game.snapshot/restore): every kind of value a
frozen state holds comes back equal, through JSON text too; a record of another format, another
game or naming a class outside the state is refused in words, and nothing it names is built."""

from __future__ import annotations

import enum
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest

from scorekeeper.core import snapshot as records
from scorekeeper.core.game import Audience, Game
from scorekeeper.core.inputs import Decision, Seen
from scorekeeper.core.outcomes import Accepted, Prompt, Rejected
from scorekeeper.core.snapshot import FORMAT, SnapshotError, restore, snapshot


class Colour(enum.Enum):
    RED = "red"
    BLUE = 2


@dataclass(frozen=True, slots=True)
class Leaf:
    name: str
    colour: Colour = Colour.RED


@dataclass(frozen=True)
class Other:
    """A class of another module in real games: reachable only through a field's type."""

    n: int


@dataclass(frozen=True, slots=True)
class Rich:
    """Every kind of value the generic form carries."""

    count: int
    ratio: float
    flag: bool
    name: str
    nothing: None
    pair: tuple[int, str]
    nested: tuple[tuple[str, ...], ...]
    tags: frozenset[str]
    by_seat: Mapping[int, tuple[str, ...]]
    leaf: Leaf | None
    leaves: tuple[Leaf, ...]
    anything: Any = None
    other: Other | None = None
    listed: list[int] = field(default_factory=list)
    hidden_count: int = field(default=0, init=False)


def _rich() -> Rich:
    rich = Rich(
        count=-3,
        ratio=0.25,
        flag=True,
        name="Ann's gold",
        nothing=None,
        pair=(1, "a"),
        nested=(("x", "y"), ()),
        tags=frozenset({"b", "a", "c"}),
        by_seat={0: ("c1",), 2: ()},
        leaf=Leaf("l", Colour.BLUE),
        leaves=(Leaf("m"), Leaf("n", Colour.BLUE)),
        anything=(("options", 3), ("k", (1, 2))),
        other=Other(5),
        listed=[1, 2],
    )
    object.__setattr__(rich, "hidden_count", 4)
    return rich


def test_every_kind_of_value_comes_back_equal_through_json() -> None:
    rich = _rich()
    record = snapshot(rich)
    assert record["format"] == FORMAT and record["type"].endswith(":Rich")
    text = json.dumps(record)
    back = restore(json.loads(text), Rich)
    assert back == rich
    assert back.hidden_count == 4 and isinstance(back.tags, frozenset)
    assert isinstance(back.pair, tuple) and isinstance(back.listed, list)
    assert back.leaf is not None and back.leaf.colour is Colour.BLUE
    assert records.round_trips(rich, Rich)


def test_equal_states_give_byte_equal_records() -> None:
    """Sets are written in one order whatever order they were built in."""
    words = [f"w{i}" for i in range(40)]
    one = Rich(**{**_fields(_rich()), "tags": frozenset(words)})
    two = Rich(**{**_fields(_rich()), "tags": frozenset(reversed(words))})
    assert json.dumps(snapshot(one)) == json.dumps(snapshot(two))


def _fields(rich: Rich) -> dict[str, Any]:
    return {k: getattr(rich, k) for k in Rich.__dataclass_fields__ if k != "hidden_count"}


def test_a_value_the_form_does_not_carry_is_named_with_its_place() -> None:
    bad = Rich(**{**_fields(_rich()), "anything": object()})
    with pytest.raises(SnapshotError, match=r"state\.anything is a object.*overrides"):
        snapshot(bad)


def test_records_of_another_format_or_class_are_refused() -> None:
    record = snapshot(_rich())
    with pytest.raises(SnapshotError, match="format 1 was expected, not 0"):
        restore({**record, "format": 0}, Rich)
    with pytest.raises(SnapshotError, match="not a .*:Leaf"):
        restore(record, Leaf)


def test_a_record_naming_a_class_outside_the_state_builds_nothing() -> None:
    """A record is data: one naming another class (here os.system's module) is refused, and
    nothing is imported or called."""
    record = snapshot(_rich())
    record["state"]["fields"]["leaf"] = {"@dataclass": "subprocess:Popen", "fields": {}}
    with pytest.raises(SnapshotError, match="'subprocess:Popen', which is no part"):
        restore(record, Rich)
    record = snapshot(Leaf("x"))
    record["state"]["fields"]["colour"] = {"@enum": "tests.core.test_snapshot:Colour", "name": "X"}
    with pytest.raises(SnapshotError, match="has no member 'X'"):
        restore(record, Leaf)


def test_a_record_with_missing_or_unknown_fields_is_refused() -> None:
    record = snapshot(Leaf("x"))
    record["state"]["fields"]["size"] = 3
    with pytest.raises(SnapshotError, match=r"unknown \['size'\]"):
        restore(record, Leaf)
    record = snapshot(Leaf("x"))
    del record["state"]["fields"]["name"]
    with pytest.raises(SnapshotError, match=r"missing \['name'\]"):
        restore(record, Leaf)


def test_the_classes_a_record_may_name_are_the_states_own() -> None:
    """Reachable from the root's field types (Other, through a union), or defined beside it."""
    names = {c.__name__ for c in records.buildable(Rich)}
    assert {"Rich", "Leaf", "Colour", "Other"} <= names
    assert "Popen" not in names


class _Toy(Game[Leaf]):
    """The least a game needs, to ask Game for its state type and records."""

    id = "toy"
    name = "Toy"
    min_seats = 1
    max_seats = 1

    def pieces(self) -> tuple[str, ...]:
        return ()

    def describe_piece(self, piece: str) -> str:
        return piece

    def zones(self, seats: int) -> tuple[str, ...]:
        return ()

    def default_layout(self, seats: int) -> dict[str, str]:
        return {}

    def new_game(self, options: Mapping[str, Any], seats: int) -> Leaf:
        return Leaf("start")

    def observe(self, state: Leaf, seen: Seen) -> Accepted[Leaf] | Rejected:
        return Rejected("R-1", "no")

    def decide(self, state: Leaf, decision: Decision) -> Accepted[Leaf] | Rejected:
        return Rejected("R-1", "no")

    def pending(self, state: Leaf) -> tuple[Prompt, ...]:
        return ()

    def waiting_for(self, state: Leaf) -> str:
        return ""

    def scores(self, state: Leaf) -> tuple[int, ...]:
        return (0,)

    def is_over(self, state: Leaf) -> bool:
        return False

    def view(self, state: Leaf, audience: Audience) -> dict[str, Any]:
        return {}

    def secrets(self, state: Leaf, seat: int) -> frozenset[str]:
        return frozenset()


def test_a_game_finds_its_state_type_and_round_trips_by_default() -> None:
    toy = _Toy()
    assert toy.state_type() is Leaf
    state = Leaf("y", Colour.BLUE)
    assert toy.restore(json.loads(json.dumps(toy.snapshot(state)))) == state


def test_a_game_that_names_no_state_type_is_told_so() -> None:
    class Bare(_Toy):
        pass

    assert Bare().state_type() is Leaf  # inherited from its base's Game[Leaf]

    methods = {k: v for k, v in vars(_Toy).items() if not k.startswith("__")}
    untyped = type("Untyped", (Game,), methods)  # class Untyped(Game): no state type named
    with pytest.raises(TypeError, match="Untyped does not name its state type"):
        untyped().state_type()
