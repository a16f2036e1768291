"""The WebSocket push: ``/ws/tables/{id}`` sends a table's view on connect and on every change.

Without a token the client gets the public view; ``?token=SEATTOKEN`` gets that seat's view and
the organiser's token the organiser's view. Views arrive already serialised (once per change and
audience, by the hub); each client has a one-slot mailbox, so a slow client skips stale views
instead of slowing anybody else down. A refused connection is accepted, sent
``{"error": ...}`` and closed with code 4401 (no/unknown token), 4403 (wrong seat) or 4404.
A connection whose token is withdrawn (an unpaired phone, a replaced organiser token) gets no
view after the withdrawal and is closed with 4401 at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from starlette.websockets import WebSocket, WebSocketDisconnect

from scorekeeper.api.auth import socket_audience
from scorekeeper.api.errors import error_body, status_for
from scorekeeper.errors import ScorekeeperError
from scorekeeper.service.hub import Hub
from scorekeeper.service.tokens import credential
from scorekeeper.service.watchers import Ended, Subscriber

log = logging.getLogger("scorekeeper.ws")


async def _pump(websocket: WebSocket, sub: Subscriber) -> None:
    """Send each new view as it arrives; only the newest pending one is ever sent. Ends with
    Ended when the connection's token is withdrawn (no view is sent after that)."""
    while True:
        payload = await sub.next()
        if sub.ended is not None:  # ended while this view waited: it is not sent
            raise sub.ended
        await websocket.send_text(payload)


async def _drain(websocket: WebSocket) -> None:
    """Read until the client goes: clients send nothing we need, reading notices the end."""
    with contextlib.suppress(WebSocketDisconnect):
        while (await websocket.receive())["type"] != "websocket.disconnect":
            pass


async def _refuse(websocket: WebSocket, exc: ScorekeeperError) -> None:
    """Tell a client why it gets no view, and close with 4000 + the HTTP status."""
    await websocket.send_json(error_body(exc))
    await websocket.close(code=4000 + status_for(exc), reason=str(exc)[:120])


async def table_socket(websocket: WebSocket, table_id: str) -> None:
    """Push one table's view to one client until it disconnects or its token is withdrawn."""
    hub: Hub = websocket.app.state.hub
    token = websocket.query_params.get("token")
    try:
        audience = socket_audience(hub, table_id, token)
    except ScorekeeperError as exc:
        await websocket.accept()
        await _refuse(websocket, exc)
        return
    await websocket.accept()
    sub = hub.subscribe(table_id, audience, credential(token) if token else None)
    try:
        # Checked again once filed: a token withdrawn between the first check and the filing
        # was not found by the withdrawal, so it is caught here.
        socket_audience(hub, table_id, token)
    except ScorekeeperError as exc:
        hub.unsubscribe(sub)
        await _refuse(websocket, exc)
        return
    pump = asyncio.create_task(_pump(websocket, sub))
    drain = asyncio.create_task(_drain(websocket))
    try:
        await asyncio.wait((pump, drain), return_when=asyncio.FIRST_COMPLETED)
        ended = pump.exception() if pump.done() and not pump.cancelled() else None
        if isinstance(ended, Ended):
            with contextlib.suppress(Exception):  # the client may be gone already
                await websocket.close(code=ended.code, reason=ended.reason[:120])
    finally:
        for task in (pump, drain):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        hub.unsubscribe(sub)
