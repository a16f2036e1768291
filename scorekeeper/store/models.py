"""The SQL tables of the store, as SQLModel models (SQLite by default; PostgreSQL works too).

``LogRow`` is the event log: one row per input, numbered per table from 1, never updated or
deleted (docs/design.md, invariant 1). The other tables hold what a table is (``TableRow``), tag
registries (``KitRow``), the games' data entries such as board profiles (``DataRow``), each
table's settings (``TableSettingsRow``), seat tokens (``SeatTokenRow``) and small store-wide
settings such as the organiser token (``MetaRow``). The event hub's tables are in
event_models.py.

The tables are created and changed by the migrations (scorekeeper/store/migrations/), never
from these models: a change here needs a new revision there, and a test compares the two.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Column, Index, UniqueConstraint
from sqlmodel import Field, SQLModel

TABLE_STATUSES = ("created", "running", "paused", "ended")


def utcnow() -> datetime:
    """The wall-clock time, timezone-aware in UTC (SQLModel's datetime columns require it)."""
    return datetime.now(UTC)


class TableRow(SQLModel, table=True):
    """One table: its short id (``t1``), its frozen configuration and its status."""

    __tablename__ = "tables"

    id: str = Field(primary_key=True, max_length=32)
    created_at: datetime = Field(default_factory=utcnow)
    name: str = ""
    game: str
    config: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    status: str = "created"


class LogRow(SQLModel, table=True):
    """One logged input of one table. ``at`` is informational: replay never reads it."""

    __tablename__ = "log"
    __table_args__ = (UniqueConstraint("table_id", "seq", name="uq_log_table_seq"),)

    id: int | None = Field(default=None, primary_key=True)
    table_id: str = Field(foreign_key="tables.id", max_length=32)
    seq: int
    at: datetime = Field(default_factory=utcnow)
    record: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    # The chained checksum of this record (scorekeeper/store/chain.py); None only in a store
    # written before checksums existed, until the store is opened once (it then fills them in).
    chain: str | None = Field(default=None, max_length=64)


class MetaRow(SQLModel, table=True):
    """A small named setting of the whole store (e.g. the organiser token's hash)."""

    __tablename__ = "meta"

    key: str = Field(primary_key=True, max_length=200)
    value: str


class KitRow(SQLModel, table=True):
    """A kit: the tag registry of one physical copy of a game (``entries``: uid -> piece)."""

    __tablename__ = "kits"

    name: str = Field(primary_key=True, max_length=64)
    game: str
    entries: dict[str, str] = Field(sa_column=Column(JSON, nullable=False))
    updated_at: datetime = Field(default_factory=utcnow)


class DataRow(SQLModel, table=True):
    """One stored entry of a game's data kind (scorekeeper/core/data.py), e.g. a board profile.

    ``body`` is the entry's mapping as validated by the kind's schema. Samples are never stored:
    they ship in the game's package.
    """

    __tablename__ = "data"

    game: str = Field(primary_key=True, max_length=64)
    kind: str = Field(primary_key=True, max_length=64)
    name: str = Field(primary_key=True, max_length=64)
    body: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    updated_at: datetime = Field(default_factory=utcnow)


class TableSettingsRow(SQLModel, table=True):
    """The settings of one table kept beside its row: its archive mark, its stored summary, its
    readers and its spectator delay. A table without a row here has the defaults (not archived,
    no summary, no readers, no delay); deleting the table deletes its row
    (``Store.delete_table``).

    ``summary`` is an ended or archived table's list line as JSON text (final scores,
    winners...), so that a start lists it without replaying its log; written by the hub when it
    unloads the table, and read back as the same text.
    """

    __tablename__ = "table_settings"

    table_id: str = Field(primary_key=True, foreign_key="tables.id", max_length=32)
    archived: bool = False
    summary: str | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    readers: str = ""  # the reader backend spec ("" for none)
    # Seconds the public audience sees the table late (0: live; scorekeeper/service/delay.py).
    # The server default is what revision 0005 gave the rows it found (SQLite adds a NOT NULL
    # column only with one); kept here so that a new store has the same column.
    spectator_delay: float = Field(default=0.0, sa_column_kwargs={"server_default": "0"})


class SeatTokenRow(SQLModel, table=True):
    """A seat token, kept only as its SHA-256 (``hash``): which seat of which table it opens,
    and whether the organiser withdrew it (a withdrawn token is kept, so that its holder is
    told so, not that it is unknown). Deleting the table deletes its tokens."""

    __tablename__ = "seat_tokens"
    __table_args__ = (Index("ix_seat_tokens_table_seat", "table_id", "seat"),)

    hash: str = Field(primary_key=True, max_length=64)
    table_id: str = Field(foreign_key="tables.id", max_length=32)
    seat: int
    revoked: bool = False
    created_at: datetime = Field(default_factory=utcnow)
