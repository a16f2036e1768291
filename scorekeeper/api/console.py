"""The organiser console's endpoints (webui/console.html): kits and enrollment in the browser,
board profiles, undo previews, score exports. Every route needs the organiser token.

``console_routes(hub)`` returns an APIRouter that ``create_app`` includes; the router's
dependency (``auth.ORGANISER``) checks the organiser token for every route.

- ``GET /api/kits``: every stored kit with its game and how far it is tagged.
- ``POST /api/enroll`` starts (or resumes) tagging a kit; ``GET /api/enroll/{sid}`` gives the
  progress and the next piece in words; ``.../tag`` (a typed uid), ``.../simulate`` (the sim
  reader sees a tag), ``.../skip``, ``.../stop``.
- ``POST /api/boards/check`` checks an Arcanum board profile (a mapping, or ``{"yaml": text}``);
  ``PUT /api/boards/{name}`` stores one in the database (``board:<name>`` in the meta table),
  listed by ``GET /api/boards`` (``board_entries``) with the shipped ones.
- ``GET /api/tables/{id}/undo-preview`` and ``POST .../correct-preview``: what an undo or a
  correction would change, computed on a scratch replay of the log (nothing is changed).
- ``GET /api/tables/{id}/scores.csv``: the score history as CSV; ``GET .../readers``: each
  reader's health with the seconds since its last sighting.
"""

from __future__ import annotations

import csv
import io
import json
import re
import time
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Annotated, Any

from fastapi import APIRouter, Body, FastAPI, Response
from pydantic import BaseModel, Field

from scorekeeper.api.auth import ORGANISER
from scorekeeper.core.game import PUBLIC, Game
from scorekeeper.core.inputs import (
    Correct,
    Input,
    Undo,
    input_from_record,
    parse_input,
)
from scorekeeper.core.table import FeedEntry, Table
from scorekeeper.errors import ConfigError, ScorekeeperError
from scorekeeper.service.enrolling import EnrollSessions
from scorekeeper.service.hub import Hub

BOARD_META = "board:"  # + name -> the profile mapping as JSON
BOARD_INDEX_META = "boards"  # -> JSON list of the stored profiles' names
BOARD_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
_CSV_FORMULA = ("=", "+", "-", "@", "\t", "\r")
ProfileBody = Annotated[dict[str, Any], Body(description="a board profile, or {yaml: text}")]


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


class UidBody(BaseModel):
    """Body of ``.../tag`` (required uid) and ``.../simulate`` (optional uid)."""

    uid: str | None = Field(default=None, max_length=64)


class PreviewBody(BaseModel):
    """Body of ``POST /api/tables/{id}/correct-preview``."""

    input: str = Field(max_length=256, description="the replacement, e.g. '+talon H1b1'")


# -- board profiles ----------------------------------------------------------------------------


def _stored_board_names(store: Any) -> list[str]:
    raw = store.get_meta(BOARD_INDEX_META)
    try:
        names = json.loads(raw) if raw else []
    except ValueError:
        return []
    return [str(n) for n in names] if isinstance(names, list) else []


def stored_board(store: Any, name: str) -> dict[str, Any] | None:
    """The mapping of the stored profile ``name``, or None."""
    raw = store.get_meta(BOARD_META + name)
    if not raw:
        return None
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _board_entry(profile: Any, stored: bool) -> dict[str, Any]:
    return {
        "name": profile.name,
        "sample": profile.sample,
        "complete": profile.complete,
        "problems": profile.problems(),
        "profile": profile.to_mapping(),
        "stored": stored,
    }


def board_entries(store: Any) -> list[dict[str, Any]]:
    """Every board profile: the shipped ones, then those stored with ``PUT /api/boards``."""
    from scorekeeper.games.arcanum.boards import (
        find_profile,
        profile_from_mapping,
        shipped_profiles,
    )

    out = [_board_entry(find_profile(name), False) for name in sorted(shipped_profiles())]
    shipped = {e["name"] for e in out}
    for name in sorted(_stored_board_names(store)):
        data = stored_board(store, name)
        if data is None or name in shipped:
            continue
        try:
            profile = profile_from_mapping(data, f"stored board {name!r}")
        except ConfigError:
            continue  # written by this module, so readable; a damaged one is left out
        out.append(_board_entry(profile, True))
    return out


def _read_profile(body: Mapping[str, Any]) -> Any:
    """A profile from a request body: ``{"yaml": text}`` or the profile mapping itself."""
    from scorekeeper.games.arcanum.boards import profile_from_mapping, profile_from_text

    if set(body) == {"yaml"}:
        text = body["yaml"]
        if not isinstance(text, str):
            raise ConfigError("yaml must be the profile's text")
        if len(text) > 20_000:
            raise ConfigError("the profile text is too long (20 000 characters at most)")
        return profile_from_text(text, "")  # errors read "line 3: ..."
    return profile_from_mapping(dict(body), "the profile")


