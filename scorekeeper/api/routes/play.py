"""Play: a seat's answer to its prompt, and the organiser's undo, correction and typed input.

- ``POST /api/tables/{id}/decisions``: a seat answers its own prompt (seat token); the
  organiser may answer any.
- Organiser: ``.../undo`` and ``.../correct`` (pinned to the input their preview showed: 409
  and nothing changed when the table has moved on since) and ``.../inputs``.

Every answer is 200 whether the input counted or not: ``accepted`` says which.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from scorekeeper.api.auth import ORGANISER as ORGANISER_ONLY
from scorekeeper.api.auth import answering_seat
from scorekeeper.core.inputs import Correct, Decision, Undo, parse_input
from scorekeeper.errors import ConfigError
from scorekeeper.service.hub import Hub, Submitted
from scorekeeper.service.texts import PREVIEW_FIRST
from scorekeeper.service.tokens import Identity


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
        raise ConfigError(PREVIEW_FIRST)
    return seq


def _verdict(done: Submitted) -> JSONResponse:
    """A submitted input's answer: 200 either way; ``accepted`` says whether it counted."""
    return JSONResponse(done.to_dict())


def routes(hub: Hub) -> APIRouter:
    """The play routes on ``hub``; each declares its audience (``api/auth.py``)."""
    router = APIRouter()

    @router.post("/api/tables/{table_id}/decisions")
    def decide(
        table_id: str, body: DecisionBody, who: Annotated[Identity, Depends(answering_seat)]
    ) -> JSONResponse:
        """A seat answers its own prompt (seat token); the organiser may answer any."""
        seat = body.seat if who.organiser or body.seat is not None else who.seat
        return _verdict(hub.submit(table_id, Decision(seat, body.prompt, body.answer)))

    @router.post("/api/tables/{table_id}/undo", dependencies=[ORGANISER_ONLY])
    def undo(table_id: str, body: UndoBody | None = None) -> JSONResponse:
        """Organiser: take back the input #``seq`` that ``undo-preview`` showed (appended to
        the log as an undo); 409 and nothing changed when the table has moved on since."""
        seq = _pinned(body.seq if body else None)
        return _verdict(hub.submit(table_id, Undo(), expect_seq=seq))

    @router.post("/api/tables/{table_id}/correct", dependencies=[ORGANISER_ONLY])
    def correct(table_id: str, body: CorrectBody) -> JSONResponse:
        """Organiser: replace the input #``seq`` that ``correct-preview`` showed with this one
        (a misread fixed); 409 and nothing changed when the table has moved on since."""
        text = body.input.strip()
        parsed = parse_input(text if text.startswith("correct ") else f"correct {text}")
        seq = _pinned(body.seq)
        return _verdict(hub.submit(table_id, parsed, expect_seq=seq, typed=True))

    @router.post("/api/tables/{table_id}/inputs", dependencies=[ORGANISER_ONLY])
    def force_input(table_id: str, body: InputBody) -> JSONResponse:
        """Organiser: feed one input in its one-line form (a missed or misread tag)."""
        parsed = parse_input(body.input)
        if isinstance(parsed, Undo | Correct):  # never unpinned: see POST .../undo
            raise ConfigError(
                "an undo or a correction is made with the Undo or Correct "
                "action, not typed as an input: " + PREVIEW_FIRST
            )
        return _verdict(hub.submit(table_id, parsed, typed=True))

    return router
