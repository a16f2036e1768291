"""The spectator delay moves out of meta strings, and the event hub's tables join the schema.

Before, meta held ``spectator-delay:<id>`` (the seconds as text, "0" or absent: off) and the
event hub made its own tables (``events``, ``event_log``, ``players``, ``event_tables``,
``event_tokens``) on its first start, outside the revisions. Now ``table_settings`` has a
``spectator_delay`` column (seconds, 0 for off) and the meta rows are moved and deleted; the
event tables are made here, and only where they are missing: a hub database made before this
revision already has them (the same layout) and keeps them with their rows.

A delay that cannot be moved is dropped, with a warning in the log, never a failed upgrade:
one of a table that no longer exists, or a value that the server read as "off" anyway (not a
number, or outside 0 to 600 seconds). That table is then shown live to spectators.

Revision ID: 0005_delay_and_events
Revises: 0004_table_settings
"""

from __future__ import annotations

import logging
import math

import sqlalchemy as sa
from alembic import op

revision = "0005_delay_and_events"
down_revision: str | None = "0004_table_settings"
branch_labels: str | None = None
depends_on: str | None = None

log = logging.getLogger("scorekeeper.store.migrations")

DELAY = "spectator-delay:"
MAX_SECONDS = 600.0  # the service's limit when this revision was written (service/delay.py)
EVENT_TABLES = ("events", "event_log", "players", "event_tables", "event_tokens")

_meta = sa.table("meta", sa.column("key", sa.String()), sa.column("value", sa.String()))
_tables = sa.table("tables", sa.column("id", sa.String()))
_settings = sa.table(
    "table_settings",
    sa.column("table_id", sa.String()),
    sa.column("archived", sa.Boolean()),
    sa.column("readers", sa.String()),
    sa.column("spectator_delay", sa.Float()),
)


def upgrade() -> None:
    # SQLite adds a NOT NULL column only with a default; the model declares the same one.
    op.add_column(
        "table_settings",
        sa.Column("spectator_delay", sa.Float(), nullable=False, server_default="0"),
    )
    bind = op.get_bind()
    _move_delays(bind)
    existing = set(sa.inspect(bind).get_table_names())
    for name, make in zip(EVENT_TABLES, _EVENT_DDL, strict=True):
        if name not in existing:
            make()
    bind.execute(sa.update(_meta).where(_meta.c.key == "schema_version").values(value="5"))


def downgrade() -> None:
    """The delays back to meta strings, then the column dropped. The event tables stay, with
    their rows: before this revision the hub made them itself, and would find them there."""
    bind = op.get_bind()
    query = sa.select(_settings.c.table_id, _settings.c.spectator_delay).where(
        _settings.c.spectator_delay > 0
    )
    values = [{"key": DELAY + str(t), "value": repr(float(s))} for t, s in bind.execute(query)]
    if values:
        op.bulk_insert(_meta, values)
    with op.batch_alter_table("table_settings") as batch:
        batch.drop_column("spectator_delay")
    bind.execute(sa.update(_meta).where(_meta.c.key == "schema_version").values(value="4"))


def _move_delays(bind: sa.Connection) -> None:
    """Each ``spectator-delay:`` meta row into its table's settings row, then deleted."""
    known = {str(i) for i in bind.execute(sa.select(_tables.c.id)).scalars()}
    rows = bind.execute(
        sa.select(_meta.c.key, _meta.c.value).where(_meta.c.key.startswith(DELAY))
    ).all()
    have = {str(i) for i in bind.execute(sa.select(_settings.c.table_id)).scalars()}
    for key, value in rows:
        table_id = str(key)[len(DELAY) :]
        seconds = _seconds(str(value))
        if table_id not in known:
            _dropped(str(key), "its table is not in the store")
        elif seconds is None:
            _dropped(str(key), f"not a delay of 0 to {MAX_SECONDS:g} seconds; the delay is off")
        elif seconds and table_id in have:
            bind.execute(
                sa.update(_settings)
                .where(_settings.c.table_id == table_id)
                .values(spectator_delay=seconds)
            )
        elif seconds:
            bind.execute(
                sa.insert(_settings).values(
                    table_id=table_id, archived=False, readers="", spectator_delay=seconds
                )
            )
    if rows:
        bind.execute(sa.delete(_meta).where(_meta.c.key.startswith(DELAY)))


def _seconds(value: str) -> float | None:
    """The seconds a stored delay says, as the server read it; None when it read "off"."""
    if not value:
        return 0.0
    try:
        seconds = float(value)
    except ValueError:
        return None
    return seconds if math.isfinite(seconds) and 0 <= seconds <= MAX_SECONDS else None


def _dropped(key: str, why: str) -> None:
    log.warning("a setting was not moved: %s", why, extra={"key": key})


# The event hub's tables as they are at this revision (never the live models: they may change
# after it), in the order they can be made (``events`` first: the others refer to it).


def _events() -> None:
    op.create_table(
        "events",
        sa.Column("id", sa.String(20), primary_key=True),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def _event_log() -> None:
    op.create_table(
        "event_log",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("event_id", sa.String(20), sa.ForeignKey("events.id"), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("record", sa.JSON(), nullable=False),
        sa.UniqueConstraint("event_id", "seq", name="uq_event_log_event_seq"),
    )


def _players() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def _event_tables() -> None:
    op.create_table(
        "event_tables",
        sa.Column("event_id", sa.String(20), sa.ForeignKey("events.id"), primary_key=True),
        sa.Column("name", sa.String(20), primary_key=True),
        sa.Column("username", sa.String(64), nullable=False),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("online", sa.Boolean(), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("games", sa.JSON(), nullable=False),
        sa.Column("health", sa.JSON(), nullable=False),
    )


def _event_tokens() -> None:
    op.create_table(
        "event_tokens",
        sa.Column("hash", sa.String(64), primary_key=True),
        sa.Column("event_id", sa.String(20), sa.ForeignKey("events.id"), nullable=False),
        sa.Column("scope", sa.String(16), nullable=False),
        sa.Column("subject", sa.String(64), nullable=False),
        sa.Column("revoked", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


_EVENT_DDL = (_events, _event_log, _players, _event_tables, _event_tokens)
