"""Exports of a stored game: configuration, every input with its verdict, final view and scores.

Whether each input was accepted is not stored: it is recomputed by replaying the log through a
fresh ``Table`` and listening to its feed, so an export always agrees with the rules as they are.
(Only an input the table refused because it was not running carries its refusal in its record.)

Secrets (docs/design.md, invariant 5): while a game is not ``ended``, the default export is
built from the PUBLIC view only; raw input records (which can name a hidden card) are replaced
by their public feed text, and the kit (which would let anyone with a phone read the backs of
cards) is reduced to a count. ``audience="organiser"`` gives the full export at any time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorekeeper.core.game import ORGANISER, PUBLIC, Game
from scorekeeper.core.table import FeedEntry, Table, TableConfig
from scorekeeper.store.store import Store

EXPORT_FORMAT = "scorekeeper-export"
EXPORT_VERSION = 1


@dataclass(frozen=True)
class StoredGame:
    """What an export is built from, read from the store in one go: no replay needed."""

    table_id: str
    config: TableConfig
    status: str
    records: list[tuple[int, dict[str, Any]]]


def check_audience(audience: str | None) -> None:
    """ValueError unless ``audience`` is None, ``"public"`` or ``"organiser"``."""
    if audience not in (None, PUBLIC, ORGANISER):
        raise ValueError(f"an export is for 'public' or 'organiser', not {audience!r}")


def read_game(store: Store, table_id: str) -> StoredGame:
    """Read a table's configuration, status and whole log into memory (no replay).

    Callers that serialise store access (the hub's store lock) hold their lock around this
    only, and build the export from the result with ``build_export`` after releasing it.
    """
    config = store.config(table_id)
    status = store.status(table_id)
    return StoredGame(table_id, config, status, list(store.records(table_id)))


def export_game(
    store: Store, table_id: str, audience: str | None = None, game: Game[Any] | None = None
) -> dict[str, Any]:
    """A JSON-able export of table ``table_id``.

    ``audience`` None means: the full export once the table has ended, the public one before.
    ``"public"`` always gives the public export, ``"organiser"`` always the full one; anything
    else is a ValueError. ``game`` defaults to the registered game named in the table's
    configuration.
    """
    check_audience(audience)
    return build_export(read_game(store, table_id), audience=audience, game=game)


def build_export(
    stored: StoredGame, audience: str | None = None, game: Game[Any] | None = None
) -> dict[str, Any]:
    """The export of ``stored`` (see ``export_game``): replays its records, touches no store."""
    check_audience(audience)
    config, status = stored.config, stored.status
    if game is None:
        from scorekeeper.games import find_game

        game = find_game(config.game)
    full = audience == ORGANISER or (audience is None and status == "ended")
    view_audience = ORGANISER if full else PUBLIC

    entries: list[FeedEntry] = []
    table = Table.replay(
        config, game, stored.records, listeners=[lambda _table, entry: entries.append(entry)]
    )
    raw = dict(stored.records) if full else {}

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
        "table": stored.table_id,
        "audience": view_audience,
        "status": status,
        "config": config_out,
        "inputs": inputs,
        "view": table.view(view_audience),
        "over": game.is_over(state),
        "scores": game.shown_scores(state),  # None while a game keeps them to the end
    }
