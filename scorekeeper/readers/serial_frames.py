"""The serial backend's frame and state handling: the bridge's frames turned into Sightings.

``SerialBackend`` (serial.py) owns the port, the reader thread and reconnection; it mixes in
``BridgeFrames``, which feeds the bytes read to the decoder (``firmware_bridge.protocol``) and
acts on each frame: HELLO (the readers and the start of a resync), TAG_PRESENT / TAG_GONE (edges
through the host's ``PresenceFilter``), HEARTBEAT (the link is online; the resync ends and the
tags the bridge no longer lists are reported gone), READER_HEALTH (per-reader counters and
status), ACK and ERROR (counted). It also keeps the host-side bookkeeping of each reader
(``_Reader``) and logs the decoder's line errors.

Hazard: ``BridgeFrames`` has no state of its own: ``SerialBackend.__init__`` creates every
attribute declared below. Every method but ``_handle_bytes`` expects ``_lock`` to be held by its
caller; ``_handle_bytes`` takes it itself and drains the outbox after releasing it.
"""

from __future__ import annotations

import logging
import threading

from firmware_bridge import protocol as p
from scorekeeper.core.inputs import Sighting
from scorekeeper.readers.base import Outbox, RateMeter, format_uid
from scorekeeper.readers.presence import PresenceFilter

# The backend's logger, whichever of its two modules logs: filters and soak reports select it
# by this name.
log = logging.getLogger("scorekeeper.readers.serial")


class _Reader:
    """Host-side bookkeeping for one reader of the bridge."""

    __slots__ = (
        "status",
        "reads",
        "misses",
        "collisions",
        "tag_frames",
        "rate",
        "last_sighting",
        "reported",
        "ever_reported",
        "last",
    )

    def __init__(self) -> None:
        self.status = p.STATUS_OK
        self.reads = 0  # host-side totals, summed from the bridge's reports across its reboots
        self.misses = 0
        self.collisions = 0
        self.tag_frames = 0
        self.rate = RateMeter()
        self.last_sighting: float | None = None
        self.reported = False  # a READER_HEALTH has arrived since the bridge's last HELLO
        self.ever_reported = False
        self.last = (0, 0, 0)  # the bridge's counters in its last report


