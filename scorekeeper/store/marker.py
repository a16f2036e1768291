"""The marker: a small file beside a SQLite store that remembers what the store acknowledged.

A database file can come back damaged or old without SQLite noticing: its write-ahead log
(``<db>-wal``) lost or cut short after a crash, an old copy put in its place, a fresh empty
file where the real one was. Opened as is, such a file looks like a good store with fewer
inputs, or like a first start (a new organiser token written over the old one). The marker,
kept outside the database (``<db>.marker``), holds the store's identity (a random id also kept
in the database) and, per table, the last sequence number the store acknowledged. ``Store``
checks the database against it at open and refuses one that is missing, empty, another
store, or behind (docs/design.md, invariant 1).

Format: text lines, each ending in the CRC-32 of the rest of the line, so that a line torn or
zeroed by a crash is recognised and ignored::

    scorekeeper-marker 1 <store id> <crc>
    t1 418 <crc>          # table t1 acknowledged up to seq 418
    t3 - <crc>            # table t3 was deleted by the organiser

Hazards, and why it is safe anyway: a line is appended after the database commit that it
reports, without an fsync of its own (an fsync per input would double the hot path). After a
power cut the marker can therefore be *behind* the database, never ahead of it, and behind is
what a start accepts. The file is rewritten whole (temporary file, fsync, rename, fsync of the
folder) when it is missing at open and whenever it has grown past ``COMPACT_BYTES``.
"""

from __future__ import annotations

import os
import secrets
import sqlite3
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from scorekeeper.store.durable import fsync_folder

MAGIC = "scorekeeper-marker"
VERSION = "1"
COMPACT_BYTES = 64 * 1024
STORE_ID_META = "store-id"  # the identity, also kept in the database's meta table
DELETED = "-"


def marker_path(db_path: str | os.PathLike[str]) -> Path:
    """Where the marker of the SQLite file ``db_path`` lives: ``<db>.marker`` beside it."""
    path = Path(db_path)
    return path.with_name(path.name + ".marker")


def new_store_id() -> str:
    """A fresh random store identity."""
    return secrets.token_hex(12)


def _line(text: str) -> bytes:
    return f"{text} {zlib.crc32(text.encode('utf-8')):08x}\n".encode()


def _parse(raw: bytes) -> str | None:
    """The content of one marker line, or None when it is torn, zeroed or not a line."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    body, _, crc = text.rpartition(" ")
    if not body or len(crc) != 8:
        return None
    try:
        ok = int(crc, 16) == zlib.crc32(body.encode("utf-8"))
    except ValueError:
        return None
    return body if ok else None


@dataclass
class MarkerState:
    """What a marker file says: the store's identity and each table's last acknowledged seq."""

    store_id: str
    last: dict[str, int] = field(default_factory=dict)
    deleted: set[str] = field(default_factory=set)


def read_marker(path: Path) -> MarkerState | None:
    """The marker at ``path``; None when there is no file or its header cannot be read.

    Damaged lines after the header are skipped: they can only make the marker say less.
    """
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    lines = data.split(b"\n")
    header = _parse(lines[0]) if lines else None
    parts = header.split(" ") if header else []
    if len(parts) != 3 or parts[0] != MAGIC or parts[1] != VERSION or not parts[2]:
        return None
    state = MarkerState(parts[2])
    for raw in lines[1:]:
        body = _parse(raw)
        if body is None:
            continue
        table_id, _, value = body.partition(" ")
        if value == DELETED:
            state.deleted.add(table_id)
            state.last.pop(table_id, None)
        elif value.isdigit() and table_id not in state.deleted:
            state.last[table_id] = max(state.last.get(table_id, 0), int(value))
    return state


def write_marker(path: Path, store_id: str, last: Mapping[str, int]) -> None:
    """Write the marker whole and durably (temporary file, fsync, rename, fsync the folder)."""
    tmp = path.with_name(path.name + ".tmp")
    body = _line(f"{MAGIC} {VERSION} {store_id}") + b"".join(
        _line(f"{table_id} {seq}") for table_id, seq in sorted(last.items())
    )
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        os.write(fd, body)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    fsync_folder(path.parent)


class Marker:
    """The open marker of one store: ``note`` each acknowledged seq, ``forget`` a deleted table.

    Not thread-safe on its own: the Store calls it under its lock.
    """

    def __init__(
        self, path: Path, store_id: str, last: Mapping[str, int], *, rewrite: bool
    ) -> None:
        """Open the marker at ``path`` for appending; ``rewrite`` first writes it whole from
        ``last`` (when there was none, or it could not be read).

        A marker that is there and good is appended to, not replaced: another process (a
        command reading the store while the server runs) must not swap the file under the
        server, whose later lines would then go to the replaced file and be lost.
        """
        self.path = path
        self.store_id = store_id
        self.last = dict(last)
        if rewrite:
            write_marker(path, store_id, self.last)
        self._fd: int | None = os.open(path, os.O_WRONLY | os.O_APPEND)
        self._size = path.stat().st_size
        if self._size > COMPACT_BYTES:
            self.compact()

    def _append(self, text: str, *, sync: bool = False) -> None:
        if self._fd is None:
            return
        data = _line(text)
        os.write(self._fd, data)
        if sync:
            os.fsync(self._fd)
        self._size += len(data)
        if self._size > COMPACT_BYTES:
            self.compact()

    def note(self, table_id: str, seq: int) -> None:
        """Remember that the store acknowledged ``seq`` of ``table_id`` (already committed)."""
        self.last[table_id] = seq
        self._append(f"{table_id} {seq}")

    def forget(self, table_id: str) -> None:
        """Mark ``table_id`` deleted, before the database deletes it (so that a crash between
        the two leaves a marker that asks less, never more)."""
        self.last.pop(table_id, None)
        # Deleting is rare: synced, so that a crash can never bring the demand back.
        self._append(f"{table_id} {DELETED}", sync=True)

    def compact(self) -> None:
        """Rewrite the file with one line per table."""
        self.close()
        write_marker(self.path, self.store_id, self.last)
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
        self._size = self.path.stat().st_size

    def close(self) -> None:
        """Close the file (safe to call twice)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def adopt(db_path: str | os.PathLike[str]) -> Path:
    """Make the marker beside ``db_path`` describe that database as it is now: its identity
    (given one if it has none) and each table's last seq; returns the marker's path.

    For an explicit restore (``scorekeeper restore``), where the person chose to go back to an
    older state: nothing else may lower what the marker demands.
    """
    path = Path(db_path)
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no database file to adopt")
    conn = sqlite3.connect(path)
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = ?", (STORE_ID_META,)).fetchone()
        store_id = str(row[0]) if row else new_store_id()
        if row is None:
            conn.execute("INSERT INTO meta (key, value) VALUES (?, ?)", (STORE_ID_META, store_id))
            conn.commit()
        last = {
            str(t): int(s)
            for t, s in conn.execute("SELECT table_id, MAX(seq) FROM log GROUP BY table_id")
        }
    finally:
        conn.close()
    target = marker_path(path)
    write_marker(target, store_id, last)
    return target
