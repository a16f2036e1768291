"""Exports of a stored game: configuration, every input with its verdict, final view and scores.

Whether each input was accepted is not stored: it is recomputed by replaying the log through a
fresh ``Table`` and listening to its feed, so an export always agrees with the rules as they are.

Secrets (DESIGN.md invariant 5): while a game is not ``ended``, the default export is built from
the PUBLIC view only; raw input records (which can name a hidden card) are replaced by their
public feed text, and the kit (which would let anyone with a phone read the backs of cards) is
reduced to a count. ``audience="organiser"`` gives the full export at any time.
"""

from __future__ import annotations

from typing import Any

from scorekeeper.core.game import ORGANISER, PUBLIC, Game
from scorekeeper.core.inputs import input_from_record
from scorekeeper.core.table import FeedEntry, Table
from scorekeeper.store.store import Store

EXPORT_FORMAT = "scorekeeper-export"
EXPORT_VERSION = 1


class _ReplayLog:
    """A LogSink that writes nothing and hands back the stored seq of the record being replayed."""

    def __init__(self) -> None:
        self.seq = 0

    def append(self, record: dict[str, Any]) -> int:
        return self.seq


def export_game(store: Store, table_id: str, audience: str | None = None,
                game: Game | None = None) -> dict[str, Any]:
    """A JSON-able export of table ``table_id``.

    ``audience`` None means: the full export once the table has ended, the public one before.
    ``"public"`` always gives the public export, ``"organiser"`` always the full one; anything
    else is a ValueError. ``game`` defaults to the registered game named in the table's
    configuration.
    """
    if audience not in (None, PUBLIC, ORGANISER):
        raise ValueError(f"an export is for 'public' or 'organiser', not {audience!r}")
    config = store.config(table_id)
    status = store.status(table_id)
    if game is None:
        from scorekeeper.games import find_game

        game = find_game(config.game)
    full = audience == ORGANISER or (audience is None and status == "ended")
    view_audience = ORGANISER if full else PUBLIC

    sink = _ReplayLog()
    table = Table(config, game, log=sink)
    entries: list[FeedEntry] = []
    table.listeners.append(lambda _table, entry: entries.append(entry))
    raw: dict[int, dict[str, Any]] = {}
    for seq, record in store.records(table_id):
        sink.seq = seq
        if full:
            raw[seq] = record
        table.submit(input_from_record(record))

    inputs: list[dict[str, Any]] = []
    for entry in entries:
        item = entry.to_dict(view_audience)
        if full:
            item["record"] = raw[entry.seq]
        inputs.append(item)
    config_out = config.to_dict()
    if not full:
        config_out["kit"] = {"tags": len(config.kit)}
    state = table.state
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "table": table_id,
        "audience": view_audience,
        "status": status,
        "config": config_out,
        "inputs": inputs,
        "view": table.view(view_audience),
        "over": game.is_over(state),
        "scores": list(game.scores(state)),
    }
