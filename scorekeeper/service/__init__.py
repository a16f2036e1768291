"""The service layer: the hub that owns the store, the live tables, their readers and watchers.

No web framework in here: ``scorekeeper.api`` puts HTTP and WebSockets in front of a ``Hub``.
"""

from scorekeeper.service.hub import (
    CREATED,
    ENDED,
    PAUSED,
    RUNNING,
    Hub,
    NotRunning,
    Submitted,
    TableStateError,
)
from scorekeeper.service.watchers import Subscriber

__all__ = [
    "CREATED",
    "ENDED",
    "PAUSED",
    "RUNNING",
    "Hub",
    "NotRunning",
    "Submitted",
    "Subscriber",
    "TableStateError",
]
