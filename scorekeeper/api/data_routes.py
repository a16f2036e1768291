"""The games' data over HTTP (scorekeeper/core/data.py): one set of routes for every kind.

Against the contract first agreed for the console's editor: a refusal's words are in
``error`` (the app's convention for every error), not ``detail``, with ``line`` beside them
(null for a mapping); an entry and a list row also carry ``description``; a check also answers
``yaml`` (the entry as the kind writes it). Nothing else differs.

Contract (the console's data editor is built on it):

- ``GET /api/data``: every kind, ``[{game, game_name, kind, title, help, option}]``.
- ``GET /api/data/{game}/{kind}``: its entries, samples first,
  ``[{name, description, sample, stored, complete, problems: [words]}]``.
- ``GET /api/data/{game}/{kind}/schema``: the kind's JSON schema (pydantic's), a ``title`` and
  ``description`` in words on every field, ``"x-labels": {value: words}`` beside every enum.
- ``GET /api/data/{game}/{kind}/{name}``: ``{name, description, sample, stored, complete,
  problems, data}``.
- ``GET /api/data/{game}/{kind}/{name}/export?format=yaml|csv``: the text, as a download.
- ``POST /api/data/{game}/{kind}/check`` with ``{yaml: text}``, ``{csv: text}`` or
  ``{data: mapping}``: ``{ok: true, complete, problems, data, yaml}``, or a 422
  ``{error, kind, line}`` whose ``error`` names the line (``line 3: ...``) and the field.
- ``PUT /api/data/{game}/{kind}/{name}`` with the same body: saves it (never as a sample) and
  answers the saved entry as ``GET`` does. A sample's name is refused in words.
- ``DELETE /api/data/{game}/{kind}/{name}``: ``{deleted: name}``; a sample is refused in words.

Reads are public (the entries are what a table may be created with, as the table options are);
writes need the organiser's token (``api/auth.py``). ``options_from_http`` resolves the options
of a table created over HTTP: every option a data kind selects becomes the entry's whole
mapping, and over HTTP an option never names a file on the server.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Body, Query, Response
from fastapi.responses import JSONResponse

from scorekeeper.api.auth import ORGANISER
from scorekeeper.api.errors import error_body
from scorekeeper.errors import ConfigError, NotFound, UnknownGame
from scorekeeper.service.hub import Hub

if TYPE_CHECKING:
    from scorekeeper.core.data import DataKind, Entry

DataBody = Annotated[
    dict[str, Any],
    Body(description="the entry: {yaml: text}, {csv: text} or {data: mapping}"),
]


def _kind(game: str, kind: str) -> DataKind:
    """The kind at a URL; NotFound (404) in words when the game or the kind does not exist."""
    from scorekeeper.core import data  # on first use, not at serve start

    try:
        return data.find_kind(game, kind)
    except UnknownGame as exc:
        raise NotFound(str(exc)) from None


def _entry(entry: Entry) -> dict[str, Any]:
    return {**entry.summary(), "data": entry.data}


def _refused(exc: ConfigError) -> JSONResponse:
    """A 422 that names the line (for texts) as well as saying it in words."""
    return JSONResponse(error_body(exc) | {"line": exc.line}, status_code=422)


def options_from_http(hub: Hub, game_id: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """A table's options as they came over HTTP, each option a data kind selects resolved to
    its entry's whole mapping (a sample's or a stored entry's name, or an uploaded mapping),
    so the table's config is self-contained. ConfigError (a 422) naming the entries there are
    for an unknown name: a name is never read as a path on the server. A shipped entry's name
    the game reads itself (``Game.needs_data_entry``) is left to ``resolve_options``."""
    from scorekeeper.games import find_game

    out = dict(options)
    try:
        game = find_game(game_id)
    except UnknownGame:
        return out  # the hub refuses it, naming the games there are
    if not any(game.needs_data_entry(name, value) for name, value in out.items()):
        return out  # most games, and shipped entries: no data kind, core.data never loaded
    for kind in game.data_kinds():
        if kind.option is not None and kind.option in out:
            from scorekeeper.core import data

            out[kind.option] = data.resolve_option(kind, out[kind.option], hub.store)
    return out


def data_routes(hub: Hub) -> APIRouter:
    """The data routes on ``hub``: reads for anyone, writes for the organiser."""
    router = APIRouter()

    @router.get("/api/data")
    def list_kinds() -> list[dict[str, Any]]:
        """Every kind of data the games keep (board profiles...), with the option that
        chooses an entry when a table is created."""
        from scorekeeper.core import data
        from scorekeeper.games import find_game

        return [
            {
                "game": kind.game,
                "game_name": find_game(kind.game).name,
                "kind": kind.kind,
                "title": kind.title,
                "help": kind.help,
                "option": kind.option,
                # the word and note shipped entries are labelled with ("sample", "made up")
                "sample_word": kind.sample_word,
                "sample_note": kind.shipped_note,
                # enrollment records this kind's entry while a copy is tagged (per_piece)
                "records_copy": kind.per_piece is not None,
            }
            for kind in data.all_kinds()
        ]

    @router.get("/api/data/{game}/{kind}")
    def list_entries(game: str, kind: str) -> list[dict[str, Any]]:
        """The kind's entries, samples first: each with what keeps it from a table."""
        from scorekeeper.core import data

        return [e.summary() for e in data.entries(_kind(game, kind), hub.store)]

    @router.get("/api/data/{game}/{kind}/schema")
    def kind_schema(game: str, kind: str) -> dict[str, Any]:
        """The kind's JSON schema: every field titled and described in words; every enum
        with ``x-labels``."""
        from scorekeeper.core import data

        return data.schema(_kind(game, kind))

    @router.post("/api/data/{game}/{kind}/check", dependencies=[ORGANISER], response_model=None)
    def check_entry(game: str, kind: str, body: DataBody) -> dict[str, Any] | JSONResponse:
        """Organiser: check an entry; a 422 names the line and field of the first problem."""
        from scorekeeper.core import data

        found = _kind(game, kind)
        try:
            mapping = data.from_body(found, body)
        except ConfigError as exc:
            return _refused(exc)
        problems = found.problems(mapping)
        return {
            "ok": True,
            "complete": not problems,
            "problems": problems,
            "data": mapping,
            "yaml": data.to_yaml(found, mapping),
        }

    @router.get("/api/data/{game}/{kind}/{name}")
    def show_entry(game: str, kind: str, name: str) -> dict[str, Any]:
        """One entry, whole, with what keeps it from starting a table."""
        from scorekeeper.core import data

        return _entry(data.find_entry(_kind(game, kind), name, hub.store))

    @router.get("/api/data/{game}/{kind}/{name}/export")
    def export_entry(
        game: str,
        kind: str,
        name: str,
        format: Annotated[str, Query(pattern="^(yaml|csv)$")] = "yaml",  # noqa: A002
    ) -> Response:
        """One entry as a YAML or CSV file to download."""
        from scorekeeper.core import data

        found = _kind(game, kind)
        text = data.export(found, data.find_entry(found, name, hub.store).data, format)
        media = "text/csv" if format == "csv" else "application/yaml"
        return Response(
            content=text,
            media_type=f"{media}; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="{name}.{format}"'},
        )

    @router.put("/api/data/{game}/{kind}/{name}", dependencies=[ORGANISER], response_model=None)
    def save_entry(
        game: str, kind: str, name: str, body: DataBody
    ) -> dict[str, Any] | JSONResponse:
        """Organiser: save an entry under ``name`` (complete or not: it may be saved half-way;
        a table can use it once complete). A sample cannot be overwritten."""
        from scorekeeper.core import data

        found = _kind(game, kind)
        try:
            data.check_name(found, name)
            mapping = data.from_body(found, body, name)
        except ConfigError as exc:
            return _refused(exc)
        return _entry(data.save(found, hub.store, name, mapping))

    @router.delete("/api/data/{game}/{kind}/{name}", dependencies=[ORGANISER])
    def delete_entry(game: str, kind: str, name: str) -> dict[str, Any]:
        """Organiser: delete a saved entry. A sample cannot be deleted."""
        from scorekeeper.core import data

        data.delete(_kind(game, kind), hub.store, name)
        return {"deleted": name}

    return router
