"""The ``serial`` backend: the host side of the reader bridge (``firmware_bridge``), over pyserial.

A reader thread opens the port, sends SYNC, decodes frames (``firmware_bridge.protocol``) and
turns TAG_PRESENT / TAG_GONE into Sightings through a light host-side ``PresenceFilter`` (the
bridge already applies its own hysteresis; the host's defaults to 0 ms). HEARTBEAT and
READER_HEALTH keep ``health()`` current. Everything the decoder throws away (garbage bytes, CRC
failures, truncated frames, sequence gaps) is counted in ``stats()`` and logged.

Reconnection: pyserial keeps ``is_open`` true after the device is unplugged, so the loop never
trusts it. A read or write error (``SerialException``/``OSError``) or a heartbeat timeout closes the
port, marks the bridge offline, and the thread retries opening the same path with exponential
backoff (``reconnect_min`` .. ``reconnect_max`` seconds). Use a stable path
(``/dev/serial/by-id/...`` or the udev symlink in ``systemd/``) so the device comes back under it.
While the bridge is offline its readers are frozen: nothing is reported gone because a cable fell
out. After a reconnect, HELLO + inventory + HEARTBEAT (the "resync" of PROTOCOL.md) tells the host
which tags left meanwhile; those get their gone Sightings then.

Frames and the host's per-reader state are handled in serial_frames.py (``BridgeFrames``,
mixed in here); this module holds the port, the reader thread and reconnection.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from firmware_bridge import protocol as p
from scorekeeper.errors import ReaderError
from scorekeeper.readers.base import Emit, Outbox, ReaderBackend, ReaderHealth
from scorekeeper.readers.presence import PresenceConfig, PresenceFilter
from scorekeeper.readers.serial_frames import BridgeFrames, _Reader

log = logging.getLogger("scorekeeper.readers.serial")

REFUSAL_TONE_HZ = 440  # a low tone that reads as "no", short enough not to annoy
REFUSAL_TONE_MS = 180


class SerialPort(Protocol):
    """The part of ``serial.Serial`` the backend uses."""

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes) -> int | None: ...

    def close(self) -> None: ...

    @property
    def in_waiting(self) -> int: ...


SerialFactory = Callable[[str, int, float], SerialPort]


def open_pyserial(port: str, baudrate: int, timeout: float) -> SerialPort:
    """Open ``port`` with pyserial, exclusively (a second server on one bridge is an error)."""
    import serial  # pyserial; imported here so that importing this module stays cheap

    opened: SerialPort = serial.Serial(  # pyserial ships no type hints
        port=port, baudrate=baudrate, timeout=timeout, write_timeout=1.0, exclusive=True
    )
    return opened


class SerialBackend(BridgeFrames, ReaderBackend):
    """Readers behind a bridge on ``port``; see the module docstring.

    ``reader_ids``: reader id per bridge reader index; without it the ids are ``r0``, ``r1``, ...
    up to the reader count in the bridge's HELLO. A frame for an index beyond a given list is
    counted (``unknown_reader``) and dropped. Timeouts are in seconds and short ones are fine in
    tests; ``serial_factory`` replaces pyserial (tests, other transports).
    """

    name = "serial"

    def __init__(
        self,
        port: str,
        *,
        baudrate: int = 115200,
        reader_ids: Sequence[str] | None = None,
        heartbeat_timeout: float = 3.0,
        read_timeout: float = 0.05,
        reconnect_min: float = 0.1,
        reconnect_max: float = 5.0,
        present_after_ms: float = 0.0,
        absent_after_ms: float = 0.0,
        clock: Callable[[], float] = time.monotonic,
        serial_factory: SerialFactory | None = None,
    ) -> None:
        self.port = port
        self.baudrate = baudrate
        self._fixed_ids = reader_ids is not None
        self._ids: list[str] = [str(r) for r in (reader_ids or ())]
        self.heartbeat_timeout = heartbeat_timeout
        self.read_timeout = read_timeout
        self.reconnect_min = reconnect_min
        self.reconnect_max = reconnect_max
        self.clock = clock
        self._factory: SerialFactory = serial_factory or open_pyserial
        self.filter = PresenceFilter(
            PresenceConfig(present_after_ms=present_after_ms, absent_after_ms=absent_after_ms),
            clock=clock,
        )
        self.decoder = p.Decoder()
        self._tx = p.Sequencer()
        self._lock = threading.RLock()  # guards state below and the filter calls
        self._write_lock = threading.Lock()
        self._outbox = Outbox()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._ser: SerialPort | None = None
        self._readers: list[_Reader] = [_Reader() for _ in self._ids]
        for rid in self._ids:  # frozen until the first HEARTBEAT, like readers added later
            self.filter.suspend(rid)
        self._link_online = False
        self._detail = "not started"
        self._opened_at = 0.0
        self._last_heartbeat: float | None = None
        self._resync: set[tuple[int, str]] | None = None
        self._hello: p.Hello | None = None
        self._bridge: dict[str, int] = {}
        self._seen_counters = self.decoder.counters()
        self._counts = {
            "opens": 0,
            "open_failures": 0,
            "disconnects": 0,
            "heartbeat_timeouts": 0,
            "unknown_reader": 0,
            "acks": 0,
            "bridge_errors": 0,
            "commands_sent": 0,
        }

    # --- ReaderBackend -----------------------------------------------------------------------

    @property
    def reader_ids(self) -> tuple[str, ...]:
        with self._lock:
            return tuple(self._ids)

    @property
    def online(self) -> bool:
        """True while the port is open and heartbeats arrive in time."""
        with self._lock:
            return self._link_online

    def start(self, emit: Emit) -> None:
        """Start the reader thread. Never raises for a missing device: the thread keeps trying
        and ``health()`` says why the readers are offline."""
        if self._thread is not None:
            return
        self._outbox.emit = emit
        self._stop.clear()
        self._thread = threading.Thread(
            target=self._run, name=f"serial-readers {self.port}", daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=max(2.0, self.read_timeout * 4))
        self._close("stopped")
        self._outbox.emit = None

    def health(self) -> dict[str, ReaderHealth]:
        now = self.clock()
        with self._lock:
            out: dict[str, ReaderHealth] = {}
            for index, rid in enumerate(self._ids):
                rd = self._readers[index]
                ok = self._link_online and rd.status == p.STATUS_OK
                if not self._link_online:
                    detail = self._detail
                elif rd.status != p.STATUS_OK:
                    detail = "reader not responding (reported by the bridge)"
                else:
                    detail = ""
                reads = rd.reads if rd.ever_reported else rd.tag_frames
                out[rid] = ReaderHealth(
                    rid,
                    ok,
                    rd.last_sighting,
                    reads,
                    rd.rate.rate(now),
                    rd.misses + rd.collisions,
                    detail,
                )
            return out

    def stats(self) -> dict[str, Any]:
        """Link counters: the decoder's (garbage_bytes, crc_errors, truncated, seq_gaps, lost,
        ...), open/disconnect counts, the bridge's own heartbeat counters and its HELLO."""
        with self._lock:
            out: dict[str, Any] = {
                "backend": self.name,
                "port": self.port,
                "online": self._link_online,
                "detail": self._detail,
            }
            out.update(self.decoder.counters())
            out.update(self._counts)
            out["bridge"] = dict(self._bridge)
            if self._hello is not None:
                out["firmware"] = ".".join(str(x) for x in self._hello.firmware)
                out["protocol"] = self._hello.protocol
            return out

    # --- commands ----------------------------------------------------------------------------

    def signal_refusal(self, reader: str) -> None:
        """Beep the bridge's buzzer (a short low tone); nothing happens while it is offline."""
        # Offline: nothing to beep; the page and the Pi's own buzzer still say it.
        with contextlib.suppress(ReaderError):
            self.send_command(p.Command.buzzer(REFUSAL_TONE_HZ, REFUSAL_TONE_MS))

    def send_command(self, command: p.Command) -> int:
        """Send a COMMAND frame; returns its sequence number. ReaderError when not connected.

        The bridge answers with ACK or ERROR, which are counted in ``stats()`` (``acks``,
        ``bridge_errors``) and logged; this call does not wait for the answer.
        """
        with self._write_lock:
            ser = self._ser
            if ser is None:
                raise ReaderError(f"reader bridge on {self.port} is not connected")
            seq = self._tx.next_seq
            try:
                ser.write(self._tx.encode(command))
            except (OSError, ValueError, TypeError) as exc:
                raise ReaderError(f"cannot write to reader bridge on {self.port}: {exc}") from exc
        with self._lock:
            self._counts["commands_sent"] += 1
        return seq

    # --- the reader thread -------------------------------------------------------------------

    def _run(self) -> None:
        backoff = self.reconnect_min
        while not self._stop.is_set():
            ser = self._ser
            if ser is None:
                if self._open():
                    backoff = self.reconnect_min
                else:
                    self._stop.wait(backoff)
                    backoff = min(backoff * 2, self.reconnect_max)
                continue
            try:
                data = ser.read(max(1, ser.in_waiting))
                if len(data) == 1 and (rest := ser.in_waiting):
                    # A read that waited returns the first byte alone; the rest of its frame
                    # has usually arrived meanwhile: handled with it, a frame costs one pass
                    # of this loop, not two (a sighting no longer waits for a tick between).
                    data += ser.read(rest)
            except (OSError, ValueError, TypeError, AttributeError) as exc:
                # pyserial raises SerialException (an OSError) on unplug; a port closed under it
                # by stop() can surface as TypeError/AttributeError inside pyserial.
                if not self._stop.is_set():
                    self._lost(f"read failed: {exc}")
                continue
            now = self.clock()
            if data:
                self._handle_bytes(data, now)
            self._check_heartbeat(now)
            with self._lock:
                out = self.filter.tick(now)
                self._note(out, now)
                self._outbox.put(out)
            self._outbox.drain()

    def _open(self) -> bool:
        try:
            ser = self._factory(self.port, self.baudrate, self.read_timeout)
        except (OSError, ValueError) as exc:
            with self._lock:
                first = self._counts["open_failures"] == 0 or self._detail != f"cannot open: {exc}"
                self._counts["open_failures"] += 1
                self._detail = f"cannot open: {exc}"
            (log.warning if first else log.debug)(
                "reader bridge %s: cannot open: %s",
                self.port,
                exc,
                extra={"port": self.port, "event": "open_failed", "error": str(exc)},
            )
            return False
        now = self.clock()
        with self._lock:
            self._ser = ser
            self._counts["opens"] += 1
            self._last_heartbeat = None
            problem = "" if self._detail in ("not started", "stopped") else self._detail
            self._detail = "port open, waiting for the bridge" + (
                f" (after: {problem})" if problem and "waiting" not in problem else ""
            )
            self._opened_at = now
            self.decoder.reset()
        log.info(
            "reader bridge %s: opened",
            self.port,
            extra={"port": self.port, "event": "opened", "opens": self._counts["opens"]},
        )
        try:
            with self._write_lock:
                ser.write(bytes((p.FLAG,)) + self._tx.encode(p.Command.sync()))
        except (OSError, ValueError, TypeError) as exc:
            self._lost(f"write failed: {exc}")
            return False
        return True

    def _close(self, reason: str) -> None:
        with self._write_lock:
            ser, self._ser = self._ser, None
        if ser is not None:
            with contextlib.suppress(OSError, ValueError, TypeError):
                ser.close()
        with self._lock:
            self.decoder.flush()
            self._log_decoder()
            was_online = self._link_online
            self._link_online = False
            self._detail = reason
            for rid in self._ids:
                self.filter.suspend(rid)
        if was_online:
            level = logging.INFO if reason == "stopped" else logging.WARNING
            log.log(
                level,
                "reader bridge %s offline: %s",
                self.port,
                reason,
                extra={"port": self.port, "event": "offline", "reason": reason},
            )

    def _lost(self, reason: str) -> None:
        with self._lock:
            self._counts["disconnects"] += 1
        self._close(reason)

    def _check_heartbeat(self, now: float) -> None:
        with self._lock:
            since = self._last_heartbeat if self._last_heartbeat is not None else self._opened_at
            late = self._ser is not None and now - since > self.heartbeat_timeout
            if late:
                self._counts["heartbeat_timeouts"] += 1
        if late:
            self._lost(f"no heartbeat for {self.heartbeat_timeout:g} s")
