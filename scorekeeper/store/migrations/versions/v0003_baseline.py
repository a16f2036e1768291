"""Baseline: the store's tables as schema 3 made them (tables, log, meta, kits, data).

A store made before migrations is stamped at this revision instead of running it. The tables
are spelled out here, not taken from the models: a revision is what the schema was then.

Revision ID: 0003_baseline
Revises: (none)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_baseline"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def _when(name: str) -> sa.Column[object]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=False)


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.String(32), primary_key=True),
        _when("created_at"),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("game", sa.String(), nullable=False),
        sa.Column("config", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(), nullable=False),
    )
    op.create_table(
        "log",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        _when("at"),
        sa.Column("record", sa.JSON(), nullable=False),
        sa.Column("chain", sa.String(64), nullable=True),
        sa.UniqueConstraint("table_id", "seq", name="uq_log_table_seq"),
    )
    meta = op.create_table(
        "meta",
        sa.Column("key", sa.String(200), primary_key=True),
        sa.Column("value", sa.String(), nullable=False),
    )
    op.create_table(
        "kits",
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("game", sa.String(), nullable=False),
        sa.Column("entries", sa.JSON(), nullable=False),
        _when("updated_at"),
    )
    op.create_table(
        "data",
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("kind", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("body", sa.JSON(), nullable=False),
        _when("updated_at"),
    )
    op.bulk_insert(meta, [{"key": "schema_version", "value": "3"}])


def downgrade() -> None:
    for name in ("data", "kits", "meta", "log", "tables"):
        op.drop_table(name)
