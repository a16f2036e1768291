"""Who is watching a table: one mailbox per WebSocket client, always holding the newest view.

Views arrive already serialised (once per change and audience, by the hub) and are handed over
on the event loop; a slow client skips stale views instead of queueing them.
"""

from __future__ import annotations

import asyncio

from scorekeeper.core.game import Audience


class Subscriber:
    """One watcher's mailbox, used on the event loop: only the newest view is kept."""

    def __init__(self, table_id: str, audience: Audience) -> None:
        self.table_id = table_id
        self.audience = audience
        self.version = -1
        self.latest: str | None = None
        self.event = asyncio.Event()

    def offer(self, version: int, payload: str) -> None:
        """Replace the pending view with a newer one (older versions are ignored)."""
        if version > self.version:
            self.version = version
            self.latest = payload
            self.event.set()

    async def next(self) -> str:
        """Wait for a view newer than the last one returned, and return it."""
        await self.event.wait()
        self.event.clear()
        assert self.latest is not None
        return self.latest


def fanout(batch: list[tuple[int, str, list[Subscriber]]]) -> None:
    """Offer each serialised view to its subscribers (on the event loop)."""
    for version, payload, subs in batch:
        for sub in subs:
            sub.offer(version, payload)
