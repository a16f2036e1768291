"""How scorekeeper's exceptions become HTTP answers: a status and ``{"error": "plain words"}``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scorekeeper.core.inputs import InputSyntaxError
from scorekeeper.errors import (
    AuthError,
    ConfigError,
    EnrollmentError,
    NotFound,
    ReaderError,
    ScorekeeperError,
    StoreError,
    UnknownGame,
)
from scorekeeper.service.hub import TableStateError
from scorekeeper.service.tokens import Unauthenticated


def status_for(exc: ScorekeeperError) -> int:
    """The HTTP status that says what kind of problem ``exc`` is."""
    if isinstance(exc, Unauthenticated):
        return 401
    if isinstance(exc, AuthError):
        return 403
    if isinstance(exc, UnknownGame | InputSyntaxError | ConfigError | EnrollmentError):
        return 422
    if isinstance(exc, NotFound):
        return 404
    if isinstance(exc, TableStateError):
        return 409
    if isinstance(exc, StoreError | ReaderError):
        return 503
    return 400


def error_body(exc: BaseException) -> dict[str, str]:
    """The JSON body of an error answer: what went wrong and what to do, in plain words."""
    return {"error": str(exc) or type(exc).__name__, "kind": type(exc).__name__}


def validation_words(errors: Sequence[Any]) -> str:
    """A request that failed FastAPI's validation, in words: each field and what is wrong."""
    parts = []
    for err in errors:
        where = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
        parts.append(f"{where}: {err.get('msg', 'invalid')}" if where else err.get("msg"))
    return "the request is not valid: " + "; ".join(str(p) for p in parts)
