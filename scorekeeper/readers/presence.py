"""Per-reader debounce and presence/removal hysteresis: raw reads in, Sightings out.

A tag on an RC522 is missed now and then, and a card put down shakily bounces on and off the
antenna. ``PresenceFilter`` turns raw observations into the Sightings the table wants:

* **present**: a tag counts as present once it has been seen in ``present_after_polls`` polls
  (not necessarily consecutive, as long as it never went missing for longer than the absence
  window in between) *and* ``present_after_ms`` have passed since it was first seen;
* **gone**: a present tag counts as gone once it has been missing from ``absent_after_polls``
  consecutive polls of its reader *and* for ``absent_after_ms``.

With the defaults (1 poll, 0 ms both ways) every change passes through at once, which is what the
simulated backend wants. Raw input comes as polls (``poll``: "reader r saw exactly these uids")
or as edges (``edge``: "uid arrived / left"), and ``tick`` applies the time-based rules when no
new observation arrives. Time comes from the injectable ``clock`` (``time.monotonic``), or from
the ``now`` argument, so tests are deterministic.

``suspend(reader)`` freezes a reader that went offline: nothing it holds is reported gone while it
is away (an unplugged reader is not a removal); ``resume`` restarts its absence timers.

Thread-safe: every method takes an internal lock. The filter returns Sightings; it never calls
out, so callers emit them after the call (outside their own locks).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from scorekeeper.core.inputs import Sighting
from scorekeeper.errors import ConfigError

_EPS_MS = 1e-6  # float clocks: 100.05 - 100.0 is a hair under 50 ms


@dataclass(frozen=True, slots=True)
class PresenceConfig:
    """The hysteresis settings; see the module docstring for their meaning."""

    present_after_polls: int = 1
    present_after_ms: float = 0.0
    absent_after_polls: int = 1
    absent_after_ms: float = 0.0

    def __post_init__(self) -> None:
        if self.present_after_polls < 1 or self.absent_after_polls < 1:
            raise ConfigError("present_after_polls and absent_after_polls must be at least 1")
        if self.present_after_ms < 0 or self.absent_after_ms < 0:
            raise ConfigError("present_after_ms and absent_after_ms must not be negative")


class _Track:
    """What the filter knows about one uid at one reader."""

    __slots__ = ("first_seen", "last_seen", "seen_polls", "missed_polls", "held", "reported")

    def __init__(self, now: float) -> None:
        self.first_seen = now
        self.last_seen = now
        self.seen_polls = 0
        self.missed_polls = 0
        self.held = False  # an edge said "present" and no "gone" edge came yet
        self.reported = False  # a present Sighting went out and no gone Sighting since


class PresenceFilter:
    """Debounce and hysteresis for any number of readers; see the module docstring."""

    def __init__(
        self, config: PresenceConfig | None = None, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.config = config or PresenceConfig()
        self.clock = clock
        self._lock = threading.RLock()
        self._tracks: dict[str, dict[str, _Track]] = {}
        self._suspended: set[str] = set()

    # --- raw input ---------------------------------------------------------------------------

    def poll(
        self, reader: str, uids: Iterable[str], now: float | None = None, *, partial: bool = False
    ) -> list[Sighting]:
        """Reader ``reader`` finished one poll and saw exactly ``uids``; returns new Sightings.

        ``partial``: the poll was cut short by an error, so tags it did not list may still be
        there; they are not counted as missed by this poll.
        """
        t = self.clock() if now is None else now
        seen = set(uids)
        out: list[Sighting] = []
        with self._lock:
            tracks = self._tracks.setdefault(reader, {})
            for uid in seen:
                tr = tracks.get(uid)
                if tr is None:
                    tr = tracks[uid] = _Track(t)
                tr.seen_polls += 1
                tr.missed_polls = 0
                tr.last_seen = t
            for uid, tr in tracks.items():
                if uid not in seen and not tr.held and not partial:
                    tr.missed_polls += 1
            out.extend(self._settle(reader, t))
        return out

    def edge(
        self, reader: str, uid: str, present: bool, now: float | None = None
    ) -> list[Sighting]:
        """An edge source says ``uid`` arrived at (``present``) or left ``reader``.

        An arrived tag counts as seen continuously until its "left" edge; it satisfies the poll
        counts, so only the ``*_ms`` settings delay edges.
        """
        t = self.clock() if now is None else now
        with self._lock:
            tracks = self._tracks.setdefault(reader, {})
            tr = tracks.get(uid)
            if present:
                if tr is None:
                    tr = tracks[uid] = _Track(t)
                tr.held = True
                tr.last_seen = t
                tr.missed_polls = 0
                tr.seen_polls = max(tr.seen_polls, self.config.present_after_polls)
            elif tr is not None:
                tr.held = False
                tr.last_seen = t
                tr.missed_polls = max(tr.missed_polls, self.config.absent_after_polls)
            return self._settle(reader, t)

    def tick(self, now: float | None = None) -> list[Sighting]:
        """Apply the time-based rules to every reader; call it every few ms from a loop."""
        t = self.clock() if now is None else now
        out: list[Sighting] = []
        with self._lock:
            for reader in list(self._tracks):
                out.extend(self._settle(reader, t))
        return out

    # --- reader on/offline -------------------------------------------------------------------

    def suspend(self, reader: str) -> None:
        """Freeze ``reader`` (it went offline): none of its tags is reported gone meanwhile."""
        with self._lock:
            self._suspended.add(reader)

    def resume(self, reader: str, now: float | None = None) -> None:
        """``reader`` is back: its tags get a fresh absence window from now."""
        t = self.clock() if now is None else now
        with self._lock:
            self._suspended.discard(reader)
            for tr in self._tracks.get(reader, {}).values():
                tr.last_seen = max(tr.last_seen, t)
                tr.missed_polls = 0

    def is_suspended(self, reader: str) -> bool:
        with self._lock:
            return reader in self._suspended

    # --- queries -----------------------------------------------------------------------------

    def present(self, reader: str) -> set[str]:
        """The uids reported present at ``reader`` (and not reported gone since)."""
        with self._lock:
            return {uid for uid, tr in self._tracks.get(reader, {}).items() if tr.reported}

    def tracked(self, reader: str) -> set[str]:
        """Every uid the filter holds state for at ``reader`` (reported or still a candidate)."""
        with self._lock:
            return set(self._tracks.get(reader, {}))

    def next_deadline(self) -> float | None:
        """The earliest clock time at which ``tick`` could change something, or None."""
        cfg = self.config
        best: float | None = None
        with self._lock:
            for reader, tracks in self._tracks.items():
                if reader in self._suspended:
                    continue
                for tr in tracks.values():
                    if not tr.reported:
                        at = tr.first_seen + cfg.present_after_ms / 1000.0
                        if tr.held or tr.seen_polls >= cfg.present_after_polls:
                            best = at if best is None else min(best, at)
                    if not tr.held:
                        at = tr.last_seen + cfg.absent_after_ms / 1000.0
                        best = at if best is None else min(best, at)
        return best

    # --- the rules ---------------------------------------------------------------------------

    def _settle(self, reader: str, t: float) -> list[Sighting]:
        cfg = self.config
        out: list[Sighting] = []
        if reader in self._suspended:
            return out
        tracks = self._tracks.get(reader, {})
        for uid in sorted(tracks):
            tr = tracks[uid]
            missing = (
                not tr.held
                and tr.missed_polls >= cfg.absent_after_polls
                and (t - tr.last_seen) * 1000.0 + _EPS_MS >= cfg.absent_after_ms
            )
            if missing:
                if tr.reported:
                    out.append(Sighting(reader, uid, False))
                del tracks[uid]
                continue
            if (
                not tr.reported
                and tr.seen_polls >= cfg.present_after_polls
                and (t - tr.first_seen) * 1000.0 + _EPS_MS >= cfg.present_after_ms
            ):
                tr.reported = True
                out.append(Sighting(reader, uid, True))
        return out
