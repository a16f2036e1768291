"""The commands a table has applied, remembered in its own store (at most once per command id).

A hub's correction reaches a table as an MQTT command at QoS 1, which may be delivered twice
(a reconnect, a broker restart, an acknowledgement lost). The table agent
(scorekeeper/event/table_agent.py) notes each input command here before it submits it and
marks it done after, so a second delivery is answered with the first outcome instead of being
applied again.

A process that dies between the submit and the "done" mark leaves the command ``pending`` with
the seq its table had before: on the next delivery the agent looks in the log after that seq for
the command's input (``TableAgent._apply_input``) and applies it only when it is not there.
Hazard: an equal input made at the table in that window (a second undo) counts as the
command's; the window is one crash between two commits, and taking back one play fewer is the
safer mistake.

The table lives in the table's own store, created here with SQLModel (it is the agent's, not the
store's: the store only lends its connection and lock, ``Store._db``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Table, insert, select, update
from sqlmodel import Field, SQLModel

from scorekeeper.store.models import utcnow

PENDING = "pending"
DONE = "done"


class AppliedCommandRow(SQLModel, table=True):
    """One command a table received from its event's hub, and what became of it."""

    __tablename__ = "event_commands"

    id: str = Field(primary_key=True, max_length=64)
    game: str = Field(max_length=32)
    state: str = Field(max_length=8)  # PENDING while it is being applied, then DONE
    before_seq: int  # the game's last log seq when the command was taken up
    by: str = Field(default="", max_length=200)  # who sent it (audited), and why
    reason: str = ""
    ok: bool = False
    error: str | None = None
    at: datetime = Field(default_factory=utcnow)


COMMANDS: Table = AppliedCommandRow.__table__  # type: ignore[attr-defined]


@dataclass(frozen=True, slots=True)
class Applied:
    """What the store remembers of one command."""

    game: str
    state: str
    before_seq: int
    ok: bool
    error: str | None


class AppliedCommands:
    """The ``event_commands`` table of a table's store (thread-safe: the store's lock)."""

    def __init__(self, store: Any) -> None:
        self.store = store
        with store._db("create the table of applied commands") as conn:
            COMMANDS.create(conn, checkfirst=True)
            conn.commit()

    def get(self, command_id: str) -> Applied | None:
        """What became of ``command_id``, or None for a command never seen."""
        with self.store._db("read an applied command") as conn:
            row = conn.execute(
                select(
                    COMMANDS.c.game,
                    COMMANDS.c.state,
                    COMMANDS.c.before_seq,
                    COMMANDS.c.ok,
                    COMMANDS.c.error,
                ).where(COMMANDS.c.id == command_id)
            ).first()
            conn.rollback()
        if row is None:
            return None
        return Applied(str(row[0]), str(row[1]), int(row[2]), bool(row[3]), row[4])

    def begin(
        self, command_id: str, game: str, before_seq: int, by: str = "", reason: str = ""
    ) -> None:
        """Note ``command_id`` (sent ``by`` someone for ``reason``) as being applied to
        ``game``, whose log ends at ``before_seq`` (committed before its input is submitted)."""
        with self.store._db("note a command") as conn:
            conn.execute(
                insert(COMMANDS).values(
                    id=command_id,
                    game=game,
                    state=PENDING,
                    before_seq=before_seq,
                    by=by,
                    reason=reason,
                    ok=False,
                    error=None,
                    at=utcnow(),
                )
            )
            conn.commit()

    def finish(self, command_id: str, ok: bool, error: str | None) -> None:
        """Mark ``command_id`` done with its outcome (what a second delivery is answered)."""
        with self.store._db("note a command done") as conn:
            conn.execute(
                update(COMMANDS)
                .where(COMMANDS.c.id == command_id)
                .values(state=DONE, ok=ok, error=error, at=utcnow())
            )
            conn.commit()
