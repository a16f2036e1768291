"""The API's routes live in routers by area (``scorekeeper/api/routes/``), not in create_app.

``create_app`` builds the application, its error handlers and middleware, and includes the
routers; a route defined inside it (or anywhere but a router module) fails here, naming the
route and where it was defined.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fastapi.routing import APIRoute, APIWebSocketRoute

from scorekeeper.api import create_app
from scorekeeper.service import Hub
from tests.api.games import find_test_game

#: Where the application's own routes may be defined: a router module, the games' data routes
#: (every data kind's), the rules reference's router and the WebSocket's handler.
HOMES = (
    "scorekeeper.api.routes.",
    "scorekeeper.api.data_routes",
    "scorekeeper.api.rules",
    "scorekeeper.api.ws",
)


def _endpoints(routes: Any) -> Iterator[tuple[str, str, Any]]:
    """(method or "WS", path, endpoint) of every route, included routers followed."""
    for route in routes:
        if hasattr(route, "original_router"):  # an included router (FastAPI >= 0.165)
            yield from _endpoints(route.original_router.routes)
        elif isinstance(route, APIWebSocketRoute):
            yield "WS", route.path, route.endpoint
        elif isinstance(route, APIRoute):
            for method in sorted(route.methods):
                yield method, route.path, route.endpoint


def test_every_route_is_defined_in_a_router_module(tmp_path: Path) -> None:
    hub = Hub.open(tmp_path / "routers.db", find_game=find_test_game)
    try:
        found = list(_endpoints(create_app(hub).routes))
    finally:
        hub.close()
    # The API's own: FastAPI's docs routes are plain starlette Routes and not counted.
    assert len(found) >= 30, found
    misplaced = [
        f"{method} {path} ({endpoint.__module__}.{endpoint.__qualname__})"
        for method, path, endpoint in found
        if not endpoint.__module__.startswith(HOMES)
    ]
    assert not misplaced, f"routes defined outside a router module: {misplaced}"
    areas = {endpoint.__module__ for _, _, endpoint in found}
    assert "scorekeeper.api.app" not in areas
    assert len(areas) >= 9, areas  # site, health, boards, tables, exports, play, pairing, ...
