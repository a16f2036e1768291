"""The event hub's database access: events, their own logs, players, tables and tokens.

One ``EventDb`` per hub process, on the same database as the hub's store (PostgreSQL for a
real event; SQLite works for a developer's try). Its tables are part of the store's schema
(scorekeeper/store/event_models.py, made and upgraded by the store's revisions): opening an
``EventDb`` opens a ``Store`` once, which makes a new database a store or upgrades an old one.
Every method is one short transaction, so two hub processes on one database see each other's
writes at once and nothing lives only in a process: a hub killed at any moment loses nothing
that was acknowledged.

Hazard: the event log's numbers are given here, not by the database: two hubs appending at
once may pick the same seq; the unique (event, seq) key refuses the second, which tries again.
"""

from __future__ import annotations

import hashlib
import logging
import re
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection, create_engine, func, insert, select, update
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from scorekeeper.errors import ConfigError, NotFound, StoreError
from scorekeeper.store import Store
from scorekeeper.store.base import plain, sqlite_url
from scorekeeper.store.event_models import EVENT_LOG, EVENT_TABLES, EVENTS, PLAYERS, SCOPES
from scorekeeper.store.event_models import EVENT_TOKENS as TOKENS
from scorekeeper.store.models import utcnow

log = logging.getLogger("scorekeeper.event.db")

EVENT_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,19}$")
PLAYER_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # read aloud or typed from a badge


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def check_event_id(event_id: str) -> str:
    if not EVENT_ID.match(event_id):
        raise ConfigError(
            f"{event_id!r} cannot name an event: use 1 to 20 lowercase letters, digits or "
            "dashes, starting with a letter or digit (it appears in every table's topics)"
        )
    return event_id


