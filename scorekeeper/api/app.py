"""The FastAPI application: the HTTP API, the WebSocket push and the plain web page.

``create_app(hub)`` puts a web face on a ``Hub``; ``create_app(Settings(db=...))`` opens its own
hub on that database and closes it at shutdown. Handlers are plain ``def`` functions on purpose:
FastAPI runs them in its thread pool, so a log append (an fsync) never blocks the event loop
that pushes views to WebSocket clients.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from scorekeeper.api.assets import AssetFiles
from scorekeeper.api.auth import ORGANISER as ORGANISER_ONLY
from scorekeeper.api.auth import (
    answering_seat,
    check_before_body,
    seat_of_table,
    sees_live,
    viewer_audience,
)
from scorekeeper.api.errors import error_body, status_for
from scorekeeper.api.limits import RequestLimits
from scorekeeper.api.ws import table_socket
from scorekeeper.core.game import ORGANISER, PUBLIC
from scorekeeper.core.inputs import Correct, Decision, Undo, parse_input
from scorekeeper.errors import ScorekeeperError
from scorekeeper.service.delay import MAX_SECONDS as MAX_DELAY
from scorekeeper.service.delay import shown_number
from scorekeeper.service.hub import Hub, Submitted
from scorekeeper.service.tokens import Identity, TooManyTries

log = logging.getLogger("scorekeeper.api")

WEBUI = Path(__file__).resolve().parent.parent.parent / "webui"
FALLBACK_PAGE = (
    "<!doctype html><title>scorekeeper</title><p>The web page (webui/index.html) "
    "is not installed; the API is at <a href=/api/tables>/api/tables</a>."
)


@dataclass(frozen=True)
class Settings:
    """What ``create_app`` needs to open its own hub: the database and default readers."""

    db: str = "var/scorekeeper.db"
    readers: str | None = None


class CreateTable(BaseModel):
    """Body of ``POST /api/tables``."""

    game: str
    seats: int | list[str] = Field(description="player count, or the players' names")
    options: dict[str, Any] = Field(default_factory=dict)
    layout: dict[str, str] | None = Field(default=None, description="reader id -> zone")
    kit: str | dict[str, str] | None = Field(default=None, description="kit name or uid->piece")
    name: str = ""
    readers: str | None = Field(default=None, description="sim, serial:/dev/..., spi:0.0")
    start: bool = False


class DecisionBody(BaseModel):
    """Body of ``POST /api/tables/{id}/decisions``: an answer to a pending prompt."""

    # Bounded: a refusal echoes them into the public feed and the log.
    prompt: str = Field(max_length=64)
    answer: str = Field(max_length=64)
    seat: int | None = Field(default=None, description="organiser only: answer for this seat")


class InputBody(BaseModel):
    """Body of ``/inputs`` and ``/correct``: one input in its one-line form."""

    input: str = Field(
        max_length=256, description="e.g. '+talon H1b1', 'tag +talon 04A1B2C3D4E5F6'"
    )


class UndoBody(BaseModel):
    """Body of ``POST /api/tables/{id}/undo``: the input its preview showed."""

    seq: int | None = Field(default=None, description="the preview's input_seq")


class CorrectBody(InputBody):
    """Body of ``POST /api/tables/{id}/correct``: the replacement and what its preview showed."""

    seq: int | None = Field(default=None, description="the preview's input_seq")


def _pinned(seq: int | None) -> int:
    """The seq an undo or a correction names; ConfigError (422) in plain words when missing."""
    if seq is None:
        from scorekeeper.errors import ConfigError
        from scorekeeper.service.texts import PREVIEW_FIRST

        raise ConfigError(PREVIEW_FIRST)
    return seq


class ArchiveBody(BaseModel):
    """Body of ``POST /api/tables/{id}/archive``."""

    archived: bool = Field(default=True, description="true: archive; false: list it again")


class DelayBody(BaseModel):
    """Body of ``POST /api/tables/{id}/spectator-delay``."""

    seconds: float = Field(ge=0, le=MAX_DELAY, description="how far behind spectators are; 0: off")


class PairBody(BaseModel):
    """Body of ``POST /api/pair``."""

    code: str = Field(max_length=32)


def _json(payload: str) -> Response:
    return Response(content=payload, media_type="application/json")


def _verdict(done: Submitted) -> JSONResponse:
    """A submitted input's answer: 200 either way; ``accepted`` says whether it counted."""
    return JSONResponse(done.to_dict())


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
    page = WEBUI / "index.html"

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
        parts = []
        for err in exc.errors():
            where = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
            parts.append(f"{where}: {err.get('msg', 'invalid')}" if where else err.get("msg"))
        text = "the request is not valid: " + "; ".join(str(p) for p in parts)
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

    # -- page and health -----------------------------------------------------------------------

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def index() -> HTMLResponse:
        try:
            return HTMLResponse(page.read_text(encoding="utf-8"))
        except OSError:
            return HTMLResponse(FALLBACK_PAGE)

    @app.get("/console", response_class=HTMLResponse, include_in_schema=False)
    def console_page() -> HTMLResponse:
        """The organiser console (asks for the organiser token; its API calls need it)."""
        try:
            return HTMLResponse((WEBUI / "console.html").read_text(encoding="utf-8"))
        except OSError:
            return HTMLResponse(FALLBACK_PAGE, status_code=404)

    if WEBUI.is_dir():
        # The page's scripts, styles and game views: every asset is local (no CDN at a table).
        # AssetFiles: only the assets (webui/ is also a package: no .py, no dotfiles).
        app.mount("/static", AssetFiles(directory=WEBUI), name="static")

    @app.get("/healthz")
    def healthz() -> dict[str, Any]:
        """Liveness: the server answers and knows its tables."""
        return {"ok": True, "tables": len(hub.table_ids())}

    @app.get("/api/backup", dependencies=[ORGANISER_ONLY])
    def backup_status() -> dict[str, Any]:
        """The periodic backup's latest round (``serve --backup-to``), for the console."""
        backups = getattr(hub, "backups", None)  # set by serve when --backup-to is given
        if backups is None:
            return {
                "configured": False,
                "ok": True,
                "words": "No periodic backup (serve --backup-to FOLDER; docs/backup.md)",
            }
        return {"configured": True, **backups.status()}

    # -- games ---------------------------------------------------------------------------------

    @app.get("/api/games")
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

    @app.get("/api/boards")
    def list_boards() -> list[dict[str, Any]]:
        """The Arcanum board profiles, shipped and stored (``PUT /api/boards/{name}``): each
        whole, with ``complete``, what is missing (only a complete profile can start a table)
        and ``stored``."""
        from scorekeeper.api.console import board_entries

        return board_entries(hub.store)

    # -- tables --------------------------------------------------------------------------------

    @app.get("/api/tables")
    def list_tables(
        live: Annotated[bool, Depends(sees_live)], archived: bool = False
    ) -> list[dict[str, Any]]:
        """Every table: id, name, game, status, archived, seats, scores (public facts only; as
        spectators see them, except for the organiser's token: see the spectator delay).
        Archived tables only with ``?archived=1``."""
        return hub.summaries(delayed=not live, archived=archived)

    @app.post("/api/tables", status_code=201, dependencies=[ORGANISER_ONLY])
    def create_table(body: CreateTable) -> dict[str, Any]:
        """Organiser: create a table; with ``start`` it starts at once."""
        from scorekeeper.api.console import from_http  # no server path comes over HTTP

        options, readers = from_http(hub.store, body.options, body.readers)
        table_id = hub.create_table(
            body.game,
            body.seats,
            options=options,
            layout=body.layout,
            kit=body.kit,
            name=body.name,
            readers=readers,
        )
        if body.start:
            hub.start(table_id)
        return hub.summary(table_id, delayed=False)

    @app.get("/api/tables/{table_id}")
    def public_view(table_id: str) -> Response:
        """What the TV shows: counts, never hidden identities."""
        return _json(hub.view_json(table_id, PUBLIC))

    @app.get("/api/tables/{table_id}/seat/{seat}", dependencies=[Depends(seat_of_table)])
    def seat_view(table_id: str, seat: int) -> Response:
        """One seat's view (its own secrets), for that seat's token or the organiser."""
        if not 0 <= seat < len(hub.config(table_id).seats):
            raise _no_seat(table_id, seat, hub)
        return _json(hub.view_json(table_id, seat))

    @app.get("/api/tables/{table_id}/organiser", dependencies=[ORGANISER_ONLY])
    def organiser_view(table_id: str) -> Response:
        """Everything, for the organiser; includes reader health."""
        view = hub.view(table_id, ORGANISER)
        view["readers"] = hub.reader_health(table_id)
        view["watchers"] = hub.watchers(table_id)
        view["spectator_delay"] = shown_number(hub.spectator_delay(table_id))
        return JSONResponse(view)

    @app.get("/api/tables/{table_id}/export")
    def export(table_id: str, audience: Annotated[str, Depends(viewer_audience)]) -> dict[str, Any]:
        """The game as JSON: full for the organiser, without secrets for anyone else."""
        return hub.export(table_id, audience)

    def _status_change(action: Callable[[str], str], table_id: str) -> dict[str, Any]:
        action(table_id)
        return hub.summary(table_id, delayed=False)

    @app.post("/api/tables/{table_id}/start", dependencies=[ORGANISER_ONLY])
    def start(table_id: str) -> dict[str, Any]:
        """Organiser: start or resume the table."""
        return _status_change(hub.start, table_id)

    @app.post("/api/tables/{table_id}/pause", dependencies=[ORGANISER_ONLY])
    def pause(table_id: str) -> dict[str, Any]:
        """Organiser: pause the table (inputs are logged as refused and change nothing)."""
        return _status_change(hub.pause, table_id)

    @app.post("/api/tables/{table_id}/end", dependencies=[ORGANISER_ONLY])
    def end(table_id: str) -> dict[str, Any]:
        """Organiser: end the table for good."""
        return _status_change(hub.end, table_id)

    @app.post("/api/tables/{table_id}/archive", dependencies=[ORGANISER_ONLY])
    def archive(table_id: str, body: ArchiveBody | None = None) -> dict[str, Any]:
        """Organiser: archive a table that is over (``{"archived": false}``: list it again);
        its log stays and can be exported. A running table is refused."""
        hub.archive(table_id, True if body is None else body.archived)
        return hub.summary(table_id, delayed=False)

    @app.delete("/api/tables/{table_id}", dependencies=[ORGANISER_ONLY])
    def delete_table(table_id: str) -> dict[str, Any]:
        """Organiser: delete an ended or archived table for good, with its log and its seat
        tokens (the one exception to the append-only log; export it first to keep it)."""
        return {"deleted": table_id, "records": hub.delete_table(table_id)}

    @app.post("/api/tables/{table_id}/spectator-delay", dependencies=[ORGANISER_ONLY])
    def spectator_delay(table_id: str, body: DelayBody) -> dict[str, Any]:
        """Organiser: the public audience sees the table as it was ``seconds`` ago (for a
        stream; 0 turns it off, at most 600); stored with the table. Seats and the organiser
        see everything live."""
        seconds = hub.set_spectator_delay(table_id, body.seconds)
        return {"table": table_id, "spectator_delay": shown_number(seconds)}

    # -- inputs --------------------------------------------------------------------------------

    @app.post("/api/tables/{table_id}/decisions")
    def decide(
        table_id: str, body: DecisionBody, who: Annotated[Identity, Depends(answering_seat)]
    ) -> JSONResponse:
        """A seat answers its own prompt (seat token); the organiser may answer any."""
        seat = body.seat if who.organiser or body.seat is not None else who.seat
        return _verdict(hub.submit(table_id, Decision(seat, body.prompt, body.answer)))

    @app.post("/api/tables/{table_id}/undo", dependencies=[ORGANISER_ONLY])
    def undo(table_id: str, body: UndoBody | None = None) -> JSONResponse:
        """Organiser: take back the input #``seq`` that ``undo-preview`` showed (appended to
        the log as an undo); 409 and nothing changed when the table has moved on since."""
        seq = _pinned(body.seq if body else None)
        return _verdict(hub.submit(table_id, Undo(), expect_seq=seq))

    @app.post("/api/tables/{table_id}/correct", dependencies=[ORGANISER_ONLY])
    def correct(table_id: str, body: CorrectBody) -> JSONResponse:
        """Organiser: replace the input #``seq`` that ``correct-preview`` showed with this one
        (a misread fixed); 409 and nothing changed when the table has moved on since."""
        text = body.input.strip()
        parsed = parse_input(text if text.startswith("correct ") else f"correct {text}")
        seq = _pinned(body.seq)
        return _verdict(hub.submit(table_id, parsed, expect_seq=seq, typed=True))

    @app.post("/api/tables/{table_id}/inputs", dependencies=[ORGANISER_ONLY])
    def force_input(table_id: str, body: InputBody) -> JSONResponse:
        """Organiser: feed one input in its one-line form (a missed or misread tag)."""
        parsed = parse_input(body.input)
        if isinstance(parsed, Undo | Correct):  # never unpinned: see POST .../undo
            from scorekeeper.errors import ConfigError
            from scorekeeper.service.texts import PREVIEW_FIRST

            raise ConfigError(
                "an undo or a correction is made with the Undo or Correct "
                "action, not typed as an input: " + PREVIEW_FIRST
            )
        return _verdict(hub.submit(table_id, parsed, typed=True))

    # -- pairing -------------------------------------------------------------------------------

    @app.post("/api/tables/{table_id}/seats/{seat}/pair", dependencies=[ORGANISER_ONLY])
    def pairing_code(table_id: str, seat: int, request: Request) -> dict[str, Any]:
        """Organiser: a short single-use code a phone exchanges for this seat's token."""
        seats = hub.config(table_id).seats
        if not 0 <= seat < len(seats):
            raise _no_seat(table_id, seat, hub)
        code, ttl = hub.tokens.pairing_code(table_id, seat)
        # A QR code only for an address the server listens on and a phone can open; else
        # ``hint`` says how to serve on the network.
        base, hint = phone_address(hub.listen, str(request.base_url))
        url = f"{base}/?pair={code}" if base else None
        return {
            "code": code,
            "expires_in": ttl,
            "table": table_id,
            "seat": seat,
            "seat_name": seats[seat],
            "pair_url": f"/?pair={code}",
            "url": url,
            "qr_svg": qr_svg(url) if url else None,
            "hint": hint,
        }

    @app.delete("/api/tables/{table_id}/seats/{seat}/tokens", dependencies=[ORGANISER_ONLY])
    def unpair(table_id: str, seat: int) -> dict[str, Any]:
        """Organiser: withdraw every token paired with this seat (a lost phone) and every
        pairing code shown for it and not yet used."""
        tokens, codes = hub.tokens.unpair(table_id, seat)
        return {"revoked": tokens, "codes_revoked": codes}

    @app.post("/api/pair")
    def pair(body: PairBody, request: Request) -> dict[str, Any]:
        """Exchange a pairing code for a seat token (no other token needed). Too many wrong
        codes from one address (or from all) in a minute: 429 with Retry-After, and no code is
        looked at until then."""
        client = request.client.host if request.client is not None else ""
        token, who = hub.tokens.redeem(body.code, client)
        assert who.table is not None and who.seat is not None
        return {
            "token": token,
            "table": who.table,
            "seat": who.seat,
            "seat_name": hub.config(who.table).seats[who.seat],
        }

    from scorekeeper.api.console import console_routes
    from scorekeeper.service.enrolling import EnrollSessions

    app.state.console_enrollments = EnrollSessions(hub.store)
    app.include_router(console_routes(hub, app.state.console_enrollments))
    from scorekeeper.api.rules import rules_routes  # the players' rules reference, /rules/<game>

    app.include_router(rules_routes())
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


