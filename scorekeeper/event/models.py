"""The event hub's SQL tables: scorekeeper/store/event_models.py (kept importable from here)."""

from scorekeeper.store.event_models import (
    EVENT_LOG,
    EVENT_SQL_TABLES,
    EVENT_TABLES,
    EVENT_TOKENS,
    EVENTS,
    PLAYERS,
    SCOPES,
)

__all__ = [
    "EVENTS",
    "EVENT_LOG",
    "EVENT_SQL_TABLES",
    "EVENT_TABLES",
    "EVENT_TOKENS",
    "PLAYERS",
    "SCOPES",
]
