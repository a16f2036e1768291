"""A hub process of the event benchmark (bench/event.py): an ``EventHub`` with its ``Ingest``.

It is what ``scorekeeper hub serve`` runs, without the web server: the ingest takes its share
of the tables' log messages from the broker's shared subscriptions and stores each record once
in PostgreSQL. What the hub's views show is each game's replica (``Replicas``): the ingest
hands each run of records it knows stored without a gap straight to them (``Replicas.offer``),
then calls ``on_records``, where this hub stamps every record its replica applied with
``time.monotonic()``. So a record counts as at the hub's view once it is stored, chain-checked
and applied to a replica of this process.

Hazard: with two hub processes the broker splits a game's records between them message by
message, so a hub may store record 7 before the other has stored 6; it then applies up to 5
and the other hub, after storing 6, reads 7 back and applies 6 and 7. The parent therefore
takes the earliest stamp of a record over both hubs.

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
from scorekeeper.event.collections_policy import keep_full_collections_short
from scorekeeper.event.hub_service import BrokerLogin, EventHub

log = logging.getLogger("bench.event")

COUNTERS = ("received", "duplicates", "resends", "refused", "bad", "conflicts")


class ViewedHub(EventHub):
    """An EventHub that stamps each record as its replica applies it (the ingest hands the
    records it stored to the replicas, then calls ``on_records`` on the same thread)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._taken = threading.Lock()
        self._stamps: list[tuple[str, int, float]] = []
        self._highs: list[tuple[str, int, float]] = []  # (game, high water, when it was told)
        self._applied: dict[str, int] = {}  # game -> the last record stamped
        self.view_errors = 0

    def _on_records(self, game: str, high: int) -> None:  # the ingest's worker thread
        super()._on_records(game, high)
        now = time.monotonic()
        try:
            after = self.replicas.applied(game)
        except ScorekeeperError:
            self.view_errors += 1
            log.exception("a replica could not be read")
            return
        before = self._applied.get(game, 0)
        self._applied[game] = max(before, after)
        with self._taken:
            self._highs.append((game, high, now))
            self._stamps.extend((game, seq, now) for seq in range(before + 1, after + 1))

    def take(self) -> tuple[list[tuple[str, int, float]], list[tuple[str, int, float]]]:
        """Since the last take: the records applied (game, seq, when) and the ingest's high
        waters (game, records 1..n stored, when)."""
        with self._taken:
            stamps, self._stamps = self._stamps, []
            highs, self._highs = self._highs, []
        return stamps, highs


def _error_field(record: logging.LogRecord) -> bool:
    """Every log record gets an ``error`` field (the store's words when it has them)."""
    record.error = getattr(record, "error", "")
    return True


def serve(conn: Connection, url: str, event: str, broker: dict[str, Any], number: int) -> None:
    """The hub process's life: connect, then answer the parent until ``stop``."""
    logging.basicConfig(
        level=logging.WARNING, format="%(levelname)s %(name)s %(message)s %(error)s"
    )
    logging.getLogger().handlers[0].addFilter(_error_field)
    login = BrokerLogin(broker["host"], int(broker["port"]), broker["username"], broker["password"])
    hub = ViewedHub(url, event, broker=login, hub_number=number)
    keep_full_collections_short()  # as ``scorekeeper hub serve`` does
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
