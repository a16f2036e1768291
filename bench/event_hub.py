"""A hub process of the event benchmark (bench/event.py): an ``EventHub`` with its ``Ingest``.

It is what ``scorekeeper hub serve`` runs, without the web server: the ingest takes its share
of the tables' log messages from the broker's shared subscriptions and stores each record once
in PostgreSQL. What the hub's views show is each game's replica (``Replicas``), brought up to
date by ``Replicas.refresh``; a real hub refreshes when a view is asked for, which its
long-poll clients do as soon as the hub says something changed. Here a thread plays that
client: woken by every ``on_records``, it refreshes each game that changed and stamps every
record it applied with ``time.monotonic()``. So a record counts as at the hub's view once it
is stored, chain-checked and applied to a replica of this process.

Hazard: with two hub processes the broker splits a game's records between them message by
message, so a hub may store record 7 before the other has stored 6; its refresh then stops
at 5 and the other hub's refresh, after storing 6, applies 6 and 7. The parent therefore takes
the earliest stamp of a record over both hubs.

It also notes each high water the ingest tells (records 1..n stored in PostgreSQL), so the
parent can tell the time to the database from the time to the view. Driven through a pipe:
``("take",)`` answers the stamps and high waters since the last take and the ingest's
counters; ``("stop",)`` stops.
"""

from __future__ import annotations

import logging
import threading
import time
from multiprocessing.connection import Connection
from typing import Any

from scorekeeper.errors import ScorekeeperError
from scorekeeper.event.hub_service import BrokerLogin, EventHub

log = logging.getLogger("bench.event")

COUNTERS = ("received", "duplicates", "resends", "refused", "bad", "conflicts")


class ViewedHub(EventHub):
    """An EventHub whose replicas are refreshed as records arrive, each applied one stamped."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._dirty: set[str] = set()
        self._wake = threading.Condition()
        self._stamps: list[tuple[str, int, float]] = []
        self._highs: list[tuple[str, int, float]] = []  # (game, high water, when it was told)
        self.view_errors = 0
        self._viewing = True
        self._viewer = threading.Thread(target=self._view, name="bench-viewer", daemon=True)

    def start(self) -> None:
        super().start()
        self._viewer.start()

    def stop(self) -> None:
        with self._wake:
            self._viewing = False
            self._wake.notify()
        self._viewer.join(timeout=10)
        super().stop()

    def _on_records(self, game: str, high: int) -> None:  # paho's thread: hand over, no more
        super()._on_records(game, high)
        with self._wake:
            self._highs.append((game, high, time.monotonic()))
            self._dirty.add(game)
            self._wake.notify()

    def _view(self) -> None:
        while True:
            with self._wake:
                while not self._dirty and self._viewing:
                    self._wake.wait()
                if not self._viewing:
                    return
                games, self._dirty = self._dirty, set()
            for game in games:
                try:
                    before = self.replicas.applied(game)
                    self.replicas.refresh(game)
                except ScorekeeperError:
                    self.view_errors += 1
                    log.exception("a replica could not be brought up to date")
                    continue
                after = self.replicas.applied(game)
                if after > before:
                    now = time.monotonic()
                    with self._wake:
                        self._stamps.extend(
                            (game, seq, now) for seq in range(before + 1, after + 1)
                        )

    def take(self) -> tuple[list[tuple[str, int, float]], list[tuple[str, int, float]]]:
        """Since the last take: the records applied (game, seq, when) and the ingest's high
        waters (game, records 1..n stored, when)."""
        with self._wake:
            stamps, self._stamps = self._stamps, []
            highs, self._highs = self._highs, []
        return stamps, highs


def serve(conn: Connection, url: str, event: str, broker: dict[str, Any], number: int) -> None:
    """The hub process's life: connect, then answer the parent until ``stop``."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s %(message)s")
    login = BrokerLogin(broker["host"], int(broker["port"]), broker["username"], broker["password"])
    hub = ViewedHub(url, event, broker=login, hub_number=number)
    hub.start()
    try:
        deadline = time.monotonic() + 50
        while not hub.ingest.connected:
            if time.monotonic() > deadline:
                raise RuntimeError(f"hub {number} could not connect to the broker within 50 s")
            time.sleep(0.02)
        conn.send(("ready",))
        while conn.recv()[0] == "take":
            counters = {name: getattr(hub.ingest, name) for name in COUNTERS}
            counters["view_errors"] = hub.view_errors
            conn.send((*hub.take(), counters))
    finally:
        hub.stop()
