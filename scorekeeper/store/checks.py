"""The checks a SQLite store passes before it is used: SQLite's own page check, and the marker.

``Store`` runs them at open (scorekeeper/store/store.py). A store that fails is refused with
StoreRefused: nothing is served and nothing is written (not even a new organiser token), and the
message says what was found and what to do.
"""

from __future__ import annotations

from pathlib import Path

from scorekeeper.errors import StoreError
from scorekeeper.store.marker import MarkerState, marker_path

RESTORE_WORDS = "put a backup back with: scorekeeper restore BACKUP-FILE (see docs/backup.md)"


class StoreRefused(StoreError):
    """The database is not the one this server acknowledged inputs to, or it is damaged;
    it was not opened for use."""


def _ignore_words(db: str) -> str:
    """The sentence that says how to go on with ``db`` as it is, on purpose."""
    return (
        f"To go on with {db} as it is anyway, and lose what it is missing, move "
        f"{marker_path(db).name} out of its folder first"
    )


def refuse_missing(db: str, state: MarkerState) -> StoreRefused:
    """The database file is missing or empty but its marker says a server ran on it."""
    tables = len(state.last)
    held = f"it held {tables} table{'' if tables == 1 else 's'}" if tables else "it was set up"
    return StoreRefused(
        f"{db} is missing or empty, but a scorekeeper server has run on it before ({held}, "
        f"says {marker_path(db).name}). Nothing was started and the organiser token was not "
        f"changed. If the database was moved, put it back; otherwise {RESTORE_WORDS}. To start "
        f"a new, empty store on purpose, move {marker_path(db).name} away first."
    )


def refuse_damaged(db: str, findings: list[str]) -> StoreRefused:
    """SQLite's ``PRAGMA quick_check`` found damage."""
    first = "; ".join(findings[:3]) + (
        f" (and {len(findings) - 3} more)" if len(findings) > 3 else ""
    )
    return StoreRefused(
        f"{db} is damaged: SQLite's check found {first}. Nothing was started and nothing was "
        f"changed; {RESTORE_WORDS}."
    )


def check_identity(db: str, state: MarkerState, store_id: str | None) -> None:
    """Refuse a database that is not the store the marker belongs to."""
    if store_id == state.store_id:
        return
    if store_id is None:
        what = (
            "a database this server never used, or a copy made without its -wal file "
            "(it has no store identity)"
        )
    else:
        what = "a different store from the one this server ran on"
    raise StoreRefused(
        f"{db} is {what}: {marker_path(db).name} belongs to store {state.store_id}. Nothing was "
        f"started and the organiser token was not changed; {RESTORE_WORDS}. "
        f"{_ignore_words(db)}."
    )


def check_not_behind(
    db: str, state: MarkerState, held: dict[str, int], names: dict[str, str]
) -> None:
    """Refuse a database that holds fewer inputs of some table than the store acknowledged.

    ``held``: each table's last seq in the database; ``names``: the tables' names.
    """
    short = []
    for table_id, acknowledged in sorted(state.last.items()):
        has = held.get(table_id)
        if has is None:
            short.append(f"table {table_id} ({acknowledged} inputs) is not in it at all")
        elif has < acknowledged:
            name = names.get(table_id) or table_id
            short.append(
                f"table {table_id} ({name}) had {acknowledged} inputs acknowledged, "
                f"the database holds {has}"
            )
    if not short:
        return
    listed = "; ".join(short[:5]) + (
        f"; and {len(short) - 5} more tables" if len(short) > 5 else ""
    )
    raise StoreRefused(
        f"{db} is behind what this server acknowledged: {listed}. Its -wal file may have been "
        f"lost or damaged, or an older copy put in its place. Nothing was started and nothing "
        f"was changed; {RESTORE_WORDS}. {_ignore_words(db)}."
    )


def file_is_empty(path: str) -> bool:
    """True when ``path`` is missing or holds no bytes (what SQLite would treat as new)."""
    try:
        return Path(path).stat().st_size == 0
    except FileNotFoundError:
        return True
