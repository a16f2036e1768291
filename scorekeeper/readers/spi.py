"""The ``spi`` backend: RC522 readers wired straight to the Pi's SPI bus, one per chip-select.

``spi:0.0,0.1`` opens ``/dev/spidev0.0`` and ``/dev/spidev0.1``. A poll thread visits the readers
in turn: wait until the reader's field has been off for ``field_off_ms`` (10 ms by default), antenna
on, wait ``settle_ms`` for the field and the tags to power up, inventory every
tag in the field with our own cascade (``mfrc522_cascade``: full 7-byte NTAG uids, a few tags
per reader), antenna off, next reader -- neighbouring antennas never radiate at once. Raw polls
go through a ``PresenceFilter`` whose defaults tolerate missed reads (a tag must be missing from
``absent_after_polls`` polls *and* for ``absent_after_ms`` before it is reported gone).

Each poll halts the tags it read (HLTA); only a field that stays off for ~5 ms (ISO 14443-3)
resets them to answer the next REQA. With one reader (or the others offline) nothing else fills
that gap, hence ``field_off_ms``. A poll cut short (a collision, a garbled uid, a reception that
never ended with several tags answering, a silent REQA that a WUPA contradicted, for a few
polls a silence while two or more known tags are unread: ``mfrc522_cascade.inventory``) is no
miss for the tags it did not list (``PresenceFilter.poll(partial=True)``).

A reader whose chip stops answering (VersionReg reads 0x00/0xFF, or a command never finishes) is
marked offline in ``health()``, frozen (its tags are not reported gone) and re-initialised every
``retry_interval`` seconds until it answers again.

Hardware hazards (see ``hardware/``): cheap RC522 boards drive MISO even when not selected
(an MFRC522 may even hold it low), so several on one bus need a tri-state buffer, not diodes;
the Pi has two hardware chip-selects on SPI0 (three on SPI1), more readers need another bus.
``spidev`` is imported only when this backend opens a real device; tests pass
``spi_factory=FakeSpiBus(...)``.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from firmware_bridge import mfrc522_cascade as m
from scorekeeper.errors import ConfigError, ReaderError
from scorekeeper.readers.base import (
    Emit,
    Outbox,
    RateMeter,
    ReaderBackend,
    ReaderHealth,
    format_uid,
)
from scorekeeper.readers.presence import PresenceConfig, PresenceFilter

log = logging.getLogger("scorekeeper.readers.spi")


class SpiDevice(Protocol):
    """The part of ``spidev.SpiDev`` the backend uses."""

    def xfer2(self, data: list[int]) -> list[int]: ...

    def close(self) -> None: ...


SpiFactory = Callable[[int, int, int], SpiDevice]


def open_spidev(bus: int, cs: int, speed_hz: int) -> SpiDevice:
    """Open ``/dev/spidev<bus>.<cs>`` with spidev (mode 0); ReaderError with a hint if it fails."""
    try:
        import spidev  # only on a Pi, from the [pi] extra
    except ImportError as exc:
        raise ReaderError(
            "the spi reader backend needs the spidev package: pip install 'scorekeeper[pi]'"
        ) from exc
    dev = spidev.SpiDev()
    try:
        dev.open(bus, cs)
    except OSError as exc:
        raise ReaderError(
            f"cannot open /dev/spidev{bus}.{cs}: {exc} "
            "(is SPI enabled? raspi-config > Interface Options > SPI)"
        ) from exc
    dev.max_speed_hz = speed_hz
    dev.mode = 0
    opened: SpiDevice = dev  # spidev ships no type hints: what this module relies on
    return opened


class SpiRegisters:
    """MFRC522 register access over one SPI device (address byte ``1AAAAAA0`` read,
    ``0AAAAAA0`` write)."""

    def __init__(self, dev: SpiDevice) -> None:
        self.dev = dev

    def read_reg(self, reg: int) -> int:
        return self.dev.xfer2([((reg << 1) & 0x7E) | 0x80, 0])[1]

    def write_reg(self, reg: int, value: int) -> None:
        self.dev.xfer2([(reg << 1) & 0x7E, value & 0xFF])


class _Reader:
    """One RC522: its driver and the backend's bookkeeping for it."""

    def __init__(self, rid: str, bus: int, cs: int) -> None:
        self.rid = rid
        self.bus = bus
        self.cs = cs
        self.dev: SpiDevice | None = None
        self.chip: m.Mfrc522 | None = None
        self.online = False
        self.detail = "not started"
        self.next_retry = 0.0
        self.reads = 0
        self.misses = 0
        self.collisions = 0
        self.garbled = 0
        self.chip_errors = 0
        self.off_at: float | None = None  # clock time of the last antenna-off, if any
        self.rate = RateMeter()
        self.last_sighting: float | None = None


