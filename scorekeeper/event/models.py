"""The event hub's SQL tables: they are part of the store's schema, in
scorekeeper/store/event_models.py (kept importable from here)."""

from scorekeeper.store.event_models import (
    EVENT_MODELS,
    SCOPES,
    EventRecordRow,
    EventRow,
    EventTableRow,
    EventTokenRow,
    PlayerRow,
)

__all__ = [
    "EVENT_MODELS",
    "SCOPES",
    "EventRecordRow",
    "EventRow",
    "EventTableRow",
    "EventTokenRow",
    "PlayerRow",
]
