"""Per-table settings move out of meta strings into real tables.

Before, meta held ``table-archived:<id>`` ("1" while archived), ``table-summary:<id>`` (an
ended table's list line, JSON), ``table-readers:<id>`` (its reader spec), ``seat-token:<hash>``
(``{"table", "seat", "revoked"}``) and ``seat-tokens:<table>:<seat>`` (a list of hashes). Now
``table_settings`` has a row per table with settings and ``seat_tokens`` a row per token; the
meta rows are moved and deleted. Store-wide settings stay in meta.

A row that cannot be moved is dropped, with a warning in the log, never a failed upgrade: a
setting of a table that no longer exists, a summary that is not JSON (the table is replayed
once at the next start and its summary written again), a seat token that does not say its
table and seat (its phone pairs again).

Revision ID: 0004_table_settings
Revises: 0003_baseline
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0004_table_settings"
down_revision: str | None = "0003_baseline"
branch_labels: str | None = None
depends_on: str | None = None

log = logging.getLogger("scorekeeper.store.migrations")

ARCHIVED = "table-archived:"
SUMMARY = "table-summary:"
READERS = "table-readers:"
SEAT = "seat-token:"
SEAT_LIST = "seat-tokens:"
_CHUNK = 500

_meta = sa.table("meta", sa.column("key", sa.String()), sa.column("value", sa.String()))
_tables = sa.table("tables", sa.column("id", sa.String()))


def upgrade() -> None:
    settings = op.create_table(
        "table_settings",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("archived", sa.Boolean(), nullable=False),
        sa.Column("summary", sa.JSON(), nullable=True),
        sa.Column("readers", sa.String(), nullable=False),
    )
    tokens = op.create_table(
        "seat_tokens",
        sa.Column("hash", sa.String(64), primary_key=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("revoked", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_seat_tokens_table_seat", "seat_tokens", ["table_id", "seat"])
    bind = op.get_bind()
    known = {str(i) for i in bind.execute(sa.select(_tables.c.id)).scalars()}
    rows = [(str(k), str(v)) for k, v in bind.execute(sa.select(_meta.c.key, _meta.c.value))]
    moved: dict[str, dict[str, Any]] = {}
    seats: list[dict[str, Any]] = []
    gone: list[str] = []
    now = datetime.now(UTC)
    for key, value in rows:
        for prefix in (ARCHIVED, SUMMARY, READERS):
            if key.startswith(prefix):
                gone.append(key)
                table_id = key[len(prefix) :]
                if table_id not in known:
                    _dropped(key, "its table is not in the store")
                elif prefix == SUMMARY and not _is_json(value):
                    _dropped(key, "not JSON; the table's log will be replayed")
                else:
                    row = moved.setdefault(
                        table_id,
                        {"table_id": table_id, "archived": False, "summary": None, "readers": ""},
                    )
                    field = {ARCHIVED: "archived", SUMMARY: "summary", READERS: "readers"}[prefix]
                    row[field] = value == "1" if prefix == ARCHIVED else value
        if key.startswith(SEAT_LIST):
            gone.append(key)  # the tokens' own rows say their table and seat
        elif key.startswith(SEAT):
            gone.append(key)
            token = _seat_token(key[len(SEAT) :], value, known, now)
            if token is None:
                _dropped(key, "not a seat token of a table in the store")
            else:
                seats.append(token)
    for row in moved.values():
        summary = row.pop("summary")
        bind.execute(sa.insert(settings).values(**row, summary=_json_text(bind, summary)))
    if seats:
        op.bulk_insert(tokens, seats)
    for start in range(0, len(gone), _CHUNK):
        bind.execute(sa.delete(_meta).where(_meta.c.key.in_(gone[start : start + _CHUNK])))
    bind.execute(sa.update(_meta).where(_meta.c.key == "schema_version").values(value="4"))


def downgrade() -> None:
    """Back to meta strings (the seat lists rebuilt from the tokens), then drop the tables."""
    bind = op.get_bind()
    text = sa.Text()
    settings = sa.table(
        "table_settings",
        sa.column("table_id", sa.String()),
        sa.column("archived", sa.Boolean()),
        sa.column("summary", text),
        sa.column("readers", sa.String()),
    )
    summary = (
        settings.c.summary if bind.dialect.name == "sqlite" else sa.cast(settings.c.summary, text)
    )
    values: list[dict[str, str]] = []
    query = sa.select(settings.c.table_id, settings.c.archived, summary, settings.c.readers)
    for table_id, archived, brief, readers in bind.execute(query):
        if archived:
            values.append({"key": ARCHIVED + table_id, "value": "1"})
        if brief is not None:
            values.append({"key": SUMMARY + table_id, "value": str(brief)})
        if readers:
            values.append({"key": READERS + table_id, "value": readers})
    lists: dict[str, list[str]] = {}
    ordered = sa.text("SELECT hash, table_id, seat, revoked FROM seat_tokens ORDER BY created_at")
    for digest, table_id, seat, revoked in bind.execute(ordered):
        data: dict[str, Any] = {"table": table_id, "seat": int(seat)}
        if revoked:
            data["revoked"] = True
        else:
            lists.setdefault(f"{SEAT_LIST}{table_id}:{seat}", []).append(digest)
        values.append({"key": SEAT + digest, "value": json.dumps(data)})
    values.extend({"key": k, "value": json.dumps(v)} for k, v in lists.items())
    if values:
        op.bulk_insert(_meta, values)
    bind.execute(sa.update(_meta).where(_meta.c.key == "schema_version").values(value="3"))
    op.drop_index("ix_seat_tokens_table_seat", "seat_tokens")
    op.drop_table("seat_tokens")
    op.drop_table("table_settings")


def _dropped(key: str, why: str) -> None:
    log.warning("a setting was not moved: %s", why, extra={"key": key})


def _is_json(value: str) -> bool:
    try:
        json.loads(value)
    except ValueError:
        return False
    return True


def _json_text(bind: sa.Connection, value: str | None) -> Any:
    """``value`` (JSON text) as stored as is in a JSON column (not encoded once more); None is
    SQL NULL (through the JSON type it would become the text 'null')."""
    if value is None:
        return sa.null()
    literal = sa.literal(value, sa.Text())
    return literal if bind.dialect.name == "sqlite" else sa.cast(literal, sa.JSON())


def _seat_token(digest: str, value: str, known: set[str], now: datetime) -> dict[str, Any] | None:
    """A ``seat_tokens`` row from a ``seat-token:`` meta value, or None when unusable."""
    try:
        data = json.loads(value)
        table_id, seat = str(data["table"]), int(data["seat"])
        revoked = bool(data.get("revoked", False))
    except (ValueError, TypeError, KeyError):
        return None
    if table_id not in known or not 0 < len(digest) <= 64:
        return None
    return {
        "hash": digest,
        "table_id": table_id,
        "seat": seat,
        "revoked": revoked,
        "created_at": now,
    }
