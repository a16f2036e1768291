"""A table's game for keeping: the JSON export and the score history as CSV.

- ``GET /api/tables/{id}/export``: full for the organiser's token, the public's for anyone
  else.
- ``GET /api/tables/{id}/scores.csv`` (organiser): a row per score change, then the final
  scores.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Response

from scorekeeper.api.auth import ORGANISER, viewer_audience
from scorekeeper.core.game import PUBLIC
from scorekeeper.service.hub import Hub

_CSV_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def _csv_cell(value: Any) -> str:
    """A cell a spreadsheet will not run as a formula (a player named "=1+1")."""
    text = str(value)
    return "'" + text if text.startswith(_CSV_FORMULA) else text


def scores_csv(view: Mapping[str, Any]) -> str:
    """One row per score change (``seq`` and each seat's score), then a ``final`` row."""
    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\r\n")
    out.writerow(["seq", *(_csv_cell(s) for s in view.get("seats", []))])
    for point in view.get("score_history", []):
        out.writerow([point["seq"], *point["scores"]])
    scores = view.get("scores")
    if scores is None:  # a game that keeps its scores to the end, still running
        out.writerow(["final", "scores at the end"])
    else:
        out.writerow(["final", *scores])
    return buf.getvalue()


def routes(hub: Hub) -> APIRouter:
    """The export routes on ``hub``."""
    router = APIRouter()

    @router.get("/api/tables/{table_id}/export")
    def export(table_id: str, audience: Annotated[str, Depends(viewer_audience)]) -> dict[str, Any]:
        """The game as JSON: full for the organiser, without secrets for anyone else."""
        return hub.export(table_id, audience)

    @router.get("/api/tables/{table_id}/scores.csv", dependencies=[ORGANISER])
    def score_csv(table_id: str) -> Response:
        """Organiser: the score history as CSV (a row per change, then the final scores)."""
        text = scores_csv(hub.view(table_id, PUBLIC))
        return Response(
            content=text,
            media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="{table_id}-scores.csv"'},
        )

    return router
