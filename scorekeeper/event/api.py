"""The event hub's web application: its JSON API and its pages (console, projector, standings,
a player's phone, check-in).

``create_event_app(hub)`` serves one ``EventHub``. Every route declares who may use it:

- public: the projector and standings views, the exports, check-in with a player's code (and
  the check-in page's QR code);
- ``seat``: a player's own phone (the token check-in gave them): their view, confirming their
  table's result;
- ``judge``: overrides, corrections (and everything public);
- ``organiser``: everything, including players, rounds, the timer and judges' tokens.

A token is read as the table server reads it: ``Authorization: Bearer``, else ``?token=``.
Handlers are plain ``def`` functions: FastAPI runs them in its thread pool, so database work
never blocks the event loop. ``GET /api/event/changes?since=N`` waits (up to 20 s) until the
event changes, so pages update at once without polling fast.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from scorekeeper.api.assets import AssetFiles
from scorekeeper.api.auth import token_of
from scorekeeper.api.errors import error_body, status_for, validation_words
from scorekeeper.errors import AuthError, NotFound, ScorekeeperError
from scorekeeper.event import exports
from scorekeeper.event.hub_service import EventHub
from scorekeeper.event.hub_views import console_view, player_view, public_view
from scorekeeper.event.pods import SeatingError
from scorekeeper.event.records import EventRecordError
from scorekeeper.service.tokens import Unauthenticated

WEBUI = Path(__file__).resolve().parent.parent.parent / "webui"
PAGES = {
    "/": "console.html",
    "/projector": "projector.html",
    "/standings": "standings.html",
    "/me": "player.html",
    "/check-in": "checkin.html",
}


class Who:
    """The caller: ``scope`` (organiser, judge, seat or public) and ``subject`` (a judge's
    name, a player's id)."""

    def __init__(self, scope: str, subject: str = "") -> None:
        self.scope = scope
        self.subject = subject


def _hub(request: Request) -> EventHub:
    hub: EventHub = request.app.state.event_hub
    return hub


def who(request: Request) -> Who:
    found = _hub(request).db.identify(token_of(request))
    if found is None or found[0] != _hub(request).event_id:
        return Who("public")
    return Who(found[1], found[2])


def _need(*scopes: str) -> Callable[[Request], Who]:
    def check(request: Request) -> Who:
        caller = who(request)
        if caller.scope not in scopes:
            if caller.scope == "public":
                raise Unauthenticated("sign in first: this needs a token from the organiser")
            raise AuthError("your token does not allow this; ask the organiser")
        return caller

    return check


ORGANISER = Depends(_need("organiser"))
JUDGE = Depends(_need("organiser", "judge"))
PLAYER = Depends(_need("seat"))


class NewPlayer(BaseModel):
    name: str = Field(min_length=1, max_length=80)
    check_in: bool = True


class DropBody(BaseModel):
    reason: str = Field(default="", max_length=200)


class TimerBody(BaseModel):
    minutes: int = Field(ge=1, le=600)


class CheckInBody(BaseModel):
    player: str = Field(min_length=1, max_length=16)


class OverrideBody(BaseModel):
    places: list[tuple[str, int, int]]
    reason: str = Field(min_length=1, max_length=300)


class ClearBody(BaseModel):
    reason: str = Field(min_length=1, max_length=300)


class CorrectBody(BaseModel):
    record: dict[str, Any]
    expect_seq: int | None = None
    reason: str = Field(min_length=1, max_length=300)


class JudgeBody(BaseModel):
    name: str = Field(min_length=1, max_length=60)


def create_event_app(hub: EventHub) -> FastAPI:
    """The web application of ``hub`` (started and stopped by the caller)."""
    app = FastAPI(title="scorekeeper event hub", docs_url="/api/docs", redoc_url=None)
    app.state.event_hub = hub

    @app.exception_handler(ScorekeeperError)
    async def scorekeeper_error(_request: Request, exc: ScorekeeperError) -> JSONResponse:
        status = 409 if isinstance(exc, SeatingError | EventRecordError) else status_for(exc)
        return JSONResponse(error_body(exc), status_code=status)

    @app.exception_handler(RequestValidationError)
    async def bad_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        text = validation_words(exc.errors())
        return JSONResponse({"error": text, "kind": "RequestValidationError"}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        text = "no such page or endpoint" if exc.status_code == 404 else str(exc.detail)
        return JSONResponse({"error": text, "kind": "HTTPException"}, status_code=exc.status_code)

    if WEBUI.is_dir():
        app.mount("/static", AssetFiles(directory=WEBUI), name="static")

    for path, page in PAGES.items():
        app.add_api_route(path, _page(page), methods=["GET"], include_in_schema=False)

    # -- public -----------------------------------------------------------------------------

    @app.get("/api/event")
    def event_view() -> dict[str, Any]:
        return public_view(hub)

    @app.get("/api/event/changes")
    async def event_changes(since: int = 0) -> dict[str, int]:
        """Answers once the event's version passes ``since`` (or after 20 s)."""

        def wait() -> int:
            with hub.changed:
                hub.changed.wait_for(lambda: hub.version > since, timeout=20.0)
                return hub.version

        return {"version": await asyncio.to_thread(wait)}

    @app.post("/api/event/check-in")
    def check_in(body: CheckInBody) -> dict[str, Any]:
        """A player checks in with the code on their badge; their phone gets its token."""
        code = body.player.strip().lower()
        state = hub.state()
        if code not in state.players:
            raise NotFound(
                "no player with that code in this event: check your badge or ask at the desk"
            )
        if state.players[code].dropped:
            raise AuthError("you have left this event; ask at the desk to come back")
        hub.check_in(code)
        token = hub.db.new_token(hub.event_id, "seat", code)
        return {"player": code, "name": state.players[code].name, "token": token}

    @app.get("/api/event/check-in.svg")
    def check_in_qr(request: Request) -> Response:
        """The check-in page's address as a QR code, for the projector (drawn here: no
        script or outside service on the screen). The address is the one this request came
        to, so open the projector at the hub's network address for phones to reach it."""
        address = str(request.base_url).rstrip("/") + "/check-in"
        return Response(
            _qr_image(address), media_type="image/svg+xml", headers={"Cache-Control": "no-cache"}
        )

    @app.get("/api/event/standings.json")
    def standings_json() -> dict[str, Any]:
        return exports.standings_json(hub)

    @app.get("/api/event/standings.csv")
    def standings_csv() -> Response:
        return _csv(exports.standings_csv(hub), f"{hub.event_id}-standings.csv")

    @app.get("/api/event/results.json")
    def results_json() -> dict[str, Any]:
        return exports.results_json(hub)

    @app.get("/api/event/results.csv")
    def results_csv() -> Response:
        return _csv(exports.results_csv(hub), f"{hub.event_id}-results.csv")

    @app.get("/api/event/games/{game_id}/bgstats.json")
    def bgstats(game_id: str) -> JSONResponse:
        return JSONResponse(
            exports.bgstats_play(hub, game_id),
            headers={"Content-Disposition": f'attachment; filename="{game_id}.bgsplay.json"'},
        )

    # -- a player's phone ---------------------------------------------------------------------

    @app.get("/api/event/me")
    def me(caller: Who = PLAYER) -> dict[str, Any]:
        return player_view(hub, caller.subject)

    @app.post("/api/event/games/{game_id}/confirm")
    def confirm(game_id: str, caller: Who = PLAYER) -> dict[str, Any]:
        hub.confirm(game_id, caller.subject)
        return player_view(hub, caller.subject)

    # -- judges -------------------------------------------------------------------------------

    @app.get("/api/event/console")
    def console(caller: Who = JUDGE) -> dict[str, Any]:
        """The console's view; ``you`` says whose token it is (a judge's console shows no
        organiser-only controls)."""
        return {**console_view(hub), "you": {"scope": caller.scope, "name": caller.subject}}

    @app.post("/api/event/games/{game_id}/override")
    def override(game_id: str, body: OverrideBody, caller: Who = JUDGE) -> dict[str, Any]:
        hub.override(game_id, body.places, body.reason, _judge_name(caller))
        return console_view(hub)

    @app.post("/api/event/games/{game_id}/override/clear")
    def clear(game_id: str, body: ClearBody, caller: Who = JUDGE) -> dict[str, Any]:
        hub.clear_override(game_id, body.reason, _judge_name(caller))
        return console_view(hub)

    @app.post("/api/event/games/{game_id}/correct")
    def correct(game_id: str, body: CorrectBody, caller: Who = JUDGE) -> dict[str, Any]:
        command = hub.correct(
            game_id,
            body.record,
            expect_seq=body.expect_seq,
            by=_judge_name(caller),
            reason=body.reason,
        )
        return {"command": command}

    # -- the organiser ------------------------------------------------------------------------

    @app.post("/api/event/players", dependencies=[ORGANISER])
    def add_player(body: NewPlayer) -> dict[str, Any]:
        player = hub.register(body.name, check_in=body.check_in)
        return {"player": player, "name": hub.state().name(player)}

    @app.get("/api/players", dependencies=[ORGANISER])
    def players(search: str = "") -> list[dict[str, Any]]:
        return hub.db.players(search)

    @app.post("/api/event/players/{player}/enter", dependencies=[ORGANISER])
    def enter(player: str) -> dict[str, Any]:
        hub.enter(player)
        return console_view(hub)

    @app.post("/api/event/players/{player}/check-in", dependencies=[ORGANISER])
    def desk_check_in(player: str) -> dict[str, Any]:
        hub.check_in(player)
        return console_view(hub)

    @app.post("/api/event/players/{player}/drop", dependencies=[ORGANISER])
    def drop(player: str, body: DropBody) -> dict[str, Any]:
        hub.drop(player, body.reason)
        return console_view(hub)

    @app.post("/api/event/players/{player}/forget-phones", dependencies=[ORGANISER])
    def forget_phones(player: str) -> dict[str, Any]:
        """A lost or lent phone: every phone the player checked in with is signed out (they
        check in again with their code)."""
        if player not in hub.state().players:
            raise NotFound("no player with that code in this event")
        return {"player": player, "signed_out": hub.db.revoke(hub.event_id, "seat", player)}

    @app.post("/api/event/players/{player}/return", dependencies=[ORGANISER])
    def come_back(player: str) -> dict[str, Any]:
        hub.come_back(player)
        return console_view(hub)

    @app.post("/api/event/rounds", dependencies=[ORGANISER])
    def seat_next() -> dict[str, Any]:
        hub.seat_next()
        return console_view(hub)

    @app.post("/api/event/rounds/reseat", dependencies=[ORGANISER])
    def reseat() -> dict[str, Any]:
        hub.reseat()
        return console_view(hub)

    @app.post("/api/event/rounds/close", dependencies=[ORGANISER])
    def close_round() -> dict[str, Any]:
        hub.close_round()
        return console_view(hub)

    @app.post("/api/event/timer", dependencies=[ORGANISER])
    def start_timer(body: TimerBody) -> dict[str, Any]:
        hub.start_timer(body.minutes)
        return console_view(hub)

    @app.post("/api/event/timer/stop", dependencies=[ORGANISER])
    def stop_timer() -> dict[str, Any]:
        hub.stop_timer()
        return console_view(hub)

    @app.post("/api/event/judges", dependencies=[ORGANISER])
    def new_judge(body: JudgeBody) -> dict[str, str]:
        token = hub.db.new_token(hub.event_id, "judge", body.name.strip())
        return {"name": body.name.strip(), "token": token}

    return app


def _judge_name(caller: Who) -> str:
    return caller.subject or ("the organiser" if caller.scope == "organiser" else "a judge")


def _page(name: str) -> Callable[[], HTMLResponse]:
    def page() -> HTMLResponse:
        path = WEBUI / "event" / name
        if not path.is_file():
            raise NotFound(f"the page {name} is missing from this installation")
        return HTMLResponse(path.read_text(encoding="utf-8"))

    return page


def _qr_image(text: str) -> bytes:
    """``text`` as a QR code in an SVG file (with its namespace and a viewBox, so that an
    ``<img>`` shows it at any size)."""
    import io

    import segno

    out = io.BytesIO()
    segno.make(text, error="m").save(
        out, kind="svg", scale=6, border=2, dark="#000", light="#fff", omitsize=True
    )
    return out.getvalue()


def _csv(text: str, filename: str) -> Response:
    return Response(
        text,
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )
