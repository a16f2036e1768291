"""The WebSocket push: ``/ws/tables/{id}`` sends a table's view on connect and on every change.

Without a token the client gets the public view; ``?token=SEATTOKEN`` gets that seat's view and
the organiser's token the organiser's view. Views arrive already serialised (once per change and
audience, by the hub); each client has a one-slot mailbox, so a slow client skips stale views
instead of slowing anybody else down. A refused connection is accepted, sent
``{"error": ...}`` and closed with code 4401 (no/unknown token), 4403 (wrong seat) or 4404.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from starlette.websockets import WebSocket, WebSocketDisconnect

from scorekeeper.api.errors import error_body, status_for
from scorekeeper.core.game import ORGANISER, PUBLIC, Audience
from scorekeeper.errors import ScorekeeperError
from scorekeeper.service.hub import Hub
from scorekeeper.service.watchers import Subscriber

log = logging.getLogger("scorekeeper.ws")


def _audience(hub: Hub, table_id: str, token: str | None) -> Audience:
    """Whose view this connection gets; raises NotFound/AuthError when it gets none."""
    hub.config(table_id)  # NotFound first: no point checking a token for no table
    if not token:
        return PUBLIC
    who = hub.tokens.identify(token)
    if who.organiser:
        return ORGANISER
    assert who.seat is not None
    hub.tokens.require_seat(token, table_id, who.seat)
    return who.seat


async def _pump(websocket: WebSocket, sub: Subscriber) -> None:
    """Send each new view as it arrives; only the newest pending one is ever sent."""
    while True:
        payload = await sub.next()
        await websocket.send_text(payload)


async def table_socket(websocket: WebSocket, table_id: str) -> None:
    """Push one table's view to one client until it disconnects."""
    hub: Hub = websocket.app.state.hub
    token = websocket.query_params.get("token")
    try:
        audience = _audience(hub, table_id, token)
    except ScorekeeperError as exc:
        await websocket.accept()
        await websocket.send_json(error_body(exc))
        await websocket.close(code=4000 + status_for(exc), reason=str(exc)[:120])
        return
    await websocket.accept()
    sub = hub.subscribe(table_id, audience)
    pump = asyncio.create_task(_pump(websocket, sub))
    try:
        while True:  # clients send nothing we need; reading notices the disconnect
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            if pump.done():
                break
    except WebSocketDisconnect:
        pass
    finally:
        pump.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await pump
        hub.unsubscribe(sub)
