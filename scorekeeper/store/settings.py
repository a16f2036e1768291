"""Each table's settings and seat tokens, in their own tables (not meta strings).

``SettingsStore`` is one of ``Store``'s classes (scorekeeper/store/store.py). A table's
settings (``table_settings``: archived, its stored summary, its readers, its spectator delay)
have one row per table that has any; a table without one has the defaults. Seat tokens
(``seat_tokens``) are kept only as hashes (scorekeeper/service/tokens.py makes and checks
them). ``Store.delete_table`` deletes a table's rows in both. Store-wide settings stay in
meta (rows.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, null, select, update

from scorekeeper.errors import ConfigError
from scorekeeper.store.base import SEAT_TOKENS, SETTINGS
from scorekeeper.store.models import utcnow
from scorekeeper.store.rows import Rows


@dataclass(frozen=True, slots=True)
class TableSettings:
    """One table's settings: archived (hidden from the lists, its log kept), its summary (an
    ended or archived table's list line as JSON text, None until the hub stores one), its
    reader backend spec ("" for none) and its spectator delay in seconds (0: off)."""

    archived: bool = False
    summary: str | None = None
    readers: str = ""
    spectator_delay: float = 0.0


DEFAULTS = TableSettings()


class SettingsStore(Rows):
    """Table settings and seat tokens of a ``Store``."""

    # -- table settings ---------------------------------------------------------------------

    def table_settings(self) -> dict[str, TableSettings]:
        """The settings of every table that has any, by table id, in one query (a start reads
        them all at once); a table missing here has ``DEFAULTS``."""
        query = select(
            SETTINGS.c.table_id,
            SETTINGS.c.archived,
            self._json_text(SETTINGS.c.summary),
            SETTINGS.c.readers,
            SETTINGS.c.spectator_delay,
        )
        with self._db("read the tables' settings") as conn:
            rows = conn.execute(query).all()
            conn.rollback()
        return {str(row[0]): _settings(*row[1:]) for row in rows}

    def settings(self, table_id: str) -> TableSettings:
        """One table's settings (``DEFAULTS`` when it has none stored, or no such table)."""
        query = select(
            SETTINGS.c.archived,
            self._json_text(SETTINGS.c.summary),
            SETTINGS.c.readers,
            SETTINGS.c.spectator_delay,
        ).where(SETTINGS.c.table_id == table_id)
        with self._db("read a table's settings") as conn:
            row = conn.execute(query).first()
            conn.rollback()
        return DEFAULTS if row is None else _settings(*row)

    def archived(self, table_id: str) -> bool:
        """True while the table is archived (hidden from the lists; its log is kept)."""
        return self.settings(table_id).archived

    def set_archived(self, table_id: str, archived: bool) -> None:
        """Archive or unarchive a table (NotFound if there is no such table)."""
        self._set_settings(table_id, "archive a table", archived=bool(archived))

    def summary(self, table_id: str) -> str | None:
        """The table's stored summary (JSON text as written), or None."""
        return self.settings(table_id).summary

    def set_summary(self, table_id: str, summary: str | None) -> None:
        """Store (None: forget) a table's summary, JSON text kept as given (NotFound if there
        is no such table; on PostgreSQL, StoreError for text that is not JSON)."""
        # SQL NULL, not the JSON text 'null' a None would become through the JSON type.
        value = null() if summary is None else self._json_value(summary)
        self._set_settings(table_id, "store a table's summary", summary=value)

    def readers(self, table_id: str) -> str:
        """The table's reader backend spec ("" for none)."""
        return self.settings(table_id).readers

    def set_readers(self, table_id: str, spec: str) -> None:
        """Store a table's reader backend spec (NotFound if there is no such table)."""
        self._set_settings(table_id, "store a table's readers", readers=str(spec))

    def spectator_delay(self, table_id: str) -> float:
        """The table's spectator delay in seconds (0: off), as stored; the service checks it
        against its own limits (scorekeeper/service/delay.py)."""
        return self.settings(table_id).spectator_delay

    def set_spectator_delay(self, table_id: str, seconds: float) -> None:
        """Store a table's spectator delay in seconds, 0 for off (NotFound if there is no such
        table; ConfigError for a negative or endless number)."""
        value = float(seconds)
        if not math.isfinite(value) or value < 0:
            raise ConfigError(f"a spectator delay is 0 or more seconds, not {seconds!r}")
        self._set_settings(table_id, "store a table's spectator delay", spectator_delay=value)

    def _set_settings(self, table_id: str, doing: str, **values: Any) -> None:
        """Change some of a table's settings, making its row when it has none."""
        with self._db(doing) as conn:
            self._table_row(conn, table_id)
            done = conn.execute(
                update(SETTINGS).where(SETTINGS.c.table_id == table_id).values(**values)
            )
            if done.rowcount == 0:
                row = {
                    "archived": False,
                    "summary": null(),
                    "readers": "",
                    "spectator_delay": 0.0,
                    **values,
                }
                conn.execute(insert(SETTINGS).values(table_id=table_id, **row))
            conn.commit()

    # -- seat tokens (kept as hashes: scorekeeper/service/tokens.py) --------------------------

    def add_seat_token(self, digest: str, table_id: str, seat: int) -> None:
        """Keep a new seat token's hash for ``seat`` of a table (NotFound: no such table)."""
        with self._db("keep a seat token") as conn:
            self._table_row(conn, table_id)
            conn.execute(
                insert(SEAT_TOKENS).values(
                    hash=digest,
                    table_id=table_id,
                    seat=int(seat),
                    revoked=False,
                    created_at=utcnow(),
                )
            )
            conn.commit()

    def seat_token(self, digest: str) -> tuple[str, int, bool] | None:
        """``(table id, seat, revoked)`` of the seat token with this hash, or None."""
        query = select(SEAT_TOKENS.c.table_id, SEAT_TOKENS.c.seat, SEAT_TOKENS.c.revoked)
        with self._db("read a seat token") as conn:
            row = conn.execute(query.where(SEAT_TOKENS.c.hash == digest)).first()
            conn.rollback()
        return None if row is None else (str(row[0]), int(row[1]), bool(row[2]))

    def revoke_seat_tokens(self, table_id: str, seat: int) -> list[str]:
        """Mark withdrawn every seat token of ``seat`` at a table not withdrawn yet; returns
        their hashes, oldest first (a withdrawn token is kept: its holder is told so)."""
        mine = (
            (SEAT_TOKENS.c.table_id == table_id)
            & (SEAT_TOKENS.c.seat == int(seat))
            & SEAT_TOKENS.c.revoked.is_(False)
        )
        with self._db("withdraw seat tokens") as conn:
            hashes = [
                str(h)
                for h in conn.execute(
                    select(SEAT_TOKENS.c.hash).where(mine).order_by(SEAT_TOKENS.c.created_at)
                ).scalars()
            ]
            if hashes:
                conn.execute(
                    update(SEAT_TOKENS).where(SEAT_TOKENS.c.hash.in_(hashes)).values(revoked=True)
                )
            conn.commit()
        return hashes


def _settings(archived: Any, summary: Any, readers: Any, delay: Any) -> TableSettings:
    """A ``TableSettings`` from the columns of its row as the database returns them."""
    return TableSettings(
        bool(archived),
        None if summary is None else str(summary),
        str(readers or ""),
        float(delay or 0.0),
    )
