"""Tables: create and list them, their views, and the organiser's status changes.

- ``GET /api/tables`` (anyone; the organiser's token sees past the spectator delay) and
  ``POST /api/tables`` (organiser).
- ``GET /api/tables/{id}`` (the TV's view), ``.../seat/{seat}`` (that seat's token or the
  organiser's) and ``.../organiser`` (everything, with reader health).
- Organiser: ``.../start``, ``.../pause``, ``.../end``, ``.../archive``, ``DELETE`` and
  ``.../spectator-delay``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field

from scorekeeper.api.auth import ORGANISER as ORGANISER_ONLY
from scorekeeper.api.auth import seat_of_table, sees_live
from scorekeeper.core.game import ORGANISER, PUBLIC
from scorekeeper.errors import NotFound, ScorekeeperError
from scorekeeper.service.delay import MAX_SECONDS as MAX_DELAY
from scorekeeper.service.delay import shown_number
from scorekeeper.service.hub import Hub


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


class ArchiveBody(BaseModel):
    """Body of ``POST /api/tables/{id}/archive``."""

    archived: bool = Field(default=True, description="true: archive; false: list it again")


class DelayBody(BaseModel):
    """Body of ``POST /api/tables/{id}/spectator-delay``."""

    seconds: float = Field(ge=0, le=MAX_DELAY, description="how far behind spectators are; 0: off")


def json_response(payload: str) -> Response:
    """A view already serialised to JSON, sent as it is."""
    return Response(content=payload, media_type="application/json")


def no_seat(table_id: str, seat: int, hub: Hub) -> ScorekeeperError:
    """NotFound (404) in plain words for a seat the table does not have."""
    count = len(hub.config(table_id).seats)
    return NotFound(f"table {table_id} has no seat {seat}; its seats are 0 to {count - 1}")


def routes(hub: Hub) -> APIRouter:
    """The table routes on ``hub``; each declares its audience (``api/auth.py``)."""
    router = APIRouter()

    @router.get("/api/tables")
    def list_tables(
        live: Annotated[bool, Depends(sees_live)], archived: bool = False
    ) -> list[dict[str, Any]]:
        """Every table: id, name, game, status, archived, seats, scores (public facts only; as
        spectators see them, except for the organiser's token: see the spectator delay).
        Archived tables only with ``?archived=1``."""
        return hub.summaries(delayed=not live, archived=archived)

    @router.post("/api/tables", status_code=201, dependencies=[ORGANISER_ONLY])
    def create_table(body: CreateTable) -> dict[str, Any]:
        """Organiser: create a table; with ``start`` it starts at once."""
        from scorekeeper.api.data_routes import options_from_http

        # No server path comes over HTTP: a data option names an entry, readers no file.
        options = options_from_http(hub, body.game, body.options)
        readers = None
        if body.readers is not None:  # the reader backends' code only for a table with readers
            from scorekeeper.readers.base import check_remote_spec

            readers = check_remote_spec(body.readers)
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

    @router.get("/api/tables/{table_id}")
    def public_view(table_id: str) -> Response:
        """What the TV shows: counts, never hidden identities."""
        return json_response(hub.view_json(table_id, PUBLIC))

    @router.get("/api/tables/{table_id}/seat/{seat}", dependencies=[Depends(seat_of_table)])
    def seat_view(table_id: str, seat: int) -> Response:
        """One seat's view (its own secrets), for that seat's token or the organiser."""
        if not 0 <= seat < len(hub.config(table_id).seats):
            raise no_seat(table_id, seat, hub)
        return json_response(hub.view_json(table_id, seat))

    @router.get("/api/tables/{table_id}/organiser", dependencies=[ORGANISER_ONLY])
    def organiser_view(table_id: str) -> Response:
        """Everything, for the organiser; includes reader health."""
        view = hub.view(table_id, ORGANISER)
        view["readers"] = hub.reader_health(table_id)
        view["watchers"] = hub.watchers(table_id)
        view["spectator_delay"] = shown_number(hub.spectator_delay(table_id))
        return JSONResponse(view)

    def _status_change(action: Callable[[str], str], table_id: str) -> dict[str, Any]:
        action(table_id)
        return hub.summary(table_id, delayed=False)

    @router.post("/api/tables/{table_id}/start", dependencies=[ORGANISER_ONLY])
    def start(table_id: str) -> dict[str, Any]:
        """Organiser: start or resume the table."""
        return _status_change(hub.start, table_id)

    @router.post("/api/tables/{table_id}/pause", dependencies=[ORGANISER_ONLY])
    def pause(table_id: str) -> dict[str, Any]:
        """Organiser: pause the table (inputs are logged as refused and change nothing)."""
        return _status_change(hub.pause, table_id)

    @router.post("/api/tables/{table_id}/end", dependencies=[ORGANISER_ONLY])
    def end(table_id: str) -> dict[str, Any]:
        """Organiser: end the table for good."""
        return _status_change(hub.end, table_id)

    @router.post("/api/tables/{table_id}/archive", dependencies=[ORGANISER_ONLY])
    def archive(table_id: str, body: ArchiveBody | None = None) -> dict[str, Any]:
        """Organiser: archive a table that is over (``{"archived": false}``: list it again);
        its log stays and can be exported. A running table is refused."""
        hub.archive(table_id, True if body is None else body.archived)
        return hub.summary(table_id, delayed=False)

    @router.delete("/api/tables/{table_id}", dependencies=[ORGANISER_ONLY])
    def delete_table(table_id: str) -> dict[str, Any]:
        """Organiser: delete an ended or archived table for good, with its log and its seat
        tokens (the one exception to the append-only log; export it first to keep it)."""
        return {"deleted": table_id, "records": hub.delete_table(table_id)}

    @router.post("/api/tables/{table_id}/spectator-delay", dependencies=[ORGANISER_ONLY])
    def spectator_delay(table_id: str, body: DelayBody) -> dict[str, Any]:
        """Organiser: the public audience sees the table as it was ``seconds`` ago (for a
        stream; 0 turns it off, at most 600); stored with the table. Seats and the organiser
        see everything live."""
        seconds = hub.set_spectator_delay(table_id, body.seconds)
        return {"table": table_id, "spectator_delay": shown_number(seconds)}

    return router