class SpiBackend(ReaderBackend):
    """RC522 readers on SPI; see the module docstring.

    ``devices``: ``(bus, chip_select)`` per reader, in reader-index order; ``reader_ids`` names
    them (default ``r0``, ``r1``, ...). ``autopoll=False`` starts no thread: call ``poll_once()``
    yourself (tests, with an injected ``clock`` and ``sleep``).
    """

    name = "spi"

    def __init__(
        self,
        devices: Sequence[tuple[int, int]],
        *,
        reader_ids: Sequence[str] | None = None,
        speed_hz: int = 1_000_000,
        settle_ms: float = 5.0,
        field_off_ms: float = 10.0,
        poll_interval: float = 0.0,
        max_tags: int = 4,
        chip_timeout_ms: int = 5,
        gain: int = 4,
        present_after_polls: int = 1,
        present_after_ms: float = 0.0,
        absent_after_polls: int = 3,
        absent_after_ms: float = 250.0,
        retry_interval: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        spi_factory: SpiFactory | None = None,
        autopoll: bool = True,
    ) -> None:
        devs = [(int(b), int(c)) for b, c in devices]
        if not devs:
            raise ConfigError("the spi reader backend needs at least one BUS.CS device")
        ids = (
            [str(r) for r in reader_ids]
            if reader_ids is not None
            else [f"r{i}" for i in range(len(devs))]
        )
        if len(ids) != len(devs):
            raise ConfigError(f"{len(devs)} SPI devices but {len(ids)} reader ids")
        if len(set(ids)) != len(ids):
            raise ConfigError("reader ids must be distinct")
        self._readers = [_Reader(rid, b, c) for rid, (b, c) in zip(ids, devs, strict=True)]
        self.speed_hz = speed_hz
        if field_off_ms < 5:
            raise ConfigError(
                f"field_off_ms must be at least 5 (ISO 14443-3 needs ~5 ms of "
                f"field off to reset halted tags), not {field_off_ms:g}"
            )
        self.settle_ms = settle_ms
        self.field_off_ms = field_off_ms
        self.poll_interval = poll_interval
        self.max_tags = max_tags
        self.chip_timeout_ms = chip_timeout_ms
        self.gain = gain
        self.retry_interval = retry_interval
        self.clock = clock
        self.sleep = sleep
        self.autopoll = autopoll
        self._factory: SpiFactory = spi_factory or open_spidev
        self.filter = PresenceFilter(
            PresenceConfig(
                present_after_polls=present_after_polls,
                present_after_ms=present_after_ms,
                absent_after_polls=absent_after_polls,
                absent_after_ms=absent_after_ms,
            ),
            clock=clock,
        )
        self._lock = threading.RLock()
        self._outbox = Outbox()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.polls = 0

    # --- ReaderBackend -----------------------------------------------------------------------

    @property
    def reader_ids(self) -> tuple[str, ...]:
        return tuple(r.rid for r in self._readers)

    def start(self, emit: Emit) -> None:
        """Open every SPI device (ReaderError if one cannot be opened: SPI off, wrong number),
        initialise the chips (one that does not answer is only marked offline) and start polling.
        """
        if self._thread is not None:
            return
        opened: list[_Reader] = []
        try:
            for rd in self._readers:
                try:
                    self._open_reader(rd)
                except ReaderError:
                    raise
                except OSError as exc:
                    raise ReaderError(
                        f"cannot open SPI device {rd.bus}.{rd.cs} for reader {rd.rid}: {exc}"
                    ) from exc
                opened.append(rd)
        except ReaderError:
            for rd in opened:
                self._close_dev(rd)
            raise
        now = self.clock()
        for rd in self._readers:
            self._init_chip(rd, now)
        self._outbox.emit = emit
        if self.autopoll:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="spi-readers", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=2.0)
        with self._lock:
            for rd in self._readers:
                if rd.chip is not None and rd.online:
                    with contextlib.suppress(m.ChipError, OSError):
                        rd.chip.antenna_off()
                self._close_dev(rd)
                rd.online = False
                rd.detail = "stopped"
        self._outbox.emit = None

    def health(self) -> dict[str, ReaderHealth]:
        now = self.clock()
        with self._lock:
            return {
                rd.rid: ReaderHealth(
                    rd.rid,
                    rd.online,
                    rd.last_sighting,
                    rd.reads,
                    rd.rate.rate(now),
                    rd.misses + rd.collisions + rd.garbled + rd.chip_errors,
                    rd.detail,
                )
                for rd in self._readers
            }

    def stats(self) -> dict[str, Any]:
        with self._lock:
            return {
                "backend": self.name,
                "polls": self.polls,
                "readers": {
                    rd.rid: {
                        "spi": f"{rd.bus}.{rd.cs}",
                        "online": rd.online,
                        "reads": rd.reads,
                        "misses": rd.misses,
                        "collisions": rd.collisions,
                        "garbled": rd.garbled,
                        "chip_errors": rd.chip_errors,
                    }
                    for rd in self._readers
                },
            }

    # --- polling -----------------------------------------------------------------------------

    def poll_once(self) -> None:
        """One round: poll every reader once, in turn, and deliver the resulting Sightings."""
        for rd in self._readers:
            if self._stop.is_set() and self.autopoll:
                return
            with self._lock:
                self._poll_reader(rd)
            self._outbox.drain()
        with self._lock:
            now = self.clock()
            out = self.filter.tick(now)
            self._note(out, now)
            self._outbox.put(out)
            self.polls += 1
        self._outbox.drain()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.poll_once()
            except Exception:  # keep polling whatever one round did; the table must go on
                log.exception("spi reader poll failed", extra={"event": "poll_failed"})
                self._stop.wait(self.retry_interval)
            if self.poll_interval > 0:
                self._stop.wait(self.poll_interval)

    def _poll_reader(self, rd: _Reader) -> None:
        now = self.clock()
        if not rd.online and (now < rd.next_retry or not self._init_chip(rd, now)):
            return
        chip = rd.chip
        assert chip is not None
        try:
            version = chip.version()
            if version in (0x00, 0xFF):
                raise m.ChipTimeout(f"VersionReg reads 0x{version:02X}")
            self._field_off_wait(rd)
            chip.antenna_on()
            try:
                if self.settle_ms > 0:
                    self.sleep(self.settle_ms / 1000.0)
                # tags seen last time: a silent REQA is then asked again (REQA, WUPA)
                inv = m.inventory(chip, self.max_tags, len(self.filter.tracked(rd.rid)))
            finally:
                chip.antenna_off()
                rd.off_at = self.clock()
        except (m.ChipError, OSError) as exc:
            self._offline(rd, now, f"not responding: {exc}")
            return
        now = self.clock()
        uids = [format_uid(u) for u in inv.uids]
        before = self.filter.present(rd.rid)
        rd.reads += len(uids)
        if uids:
            rd.rate.add(now, len(uids))
        rd.collisions += inv.collisions
        rd.garbled += inv.garbled
        rd.chip_errors += inv.errors
        rd.misses += inv.contradicted  # REQAs nobody answered, yet a second request found tags
        if inv.complete:
            rd.misses += len(before - set(uids))
        out = self.filter.poll(rd.rid, uids, now, partial=not inv.complete)
        self._note(out, now)
        self._outbox.put(out)

    def _field_off_wait(self, rd: _Reader) -> None:
        """Sleep until ``rd``'s field has been off for ``field_off_ms`` (nothing to wait when
        the other readers' polls took that long)."""
        if rd.off_at is None:
            return
        wait = rd.off_at + self.field_off_ms / 1000.0 - self.clock()
        if wait > 0:
            self.sleep(wait)

    def _open_reader(self, rd: _Reader) -> None:
        """Open ``rd``'s device and give it a cascade driver (``rd.dev``, ``rd.chip``).

        Subclasses that reach the chip another way (the ``mfrc522`` package) override this."""
        rd.dev = self._factory(rd.bus, rd.cs, self.speed_hz)
        regs = SpiRegisters(rd.dev)
        rd.chip = m.Mfrc522(regs.read_reg, regs.write_reg)

    def _configure(self, rd: _Reader) -> None:
        """(Re-)initialise ``rd``'s chip for the cascade; ChipError/OSError if it does not
        answer. Subclasses may initialise it their own way."""
        assert rd.chip is not None
        rd.chip.init(self.chip_timeout_ms, self.gain)

    def _init_chip(self, rd: _Reader, now: float) -> bool:
        if rd.chip is None:
            return False
        try:
            self._configure(rd)
        except (m.ChipError, OSError) as exc:
            self._offline(rd, now, f"not responding: {exc}")
            return False
        rd.off_at = self.clock()  # init leaves the field off (a soft reset switches it off)
        was = rd.detail
        rd.online = True
        rd.detail = ""
        self.filter.resume(rd.rid, now)
        log.info(
            "reader %s (SPI %d.%d) online, chip version 0x%02X",
            rd.rid,
            rd.bus,
            rd.cs,
            rd.chip.version(),
            extra={"reader": rd.rid, "event": "reader_online", "previously": was},
        )
        return True

    def _offline(self, rd: _Reader, now: float, reason: str) -> None:
        rd.next_retry = now + self.retry_interval
        rd.chip_errors += 1
        self.filter.suspend(rd.rid)
        if rd.online or rd.detail != reason:
            log.warning(
                "reader %s (SPI %d.%d) offline: %s",
                rd.rid,
                rd.bus,
                rd.cs,
                reason,
                extra={"reader": rd.rid, "event": "reader_offline", "reason": reason},
            )
        rd.online = False
        rd.detail = reason

    def _close_dev(self, rd: _Reader) -> None:
        if rd.dev is not None:
            with contextlib.suppress(OSError):
                rd.dev.close()
        rd.dev = None
        rd.chip = None

    def _note(self, out: list[Any], now: float) -> None:
        for s in out:
            for rd in self._readers:
                if rd.rid == s.reader:
                    rd.last_sighting = now
