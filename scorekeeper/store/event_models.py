"""The event hub's SQL tables, part of the store's schema (made and changed by its revisions,
scorekeeper/store/migrations/, like every other table of the store).

The games an event plays are ordinary tables of the store (``tables`` and ``log``: the
replicas of each table Pi's log). What spans tables is here:

- ``events``: one row per event (its id, name and game);
- ``event_log``: the event's own append-only records (players entering, check-ins, seatings,
  confirmations, judges' overrides, timers: scorekeeper/event/records.py), numbered per event
  from 1 with a unique (event, seq) key, so two hub processes never write the same number;
- ``players``: people kept across events (a player registered once is found again next time);
- ``event_tables``: an event's physical tables and their broker user (the password itself is
  only in the file given to that table's Pi, and hashed in the broker's password file);
- ``event_tokens``: scoped tokens (organiser, judge, table, seat), kept as SHA-256 hashes.

Every store has these tables (a table's Pi leaves them empty); the hub's access to them is
scorekeeper/event/event_db.py. A change here needs a new revision, as for models.py.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Column, UniqueConstraint
from sqlmodel import Field, SQLModel

from scorekeeper.store.base import table_of
from scorekeeper.store.models import utcnow

SCOPES = ("organiser", "judge", "table", "seat")


class EventRow(SQLModel, table=True):
    """One event: its short id (used in topics and game ids), its name and its game."""

    __tablename__ = "events"

    id: str = Field(primary_key=True, max_length=20)
    name: str
    game: str = Field(max_length=64)
    created_at: datetime = Field(default_factory=utcnow)


class EventRecordRow(SQLModel, table=True):
    """One record of an event's own log; never updated or deleted."""

    __tablename__ = "event_log"
    __table_args__ = (UniqueConstraint("event_id", "seq", name="uq_event_log_event_seq"),)

    id: int | None = Field(default=None, primary_key=True)
    event_id: str = Field(foreign_key="events.id", max_length=20)
    seq: int
    at: datetime = Field(default_factory=utcnow)
    record: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))


class PlayerRow(SQLModel, table=True):
    """A person who plays at events, kept from one event to the next."""

    __tablename__ = "players"

    id: str = Field(primary_key=True, max_length=16)
    name: str = Field(max_length=80)
    created_at: datetime = Field(default_factory=utcnow)


class EventTableRow(SQLModel, table=True):
    """A physical table of an event (one Pi) and the broker user it connects as."""

    __tablename__ = "event_tables"

    event_id: str = Field(primary_key=True, foreign_key="events.id", max_length=20)
    name: str = Field(primary_key=True, max_length=20)
    username: str = Field(max_length=64)
    password_hash: str = Field(max_length=200)  # as the broker's password file holds it
    created_at: datetime = Field(default_factory=utcnow)
    # What the table last said (its retained status and health), so that every hub process
    # shows the same, whichever one the broker handed the message to.
    online: bool = False
    seen_at: datetime | None = None
    games: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    health: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))


class EventTokenRow(SQLModel, table=True):
    """A scoped token's hash: who it lets in (``scope``) and for what (``subject``)."""

    __tablename__ = "event_tokens"

    hash: str = Field(primary_key=True, max_length=64)
    event_id: str = Field(foreign_key="events.id", max_length=20)
    scope: str = Field(max_length=16)
    subject: str = Field(default="", max_length=64)  # a table name or a player id
    revoked: bool = False
    created_at: datetime = Field(default_factory=utcnow)


EVENT_MODELS: tuple[type[SQLModel], ...] = (
    EventRow,
    EventRecordRow,
    PlayerRow,
    EventTableRow,
    EventTokenRow,
)

EVENTS = table_of(EventRow)
EVENT_LOG = table_of(EventRecordRow)
PLAYERS = table_of(PlayerRow)
EVENT_TABLES = table_of(EventTableRow)
EVENT_TOKENS = table_of(EventTokenRow)
# In the order they can be created (``events`` first: the others refer to it).
EVENT_SQL_TABLES = (EVENTS, EVENT_LOG, PLAYERS, EVENT_TABLES, EVENT_TOKENS)
