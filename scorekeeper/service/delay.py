"""The spectator delay: the public view of a table as it was N seconds ago (for streams).

Off by default. The organiser sets it per table (``Hub.set_spectator_delay``); it is stored with
the table's settings (``Store.set_spectator_delay``), so it survives a restart. While it is on,
only the public audience is delayed (``GET /api/tables/{id}``, public WebSocket watchers, the
public table summary); seats and the organiser see everything live.

Each table with a delay keeps a ``SpectatorDelay``: a bounded, time-stamped buffer of its public
views (the JSON text the hub renders once per change) and of the public summary's play facts
(scores, status, ...). The hub ``record``\\ s every change as it publishes it (any thread, under
the table's lock; this only appends to a deque under a short lock of its own, so a reader's
thread never waits). A view becomes visible once it is ``seconds`` old: readers of the delayed
view release what is due themselves (``shown``), and on the event loop ``pump`` releases due
views to the public watchers and sets a loop timer (``call_later``) for the next one. Nothing
ever sleeps.

The shown view only moves forward: lowering the delay releases the views now due at once;
raising it holds the shown view until newer ones are old enough (it never goes back in time).
When the buffer overflows (``max_views`` or ``max_bytes``) every other pending view is dropped,
the newest kept: spectators skip some intermediate views, and never see one early. When the
delay is switched on (or the server restarts with it on), the view of that moment is shown at
once: spectators have already seen it live (after a restart, changes of the last seconds before
the stop may thus show up to N s early).
"""

from __future__ import annotations

import asyncio
import math
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from scorekeeper.errors import ConfigError

MAX_SECONDS = 600
MAX_VIEWS = 600
MAX_BYTES = 8_000_000

Clock = Callable[[], float]
Deliver = Callable[[int, str], None]


class DelayStore(Protocol):
    """Where a table's delay is kept (``Store``: scorekeeper/store/settings.py)."""

    def spectator_delay(self, table_id: str) -> float: ...
    def set_spectator_delay(self, table_id: str, seconds: float) -> None: ...


def check_seconds(seconds: Any) -> float:
    """A valid delay in seconds (0 = off, at most MAX_SECONDS); ConfigError otherwise."""
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        raise ConfigError(f"the spectator delay is a number of seconds, not {seconds!r}")
    if not math.isfinite(seconds) or not 0 <= seconds <= MAX_SECONDS:
        raise ConfigError(
            f"the spectator delay must be 0 (off) to {MAX_SECONDS} seconds, not {seconds}"
        )
    return float(seconds)


def shown_number(seconds: float) -> int | float:
    """``30`` rather than ``30.0`` in views and answers."""
    return int(seconds) if float(seconds).is_integer() else seconds


def usable_seconds(seconds: float) -> float:
    """A stored delay as the server uses it: 0 (off) when it is outside what ``check_seconds``
    accepts (a value written behind the server's back turns the delay off, never fails)."""
    try:
        return check_seconds(seconds)
    except ConfigError:
        return 0.0


def read_seconds(store: DelayStore, table_id: str) -> float:
    """The stored delay of a table (0 when unset, or off because it is out of range)."""
    return usable_seconds(store.spectator_delay(table_id))


def write_seconds(store: DelayStore, table_id: str, seconds: float) -> None:
    """Store a table's delay (checked first: ConfigError, nothing stored, when out of range)."""
    store.set_spectator_delay(table_id, check_seconds(seconds))


@dataclass(frozen=True, slots=True)
class Snapshot:
    """One public view as it was published at ``at`` (on the delay's clock)."""

    at: float
    version: int
    payload: str  # the public view's JSON text (an object), without ``spectator_delay``
    facts: dict[str, Any] = field(default_factory=dict)  # the public summary's play facts


def labelled(payload: str, seconds: float) -> str:
    """The view's JSON with ``"spectator_delay": N`` added as its last key."""
    if not payload.endswith("}"):  # pragma: no cover - the hub always renders an object
        return payload
    body = payload[:-1].rstrip()
    sep = "" if body.endswith("{") else ","
    return f'{body}{sep}"spectator_delay":{shown_number(seconds)}}}'


