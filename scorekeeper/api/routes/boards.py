"""Arcanum's board profiles over HTTP, until the generic data-kind routes replace them.

Hazard: this module is temporary. Issue 12 (game data as a core concept) replaces it with the
generic data-kind routes (``api/data_routes.py``) and then deletes it: build nothing new on it.

- ``GET /api/boards`` (anyone): every profile, shipped and stored (``board_entries``).
- ``POST /api/boards/check`` (organiser) checks a profile (a mapping, or ``{"yaml": text}``).
- ``PUT /api/boards/{name}`` (organiser) stores one in the database (``board:<name>`` in the
  meta table).
- ``from_http`` and ``board_from_http`` make a table's ``board`` option, as it came over
  HTTP, safe to hand to the hub (``POST /api/tables`` calls them).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Annotated, Any

from fastapi import APIRouter, Body

from scorekeeper.api.auth import ORGANISER
from scorekeeper.errors import ConfigError
from scorekeeper.service.hub import Hub

BOARD_META = "board:"  # + name -> the profile mapping as JSON
BOARD_INDEX_META = "boards"  # -> JSON list of the stored profiles' names
BOARD_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
ProfileBody = Annotated[dict[str, Any], Body(description="a board profile, or {yaml: text}")]


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


def routes(hub: Hub) -> APIRouter:
    """The board profile routes on ``hub``: the list for anyone, the rest for the organiser."""
    router = APIRouter()

    @router.get("/api/boards")
    def list_boards() -> list[dict[str, Any]]:
        """The Arcanum board profiles, shipped and stored (``PUT /api/boards/{name}``): each
        whole, with ``complete``, what is missing (only a complete profile can start a table)
        and ``stored``."""
        return board_entries(hub.store)

    @router.post("/api/boards/check", dependencies=[ORGANISER])
    def check_board(body: ProfileBody) -> dict[str, Any]:
        """Organiser: check a board profile (the mapping, or ``{"yaml": text}``)."""
        return _checked_board(_read_profile(body))

    @router.put("/api/boards/{name}", dependencies=[ORGANISER])
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

    return router
