"""Plain words and values the hub hands out (moved out of ``hub``): table statuses, why an
input for a table that is not running is refused and what to do then, reader health as JSON
values and the notices of readers going offline or coming back."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scorekeeper.core.game import Game
from scorekeeper.core.inputs import Decision, GameInput, Input
from scorekeeper.core.outcomes import Rejected
from scorekeeper.core.table import RULE_NOT_RUNNING

CREATED, RUNNING, PAUSED, ENDED = "created", "running", "paused", "ended"
STATUSES = (CREATED, RUNNING, PAUSED, ENDED)

NOT_RUNNING = {
    CREATED: "has not been started yet: the organiser starts it",
    PAUSED: "is paused: the organiser resumes it with start",
    ENDED: "has ended: only undo and corrections are taken",
}
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
    reason, who = {
        CREATED: ("the table has not been started yet", "the organiser starts it"),
        PAUSED: ("the table is paused", "the organiser resumes it"),
        ENDED: ("the game has ended", ""),
    }.get(status, (f"the table is {status!r}, not running", "the organiser starts it"))
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


def online_changes(
    online: dict[str, bool], health: Mapping[str, Any]
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
            text = (
                f"reader {reader} is back"
                if now
                else f"reader {reader} is offline{': ' + detail if detail else ''}; "
                "what it holds is kept, nothing is lost"
            )
            out.append((reader, now, text, "TABLE-READER-BACK" if now else "TABLE-READER-OFFLINE"))
    return out


def input_words(game: Game[Any], names: Sequence[str], inp: GameInput) -> str:
    """An accepted input in plain words for the organiser (who may see every card): "the 6 of
    Demons laid on Bot 4's discard pile", "Bot 2's answer 'pass' to end turn"."""
    from scorekeeper.core.putback import piece_words, zone_words

    if isinstance(inp, Decision):
        who = (
            "the organiser"
            if inp.seat is None
            else names[inp.seat]
            if 0 <= inp.seat < len(names)
            else f"seat {inp.seat}"
        )
        return f"{who}'s answer '{inp.answer}' to {inp.prompt.replace('_', ' ')}"
    where = "laid on" if inp.present else "lifted off"
    return f"{piece_words(game, inp.piece)} {where} {zone_words(game, inp.zone, names)}"


def moved_on(action: str, words_now: str, seq_shown: int) -> str:
    """Why an undo or a correction pinned to input #``seq_shown`` is refused."""
    verb = "undo now would take back" if action == "undo" else "a correction now would replace"
    return (
        f"The table has moved on since the preview: {verb} {words_now}, not "
        f"#{seq_shown}. Nothing was changed. Look again and confirm."
    )


PREVIEW_FIRST = (
    "say which input to take back: preview first (GET .../undo-preview or POST "
    '.../correct-preview) and send the input_seq it shows as "seq", so that '
    "nothing else is taken back if the table moves on meanwhile"
)
