"""A scripted reader bridge on the far end of a file descriptor (a pty master), for tests and demos.

It speaks the real frame protocol (``firmware_bridge.protocol``): answers the host's SYNC with
HELLO, its inventory and a HEARTBEAT, ACKs other commands, sends heartbeats and READER_HEALTH
reports on its own, and lets a test lay tags on its readers, stop its heartbeats or push raw
garbage down the line. Typical use with a pseudo-terminal::

    master, slave = os.openpty(); tty.setraw(slave)
    bridge = FakeBridge(master, reader_count=2); bridge.start()
    backend = SerialBackend(os.ttyname(slave), ...)

Hazard: the bridge writes from its own thread and from the caller's; writes are serialised by a
lock, but a write to a pty nobody reads blocks once the pty buffer (~4 KB) is full.
"""

from __future__ import annotations

import contextlib
import os
import select
import threading
import time

from firmware_bridge import protocol as p


class FakeBridge:
    """The bridge side of a serial link, on the file descriptor ``fd`` (read and write)."""

    def __init__(
        self,
        fd: int,
        *,
        reader_count: int = 2,
        firmware: tuple[int, int, int] = (0, 1, 0),
        heartbeat_interval: float = 0.1,
        answer_sync: bool = True,
    ) -> None:
        self.fd = fd
        self.reader_count = reader_count
        self.firmware = firmware
        self.heartbeat_interval = heartbeat_interval
        self.answer_sync = answer_sync
        self.heartbeats = True
        self.tags: dict[int, set[bytes]] = {i: set() for i in range(reader_count)}
        self.status: dict[int, int] = {i: p.STATUS_OK for i in range(reader_count)}
        self.reads: dict[int, int] = {i: 0 for i in range(reader_count)}
        self.misses: dict[int, int] = {i: 0 for i in range(reader_count)}
        self.commands: list[p.Command] = []
        self.decoder = p.Decoder()
        self.seq = p.Sequencer()
        self._write_lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._started = time.monotonic()
        self.synced = threading.Event()

    # --- life cycle --------------------------------------------------------------------------

    def start(self) -> FakeBridge:
        self._thread = threading.Thread(target=self._run, name="fake-bridge", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)

    # --- scripting ---------------------------------------------------------------------------

    def send(self, message: p.Message) -> None:
        """Send one message with the next sequence number (OSError ignored: the line is gone)."""
        with self._write_lock:
            self._write(self.seq.encode(message))

    def send_raw(self, data: bytes) -> None:
        """Push raw bytes (garbage, a cut frame) down the line."""
        with self._write_lock:
            self._write(data)

    def skip_seq(self, count: int = 1) -> None:
        """Lose ``count`` frames: the next frame's sequence number jumps by ``count``."""
        with self._write_lock:
            self.seq.next_seq = (self.seq.next_seq + count) & 0xFF

    def put(self, reader: int, uid: bytes) -> None:
        self.tags[reader].add(bytes(uid))
        self.reads[reader] += 1
        self.send(p.TagPresent(reader, uid))

    def take(self, reader: int, uid: bytes) -> None:
        self.tags[reader].discard(bytes(uid))
        self.send(p.TagGone(reader, uid))

    def send_sync(self) -> None:
        """What the firmware does after boot or on SYNC: HELLO, inventory, HEARTBEAT."""
        self.send(p.Hello(self.firmware, self.reader_count))
        for reader in range(self.reader_count):
            for uid in sorted(self.tags[reader]):
                self.send(p.TagPresent(reader, uid))
        self.send_heartbeat()

    def send_heartbeat(self) -> None:
        uptime = int((time.monotonic() - self._started) * 1000) & 0xFFFFFFFF
        self.send(p.Heartbeat(uptime, 0, 0, self.decoder.crc_errors & 0xFFFF))
        for reader in range(self.reader_count):
            self.send(
                p.ReaderHealthReport(
                    reader, self.status[reader], self.reads[reader], self.misses[reader], 0
                )
            )

    # --- internals ---------------------------------------------------------------------------

    def _write(self, data: bytes) -> None:
        with contextlib.suppress(OSError):
            os.write(self.fd, data)

    def _run(self) -> None:
        next_beat = time.monotonic() + self.heartbeat_interval
        while not self._stop.is_set():
            try:
                ready, _, _ = select.select([self.fd], [], [], 0.01)
                data = os.read(self.fd, 4096) if ready else b""
            except (OSError, ValueError):
                return
            for frame in self.decoder.feed(data):
                msg = frame.message
                if isinstance(msg, p.Command):
                    self.commands.append(msg)
                    if msg.code == p.CMD_SYNC:
                        if self.answer_sync:
                            self.send_sync()
                            self.synced.set()
                    else:
                        self.send(p.Ack(frame.seq))
            now = time.monotonic()
            if self.heartbeat_interval > 0 and now >= next_beat:
                next_beat = now + self.heartbeat_interval
                if self.heartbeats:
                    self.send_heartbeat()