class EventDb:
    """Events, their logs, players, tables and tokens in the database at ``url``.

    StoreError, in words, when the database cannot be opened or is not a store this version
    can use (a new one is made a store, an older one upgraded: ``Store``). That ``Store`` is
    opened only for this and closed at once; the hub keeps its own for the games' logs.
    """

    def __init__(self, url: str) -> None:
        self.url = sqlite_url(url)
        Store(self.url).close()  # the schema: made or brought up to the newest revision
        self.engine = create_engine(self.url, pool_pre_ping=True)

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def _tx(self, doing: str) -> Iterator[Connection]:
        try:
            with self.engine.begin() as conn:
                yield conn
        except IntegrityError:
            raise
        except SQLAlchemyError as exc:
            raise StoreError(f"cannot {doing}: {plain(exc)}") from None

    # -- events -------------------------------------------------------------------------------

    def create_event(self, event_id: str, name: str, game: str) -> None:
        """Store a new event; ConfigError if the id is taken or not a valid id."""
        check_event_id(event_id)
        try:
            with self._tx("create the event") as conn:
                conn.execute(
                    insert(EVENTS).values(
                        id=event_id, name=name.strip() or event_id, game=game, created_at=utcnow()
                    )
                )
        except IntegrityError:
            raise ConfigError(f"an event called {event_id!r} exists already") from None

    def event(self, event_id: str) -> dict[str, Any]:
        with self._tx("read the event") as conn:
            row = conn.execute(select(EVENTS).where(EVENTS.c.id == event_id)).first()
        if row is None:
            raise NotFound(f"no event {event_id!r}")
        return {"id": row.id, "name": row.name, "game": row.game, "created_at": row.created_at}

    def events(self) -> list[dict[str, Any]]:
        with self._tx("list events") as conn:
            rows = conn.execute(select(EVENTS).order_by(EVENTS.c.created_at)).all()
        return [{"id": r.id, "name": r.name, "game": r.game} for r in rows]

    # -- the event's own log ------------------------------------------------------------------

    def append(self, event_id: str, record: dict[str, Any]) -> int:
        """Append one record to the event's log; returns its seq (1, 2, ...)."""
        for _attempt in range(20):
            try:
                with self._tx("append to the event log") as conn:
                    last = conn.execute(
                        select(func.max(EVENT_LOG.c.seq)).where(EVENT_LOG.c.event_id == event_id)
                    ).scalar()
                    seq = int(last or 0) + 1
                    conn.execute(
                        insert(EVENT_LOG).values(
                            event_id=event_id, seq=seq, at=utcnow(), record=record
                        )
                    )
                return seq
            except IntegrityError:  # another hub took that number: read again
                continue
        raise StoreError(f"cannot append to the log of event {event_id}: it keeps changing")

    def records(self, event_id: str, after: int = 0) -> list[tuple[int, dict[str, Any]]]:
        """The event's records with seq > ``after``, in order."""
        with self._tx("read the event log") as conn:
            rows = conn.execute(
                select(EVENT_LOG.c.seq, EVENT_LOG.c.record)
                .where(EVENT_LOG.c.event_id == event_id, EVENT_LOG.c.seq > after)
                .order_by(EVENT_LOG.c.seq)
            ).all()
        return [(int(seq), dict(record)) for seq, record in rows]

    # -- players, kept across events ----------------------------------------------------------

    def add_player(self, name: str) -> str:
        """Register a person; returns their new player id (five characters, e.g. ``k7m2p``)."""
        clean = " ".join(name.split())
        if not clean or len(clean) > 80:
            raise ConfigError("give the player's name (1 to 80 characters)")
        for _attempt in range(20):
            player_id = "".join(secrets.choice(PLAYER_ALPHABET) for _ in range(5))
            try:
                with self._tx("register the player") as conn:
                    conn.execute(
                        insert(PLAYERS).values(id=player_id, name=clean, created_at=utcnow())
                    )
                return player_id
            except IntegrityError:
                continue
        raise StoreError("cannot give the player an id: try again")

    def player(self, player_id: str) -> dict[str, Any]:
        with self._tx("read the player") as conn:
            row = conn.execute(select(PLAYERS).where(PLAYERS.c.id == player_id)).first()
        if row is None:
            raise NotFound(f"no player with the id {player_id!r}")
        return {"id": row.id, "name": row.name}

    def players(self, search: str = "") -> list[dict[str, Any]]:
        """Every registered player (whose name contains ``search``), by name."""
        query = select(PLAYERS).order_by(PLAYERS.c.name)
        if search:
            query = query.where(func.lower(PLAYERS.c.name).contains(search.lower()))
        with self._tx("list players") as conn:
            rows = conn.execute(query).all()
        return [{"id": r.id, "name": r.name} for r in rows]

    # -- physical tables ----------------------------------------------------------------------

    def add_table(self, event_id: str, name: str, username: str, password_hash: str) -> None:
        """Record a physical table (or give it new credentials)."""
        with self._tx("add the table") as conn:
            done = conn.execute(
                update(EVENT_TABLES)
                .where(EVENT_TABLES.c.event_id == event_id, EVENT_TABLES.c.name == name)
                .values(username=username, password_hash=password_hash)
            )
            if done.rowcount == 0:
                conn.execute(
                    insert(EVENT_TABLES).values(
                        event_id=event_id,
                        name=name,
                        username=username,
                        password_hash=password_hash,
                        created_at=utcnow(),
                        online=False,
                        games={},
                        health={},
                    )
                )

    def table_said(
        self,
        event_id: str,
        name: str,
        *,
        online: bool | None = None,
        games: dict[str, int] | None = None,
        health: dict[str, Any] | None = None,
    ) -> None:
        """Keep what a table last said: its status (online, each game's last seq) or health."""
        values: dict[str, Any] = {"seen_at": utcnow()}
        if online is not None:
            values["online"] = online
        if games is not None:
            values["games"] = games
        if health is not None:
            values["health"] = health
        with self._tx("note the table's status") as conn:
            conn.execute(
                update(EVENT_TABLES)
                .where(EVENT_TABLES.c.event_id == event_id, EVENT_TABLES.c.name == name)
                .values(**values)
            )

    def tables(self, event_id: str) -> list[dict[str, Any]]:
        """The event's tables in the order they were added."""
        with self._tx("list the tables") as conn:
            rows = conn.execute(
                select(EVENT_TABLES)
                .where(EVENT_TABLES.c.event_id == event_id)
                .order_by(EVENT_TABLES.c.created_at, EVENT_TABLES.c.name)
            ).all()
        return [
            {
                "name": r.name,
                "username": r.username,
                "password_hash": r.password_hash,
                "online": bool(r.online),
                "seen_at": r.seen_at.isoformat() if r.seen_at else None,
                "games": dict(r.games or {}),
                "health": dict(r.health or {}),
            }
            for r in rows
        ]

    # -- scoped tokens ------------------------------------------------------------------------

    def new_token(self, event_id: str, scope: str, subject: str = "") -> str:
        """A new token for ``scope`` (organiser, judge, table, seat); shown once, kept hashed."""
        if scope not in SCOPES:
            raise ConfigError(f"no token scope {scope!r}: one of {', '.join(SCOPES)}")
        token = secrets.token_urlsafe(24)
        with self._tx("make a token") as conn:
            conn.execute(
                insert(TOKENS).values(
                    hash=token_hash(token),
                    event_id=event_id,
                    scope=scope,
                    subject=subject,
                    revoked=False,
                    created_at=utcnow(),
                )
            )
        return token

    def identify(self, token: str | None) -> tuple[str, str, str] | None:
        """(event id, scope, subject) of a live token, or None."""
        if not token:
            return None
        wanted = token_hash(token)
        with self._tx("check a token") as conn:
            row = conn.execute(select(TOKENS).where(TOKENS.c.hash == wanted)).first()
        if row is None or row.revoked:  # found by its hash: nothing left to compare
            return None
        return str(row.event_id), str(row.scope), str(row.subject)

    def revoke(self, event_id: str, scope: str, subject: str = "") -> int:
        """Revoke every token of ``scope`` for ``subject``; returns how many."""
        with self._tx("revoke tokens") as conn:
            done = conn.execute(
                update(TOKENS)
                .where(
                    TOKENS.c.event_id == event_id,
                    TOKENS.c.scope == scope,
                    TOKENS.c.subject == subject,
                    TOKENS.c.revoked.is_(False),
                )
                .values(revoked=True)
            )
        return int(done.rowcount or 0)
