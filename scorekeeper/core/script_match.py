"""Matchers of table scripts: how an ``expect:`` value is compared with a table's view.

Expected values are compiled once, at load time, into ``Matcher`` objects; a matcher compares
itself with an actual value taken from a table's view and returns the mismatches it found.
Semantics, in short:

* a scalar matches an equal scalar (``1`` does not match ``true``; ``1`` matches ``1.0``);
* a list matches a list of the same length, element by element;
* a mapping matches a mapping that has at least those keys, each matching (partial match);
* a string that starts with ``~`` is a matcher: ``~contains X``, ``~not-contains X``,
  ``~len N``, ``~any``, ``~absent``, ``~re PATTERN``, ``~>= N``, ``~<= N``, ``~= TEXT``
  (literal text, for a value that itself starts with ``~``);
* a one-key mapping whose key starts with ``~`` is the same with a structured argument:
  ``{~contains: {id: claim}}``, ``{~not-contains: ...}``, ``{~len: 2}``, ``{~exact: ...}``.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import yaml

from scorekeeper.errors import ScorekeeperError


class MatcherError(ScorekeeperError, ValueError):
    """An expected value is not a valid matcher (the loader adds file and line)."""


class _Missing:
    """The value at a path that does not exist."""

    def __repr__(self) -> str:
        return "<missing>"


MISSING: Any = _Missing()


@dataclass(frozen=True, slots=True)
class Mismatch:
    """One difference: ``where`` is the sub-path below the checked path ('' for the value)."""

    where: str
    expected: str
    actual: Any


def _join(prefix: str, key: object) -> str:
    return f"{prefix}.{key}" if prefix else str(key)


def show(value: Any) -> str:
    """A short, stable rendering of a value for failure messages."""
    if value is MISSING:
        return "<missing>"
    if isinstance(value, str):
        return repr(value)
    text = repr(value)
    return text if len(text) <= 200 else text[:197] + "..."


class Matcher(ABC):
    """Base class: ``check(actual)`` returns the mismatches (empty when the value matches)."""

    @abstractmethod
    def check(self, actual: Any) -> list[Mismatch]:
        """The ways ``actual`` differs from what is expected; empty when it matches."""

    @abstractmethod
    def describe(self) -> str:
        """What is expected, in the words a failure report shows."""

    def _fail(self, actual: Any, where: str = "") -> list[Mismatch]:
        return [Mismatch(where, self.describe(), actual)]


def _same(a: Any, b: Any) -> bool:
    """Equality that keeps booleans apart from numbers (``True != 1`` here)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return bool(a == b)


@dataclass(frozen=True)
class Equal(Matcher):
    """The actual value equals ``value`` (deep, booleans distinct from numbers)."""

    value: Any

    def check(self, actual: Any) -> list[Mismatch]:
        return [] if _same(self.value, actual) else self._fail(actual)

    def describe(self) -> str:
        return show(self.value)


@dataclass(frozen=True)
class ListOf(Matcher):
    """A list of exactly these elements, each matched by its own matcher."""

    items: tuple[Matcher, ...]

    def check(self, actual: Any) -> list[Mismatch]:
        if not isinstance(actual, list | tuple):
            return self._fail(actual)
        if len(actual) != len(self.items):
            return [Mismatch("", f"a list of {len(self.items)}: {self.describe()}", actual)]
        out: list[Mismatch] = []
        for i, (m, a) in enumerate(zip(self.items, actual, strict=True)):
            out += [
                Mismatch(_join(str(i), x.where) if x.where else str(i), x.expected, x.actual)
                for x in m.check(a)
            ]
        return out

    def describe(self) -> str:
        return "[" + ", ".join(m.describe() for m in self.items) + "]"


@dataclass(frozen=True)
class Partial(Matcher):
    """A mapping with at least these keys, each matching; other keys are ignored."""

    items: tuple[tuple[str, Matcher], ...]

    def check(self, actual: Any) -> list[Mismatch]:
        if not isinstance(actual, Mapping):
            return self._fail(actual)
        out: list[Mismatch] = []
        for key, m in self.items:
            value = lookup(actual, key)
            out += [
                Mismatch(_join(key, x.where) if x.where else key, x.expected, x.actual)
                for x in m.check(value)
            ]
        return out

    def describe(self) -> str:
        return "{" + ", ".join(f"{k}: {m.describe()}" for k, m in self.items) + ", ...}"


@dataclass(frozen=True)
class Contains(Matcher):
    """Text holds a substring (case-insensitive); a list holds a matching element; a mapping
    holds a key. ``negate`` turns it into ``~not-contains``."""

    needle: Matcher
    raw: Any
    negate: bool = False

    def _holds(self, actual: Any) -> bool | None:
        if isinstance(actual, str):
            if not isinstance(self.raw, str | int | float) or isinstance(self.raw, bool):
                return None
            return str(self.raw).casefold() in actual.casefold()
        if isinstance(actual, list | tuple):
            return any(not self.needle.check(a) for a in actual)
        if isinstance(actual, Mapping):
            return lookup(actual, str(self.raw)) is not MISSING
        return None

    def check(self, actual: Any) -> list[Mismatch]:
        holds = self._holds(actual)
        if holds is None or holds == self.negate:
            return self._fail(actual)
        return []

    def describe(self) -> str:
        return f"{'not ' if self.negate else ''}containing {self.needle.describe()}"


