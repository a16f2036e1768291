"""Request limits checked before anything else: credentials first, then the body's size.

A pure ASGI middleware in front of the whole application. It exists because FastAPI reads and
parses a whole JSON body before a handler runs: without it, a client with no token could make
the server hold 64 MB bodies in memory (a Pi has 512 MB) or parse a 9 MB body for seconds
before the handler's 401. Here, before a single byte of a body is read:

* a route that needs the organiser token (every POST/PUT/PATCH/DELETE under ``/api`` except
  ``/api/pair`` and a seat's decisions) is refused with 401/403 unless the request carries it;
  a seat's decisions need a known token of some kind (the handler then checks which seat);
* a ``Content-Length`` over the route's limit is refused with 413 at once;
* a body without a length (chunked) is counted as it streams in, and refused with 413 as soon
  as it passes the limit: nothing more is read.

The routes' dependencies (``auth.py``) keep their own checks; this only answers earlier, with
the same checks (``auth.check_before_body``) and so the same words. Refusals carry
``Connection: close`` so the rest of an unread body is never read from the socket.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

from scorekeeper.api.auth import scope_token
from scorekeeper.api.errors import error_body, status_for
from scorekeeper.errors import ScorekeeperError

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

KIB = 1024
#: Every route not named below: an action or a pairing takes a few short fields.
DEFAULT_LIMIT = 4 * KIB
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})


@dataclass(frozen=True)
class Limit:
    """One route's body limit: which methods and paths, how many bytes, and what it is for
    (the refusal names it: "a board profile takes at most 768 KiB")."""

    methods: frozenset[str]
    path: re.Pattern[str]
    max_bytes: int
    what: str


def _limit(methods: str, path: str, kib: int, what: str) -> Limit:
    return Limit(frozenset(methods.split()), re.compile(path), kib * KIB, what)


#: First match wins. Sized from what each route really takes: a table with an inline kit of
#: a few hundred tags, or with a whole board profile, is under 32 KiB, with a whole card pack
#: given inline about 60 KiB; an entry's YAML or CSV text is at most 120 000 characters
#: (core/data.py), which JSON may escape to six bytes each.
#: A new route that takes more than 4 KiB (a kit upload, say) needs its line here.
LIMITS: tuple[Limit, ...] = (
    _limit("POST", r"/api/tables", 192, "creating a table"),
    _limit("POST PUT", r"/api/data(/.*)?", 768, "an entry of game data (a board profile...)"),
    _limit("POST", r"/api/pair", 4, "pairing a phone"),
    _limit(
        "POST",
        r"/api/tables/[^/]+/(decisions|inputs|undo|correct|correct-preview)",
        4,
        "an answer, an input or a correction",
    ),
)

#: Writes anyone may send without the organiser token (the handlers check the rest).
NO_ORGANISER = (re.compile(r"/api/pair"),)
#: Writes a seat's own token may send: a token of some kind must be present and known.
SEAT_WRITES = (re.compile(r"/api/tables/[^/]+/decisions"),)


def limit_for(method: str, path: str) -> tuple[int, str]:
    """(the most bytes a body to ``method path`` may have, what the route is for)."""
    for limit in LIMITS:
        if method in limit.methods and limit.path.fullmatch(path):
            return limit.max_bytes, limit.what
    return DEFAULT_LIMIT, "this request"


def credential_needed(method: str, path: str) -> str | None:
    """Which credential a request needs before its body is read: "organiser", "token" (a
    seat's or the organiser's), or None (reads, /api/pair, the page, the rules)."""
    if method not in WRITES or not (path == "/api" or path.startswith("/api/")):
        return None
    if any(p.fullmatch(path) for p in NO_ORGANISER):
        return None
    if any(p.fullmatch(path) for p in SEAT_WRITES):
        return "token"
    return "organiser"


def request_token(scope: Scope) -> str | None:
    """The token a request carries, read as the routes' dependencies read it
    (``auth.scope_token``): the ``Authorization: Bearer`` header, else ``?token=``."""
    return scope_token(scope)


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None  # the HTTP parser refuses such a request before it gets here
    return None


def _size(n: int) -> str:
    """``n`` bytes in words a person reads: "4 KiB", "64 MB"."""
    if n >= 1024 * KIB:
        return f"{n / (1024 * KIB):.0f} MB"
    if n >= KIB:
        return f"{n / KIB:.0f} KiB"
    return f"{n} bytes"


def too_large_words(what: str, limit: int, sent: int | None) -> str:
    """The 413's message: what was refused, the limit, and what to do."""
    claim = f" (this one is {_size(sent)})" if sent is not None else ""
    return (
        f"this request is too large: {what} takes at most {_size(limit)}{claim}. Nothing "
        "was read or changed; send a smaller request."
    )


class _TooLarge(ScorekeeperError, ValueError):
    """Raised into the application when a streamed body passes its limit: it stops reading.

    Whatever answer the application makes of it is dropped: a 413 goes out instead."""


async def _answer(send: Send, status: int, body: dict[str, str]) -> None:
    """A JSON error in the project's usual shape; the connection closes after it, so an
    unread body is never read."""
    payload = json.dumps(body).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(payload)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": payload})


class RequestLimits:
    """ASGI middleware: credentials, then body size, before the application reads a byte.

    ``check`` raises a ``ScorekeeperError`` (Unauthenticated, Forbidden) for a request that
    lacks its credential; it is given ("organiser" or "token", the token) and is called in a
    worker thread, because a token check reads the database under the store's lock, which an
    fsync may hold (the event loop must keep pushing views meanwhile).
    """

    def __init__(self, app: ASGIApp, check: Callable[[str, str | None], object]) -> None:
        self.app = app
        self.check = check

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        method = str(scope.get("method", "GET")).upper()
        path = str(scope.get("path", "/"))
        needed = credential_needed(method, path)
        if needed is not None:
            try:
                await asyncio.to_thread(self.check, needed, request_token(scope))
            except ScorekeeperError as exc:
                await _answer(send, status_for(exc), error_body(exc))
                return
        limit, what = limit_for(method, path)
        length = _content_length(scope)
        if length is not None and length > limit:
            await _answer(
                send,
                413,
                {"error": too_large_words(what, limit, length), "kind": "RequestTooLarge"},
            )
            return
        await self._counted(scope, receive, send, limit, what)

    async def _counted(
        self, scope: Scope, receive: Receive, send: Send, limit: int, what: str
    ) -> None:
        """Run the application with a body that stops at ``limit`` bytes: past it, the
        application's own answer (a parse error) is dropped and a 413 goes out instead."""
        read = 0
        over = False
        started = False

        async def limited_receive() -> Message:
            nonlocal read, over
            if over:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                read += len(message.get("body", b""))
                if read > limit:
                    over = True
                    raise _TooLarge
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if over and not started:
                return  # the application's answer to a cut body; the 413 goes out instead
            started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, guarded_send)
        except Exception:
            if not over:
                raise
        if over and not started:
            await _answer(
                send, 413, {"error": too_large_words(what, limit, None), "kind": "RequestTooLarge"}
            )
