"""The ``sim`` backend: scripted readers for tests, the demo and the simulated tables.

``put(reader, uid)`` lays a tag on a reader, ``take(reader, uid)`` lifts it; ``bounce`` and
``miss`` imitate a shaky hand and a missed read. Everything goes through the same
``PresenceFilter`` as the real backends, as edges; its hysteresis defaults to 0 so a put or take
is a Sighting at once, in the caller's thread, before ``put``/``take`` returns. With hysteresis
configured, ``start`` runs a small ticker thread (or call ``tick()`` yourself with an injected
clock, ``tick_interval=0`` to have no thread).

Thread-safe: any thread may put and take; Sightings are delivered in the order the filter made
them. ``emit`` may itself call ``put``/``take`` (a simulated table reacting to a sighting).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from scorekeeper.core.inputs import Sighting
from scorekeeper.errors import UnknownReader
from scorekeeper.readers.base import Emit, Outbox, RateMeter, ReaderBackend, ReaderHealth
from scorekeeper.readers.presence import PresenceConfig, PresenceFilter


class SimBackend(ReaderBackend):
    """Scriptable in-process readers.

    ``reader_ids``: the readers that exist (the table's zone layout gives them); when empty, any
    reader id is accepted and appears on first use. Putting a tag on an unknown reader raises
    ``UnknownReader`` otherwise.
    """

    name = "sim"

    def __init__(
        self,
        reader_ids: Iterable[str] = (),
        *,
        present_after_ms: float = 0.0,
        absent_after_ms: float = 0.0,
        clock: Callable[[], float] = time.monotonic,
        tick_interval: float = 0.005,
    ) -> None:
        self._ids: list[str] = [str(r) for r in reader_ids]
        self._fixed = bool(self._ids)
        self.clock = clock
        self.tick_interval = tick_interval
        self.filter = PresenceFilter(
            PresenceConfig(present_after_ms=present_after_ms, absent_after_ms=absent_after_ms),
            clock=clock,
        )
        self._lock = threading.RLock()
        self._field: dict[str, set[str]] = {r: set() for r in self._ids}
        self._online: dict[str, bool] = {r: True for r in self._ids}
        self._reads: dict[str, int] = {r: 0 for r in self._ids}
        self._errors: dict[str, int] = {r: 0 for r in self._ids}
        self._rates: dict[str, RateMeter] = {r: RateMeter() for r in self._ids}
        self._last: dict[str, float] = {}
        self._outbox = Outbox()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # --- ReaderBackend -----------------------------------------------------------------------

    @property
    def reader_ids(self) -> tuple[str, ...]:
        with self._lock:
            return tuple(self._ids)

    def start(self, emit: Emit) -> None:
        """Begin delivering; Sightings made before ``start`` are delivered now, in order."""
        self._outbox.emit = emit
        cfg = self.filter.config
        needs_ticks = cfg.present_after_ms > 0 or cfg.absent_after_ms > 0
        if needs_ticks and self.tick_interval > 0 and self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="sim-readers", daemon=True)
            self._thread.start()
        self._outbox.drain()

    def stop(self) -> None:
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=2.0)
        self._outbox.emit = None

    def health(self) -> dict[str, ReaderHealth]:
        now = self.clock()
        with self._lock:
            return {
                r: ReaderHealth(
                    r,
                    self._online[r],
                    self._last.get(r),
                    self._reads[r],
                    self._rates[r].rate(now),
                    self._errors[r],
                    "" if self._online[r] else "simulated failure",
                )
                for r in self._ids
            }

    def stats(self) -> dict[str, Any]:
        with self._lock:
            return {
                "backend": self.name,
                "readers": len(self._ids),
                "tags": sum(len(f) for f in self._field.values()),
            }

    # --- scripting ---------------------------------------------------------------------------

    def put(self, reader: str, uid: str) -> None:
        """Lay tag ``uid`` on ``reader`` (no-op if it is already there)."""
        self._change(reader, uid, True)

    def take(self, reader: str, uid: str) -> None:
        """Lift tag ``uid`` off ``reader`` (no-op if it is not there)."""
        self._change(reader, uid, False)

    def move(self, uid: str, src: str, dst: str) -> None:
        """Lift ``uid`` off ``src`` and lay it on ``dst``."""
        self.take(src, uid)
        self.put(dst, uid)

    def bounce(self, reader: str, uid: str, times: int = 3, end_present: bool = True) -> None:
        """A shaky hand: ``uid`` goes off and on ``reader`` ``times`` times, ending present
        (or absent with ``end_present=False``). Without hysteresis every bounce is a Sighting."""
        for _ in range(times):
            self._change(reader, uid, not self._has(reader, uid))
            self._change(reader, uid, not self._has(reader, uid))
        if self._has(reader, uid) != end_present:
            self._change(reader, uid, end_present)

    def miss(self, reader: str, uid: str | None = None) -> None:
        """One missed read: the reader loses ``uid`` (or every tag on it) for an instant.

        The tags are still on the reader afterwards; whether the miss shows as a removal depends
        on ``absent_after_ms``.
        """
        with self._lock:
            uids = sorted(self._field_of(reader)) if uid is None else [uid]
            self._errors[reader] += len(uids)
            for u in uids:
                if u in self._field[reader] and self._online[reader]:
                    out = self.filter.edge(reader, u, False) + self.filter.edge(reader, u, True)
                    self._note(out)
                    self._outbox.put(out)
                    self._reads[reader] += 1
        self._outbox.drain()

    def set_online(self, reader: str, online: bool) -> None:
        """Simulate a reader failing (its tags are frozen, not reported gone) or coming back."""
        with self._lock:
            self._field_of(reader)
            self._online[reader] = online
            out: list[Sighting] = []
            if online:
                self.filter.resume(reader)
                field = self._field[reader]
                for u in sorted(self.filter.tracked(reader) - field):
                    out.extend(self.filter.edge(reader, u, False))
                for u in sorted(field):
                    out.extend(self.filter.edge(reader, u, True))
            else:
                self.filter.suspend(reader)
            self._note(out)
            self._outbox.put(out)
        self._outbox.drain()

    def tags(self, reader: str) -> set[str]:
        """The tags physically on ``reader`` now (not what has been reported)."""
        with self._lock:
            return set(self._field_of(reader))

    def tick(self) -> None:
        """Apply the filter's timers now (the ticker thread calls this every ``tick_interval``)."""
        with self._lock:
            out = self.filter.tick()
            self._note(out)
            self._outbox.put(out)
        self._outbox.drain()

    # --- internals ---------------------------------------------------------------------------

    def _field_of(self, reader: str) -> set[str]:
        field = self._field.get(reader)
        if field is None:
            if self._fixed:
                raise UnknownReader(
                    f"no reader {reader!r} in the sim backend (readers: {', '.join(self._ids)})"
                )
            self._ids.append(reader)
            field = self._field[reader] = set()
            self._online[reader] = True
            self._reads[reader] = 0
            self._errors[reader] = 0
            self._rates[reader] = RateMeter()
        return field

    def _has(self, reader: str, uid: str) -> bool:
        with self._lock:
            return uid in self._field_of(reader)

    def _change(self, reader: str, uid: str, present: bool) -> None:
        with self._lock:
            field = self._field_of(reader)
            if (uid in field) == present:
                return
            if present:
                field.add(uid)
                self._reads[reader] += 1
                self._rates[reader].add(self.clock())
            else:
                field.discard(uid)
            if self._online[reader]:
                out = self.filter.edge(reader, uid, present)
                self._note(out)
                self._outbox.put(out)
        self._outbox.drain()

    def _note(self, out: list[Sighting]) -> None:
        if out:
            now = self.clock()
            for s in out:
                self._last[s.reader] = now

    def _run(self) -> None:
        while not self._stop.wait(self.tick_interval):
            with self._lock:
                out = self.filter.tick()
                self._note(out)
                self._outbox.put(out)
            self._outbox.drain()