@dataclass(frozen=True)
class Length(Matcher):
    """A list, mapping or text of exactly this length."""

    size: int

    def check(self, actual: Any) -> list[Mismatch]:
        ok = isinstance(actual, list | tuple | str | Mapping) and len(actual) == self.size
        return [] if ok else self._fail(actual)

    def describe(self) -> str:
        return f"length {self.size}"


@dataclass(frozen=True)
class Present(Matcher):
    """``~any``: the path exists, whatever its value; ``~absent``: it does not."""

    wanted: bool

    def check(self, actual: Any) -> list[Mismatch]:
        return [] if (actual is not MISSING) == self.wanted else self._fail(actual)

    def describe(self) -> str:
        return "any value" if self.wanted else "no such key"


@dataclass(frozen=True)
class Pattern(Matcher):
    """Text in which the regular expression is found (``re.search``)."""

    pattern: str

    def check(self, actual: Any) -> list[Mismatch]:
        ok = isinstance(actual, str) and re.search(self.pattern, actual) is not None
        return [] if ok else self._fail(actual)

    def describe(self) -> str:
        return f"text matching /{self.pattern}/"


@dataclass(frozen=True)
class Compare(Matcher):
    """A number at least (``>=``) or at most (``<=``) a bound."""

    op: str
    bound: float

    def check(self, actual: Any) -> list[Mismatch]:
        if isinstance(actual, bool) or not isinstance(actual, int | float):
            return self._fail(actual)
        ok = actual >= self.bound if self.op == ">=" else actual <= self.bound
        return [] if ok else self._fail(actual)

    def describe(self) -> str:
        bound = int(self.bound) if float(self.bound).is_integer() else self.bound
        return f"a number {self.op} {bound}"


def lookup(container: Any, key: str) -> Any:
    """One step of a dotted path: a mapping key, or a list index (negative counts from the end).

    Returns MISSING when there is no such key or index.
    """
    if isinstance(container, Mapping):
        if key in container:
            return container[key]
        if re.fullmatch(r"-?\d+", key) and int(key) in container:
            return container[int(key)]
        return MISSING
    if isinstance(container, list | tuple) and re.fullmatch(r"-?\d+", key):
        index = int(key)
        if -len(container) <= index < len(container):
            return container[index]
    return MISSING


def resolve(root: Any, path: str) -> Any:
    """The value at a dotted path such as ``state.talon.0`` (MISSING when it does not exist)."""
    value = root
    for key in path.split("."):
        value = lookup(value, key)
        if value is MISSING:
            return MISSING
    return value


def _scalar(text: str) -> Any:
    """A matcher argument written inline: YAML scalar rules, with quotes giving plain text."""
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    try:
        value = yaml.safe_load(text)
    except yaml.YAMLError:
        return text
    return value if isinstance(value, str | int | float | bool) or value is None else text


def _number(arg: Any, what: str) -> float:
    if isinstance(arg, bool) or not isinstance(arg, int | float):
        raise MatcherError(f"{what} needs a number, not {arg!r}")
    return float(arg)


def _special(name: str, arg: Any, structured: bool) -> Matcher:
    """Build the ``~name`` matcher; ``arg`` is already a Python value."""
    if name in ("contains", "not-contains"):
        return Contains(compile_matcher(arg), arg, negate=name == "not-contains")
    if name == "len":
        if isinstance(arg, bool) or not isinstance(arg, int) or arg < 0:
            raise MatcherError(f"~len needs a whole number, not {arg!r}")
        return Length(arg)
    if name in ("any", "absent"):
        if arg is not None:
            raise MatcherError(f"~{name} takes no argument")
        return Present(name == "any")
    if name == "re":
        if not isinstance(arg, str):
            raise MatcherError(f"~re needs a pattern, not {arg!r}")
        try:
            re.compile(arg)
        except re.error as exc:
            raise MatcherError(f"bad regular expression {arg!r}: {exc}") from None
        return Pattern(arg)
    if name in (">=", "<="):
        return Compare(name, _number(arg, f"~{name}"))
    if name == "exact" and structured:
        return Equal(arg)
    if name == "=":
        return Equal(arg)
    known = "contains, not-contains, len, any, absent, re, >=, <=, ="
    if structured:
        known += ", exact"
    raise MatcherError(f"unknown matcher ~{name}; known: {known}")


_INLINE = re.compile(r"~(not-contains|contains|len|any|absent|re|>=|<=|=|\S+)\s*(.*)", re.S)


def compile_matcher(value: Any) -> Matcher:
    """Compile an expected value written in a script into a Matcher; raises MatcherError."""
    if isinstance(value, str) and value.startswith("~"):
        m = _INLINE.fullmatch(value)
        assert m is not None
        name, rest = m.group(1), m.group(2)
        if name == "=":
            return Equal(rest.lstrip())
        if name == "re":
            return _special("re", rest.strip(), False)
        if name in ("any", "absent") and not rest.strip():
            return _special(name, None, False)
        if not rest.strip() and name not in ("any", "absent"):
            raise MatcherError(f"~{name} needs an argument")
        return _special(name, _scalar(rest), False)
    if isinstance(value, Mapping):
        keys = list(value)
        if len(keys) == 1 and isinstance(keys[0], str) and keys[0].startswith("~"):
            return _special(keys[0][1:], value[keys[0]], True)
        bad = [k for k in keys if isinstance(k, str) and k.startswith("~")]
        if bad:
            raise MatcherError(f"a ~matcher key must be alone in its mapping: {bad[0]}")
        return Partial(tuple((str(k), compile_matcher(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return ListOf(tuple(compile_matcher(v) for v in value))
    return Equal(value)
