"""The organiser console's endpoints (webui/console.html): kits and enrollment in the browser,
board profiles, undo previews, score exports. Every route needs the organiser token.

``console_routes(hub, organiser)`` returns an APIRouter that ``create_app`` includes.
"""

from __future__ import annotations

from collections.abc import Callable

from fastapi import APIRouter, Request

from scorekeeper.service.hub import Hub
from scorekeeper.service.tokens import Identity


def console_routes(hub: Hub, organiser: Callable[[Request], Identity]) -> APIRouter:
    """The console's routes on ``hub``; ``organiser`` checks a request's organiser token."""
    router = APIRouter()
    return router
