"""The FastAPI application: the HTTP API, the WebSocket push and the plain web page.

``create_app(hub)`` puts a web face on a ``Hub``; ``create_app(Settings(db=...))`` opens its own
hub on that database and closes it at shutdown. Handlers are plain ``def`` functions on purpose:
FastAPI runs them in its thread pool, so a log append (an fsync) never blocks the event loop
that pushes views to WebSocket clients.

The routes live in routers by area (``api/routes/``: the site, health, tables, play, pairing,
exports, previews, enrollment and, until the data-kind routes replace them, the board
profiles), each route declaring its audience (``api/auth.py``); ``create_app`` builds the app,
its error handlers and middleware, the static mount, and includes the routers.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from scorekeeper.api.assets import AssetFiles
from scorekeeper.api.auth import check_before_body
from scorekeeper.api.data_routes import data_routes
from scorekeeper.api.errors import error_body, status_for, validation_words
from scorekeeper.api.limits import RequestLimits
from scorekeeper.api.routes import (
    enrollment,
    exports,
    health,
    pairing,
    play,
    previews,
    site,
    tables,
)
from scorekeeper.api.rules import rules_routes
from scorekeeper.api.ws import table_socket
from scorekeeper.errors import ScorekeeperError
from scorekeeper.service.enrolling import EnrollSessions
from scorekeeper.service.hub import Hub
from scorekeeper.service.tokens import TooManyTries

log = logging.getLogger("scorekeeper.api")


@dataclass(frozen=True)
class Settings:
    """What ``create_app`` needs to open its own hub: the database and default readers."""

    db: str = "var/scorekeeper.db"
    readers: str | None = None


def create_app(
    hub_or_settings: Hub | Settings, on_shutdown: Sequence[Callable[[], None]] = ()
) -> FastAPI:
    """The web application for ``hub`` (or for a hub it opens from ``Settings``)."""
    owns = not isinstance(hub_or_settings, Hub)
    if isinstance(hub_or_settings, Hub):
        hub = hub_or_settings
    else:
        hub = Hub.open(hub_or_settings.db, default_readers=hub_or_settings.readers)
        hub.tokens.ensure_organiser_token(hub.token_file)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub.bind_loop(asyncio.get_running_loop())
        await asyncio.to_thread(hub.start_readers)
        watch = asyncio.create_task(_watch_readers(hub))
        try:
            yield
        finally:
            watch.cancel()
            for stop in on_shutdown:
                stop()
            if owns:
                await asyncio.to_thread(hub.close)

    app = FastAPI(
        title="scorekeeper",
        lifespan=lifespan,
        docs_url="/api/docs",
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )
    app.state.hub = hub

    @app.exception_handler(ScorekeeperError)
    async def scorekeeper_error(_request: Request, exc: ScorekeeperError) -> JSONResponse:
        return JSONResponse(error_body(exc), status_code=status_for(exc))

    @app.exception_handler(TooManyTries)
    async def too_many_tries(_request: Request, exc: TooManyTries) -> JSONResponse:
        return JSONResponse(
            error_body(exc) | {"retry_after": exc.retry_after, "everyone": exc.everyone},
            status_code=429,
            headers={"Retry-After": str(exc.retry_after)},
        )

    @app.exception_handler(RequestValidationError)
    async def bad_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        text = validation_words(exc.errors())
        return JSONResponse({"error": text, "kind": "RequestValidationError"}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        text = (
            "no such page or endpoint; see /api/docs"
            if exc.status_code == 404
            else (str(exc.detail))
        )
        return JSONResponse({"error": text, "kind": "HTTPException"}, status_code=exc.status_code)

    # Outermost of the application's own layers: credentials and body sizes are checked before
    # FastAPI reads (and parses) a byte of a body; each route's dependency checks again.
    app.add_middleware(RequestLimits, check=check_before_body(hub))

    if site.WEBUI.is_dir():
        # The page's scripts, styles and game views: every asset is local (no CDN at a table).
        # AssetFiles: only the assets (webui/ is also a package: no .py, no dotfiles).
        app.mount("/static", AssetFiles(directory=site.WEBUI), name="static")

    app.state.console_enrollments = EnrollSessions(hub.store)
    for router in (
        site.routes(),
        health.routes(hub),
        data_routes(hub),
        tables.routes(hub),
        exports.routes(hub),
        play.routes(hub),
        pairing.routes(hub),
        enrollment.routes(hub, app.state.console_enrollments),
        previews.routes(hub),
        rules_routes(),  # the players' rules reference, /rules/<game>
    ):
        app.include_router(router)
    app.add_api_websocket_route("/ws/tables/{table_id}", table_socket)
    return app


async def _watch_readers(hub: Hub, every: float = 2.0) -> None:
    """Check the readers' health now and then; a change becomes a notice at the table."""
    while True:
        await asyncio.sleep(every)
        try:
            await asyncio.to_thread(hub.check_readers)
        except Exception:  # noqa: BLE001 - the watcher must outlive any backend bug
            log.exception("reader health check failed")
