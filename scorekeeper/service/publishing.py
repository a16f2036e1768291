"""Publishing: who watches a table, and how each change reaches them.

Every change to a table ends in ``_publish_locked`` (called with the table's lock held): the
version moves on, each watched audience's view is rendered once (``Views._render``) while the
input's commit may still be in flight, and once it is durable (``log_sink.settle``) the batch
is handed to the event loop with one ``call_soon_threadsafe`` (``_on_loop``), where
``watchers.fanout`` offers it to each watcher's mailbox; a delayed public view goes to the
table's spectator delay instead (``service/spectating.py`` delivers it when it is due).
``subscribe`` and ``unsubscribe`` add and drop watchers; ``end_credentials`` ends the watchers of
a withdrawn token.

Locks: ``subscribe``, ``unsubscribe``, ``end_credentials`` and ``watchers`` take the table's lock
(``Live.lock``), ``unsubscribe`` and ``end_credentials`` after the credentials' own lock is
released; ``subscribe`` may replay an unloaded table first, and ``unsubscribe`` may unload an
ended one (the registry's locks). ``_publish_locked`` runs with the table's lock held and takes
no other hub lock (the delay's own short lock to record); it waits for the input's commit (the
log-commit thread takes only the store lock) and, when that failed, takes the store lock to
replay the table; ``subscribe`` too. ``_hand_over`` runs on the loop and
takes no lock for the live views; a delayed public view that is due takes the table's lock
(``_to_public``).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from scorekeeper.core.game import PUBLIC, Audience
from scorekeeper.errors import NotFound
from scorekeeper.service.delay import SpectatorDelay
from scorekeeper.service.hub_base import HubBase, log
from scorekeeper.service.live import Live
from scorekeeper.service.log_sink import settle
from scorekeeper.service.watchers import Subscriber, fanout, forget


class Prepared(NamedTuple):
    """The views of one change, rendered (``_prepare``) and not yet handed over."""

    version: int
    watched: bool
    public: str  # the public view for the spectator delay ("" without one)
    batch: list[tuple[int, str, list[Subscriber]]]


class Publishing(HubBase):
    """The hub's part that keeps the watchers of each table and hands them its changes."""

    def bind_loop(self, loop: asyncio.AbstractEventLoop) -> None:
        """Deliver views to subscribers on ``loop`` (call from the loop's own thread)."""
        self._loop = loop
        self._loop_thread = threading.get_ident()

    def subscribe(
        self, table_id: str, audience: Audience, credential: str | None = None
    ) -> Subscriber:
        """Register a watcher (on the event loop); it holds the current view at once.

        ``credential`` is the hash of the token it connected with (``Tokens.credential``):
        withdrawing that token ends the watcher (``end_credentials``)."""
        live = self._get(table_id)
        sub = Subscriber(table_id, audience, credential)
        self._credentials.add(sub)
        with live.lock:
            settle(live, self.store, self._store_lock)  # no view of an input not yet durable
            shown = live.delay.payload() if live.delay and audience == PUBLIC else None
            live.subs.setdefault(audience, set()).add(sub)
            sub.offer(*(shown or (live.version, self._render(live, audience))))
        return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        self._credentials.remove(sub)
        try:
            live = self._get(sub.table_id)
        except NotFound:  # the table was deleted while this client watched it
            return
        with live.lock:
            forget(live.subs, sub.audience, sub)
            self._unload_locked(live)  # an ended table the last watcher left

    def end_credentials(self, credentials: Iterable[str]) -> int:
        """End every watcher that connected with one of these token hashes (withdrawn: a lost
        phone); returns how many. Any thread. From this call on they take no view: each is
        marked ended and taken out of its table's watchers before the loop is told to close
        it (WebSocket close code 4401, which the page explains)."""
        ended = self._credentials.take(credentials)
        for sub in ended:
            sub.end(4401, "this phone's pairing was withdrawn by the organiser")
            with contextlib.suppress(NotFound):
                live = self._get(sub.table_id)
                with live.lock:
                    forget(live.subs, sub.audience, sub)
            self._on_loop(sub.wake)
        if ended:
            log.info("watchers ended", extra={"watchers": len(ended)})
        return len(ended)

    def watchers(self, table_id: str) -> int:
        live = self._get(table_id)
        with live.lock:
            return sum(len(s) for s in live.subs.values())

    def _prepare(self, live: Live) -> Prepared:
        """Bump the version and render once per watched audience: what ``_publish_locked``
        hands over. With the table's lock held, by its holder or, while that thread commits
        the input, on the log-work thread (``Table.submit``'s ``alongside``): takes no lock."""
        live.version += 1
        delay = live.delay
        watched = live.table is not None and bool(live.subs or delay)
        version = live.version
        public = self._render(live, PUBLIC) if watched and delay is not None else ""
        batch = [
            (version, self._render(live, aud), list(subs))
            for aud, subs in live.subs.items()
            if watched and subs and not (delay and aud == PUBLIC)
        ]
        return Prepared(version, watched, public, batch)

    def _publish_locked(self, live: Live, prepared: Prepared | None = None) -> None:
        """Render the views (``_prepare``, unless done while the input's commit was in flight),
        then wait until the input is durable and only then hand the views over to the loop (a
        delayed public view goes to the table's spectator delay instead): nothing is seen
        before it is in the log (invariant 1). A failed commit raises here, after the table is
        replayed from its log and that state published."""
        if prepared is None:
            prepared = self._prepare(live)
        version, watched, public, batch = prepared
        delay = live.delay
        try:
            settle(live, self.store, self._store_lock)
        except BaseException:
            self._publish_locked(live)  # the replayed table: what the log holds
            raise
        if live.changed is not None:
            live.changed.notify_all()
        if not watched:
            return
        if delay is not None:
            delay.record(version, public, self._facts(live))
        self._on_loop(self._hand_over, batch, live, delay)

    def _on_loop(self, call: Callable[..., None], *args: Any) -> None:
        """Run ``call(*args)`` on the event loop (now when on its thread; none: dropped)."""
        loop = self._loop
        if loop is None:
            return
        if threading.get_ident() == self._loop_thread:
            call(*args)
            return
        with contextlib.suppress(RuntimeError):  # a closed loop: the server is stopping
            loop.call_soon_threadsafe(call, *args)

    def _hand_over(self, batch: list[Any], live: Live, delay: SpectatorDelay | None) -> None:
        """On the loop: live views to their watchers; the delay's due public view to its own
        (now, and by a loop timer for the views still waiting)."""
        fanout(batch)
        loop = self._loop
        if delay is not None and loop is not None:
            delay.pump(loop, lambda version, payload: self._to_public(live, version, payload))