def board_from_http(store: Any, value: Any) -> Any:
    """The ``board`` option of a table created over HTTP, resolved without the server's files.

    A name is a shipped profile's (left for the game to load from the package) or a stored
    one's (replaced by its mapping); a mapping is an uploaded profile and goes on as it is.
    Anything else is refused before the game sees it: over HTTP a board is never a path, and
    the message is the same whether a file of that name exists or not.
    """
    from scorekeeper.games.arcanum.boards import shipped_profiles

    if not isinstance(value, str):
        return value  # a mapping is checked by the game; other types are refused there
    shipped = sorted(shipped_profiles())
    if value in shipped:
        return value
    stored = stored_board(store, value) if BOARD_NAME.match(value) else None
    if stored is not None:
        return stored
    names = shipped + [n for n in sorted(_stored_board_names(store)) if n not in shipped]
    shown = value if len(value) <= 64 else value[:61] + "..."
    raise ConfigError(
        f"there is no board profile called {shown!r}; choose one of "
        f"{', '.join(names)}, or store your board in the console's Boards "
        "section first"
    )


def from_http(
    store: Any, options: Mapping[str, Any], readers: str | None
) -> tuple[dict[str, Any], str | None]:
    """A table's options and reader spec as they came over HTTP, made safe to hand to the hub:
    the board is resolved by ``board_from_http`` and the spec checked by
    ``readers.base.check_remote_spec`` (ConfigError, a 422, for a path or an unknown board)."""
    from scorekeeper.readers.base import check_remote_spec

    out = dict(options)
    if "board" in out:
        out["board"] = board_from_http(store, out["board"])
    return out, None if readers is None else check_remote_spec(readers)


def _checked_board(profile: Any) -> dict[str, Any]:
    from scorekeeper.games.arcanum.boards import dump_profile

    return {
        "name": profile.name,
        "complete": profile.complete,
        "problems": profile.problems(),
        "profile": profile.to_mapping(),
        "yaml": dump_profile(profile),
    }


# -- previews ----------------------------------------------------------------------------------


def _scratch(hub: Hub, table_id: str) -> tuple[Table, list[tuple[int, str]]]:
    """A copy of the table rebuilt from its log, and the raw accepted inputs still in force
    (``(seq, one-line text)``, oldest first; an undo takes one back, a correction swaps one)."""
    with hub.locked(table_id):  # no input can be logged meanwhile: the copy is the table now
        live = hub.table(table_id)
        config = hub.config(table_id)
        game = live.game
        records = list(hub.store.records(table_id))
    by_seq = dict(records)
    standing: list[tuple[int, str]] = []

    def listen(_table: Table, entry: FeedEntry) -> None:
        if not entry.accepted:
            return
        record = by_seq.get(entry.seq, {})
        kind = record.get("type")
        if kind in ("undo", "correct") and standing:
            standing.pop()
        if kind == "correct":
            inp = input_from_record(dict(record))
            assert isinstance(inp, Correct)
            standing.append((entry.seq, inp.replacement.to_str()))
        elif kind != "undo":
            standing.append((entry.seq, entry.input))

    table = Table.replay(config, game, records, listeners=[listen])
    table.listeners.clear()
    return table, standing


def _words(game: Game, seats: tuple[str, ...], inp: Any) -> str:
    """An input in plain words for the organiser (who may see every card): card, zone and seat
    names and the answer's words, never input syntax (``Game.describe_input``)."""
    return game.describe_input(inp, seats)


def preview(hub: Hub, table_id: str, inp: Undo | Correct) -> dict[str, Any]:
    """What ``inp`` (an undo or a correction) would do to the table, changing nothing."""
    table, standing = _scratch(hub, table_id)
    game, seats = table.game, table.config.seats
    last = table.referee.last_accepted
    before = list(game.scores(table.state))
    waiting_before = table.waiting_for()
    inputs = table.inputs_seen
    result = table.submit(inp)  # the copy has no log: nothing is written
    out: dict[str, Any] = {
        "table": table_id,
        "status": hub.status(table_id),
        "action": "undo" if isinstance(inp, Undo) else "correct",
        "accepted": result.accepted,
        "seats": list(seats),
        "input": standing[-1][1] if standing else None,
        "input_seq": standing[-1][0] if standing else None,
        "as_read": last.to_str() if last is not None else None,
        "words": _words(game, seats, last) if last is not None else None,
        "scores_before": before,
        "scores_after": list(game.scores(table.state)),
        "waiting_for_before": waiting_before,
        "waiting_for_after": table.waiting_for(),
        "events": list(result.events),
        "rejection": result.rejection.to_dict() if result.rejection else None,
        "inputs": inputs,
    }
    if isinstance(inp, Correct):
        out["replacement"] = inp.replacement.to_str()
        out["replacement_words"] = _words(game, seats, inp.replacement)
    return out


