"""The SQL tables of the store, as SQLAlchemy Core tables (SQLite by default; PostgreSQL works
too).

``LOG`` is the event log: one row per input, numbered per table from 1, never updated or
deleted (docs/design.md, invariant 1). The other tables hold what a table is (``TABLES``), tag
registries (``KITS``), the games' data entries such as board profiles (``DATA``), each table's
settings (``SETTINGS``), seat tokens (``SEAT_TOKENS``) and small store-wide settings such as the
organiser token (``META``). The event hub's tables are in event_models.py, on the same
``METADATA``.

The tables are created and changed by the migrations (scorekeeper/store/migrations/), never
from these definitions: a change here needs a new revision there, and a test compares the two.

Core tables, not SQLModel classes: the store reads and writes rows, never objects, and the
classes loaded SQLModel and SQLAlchemy's ORM into every server, about 9 MB of the memory a
table's server has for its game (docs/design.md, "Budgets"). The columns are those the classes
made, defaults included (``UTCDateTime`` is SQLModel's type for an aware datetime).
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Dialect,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    UniqueConstraint,
    types,
)

TABLE_STATUSES = ("created", "running", "paused", "ended")

METADATA = MetaData()
"""The store's one schema (and the event hub's tables): the revisions and their test compare
it."""


def utcnow() -> datetime:
    """The wall-clock time, timezone-aware in UTC (``UTCDateTime`` columns require it)."""
    return datetime.now(UTC)


class UTCDateTime(types.TypeDecorator[datetime]):
    """An aware datetime, stored in UTC and read back in UTC (SQLite keeps no offset: what it
    gives back is UTC). A naive datetime is refused: its zone would be a guess."""

    impl = types.DateTime
    cache_ok = True

    def __init__(self) -> None:
        super().__init__(timezone=True)

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.utcoffset() is None:
            raise ValueError("a datetime stored needs its time zone: use utcnow()")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.utcoffset() is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


def _when(name: str) -> Column[datetime]:
    """A timestamp column that a row gets at insert when none is given."""
    return Column(name, UTCDateTime(), nullable=False, default=utcnow)


# One table: its short id (``t1``), its frozen configuration and its status.
TABLES = Table(
    "tables",
    METADATA,
    Column("id", String(32), primary_key=True),
    _when("created_at"),
    Column("name", String(), nullable=False, default=""),
    Column("game", String(), nullable=False),
    Column("config", JSON(), nullable=False),
    Column("status", String(), nullable=False, default="created"),
)
# One logged input of one table. ``at`` is informational: replay never reads it. ``chain`` is
# the record's chained checksum (scorekeeper/store/chain.py); None only in a store written
# before checksums existed, until the store is opened once (it then fills them in).
LOG = Table(
    "log",
    METADATA,
    Column("id", Integer(), primary_key=True),
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False),
    Column("seq", Integer(), nullable=False),
    _when("at"),
    Column("record", JSON(), nullable=False),
    Column("chain", String(64), nullable=True),
    UniqueConstraint("table_id", "seq", name="uq_log_table_seq"),
)
# A small named setting of the whole store (e.g. the organiser token's hash).
META = Table(
    "meta",
    METADATA,
    Column("key", String(200), primary_key=True),
    Column("value", String(), nullable=False),
)
# A kit: the tag registry of one physical copy of a game (``entries``: uid -> piece).
KITS = Table(
    "kits",
    METADATA,
    Column("name", String(64), primary_key=True),
    Column("game", String(), nullable=False),
    Column("entries", JSON(), nullable=False),
    _when("updated_at"),
)
# One stored entry of a game's data kind (scorekeeper/core/data.py), e.g. a board profile:
# ``body`` is the entry's mapping as validated by the kind's schema. Samples are never stored:
# they ship in the game's package.
DATA = Table(
    "data",
    METADATA,
    Column("game", String(64), primary_key=True),
    Column("kind", String(64), primary_key=True),
    Column("name", String(64), primary_key=True),
    Column("body", JSON(), nullable=False),
    _when("updated_at"),
)
# The settings of one table kept beside its row: its archive mark, its stored summary, its
# readers and its spectator delay. A table without a row here has the defaults (not archived,
# no summary, no readers, no delay); deleting the table deletes its row
# (``Store.delete_table``). ``summary`` is an ended or archived table's list line as JSON text
# (final scores, winners...), so that a start lists it without replaying its log; written by
# the hub when it unloads the table, and read back as the same text. ``readers`` is the reader
# backend spec ("" for none). ``spectator_delay``: seconds the public audience sees the table
# late (0: live; scorekeeper/service/delay.py); its server default is what revision 0005 gave
# the rows it found (SQLite adds a NOT NULL column only with one), kept here so that a new
# store has the same column.
SETTINGS = Table(
    "table_settings",
    METADATA,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("archived", Boolean(), nullable=False, default=False),
    Column("summary", JSON(), nullable=True),
    Column("readers", String(), nullable=False, default=""),
    Column("spectator_delay", Float(), nullable=False, default=0.0, server_default="0"),
)
# A seat token, kept only as its SHA-256 (``hash``): which seat of which table it opens, and
# whether the organiser withdrew it (a withdrawn token is kept, so that its holder is told so,
# not that it is unknown). Deleting the table deletes its tokens.
SEAT_TOKENS = Table(
    "seat_tokens",
    METADATA,
    Column("hash", String(64), primary_key=True),
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False),
    Column("seat", Integer(), nullable=False),
    Column("revoked", Boolean(), nullable=False, default=False),
    _when("created_at"),
    Index("ix_seat_tokens_table_seat", "table_id", "seat"),
)
