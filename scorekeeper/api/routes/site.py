"""The page, the console page and the list of games: what a browser opens first.

- ``GET /``: the dashboard (webui/index.html), or a short fallback page when it is missing.
- ``GET /console``: the organiser console (its API calls need the organiser token).
- ``GET /api/games``: every supported game with its player counts and options.

The page's assets under ``/static`` are mounted by ``create_app`` (a mount is the app's).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

WEBUI = Path(__file__).resolve().parent.parent.parent.parent / "webui"
FALLBACK_PAGE = (
    "<!doctype html><title>scorekeeper</title><p>The web page (webui/index.html) "
    "is not installed; the API is at <a href=/api/tables>/api/tables</a>."
)


def routes() -> APIRouter:
    """The pages and the games list (public: nothing here needs a token)."""
    router = APIRouter()
    page = WEBUI / "index.html"

    @router.get("/", response_class=HTMLResponse, include_in_schema=False)
    def index() -> HTMLResponse:
        try:
            return HTMLResponse(page.read_text(encoding="utf-8"))
        except OSError:
            return HTMLResponse(FALLBACK_PAGE)

    @router.get("/console", response_class=HTMLResponse, include_in_schema=False)
    def console_page() -> HTMLResponse:
        """The organiser console (asks for the organiser token; its API calls need it)."""
        try:
            return HTMLResponse((WEBUI / "console.html").read_text(encoding="utf-8"))
        except OSError:
            return HTMLResponse(FALLBACK_PAGE, status_code=404)

    @router.get("/api/games")
    def list_games() -> list[dict[str, Any]]:
        """Every supported game with its player counts and options, for the console's table
        form: each option's ``name``, ``label``, ``help``, ``default``, ``ask`` (a person
        creating a table must choose it) and ``choices`` (a list of {value, label, help,
        default}, or None for a free value); see ``Option.to_dict``."""
        from scorekeeper.games import games

        return [
            {
                "id": g.id,
                "name": g.name,
                "min_seats": g.min_seats,
                "max_seats": g.max_seats,
                "options": [o.to_dict() for o in g.options],
            }
            for g in games().values()
        ]

    return router
