"""Who is watching a table: one mailbox per WebSocket client, always holding the newest view.

Views arrive already serialised (once per change and audience, by the hub) and are handed over
on the event loop; a slow client skips stale views instead of queueing them.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Hashable, Iterable, MutableMapping
from typing import TypeVar

from scorekeeper.core.game import Audience
from scorekeeper.errors import ScorekeeperError


class Ended(ScorekeeperError, ConnectionAbortedError):
    """A mailbox was ended (its credential withdrawn): ``code`` is the WebSocket close code."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


class Subscriber:
    """One watcher's mailbox, used on the event loop: only the newest view is kept.

    ``credential`` is the hash of the token the watcher connected with (None: public), so a
    withdrawn token can find its watchers and ``end`` them."""

    def __init__(self, table_id: str, audience: Audience, credential: str | None = None) -> None:
        self.table_id = table_id
        self.audience = audience
        self.credential = credential
        self.version = -1
        self.latest: str | None = None
        self.event = asyncio.Event()
        self.ended: Ended | None = None

    def offer(self, version: int, payload: str) -> None:
        """Replace the pending view with a newer one (older versions are ignored)."""
        if version > self.version and self.ended is None:
            self.version = version
            self.latest = payload
            self.event.set()

    def end(self, code: int, reason: str) -> None:
        """Take no view any more: ``next`` raises Ended from now on. Safe from any thread (a
        plain assignment); the waiting ``next`` notices once ``wake`` runs on the loop."""
        self.ended = Ended(code, reason)

    def wake(self) -> None:
        """On the loop: let a waiting ``next`` see that the mailbox has ended."""
        self.event.set()

    async def next(self) -> str:
        """Wait for a view newer than the last one returned, and return it; Ended once the
        mailbox is ended (a view still pending then is dropped, never returned)."""
        await self.event.wait()
        self.event.clear()
        if self.ended is not None:
            raise self.ended
        assert self.latest is not None
        return self.latest


K = TypeVar("K", bound=Hashable)


def forget(groups: MutableMapping[K, set[Subscriber]], key: K, sub: Subscriber) -> None:
    """Take ``sub`` out of its group ``key``; a group left empty goes too."""
    group = groups.get(key)
    if group is not None:
        group.discard(sub)
        if not group:
            del groups[key]


class Credentials:
    """Watchers by the hash of the token they connected with, so that withdrawing a token finds
    and ends them. Any thread."""

    def __init__(self) -> None:
        self._by_hash: dict[str, set[Subscriber]] = {}
        self._lock = threading.Lock()

    def add(self, sub: Subscriber) -> None:
        if sub.credential is not None:
            with self._lock:
                self._by_hash.setdefault(sub.credential, set()).add(sub)

    def remove(self, sub: Subscriber) -> None:
        if sub.credential is not None:
            with self._lock:
                forget(self._by_hash, sub.credential, sub)

    def __len__(self) -> int:
        """How many watchers are held (every one leaves when it unsubscribes)."""
        with self._lock:
            return sum(len(group) for group in self._by_hash.values())

    def take(self, credentials: Iterable[str]) -> list[Subscriber]:
        """Every watcher of these token hashes, forgotten here."""
        with self._lock:
            return [sub for c in credentials for sub in self._by_hash.pop(c, ())]


def fanout(batch: list[tuple[int, str, list[Subscriber]]]) -> None:
    """Offer each serialised view to its subscribers (on the event loop)."""
    for version, payload, subs in batch:
        for sub in subs:
            sub.offer(version, payload)