def _correction(text: str) -> Correct:
    text = text.strip()
    parsed: Input = parse_input(text if text.startswith("correct ") else f"correct {text}")
    assert isinstance(parsed, Correct)
    return parsed


def _csv_cell(value: Any) -> str:
    """A cell a spreadsheet will not run as a formula (a player named "=1+1")."""
    text = str(value)
    return "'" + text if text.startswith(_CSV_FORMULA) else text


def scores_csv(view: Mapping[str, Any]) -> str:
    """One row per score change (``seq`` and each seat's score), then a ``final`` row."""
    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\r\n")
    out.writerow(["seq", *(_csv_cell(s) for s in view.get("seats", []))])
    for point in view.get("score_history", []):
        out.writerow([point["seq"], *point["scores"]])
    out.writerow(["final", *view.get("scores", [])])
    return buf.getvalue()


# -- the router --------------------------------------------------------------------------------


def console_routes(hub: Hub, sessions: EnrollSessions | None = None) -> APIRouter:
    """The console's routes on ``hub``, every one for the organiser's token only.

    ``sessions`` holds the browser enrollments (a new ``EnrollSessions`` on the hub's store by
    default); they are stopped, their readers released, when the app shuts down.
    """
    if sessions is None:
        sessions = EnrollSessions(hub.store)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        try:
            yield
        finally:
            sessions.close()  # enrollment readers are released with the server

    router = APIRouter(lifespan=lifespan, dependencies=[ORGANISER])

    # -- kits and enrollment -------------------------------------------------------------------

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
        return sessions.start(body.kit.strip(), body.game, spec, body.reader).state()

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

    # -- board profiles ------------------------------------------------------------------------

    @router.post("/api/boards/check")
    def check_board(body: ProfileBody) -> dict[str, Any]:
        """Organiser: check a board profile (the mapping, or ``{"yaml": text}``)."""
        return _checked_board(_read_profile(body))

    @router.put("/api/boards/{name}")
    def store_board(name: str, body: ProfileBody) -> dict[str, Any]:
        """Organiser: store a board profile under ``name`` (complete or not: an entry may be
        saved half-way); a table can use it once it is complete."""
        from dataclasses import replace

        from scorekeeper.games.arcanum.boards import shipped_profiles

        if not BOARD_NAME.match(name):
            raise ConfigError(
                f"board name {name!r} must be 1-64 letters, digits, '_', '.' or "
                "'-', starting with a letter or digit"
            )
        if name in shipped_profiles():
            raise ConfigError(
                f"{name!r} is a profile shipped with scorekeeper; save yours under another name"
            )
        profile = replace(_read_profile(body), name=name)
        hub.store.set_meta(BOARD_META + name, json.dumps(profile.to_mapping()))
        names = _stored_board_names(hub.store)
        if name not in names:
            hub.store.set_meta(BOARD_INDEX_META, json.dumps(sorted([*names, name])))
        return {**_checked_board(profile), "stored": True}

    # -- previews, exports, readers ------------------------------------------------------------

    @router.get("/api/tables/{table_id}/undo-preview")
    def undo_preview(table_id: str) -> dict[str, Any]:
        """Organiser: what ``POST .../undo`` would change (nothing is changed)."""
        return preview(hub, table_id, Undo())

    @router.post("/api/tables/{table_id}/correct-preview")
    def correct_preview(table_id: str, body: PreviewBody) -> dict[str, Any]:
        """Organiser: what ``POST .../correct`` with this input would change."""
        return preview(hub, table_id, _correction(body.input))

    @router.get("/api/tables/{table_id}/scores.csv")
    def score_csv(table_id: str) -> Response:
        """Organiser: the score history as CSV (a row per change, then the final scores)."""
        text = scores_csv(hub.view(table_id, PUBLIC))
        return Response(
            content=text,
            media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="{table_id}-scores.csv"'},
        )

    @router.get("/api/tables/{table_id}/readers")
    def reader_health(table_id: str) -> dict[str, Any]:
        """Organiser: each reader's health, with ``age_s`` since its last sighting."""
        status = hub.status(table_id)
        backend = hub.readers(table_id)
        health = hub.reader_health(table_id)
        now = time.monotonic()  # the backends' clock: last_sighting is on it
        out: dict[str, Any] = {
            "table": table_id,
            "status": status,
            "backend": getattr(backend, "name", None) if backend else None,
            "readers": [],
        }
        if isinstance(health.get("error"), str):
            out["error"] = health["error"]
            return out
        for reader, info in health.items():
            if not isinstance(info, dict):
                continue
            last = info.get("last_sighting")
            age = round(now - last, 1) if isinstance(last, int | float) else None
            out["readers"].append(
                {
                    "reader": reader,
                    "online": bool(info.get("online", True)),
                    "age_s": age,
                    "reads": info.get("reads", 0),
                    "read_rate": round(float(info.get("read_rate") or 0.0), 2),
                    "errors": info.get("errors", 0),
                    "detail": info.get("detail", ""),
                }
            )
        return out

    return router
