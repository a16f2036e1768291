"""The store's ``data`` table: the games' data entries (board profiles...), by game, kind and
name, as ``Store``'s data methods read and write them (scorekeeper/core/data.py validates).

The functions take an open connection inside ``Store``'s lock; the caller commits. Schema 3
moved the entries schema 2 kept as meta strings (``board:<name>`` and a ``boards`` index) here:
``move_meta_entries``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from sqlalchemy import ColumnElement, Connection, bindparam, delete, insert, select, update

from scorekeeper.store.base import META as _META
from scorekeeper.store.base import table_of
from scorekeeper.store.models import DataRow, utcnow

DATA = table_of(DataRow)


def _key(game: str, kind: str, name: str | None = None) -> ColumnElement[bool]:
    key = (DATA.c.game == game) & (DATA.c.kind == kind)
    return key if name is None else key & (DATA.c.name == name)


def put(conn: Connection, game: str, kind: str, name: str, body: Mapping[str, Any]) -> None:
    """Insert or replace one entry.

    The entry goes as execution parameters, not literals: SQLAlchemy's compiled cache keeps
    the first statement of each shape with its values, which held the first entry saved (a
    whole card pack) in memory for as long as the server ran."""
    values = {"body": dict(body), "updated_at": utcnow()}
    where = (
        (DATA.c.game == bindparam("k_game"))
        & (DATA.c.kind == bindparam("k_kind"))
        & (DATA.c.name == bindparam("k_name"))
    )
    keys = {"k_game": game, "k_kind": kind, "k_name": name}
    if conn.execute(update(DATA).where(where), {**keys, **values}).rowcount == 0:
        conn.execute(insert(DATA), {"game": game, "kind": kind, "name": name, **values})


def get(conn: Connection, game: str, kind: str, name: str) -> dict[str, Any] | None:
    """One entry's mapping, or None."""
    body = conn.execute(select(DATA.c.body).where(_key(game, kind, name))).scalar()
    if isinstance(body, str):
        body = json.loads(body)
    return dict(body) if isinstance(body, dict) else None


def names(conn: Connection, game: str, kind: str) -> list[str]:
    """The names of a kind's entries, sorted."""
    rows = conn.execute(select(DATA.c.name).where(_key(game, kind)).order_by(DATA.c.name))
    return [str(n) for n in rows.scalars().all()]


def remove(conn: Connection, game: str, kind: str, name: str) -> bool:
    """Delete one entry; False when there was none."""
    return bool(conn.execute(delete(DATA).where(_key(game, kind, name))).rowcount)


def move_meta_entries(
    conn: Connection, entries: Mapping[str, str], prefix: str, index_key: str, game: str, kind: str
) -> None:
    """Move the entries schema 2 kept as meta strings (``prefix + name`` -> JSON) into the data
    table and drop the index; one that is not a JSON mapping stays in meta (nothing reads it
    any more, but nothing a person saved is lost)."""
    for name, raw in sorted(entries.items()):
        try:
            body = json.loads(raw)
        except ValueError:
            continue
        if not isinstance(body, dict):
            continue
        put(conn, game, kind, name, body)
        conn.execute(delete(_META).where(_META.c.key == prefix + name))
    conn.execute(delete(_META).where(_META.c.key == index_key))
