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

They are SQLAlchemy Core tables on SQLModel's metadata, not SQLModel classes: nothing reads
them as objects, and five model classes cost every table's server about a megabyte it has
to spare for its game (the memory budget).
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Table,
    UniqueConstraint,
)
from sqlmodel import SQLModel

SCOPES = ("organiser", "judge", "table", "seat")

_META = SQLModel.metadata  # the store's one schema: the revisions and their test compare it


def _when(name: str, *, nullable: bool = False) -> Column[object]:
    return Column(name, DateTime(timezone=True), nullable=nullable)


# One event: its short id (used in topics and game ids), its name and its game.
EVENTS = Table(
    "events",
    _META,
    Column("id", String(20), primary_key=True),
    Column("name", String(), nullable=False),
    Column("game", String(64), nullable=False),
    _when("created_at"),
)
# One record of an event's own log; never updated or deleted.
EVENT_LOG = Table(
    "event_log",
    _META,
    Column("id", Integer(), primary_key=True),
    Column("event_id", String(20), ForeignKey("events.id"), nullable=False),
    Column("seq", Integer(), nullable=False),
    _when("at"),
    Column("record", JSON(), nullable=False),
    UniqueConstraint("event_id", "seq", name="uq_event_log_event_seq"),
)
# A person who plays at events, kept from one event to the next.
PLAYERS = Table(
    "players",
    _META,
    Column("id", String(16), primary_key=True),
    Column("name", String(80), nullable=False),
    _when("created_at"),
)
# A physical table of an event (one Pi), the broker user it connects as (the password hash as
# the broker's password file holds it), and what it last said (its retained status and
# health), so that every hub process shows the same, whichever one the broker told.
EVENT_TABLES = Table(
    "event_tables",
    _META,
    Column("event_id", String(20), ForeignKey("events.id"), primary_key=True),
    Column("name", String(20), primary_key=True),
    Column("username", String(64), nullable=False),
    Column("password_hash", String(200), nullable=False),
    _when("created_at"),
    Column("online", Boolean(), nullable=False),
    _when("seen_at", nullable=True),
    Column("games", JSON(), nullable=False),
    Column("health", JSON(), nullable=False),
)
# A scoped token's hash: who it lets in (scope) and for what (subject: a table or a player).
EVENT_TOKENS = Table(
    "event_tokens",
    _META,
    Column("hash", String(64), primary_key=True),
    Column("event_id", String(20), ForeignKey("events.id"), nullable=False),
    Column("scope", String(16), nullable=False),
    Column("subject", String(64), nullable=False),
    Column("revoked", Boolean(), nullable=False),
    _when("created_at"),
)
# In the order they can be created (``events`` first: the others refer to it).
EVENT_SQL_TABLES = (EVENTS, EVENT_LOG, PLAYERS, EVENT_TABLES, EVENT_TOKENS)
