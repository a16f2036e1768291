"""Undo and correction previews: what ``POST .../undo`` or ``.../correct`` would change,
computed on a scratch replay of the log (nothing is changed). Organiser only.

- ``GET /api/tables/{id}/undo-preview``
- ``POST /api/tables/{id}/correct-preview`` (the replacement in its one-line form)
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from scorekeeper.api.auth import ORGANISER
from scorekeeper.core.game import Game
from scorekeeper.core.inputs import Correct, Input, Undo, input_from_record, parse_input
from scorekeeper.core.table import FeedEntry, Table
from scorekeeper.service.hub import Hub


class PreviewBody(BaseModel):
    """Body of ``POST /api/tables/{id}/correct-preview``."""

    input: str = Field(max_length=256, description="the replacement, e.g. '+talon H1b1'")


def _scratch(hub: Hub, table_id: str) -> tuple[Table, list[tuple[int, str]]]:
    """A copy of the table rebuilt from its log, and the raw accepted inputs still in force
    (``(seq, one-line text)``, oldest first; an undo takes one back, a correction swaps one)."""
    with hub.locked(table_id):  # no input can be logged meanwhile: the copy is the table now
        live = hub.table(table_id)
        config = hub.config(table_id)
        game = live.game
        records = list(hub.store.records(table_id))
    by_seq = dict(records)
    standing: list[tuple[int, str]] = []

    def listen(_table: Table, entry: FeedEntry) -> None:
        if not entry.accepted:
            return
        record = by_seq.get(entry.seq, {})
        kind = record.get("type")
        if kind in ("undo", "correct") and standing:
            standing.pop()
        if kind == "correct":
            inp = input_from_record(dict(record))
            assert isinstance(inp, Correct)
            standing.append((entry.seq, inp.replacement.to_str()))
        elif kind != "undo":
            standing.append((entry.seq, entry.input))

    table = Table.replay(config, game, records, listeners=[listen])
    table.listeners.clear()
    return table, standing


def _words(game: Game[Any], seats: tuple[str, ...], inp: Any) -> str:
    """An input in plain words for the organiser (who may see every card): card, zone and seat
    names and the answer's words, never input syntax (``Game.describe_input``)."""
    return game.describe_input(inp, seats)


def preview(hub: Hub, table_id: str, inp: Undo | Correct) -> dict[str, Any]:
    """What ``inp`` (an undo or a correction) would do to the table, changing nothing."""
    table, standing = _scratch(hub, table_id)
    game, seats = table.game, table.config.seats
    last = table.referee.last_accepted
    before = game.shown_scores(table.state)  # None while the game keeps its scores to the end
    waiting_before = table.waiting_for()
    inputs = table.inputs_seen
    result = table.submit(inp)  # the copy has no log: nothing is written
    out: dict[str, Any] = {
        "table": table_id,
        "status": hub.status(table_id),
        "action": "undo" if isinstance(inp, Undo) else "correct",
        "accepted": result.accepted,
        "seats": list(seats),
        "input": standing[-1][1] if standing else None,
        "input_seq": standing[-1][0] if standing else None,
        "as_read": last.to_str() if last is not None else None,
        "words": _words(game, seats, last) if last is not None else None,
        "scores_before": before,
        "scores_after": game.shown_scores(table.state),
        "waiting_for_before": waiting_before,
        "waiting_for_after": table.waiting_for(),
        "events": list(result.events),
        "rejection": result.rejection.to_dict() if result.rejection else None,
        "inputs": inputs,
    }
    if isinstance(inp, Correct):
        out["replacement"] = inp.replacement.to_str()
        out["replacement_words"] = _words(game, seats, inp.replacement)
    return out


def _correction(text: str) -> Correct:
    text = text.strip()
    parsed: Input = parse_input(text if text.startswith("correct ") else f"correct {text}")
    assert isinstance(parsed, Correct)
    return parsed


def routes(hub: Hub) -> APIRouter:
    """The preview routes on ``hub``, for the organiser's token only."""
    router = APIRouter(dependencies=[ORGANISER])

    @router.get("/api/tables/{table_id}/undo-preview")
    def undo_preview(table_id: str) -> dict[str, Any]:
        """Organiser: what ``POST .../undo`` would change (nothing is changed)."""
        return preview(hub, table_id, Undo())

    @router.post("/api/tables/{table_id}/correct-preview")
    def correct_preview(table_id: str, body: PreviewBody) -> dict[str, Any]:
        """Organiser: what ``POST .../correct`` with this input would change."""
        return preview(hub, table_id, _correction(body.input))

    return router