class SpectatorDelay:
    """One table's delay: the views waiting to be shown, and the one shown now.

    ``record`` (any thread) and ``shown`` (any thread) are thread-safe; ``pump`` and ``close``
    run on the event loop's thread only.
    """

    def __init__(
        self,
        seconds: float,
        *,
        clock: Clock = time.monotonic,
        max_views: int = MAX_VIEWS,
        max_bytes: int = MAX_BYTES,
    ) -> None:
        self.seconds = check_seconds(seconds)
        self.clock = clock
        self.max_views = max(2, max_views)
        self.max_bytes = max_bytes
        self._lock = threading.Lock()
        self._pending: deque[Snapshot] = deque()
        self._bytes = 0
        self._shown: Snapshot | None = None
        self._label: tuple[int, float, str] | None = None  # (version, seconds, labelled JSON)
        self._sent = -1  # the newest version pumped to the watchers
        self._timer: asyncio.TimerHandle | None = None
        self._closed = False

    # -- any thread ----------------------------------------------------------------------------

    def record(self, version: int, payload: str, facts: dict[str, Any]) -> None:
        """A new public view was published now. The first one is shown at once."""
        snap = Snapshot(self.clock(), version, payload, facts)
        with self._lock:
            if self._shown is None:
                self._shown = snap
                return
            self._pending.append(snap)
            self._bytes += len(payload)
            if len(self._pending) > self.max_views or self._bytes > self.max_bytes:
                self._thin()

    def set_seconds(self, seconds: float) -> None:
        """Change the delay (views now due are released by the next ``shown`` or ``pump``)."""
        seconds = check_seconds(seconds)
        with self._lock:
            self.seconds = seconds

    def shown(self) -> Snapshot | None:
        """The view spectators see now (releasing what has become due)."""
        with self._lock:
            self._release()
            return self._shown

    def payload(self) -> tuple[int, str] | None:
        """(version, JSON with ``spectator_delay``) of the view spectators see now."""
        with self._lock:
            self._release()
            return self._labelled()

    def facts(self) -> dict[str, Any] | None:
        """The public summary's play facts as spectators see them now."""
        shown = self.shown()
        return None if shown is None else dict(shown.facts)

    def due_in(self) -> float | None:
        """Seconds until the oldest pending view is due (0 if it is), or None: none pending."""
        with self._lock:
            if not self._pending:
                return None
            return max(0.0, self._pending[0].at + self.seconds - self.clock())

    @property
    def pending(self) -> int:
        with self._lock:
            return len(self._pending)

    # -- the event loop ------------------------------------------------------------------------

    def pump(self, loop: asyncio.AbstractEventLoop, deliver: Deliver) -> None:
        """Release what is due, hand a newer shown view to ``deliver``, and set a loop timer
        for the next pending view (replacing any earlier timer). Loop thread only."""
        if self._closed:
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        with self._lock:
            self._release()
            out = self._labelled()
            wait = (
                None
                if not self._pending
                else max(0.0, self._pending[0].at + self.seconds - self.clock())
            )
        if out is not None and out[0] > self._sent:
            self._sent = out[0]
            deliver(*out)
        if wait is not None:
            # a little late rather than early: the clock must have passed the due time
            self._timer = loop.call_later(wait + 0.001, self.pump, loop, deliver)

    def close(self) -> None:
        """The delay is off: no more timers. Loop thread only."""
        self._closed = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    # -- under self._lock ----------------------------------------------------------------------

    def _release(self) -> None:
        limit = self.clock() - self.seconds
        pending = self._pending
        while pending and pending[0].at <= limit:
            self._shown = pending.popleft()
            self._bytes -= len(self._shown.payload)

    def _labelled(self) -> tuple[int, str] | None:
        shown = self._shown
        if shown is None:
            return None
        label = self._label
        if label is None or label[0] != shown.version or label[1] != self.seconds:
            label = self._label = (
                shown.version,
                self.seconds,
                labelled(shown.payload, self.seconds),
            )
        return label[0], label[2]

    def _thin(self) -> None:
        """Too many views wait: drop every other one, keeping the newest."""
        kept = list(self._pending)[::-1][::2][::-1]
        self._pending = deque(kept)
        self._bytes = sum(len(s.payload) for s in kept)
