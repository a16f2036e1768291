"""Plain words and values the hub hands out (moved out of ``hub``): table statuses, why an
input for a table that is not running is refused and what to do then, reader health as JSON
values and the notices of readers going offline or coming back."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.core.inputs import Decision, Input
from scorekeeper.core.outcomes import Rejected
from scorekeeper.core.table import RULE_NOT_RUNNING

CREATED, RUNNING, PAUSED, ENDED = "created", "running", "paused", "ended"
STATUSES = (CREATED, RUNNING, PAUSED, ENDED)

NOT_RUNNING = {CREATED: "has not been started yet: the organiser starts it",
               PAUSED: "is paused: the organiser resumes it with start",
               ENDED: "has ended: only undo and corrections are taken"}
ODD_STATUS = "is not running"


def again(status: str, inp: Input) -> str:
    """What to do with ``inp`` refused because the table is ``status``, once it runs again."""
    decision = isinstance(inp, Decision)
    if status == ENDED:
        new_table = "the organiser can create a new table to play again"
        return new_table if decision else f"take that card back; {new_table}"
    return "then answer again" if decision else "then lift that card and put it back"


def not_running(status: str, inp: Input) -> Rejected:
    """The table-level refusal of ``inp`` while the table is ``status`` (not running)."""
    reason, who = {CREATED: ("the table has not been started yet", "the organiser starts it"),
                   PAUSED: ("the table is paused", "the organiser resumes it"),
                   ENDED: ("the game has ended", "")}.get(
        status, (f"the table is {status!r}, not running", "the organiser starts it"))
    then = again(status, inp)
    return Rejected(RULE_NOT_RUNNING, reason, f"{who}; {then}" if who else then)


def plain(value: Any) -> Any:
    """A health record as JSON-able values (dataclass, mapping, or anything with a str)."""
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    fields = getattr(value, "__dataclass_fields__", None)
    if fields is not None:
        return {name: plain(getattr(value, name)) for name in fields}
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return str(value)


def backend_health(backend: Any) -> dict[str, Any]:
    """Each reader's health as plain values (empty without a backend; ``{"error": text}``
    when the backend cannot tell)."""
    if backend is None:
        return {}
    try:
        health = backend.health()
    except Exception as exc:  # noqa: BLE001 - a broken backend is reported, not raised
        return {"error": str(exc)}
    return {str(k): plain(v) for k, v in health.items()}


def online_changes(online: dict[str, bool], health: Mapping[str, Any]
                   ) -> list[tuple[str, bool, str, str]]:
    """Readers that went offline or came back since ``online`` (reader -> online, updated in
    place), each as (reader, online, notice text, notice rule)."""
    if "error" in health and not isinstance(health["error"], dict):
        return []
    out = []
    for reader, info in health.items():
        now = bool(info.get("online", True)) if isinstance(info, dict) else True
        was = online.get(reader, True)
        online[reader] = now
        if now != was:
            detail = info.get("detail", "") if isinstance(info, dict) else ""
            text = (f"reader {reader} is back" if now else
                    f"reader {reader} is offline{': ' + detail if detail else ''}; "
                    "what it holds is kept, nothing is lost")
            out.append((reader, now, text,
                        "TABLE-READER-BACK" if now else "TABLE-READER-OFFLINE"))
    return out
