"""Kits and their enrollment in the browser (the console's Kits section). Organiser only.

- ``GET /api/kits``: every stored kit with its game and how far it is tagged.
- ``POST /api/enroll`` starts (or resumes) tagging a kit; ``GET /api/enroll/{sid}`` gives the
  progress and the next piece in words; ``.../tag`` (a typed uid), ``.../simulate`` (the sim
  reader sees a tag), ``.../skip``, ``.../stop``.
- ``POST /api/enroll/{sid}/answer`` with ``{"answers": {field: value}}``: what is printed on
  the piece just tagged, for a game that records its copy (the state's ``ask`` lists the
  fields and their choices; a missing or bad one is refused in ``last``, and asked again).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import APIRouter, FastAPI
from pydantic import BaseModel, Field

from scorekeeper.api.auth import ORGANISER
from scorekeeper.errors import ConfigError, ScorekeeperError
from scorekeeper.service.enrolling import EnrollSessions
from scorekeeper.service.hub import Hub


class EnrollBody(BaseModel):
    """Body of ``POST /api/enroll``."""

    kit: str = Field(max_length=64, description="the kit to create or carry on")
    game: str = Field(max_length=64)
    readers: str | None = Field(
        default=None,
        max_length=256,
        description="sim, serial:/dev/..., spi:0.0; 'none': typed uids "
        "only; default: the server's --readers",
    )
    reader: str | None = Field(
        default=None, max_length=64, description="only tags seen on this reader count"
    )
    options: dict[str, str | int | bool] | None = Field(
        default=None,
        max_length=16,
        description="table options naming the copy's data entry (e.g. deck: my-deck): its "
        "pieces are tagged",
    )


class AnswerBody(BaseModel):
    """Body of ``.../answer``: the fields asked about the piece just tagged."""

    answers: dict[str, str | int] = Field(
        max_length=32, description="field -> its value or its choice's label"
    )


class UidBody(BaseModel):
    """Body of ``.../tag`` (required uid) and ``.../simulate`` (optional uid)."""

    uid: str | None = Field(default=None, max_length=64)


def routes(hub: Hub, sessions: EnrollSessions) -> APIRouter:
    """The kit and enrollment routes on ``hub``, for the organiser's token only.

    ``sessions`` holds the browser enrollments; they are stopped, their readers released,
    when the app shuts down (this router's lifespan).
    """

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        try:
            yield
        finally:
            sessions.close()  # enrollment readers are released with the server

    router = APIRouter(lifespan=lifespan, dependencies=[ORGANISER])

    @router.get("/api/kits")
    def list_kits() -> list[dict[str, Any]]:
        """Organiser: every stored kit, its game and how many of the game's pieces it tags."""
        from scorekeeper.games import find_game

        out = []
        for name in hub.store.kits():
            kit = hub.store.kit(name)
            entry: dict[str, Any] = {
                "name": kit.name,
                "game": kit.game,
                "game_name": kit.game,
                "tags": len(kit.entries),
                "tagged": None,
                "total": None,
            }
            try:
                game = find_game(kit.game)
            except ScorekeeperError:
                pass
            else:
                done, total = kit.progress(game)
                entry.update(game_name=game.name, tagged=done, total=total)
            out.append(entry)
        return out

    @router.post("/api/enroll", status_code=201)
    def start_enrollment(body: EnrollBody) -> dict[str, Any]:
        """Organiser: start tagging a kit (a stored kit carries on where it stopped)."""
        spec = hub.default_readers if body.readers is None else body.readers.strip()
        if spec.lower() in ("none", "typed"):
            spec = ""
        elif body.readers is not None:
            from scorekeeper.readers.base import check_remote_spec

            spec = check_remote_spec(spec)  # over HTTP: no path outside the serial devices
        return sessions.start(body.kit.strip(), body.game, spec, body.reader, body.options).state()

    @router.get("/api/enroll/{sid}")
    def enrollment(sid: str) -> dict[str, Any]:
        """Organiser: progress, the next piece to scan in words, the latest messages."""
        return sessions.get(sid).state()

    @router.post("/api/enroll/{sid}/tag")
    def typed_tag(sid: str, body: UidBody) -> dict[str, Any]:
        """Organiser: a uid typed (or from a USB reader that types) for the next piece."""
        session = sessions.get(sid)
        if not body.uid:
            raise ConfigError("give the tag's uid, e.g. 04A1B2C3")
        session.offer(body.uid)
        return session.state()

    @router.post("/api/enroll/{sid}/simulate")
    def simulate_tag(sid: str, body: UidBody | None = None) -> dict[str, Any]:
        """Organiser, sim readers only: the reader sees a tag (a fresh uid unless given)."""
        session = sessions.get(sid)
        session.simulate(body.uid if body and body.uid else None)
        return session.state()

    @router.post("/api/enroll/{sid}/answer")
    def answer_fields(sid: str, body: AnswerBody) -> dict[str, Any]:
        """Organiser: what is printed on the piece just tagged (the state's ``ask``)."""
        session = sessions.get(sid)
        session.answer(body.answers)
        return session.state()

    @router.post("/api/enroll/{sid}/skip")
    def skip_piece(sid: str) -> dict[str, Any]:
        """Organiser: leave the piece asked for untagged (a new session asks for it again)."""
        session = sessions.get(sid)
        session.skip()
        return session.state()

    @router.post("/api/enroll/{sid}/stop")
    def stop_enrollment(sid: str) -> dict[str, Any]:
        """Organiser: finish or stop; every tag is saved already."""
        return sessions.stop(sid).state()

    return router