class BridgeFrames:
    """Frame and state handling, mixed into ``SerialBackend``; see the module docstring."""

    # Created by SerialBackend.__init__ (serial.py).
    port: str
    filter: PresenceFilter
    decoder: p.Decoder
    _lock: threading.RLock
    _outbox: Outbox
    _fixed_ids: bool
    _ids: list[str]
    _readers: list[_Reader]
    _link_online: bool
    _detail: str
    _last_heartbeat: float | None
    _resync: set[tuple[int, str]] | None
    _hello: p.Hello | None
    _bridge: dict[str, int]
    _seen_counters: dict[str, int]
    _counts: dict[str, int]

    def _handle_bytes(self, data: bytes, now: float) -> None:
        with self._lock:
            frames = self.decoder.feed(data)
            self._log_decoder()
            for frame in frames:
                self._handle_frame(frame, now)
        self._outbox.drain()

    def _log_decoder(self) -> None:
        counters = self.decoder.counters()
        changed = {
            k: counters[k] - self._seen_counters[k]
            for k in counters
            if k not in ("frames", "restarts") and counters[k] != self._seen_counters[k]
        }
        self._seen_counters = counters
        if changed:
            log.warning(
                "reader bridge %s: line errors %s",
                self.port,
                ", ".join(f"{k}+{v}" for k, v in sorted(changed.items())),
                extra={"port": self.port, "event": "line_errors", **changed},
            )

    def _reader_index(self, index: int) -> str | None:
        if index < len(self._ids):
            return self._ids[index]
        if self._fixed_ids:
            self._counts["unknown_reader"] += 1
            log.warning(
                "reader bridge %s: frame for reader index %d, but only %d reader ids are"
                " configured",
                self.port,
                index,
                len(self._ids),
                extra={"port": self.port, "event": "unknown_reader", "index": index},
            )
            return None
        self._grow(index + 1)
        return self._ids[index]

    def _grow(self, count: int) -> None:
        while len(self._ids) < count:
            self._ids.append(f"r{len(self._ids)}")
            self._readers.append(_Reader())
            if not self._link_online:
                self.filter.suspend(self._ids[-1])

    def _set_online(self, now: float) -> None:
        if not self._link_online:
            self._link_online = True
            self._detail = ""
            for index, rid in enumerate(self._ids):
                if self._readers[index].status == p.STATUS_OK:
                    self.filter.resume(rid, now)
            log.info(
                "reader bridge %s online", self.port, extra={"port": self.port, "event": "online"}
            )

    def _handle_frame(self, frame: p.Frame, now: float) -> None:
        msg = frame.message
        out: list[Sighting] = []
        if isinstance(msg, p.Hello):
            self._hello = msg
            self._resync = set()
            if not self._fixed_ids:
                self._grow(msg.reader_count)
            for rd in self._readers:
                rd.reported = False
            log.info(
                "reader bridge %s: HELLO firmware %s, %d readers",
                self.port,
                ".".join(str(x) for x in msg.firmware),
                msg.reader_count,
                extra={
                    "port": self.port,
                    "event": "hello",
                    "firmware": list(msg.firmware),
                    "readers": msg.reader_count,
                },
            )
        elif isinstance(msg, p.TagPresent | p.TagGone):
            rid = self._reader_index(msg.reader)
            if rid is None:
                return
            uid = format_uid(msg.uid)
            present = isinstance(msg, p.TagPresent)
            if present:
                rd = self._readers[msg.reader]
                rd.tag_frames += 1
                if not rd.ever_reported:
                    rd.rate.add(now)
                if self._resync is not None:
                    self._resync.add((msg.reader, uid))
            out = self.filter.edge(rid, uid, present, now)
        elif isinstance(msg, p.Heartbeat):
            self._last_heartbeat = now
            self._bridge = {
                "uptime_ms": msg.uptime_ms,
                "polls": msg.polls,
                "dropped": msg.dropped,
                "rx_errors": msg.rx_errors,
            }
            self._set_online(now)
            if self._resync is not None:
                out = self._finish_resync(now)
        elif isinstance(msg, p.ReaderHealthReport):
            rid = self._reader_index(msg.reader)
            if rid is None:
                return
            self._reader_report(msg.reader, rid, msg, now)
        elif isinstance(msg, p.Ack):
            self._counts["acks"] += 1
        elif isinstance(msg, p.Error):
            self._counts["bridge_errors"] += 1
            log.warning(
                "reader bridge %s refused frame %d: code %d %s",
                self.port,
                msg.seq,
                msg.code,
                msg.text,
                extra={
                    "port": self.port,
                    "event": "bridge_error",
                    "seq": msg.seq,
                    "code": msg.code,
                },
            )
        self._note(out, now)
        self._outbox.put(out)

    def _finish_resync(self, now: float) -> list[Sighting]:
        """The inventory after a HELLO is complete: tags the host holds that the bridge did not
        list have left while the link was down."""
        listed = self._resync or set()
        self._resync = None
        out: list[Sighting] = []
        for index, rid in enumerate(self._ids):
            for uid in sorted(self.filter.tracked(rid)):
                if (index, uid) not in listed:
                    out.extend(self.filter.edge(rid, uid, False, now))
        return out

    def _reader_report(self, index: int, rid: str, msg: p.ReaderHealthReport, now: float) -> None:
        rd = self._readers[index]
        base = rd.last if rd.reported else (0, 0, 0)
        now_counts = (msg.reads, msg.misses, msg.collisions)
        if any(c < b for c, b in zip(now_counts, base, strict=True)):
            base = (0, 0, 0)  # the bridge restarted without a HELLO reaching us
        delta = [c - b for c, b in zip(now_counts, base, strict=True)]
        rd.reads += delta[0]
        rd.misses += delta[1]
        rd.collisions += delta[2]
        if delta[0]:
            rd.rate.add(now, delta[0])
        rd.last = now_counts
        rd.reported = rd.ever_reported = True
        if msg.status != rd.status:
            rd.status = msg.status
            if msg.status == p.STATUS_OK:
                if self._link_online:
                    self.filter.resume(rid, now)
                log.info(
                    "reader %s (bridge index %d) responding again",
                    rid,
                    index,
                    extra={"reader": rid, "event": "reader_online"},
                )
            else:
                self.filter.suspend(rid)
                log.warning(
                    "reader %s (bridge index %d) not responding",
                    rid,
                    index,
                    extra={"reader": rid, "event": "reader_offline"},
                )

    def _note(self, out: list[Sighting], now: float) -> None:
        for s in out:
            if s.reader in self._ids:
                self._readers[self._ids.index(s.reader)].last_sighting = now
