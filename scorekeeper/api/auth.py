"""Who may use a route: the FastAPI dependencies that check a request's token.

Every route declares its audience in its decorator or signature, once:

- ``ORGANISER``: the organiser's token only (``dependencies=[ORGANISER]``, or on a router);
- ``seat_of_table``: the token of the path's seat at the path's table, or the organiser's;
- ``answering_seat``: a seat token of the path's table, answering for its own seat (or for
  the seat its body names, when it is its own), or the organiser's;
- ``viewer_audience`` and ``sees_live``: anyone; a token only chooses what they see.

A token is read one way everywhere (``scope_token``): the ``Authorization: Bearer`` header,
else ``?token=``. ``RequestLimits`` refuses a missing credential before a body is read with
``check_before_body``, which answers with the same checks and the same words as the routes.
The WebSocket (``ws.py``) reads ``?token=`` only and asks ``socket_audience``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, MutableMapping
from typing import Any
from urllib.parse import parse_qs

from fastapi import Depends, Request
from pydantic import TypeAdapter, ValidationError
from starlette.requests import HTTPConnection

from scorekeeper.core.game import ORGANISER as ORGANISER_AUDIENCE
from scorekeeper.core.game import PUBLIC, Audience
from scorekeeper.errors import ScorekeeperError
from scorekeeper.service.hub import Hub
from scorekeeper.service.tokens import Identity


def scope_token(scope: MutableMapping[str, Any]) -> str | None:
    """The token a request carries: the ``Authorization: Bearer`` header, else the first
    ``?token=``; None for none (a blank one is none)."""
    for name, value in scope.get("headers", ()):
        if name == b"authorization":
            header = value.decode("latin-1")
            if header[:7].lower() == "bearer ":
                return header[7:].strip() or None
            break
    query = scope.get("query_string", b"").decode("latin-1")
    tokens = parse_qs(query).get("token") if query else None
    return tokens[0] if tokens else None


def token_of(request: HTTPConnection) -> str | None:
    """The token of a request (``scope_token``)."""
    return scope_token(request.scope)


def hub_of(request: HTTPConnection) -> Hub:
    """The hub the application serves (``create_app`` sets it)."""
    hub: Hub = request.app.state.hub
    return hub


def organiser(request: Request) -> Identity:
    """The organiser's identity; 401/403 in plain words for anyone else."""
    return hub_of(request).tokens.require_organiser(token_of(request))


#: The organiser's token only: ``dependencies=[ORGANISER]`` on a route or a router.
ORGANISER = Depends(organiser)


def seat_of_table(request: Request, table_id: str, seat: int) -> Identity:
    """The identity of the path's seat at the path's table, or the organiser's; 401 without
    a known token, 403 for any other seat's."""
    return hub_of(request).tokens.require_seat(token_of(request), table_id, seat)


_SEAT: TypeAdapter[int | None] = TypeAdapter(int | None)  # DecisionBody.seat's type


def _answer_check(hub: Hub, token: str | None, table_id: str, asked: Any) -> Identity:
    who = hub.tokens.identify(token)
    if not who.organiser:
        seat = who.seat if asked is None else asked
        hub.tokens.require_seat(token, table_id, int(seat or 0))
    return who


async def answering_seat(request: Request, table_id: str) -> Identity:
    """A seat token of ``table_id`` answering for its own seat, or for the ``seat`` its body
    names (which must be its own); the organiser answers for any seat.

    Async because it reads the body's ``seat``: FastAPI has parsed the body already (it is
    cached on the request). The ``seat`` is read as the body's model reads it; one that is
    not a number is left to the body's validation (a 422), checked as if absent. The token
    check reads the database under the store's lock, which an fsync may hold, so it runs in
    a worker thread."""
    asked: Any = None
    try:
        body = await request.json()
    except ValueError:
        body = None
    if isinstance(body, dict):
        try:  # as the body's model reads it ("1" is 1): the seat checked is the seat used
            asked = _SEAT.validate_python(body.get("seat"))
        except ValidationError:
            asked = None
    return await asyncio.to_thread(
        _answer_check, hub_of(request), token_of(request), table_id, asked
    )


def viewer_audience(request: Request) -> str:
    """Whose view an export shows: everything for the organiser's token, the public's for
    anyone else; a token sent must be known (401 for an unknown or withdrawn one)."""
    token = token_of(request)
    if token is not None and hub_of(request).tokens.identify(token).organiser:
        return ORGANISER_AUDIENCE
    return PUBLIC


def sees_live(request: Request) -> bool:
    """True for the organiser's token (it sees past the spectator delay); any other token,
    known or not, is just public."""
    token = token_of(request)
    try:
        return token is not None and hub_of(request).tokens.identify(token).organiser
    except ScorekeeperError:
        return False


def socket_audience(hub: Hub, table_id: str, token: str | None) -> Audience:
    """Whose view a WebSocket gets: the public's without a token, the organiser's or the
    token's own seat's (at this table only); raises NotFound/AuthError when it gets none."""
    hub.config(table_id)  # NotFound first: no point checking a token for no table
    if not token:
        return PUBLIC
    who = hub.tokens.identify(token)
    if who.organiser:
        return ORGANISER_AUDIENCE
    assert who.seat is not None
    hub.tokens.require_seat(token, table_id, who.seat)
    return who.seat


def check_before_body(hub: Hub) -> Callable[[str, str | None], object]:
    """The check ``RequestLimits`` makes before a body is read ("organiser": the organiser's
    token; "token": a known token of any kind; the route's dependency checks the rest)."""

    def check(needed: str, token: str | None) -> None:
        if needed == "organiser":
            hub.tokens.require_organiser(token)
        else:
            hub.tokens.identify(token)

    return check