def _no_seat(table_id: str, seat: int, hub: Hub) -> ScorekeeperError:
    from scorekeeper.errors import NotFound

    count = len(hub.config(table_id).seats)
    return NotFound(f"table {table_id} has no seat {seat}; its seats are 0 to {count - 1}")


def qr_svg(text: str) -> str:
    """``text`` as a QR code, an SVG drawing (black modules on white) for a phone to scan."""
    import segno

    return str(segno.make(text, error="m").svg_inline(scale=6, border=2, dark="#000", light="#fff"))


LOOPBACK = ("localhost", "127.0.0.1", "::1", "[::1]")


def lan_address() -> str | None:
    """This machine's address on the local network (the one a phone on the same Wi-Fi can
    reach), or None. No packet is sent: connecting a UDP socket only picks the route."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))
            address = str(probe.getsockname()[0])
        except OSError:
            return None
    return None if address.startswith("127.") else address


SERVE_ON_NETWORK = (
    "The server listens on {host} only, so no phone can open it. To pair "
    "phones, serve on the network: 'make demo DEMO_ARGS=\"--host 0.0.0.0\"' "
    "or 'scorekeeper serve --host 0.0.0.0' (then open the page at this "
    "computer's network address). The code still pairs a browser on this "
    "computer."
)
NO_NETWORK = (
    "This computer has no network address a phone could reach (is it on the Wi-Fi?). "
    "The code still pairs a browser on this computer."
)


def phone_address(
    listen: tuple[str, int] | None, base_url: str, lan: str | None = None
) -> tuple[str | None, str | None]:
    """(the address a phone should open, or None; a hint in plain words when there is none).

    ``listen`` is where the server listens (None: unknown, then as ``phone_base``): bound to
    every address (0.0.0.0, ::) the LAN address; bound to one non-loopback address that
    address; bound to loopback only, none (no phone can reach it)."""
    if listen is None:
        return phone_base(base_url, lan), None
    host, port = listen
    host = host.strip("[]")
    if host in ("", "0.0.0.0", "::"):
        base = phone_base(base_url, lan)
        if urlsplit_host(base) in LOOPBACK:
            return None, NO_NETWORK
        return base, None
    if host in LOOPBACK or host.startswith("127."):
        return None, SERVE_ON_NETWORK.format(host=host)
    return f"http://{f'[{host}]' if ':' in host else host}:{port}", None


def urlsplit_host(url: str) -> str | None:
    """The host name of ``url`` (lower case), or None."""
    from urllib.parse import urlsplit

    return urlsplit(url).hostname


def phone_base(base_url: str, lan: str | None = None) -> str:
    """The address a phone should open: ``base_url`` unless it names this machine by loopback,
    then the same port at the LAN address (a phone cannot reach the server's ``localhost``).
    Hazard: a server bound to 127.0.0.1 only is not reachable from a phone at all (serve with
    --host 0.0.0.0; docs/dashboard.md says so)."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(base_url.rstrip("/"))
    if parts.hostname not in LOOPBACK:
        return base_url.rstrip("/")
    lan = lan or lan_address()
    if lan is None:
        return base_url.rstrip("/")
    netloc = f"{lan}:{parts.port}" if parts.port else lan
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))
