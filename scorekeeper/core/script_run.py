"""Running a loaded table script through a real ``Table`` (no log) and checking its expectations.

Every input step goes through ``Table.submit``, so ``tag`` sightings are mapped through the
layout and kit exactly as at a physical table. The run stops at the first input that goes the
wrong way (refused when it should be accepted, or accepted when a ``reject:`` step says it must
be refused), since every later step would judge a different game; a failed ``expect:`` does
not stop it, so one run reports every checkpoint that differs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from scorekeeper.core.game import PUBLIC
from scorekeeper.core.referee import Result
from scorekeeper.core.script_match import MISSING, Matcher, resolve, show
from scorekeeper.core.script_parse import Script, Step
from scorekeeper.core.table import Table


@dataclass(frozen=True, slots=True)
class Failure:
    """One thing that did not go as the script said.

    ``kind`` is ``rejected`` (an input was refused), ``accepted`` (a ``reject:`` input was
    taken), ``rule``/``reason`` (refused, but not for the expected rule or reason) or
    ``expect`` (a checkpoint value differs; ``path`` says where).
    """

    step: int
    line: int
    kind: str
    message: str
    path: str = ""
    expected: str = ""
    actual: Any = None
    input: str = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "step": self.step,
            "line": self.line,
            "kind": self.kind,
            "message": self.message,
        }
        if self.input:
            out["input"] = self.input
        if self.kind == "expect":
            out.update(
                path=self.path,
                expected=self.expected,
                actual=None if self.actual is MISSING else self.actual,
            )
        return out

    def describe(self, path: str = "") -> str:
        """One line: ``file:line: step N: message``."""
        where = f"{path}:{self.line}" if path else f"line {self.line}"
        return f"{where}: step {self.step}: {self.message}"


@dataclass(frozen=True, slots=True)
class StepTrace:
    """What happened at one step (for ``--verbose``)."""

    step: int
    line: int
    kind: str
    text: str
    accepted: bool | None
    events: tuple[str, ...] = ()
    rejection: dict[str, str] | None = None
    ok: bool = True


@dataclass
class ScriptResult:
    """The outcome of one run: ``ok`` when every step went as written."""

    script: Script
    failures: list[Failure] = field(default_factory=list)
    view: dict[str, Any] = field(default_factory=dict)
    scores: list[int] = field(default_factory=list)
    over: bool = False
    winners: list[int] = field(default_factory=list)
    steps_run: int = 0
    stopped: bool = False
    trace: list[StepTrace] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures

    def to_dict(self) -> dict[str, Any]:
        """The JSON form printed by ``scorekeeper replay --json``."""
        return {
            "file": self.script.path,
            "title": self.script.title,
            "game": self.script.game.id,
            "valid": True,
            "ok": self.ok,
            "steps": len(self.script.steps),
            "steps_run": self.steps_run,
            "failures": [f.to_dict() for f in self.failures],
            "seats": list(self.script.seats),
            "scores": self.scores,
            "over": self.over,
            "winners": [self.script.seats[w] for w in self.winners],
            "view": self.view,
        }


def winners(table: Table) -> list[int]:
    """The winning seat numbers: the game's own ``winners`` in its public state when it gives
    them (seat numbers or names), otherwise, once the game is over, every seat with the top
    score; empty while the game is running."""
    view = table.view(PUBLIC)
    given = view["state"].get("winners") if isinstance(view.get("state"), dict) else None
    seats = list(table.config.seats)
    if isinstance(given, list | tuple):
        out = set()
        for w in given:
            if isinstance(w, int) and not isinstance(w, bool):
                out.add(w)
            elif isinstance(w, str) and w in seats:
                out.add(seats.index(w))
            elif isinstance(w, dict) and isinstance(w.get("seat"), int):
                out.add(int(w["seat"]))
        return sorted(out)
    if not view["over"]:
        return []
    scores = view["scores"] or []
    top = max(scores, default=0)
    return [i for i, s in enumerate(scores) if s == top]


def _describe_rejection(result: Result) -> str:
    r = result.rejection
    if r is None:
        return "refused"
    hint = f" (hint: {r.hint})" if r.hint else ""
    return f"{r.rule}: {r.reason}{hint}"


def _match(matcher: Matcher | None, actual: Any) -> str | None:
    """None when ``matcher`` is absent or matches, else the expected text."""
    if matcher is None or not matcher.check(actual):
        return None
    return matcher.describe()


def _run_input(step: Step, table: Table, result: ScriptResult) -> bool:
    """Submit one input step; returns False when the run must stop."""
    assert step.input is not None
    outcome = table.submit(step.input)
    rej = outcome.rejection
    trace = StepTrace(
        step.index,
        step.line,
        step.kind,
        step.text,
        outcome.accepted,
        outcome.events,
        rej.to_dict() if rej else None,
    )
    failure: Failure | None = None
    if step.kind == "input" and not outcome.accepted:
        failure = Failure(
            step.index,
            step.line,
            "rejected",
            f"{step.text!r} was refused: {_describe_rejection(outcome)}",
            input=step.text,
        )
    elif step.kind == "reject" and outcome.accepted:
        events = "; ".join(outcome.events)
        failure = Failure(
            step.index,
            step.line,
            "accepted",
            f"{step.text!r} was accepted but must be refused"
            + (f" (events: {events})" if events else ""),
            input=step.text,
        )
    elif step.kind == "reject" and rej is not None:
        for kind, matcher, actual in (
            ("rule", step.rule, rej.rule),
            ("reason", step.reason, rej.reason),
        ):
            expected = _match(matcher, actual)
            if expected is not None:
                failure = Failure(
                    step.index,
                    step.line,
                    kind,
                    f"{step.text!r} was refused with {kind} {show(actual)}, "
                    f"expected {expected} ({_describe_rejection(outcome)})",
                    path=kind,
                    expected=expected,
                    actual=actual,
                    input=step.text,
                )
                break
    if failure is not None:
        result.failures.append(failure)
        trace = StepTrace(
            trace.step,
            trace.line,
            trace.kind,
            trace.text,
            trace.accepted,
            trace.events,
            trace.rejection,
            ok=False,
        )
    result.trace.append(trace)
    # A wrong rule or reason still leaves the game where the script expects it: go on.
    return failure is None or failure.kind in ("rule", "reason")


def _run_expect(step: Step, table: Table, result: ScriptResult) -> None:
    view = table.view(step.audience)
    ok = True
    for check in step.checks:
        actual = winners(table) if check.path == "winners" else resolve(view, check.path)
        for miss in check.matcher.check(actual):
            ok = False
            path = f"{check.path}.{miss.where}" if miss.where else check.path
            shown = "<missing>" if miss.actual is MISSING else show(miss.actual)
            aud = "" if step.audience == PUBLIC else f" (view {step.audience})"
            result.failures.append(
                Failure(
                    step.index,
                    check.line,
                    "expect",
                    f"{path}{aud}: expected {miss.expected}, got {shown}",
                    path=path,
                    expected=miss.expected,
                    actual=miss.actual,
                )
            )
    result.trace.append(StepTrace(step.index, step.line, "expect", "expect", None, ok=ok))


def run_script(script: Script) -> ScriptResult:
    """Play every step of ``script`` on a fresh table and check its expectations."""
    table = Table(script.config, script.game, log=None)
    result = ScriptResult(script)
    for step in script.steps:
        result.steps_run += 1
        if step.kind == "note":
            result.trace.append(StepTrace(step.index, step.line, "note", step.text, None))
        elif step.kind == "expect":
            _run_expect(step, table, result)
        elif not _run_input(step, table, result):
            result.stopped = True
            break
    view = table.view(PUBLIC)
    result.view = view
    result.scores = list(view["scores"] or [])  # none while a game keeps them to the end
    result.over = bool(view["over"])
    result.winners = winners(table)
    return result
