"""``GET /api/boards``: the board profiles as the table command lists them, until it reads the
generic data routes (``api/data_routes.py``, ``GET /api/data/{game}/{kind}``) instead.

Hazard: this module is temporary; it only reads, through scorekeeper/core/data.py, the kind of
data whose command-line alias is ``board``. Build nothing new on it.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from scorekeeper.core import data
from scorekeeper.service.hub import Hub

ALIAS = "board"


def board_entries(store: Any) -> list[dict[str, Any]]:
    """Every board profile, samples then stored: each whole (``profile``), with ``complete``,
    ``problems`` and ``stored``."""
    out: list[dict[str, Any]] = []
    for kind in data.all_kinds():
        if kind.cli_alias != ALIAS:
            continue
        for entry in data.entries(kind, store):
            summary = entry.summary()
            summary.pop("description")
            out.append({**summary, "profile": entry.data})
    return out


def routes(hub: Hub) -> APIRouter:
    """The board list, for anyone (the data routes have the rest)."""
    router = APIRouter()

    @router.get("/api/boards")
    def list_boards() -> list[dict[str, Any]]:
        """The board profiles, samples and stored (``PUT /api/data/{game}/{kind}/{name}``):
        each whole, with ``complete``, what is missing (only a complete profile can start a
        table) and ``stored``. Kept for ``scorekeeper table``; use ``/api/data``."""
        return board_entries(hub.store)

    return router
