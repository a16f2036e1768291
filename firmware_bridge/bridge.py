# ruff: noqa: UP031  (%-formatting on purpose: MicroPython's f-strings are limited)
"""The reader bridge's testable core: several RC522 readers on one SPI bus, frames to the host.

Runs unchanged on a Raspberry Pi Pico (MicroPython) and on CPython (tests). Everything that
touches hardware is handed in: the ``machine.SPI`` bus, one chip-select ``Pin`` per reader, the
host byte stream (USB CDC, a UART, or a pty in tests), ``ticks_ms``/``ticks_diff``/``sleep_ms``,
and optional reset pin, LEDs and buzzer. ``main.py`` builds those from ``config.json`` on the
board; the tests build them from a fake ``machine`` and the emulated MFRC522.

What one ``step()`` does: visit the next enabled reader (wait until its field has been off for
``field_off_ms``, antenna on, wait ``settle_ms``,
inventory up to ``max_tags`` tags with the cascade -- select, HALT, ask again --, antenna off, so
neighbouring antennas never radiate at once), apply presence hysteresis, send TAG_PRESENT /
TAG_GONE on changes, answer host COMMANDs, and every ``heartbeat_ms`` send a HEARTBEAT followed
by one READER_HEALTH per reader.

Like ``protocol.py`` this module must stay importable on MicroPython: plain classes, ``%``
formatting, function annotations only (variable types as ``# type:`` comments), no f-strings,
no ``from __future__``, no dataclasses.

Hazards:

* a reader error never stops the loop: the reader is marked not responding (status 1 in
  READER_HEALTH), its tags are frozen (no TAG_GONE while it is down) and it is re-initialised
  every ``retry_ms``;
* a tag is reported gone only after missing from ``absent_polls`` *complete* polls (those
  between are all complete or cut short) *and* for ``absent_ms``, and only at a complete poll;
  an inventory cut short (a collision, a garbled uid, a reception that never ended with several
  tags answering, a silent REQA that a WUPA contradicted, for a few polls a silence while two
  or more known tags are unread: ``mfrc522_cascade.inventory``) proves nothing about the tags
  it did not list, so it never counts as a miss;
* each poll halts the tags it reads (HLTA) and later REQAs wake only idle tags: what resets the
  halted ones is the field being off for ~5 ms (ISO 14443-3). So a reader's antenna goes on
  only ``field_off_ms`` (10 ms by default) after its last antenna-off, however few readers are
  polled; otherwise one reader alone would see its tags once and then report them gone;
* disabling a reader (COMMAND READER) freezes its tags too: a TAG_GONE would tell the referee a
  card was lifted, which nobody did;
* console escape: the two bytes ``0D 03`` or ``03 03`` at the start of a segment (right after a
  ``7E`` flag, or at boot) end ``run()`` so that ``main.py`` can give the board back to the
  MicroPython REPL (``mpremote`` sends ``\\r\\x03``); see PROTOCOL.md, "Console escape".
"""

try:  # CPython (tests, the Pi): the package; on the board the modules sit side by side
    from firmware_bridge import mfrc522_cascade as m
    from firmware_bridge import protocol as p
    from firmware_bridge.config import MIN_SETTLE_MS, Config, ConfigError, ReaderConfig
    from firmware_bridge.hw import SpiRegisters
except ImportError:  # pragma: no cover - MicroPython
    import mfrc522_cascade as m  # type: ignore[no-redef]
    import protocol as p  # type: ignore[no-redef]
    from config import (  # type: ignore[no-redef]
        MIN_SETTLE_MS,
        Config,
        ConfigError,
        ReaderConfig,
    )
    from hw import SpiRegisters  # type: ignore[no-redef]

TYPE_CHECKING = False
if TYPE_CHECKING:  # never true on the board
    from collections.abc import Callable, Sequence
    from typing import Any

    from firmware_bridge.hw import Buzzer, Led, OutPin, SpiBus, Stream

FIRMWARE_VERSION = (1, 0, 0)
IDLE_SLEEP_MS = 5
RX_CHUNK = 32

# LED status patterns (see docs/firmware.md, "LED")
LED_BOOT, LED_OK, LED_FAULT = "boot", "ok", "fault"


# --- presence bookkeeping ------------------------------------------------------------------------


class _Track:
    """One tag a reader has seen: consecutive sightings, misses, when last seen, reported?"""

    def __init__(self, now: int) -> None:
        self.seen = 0
        self.missed = 0
        self.last_seen = now
        self.reported = False


class Reader:
    """One RC522 slot: its driver, settings, counters and the tags in its field."""

    def __init__(self, index: int, cfg: ReaderConfig, spi: "SpiBus", cs: "OutPin") -> None:
        self.index = index
        self.enabled = cfg.enabled
        self.gain = cfg.gain
        self.regs = SpiRegisters(spi, cs)
        self.chip = m.Mfrc522(self.regs.read_reg, self.regs.write_reg)
        self.online = False
        self.next_retry = 0
        self.reads = 0
        self.misses = 0  # polls that missed a tag which then turned out to be still there
        self.collisions = 0
        self.garbled = 0
        self.errors = 0  # transmission errors and chip timeouts
        self.polls = 0
        self.last_error = ""
        self.tracks = {}  # type: dict[bytes, _Track]
        self.off_at = None  # type: int | None  # bridge ms of the last antenna-off, if any

    def status(self) -> int:
        if self.enabled and not self.online:
            return p.STATUS_NOT_RESPONDING
        return p.STATUS_OK

    def present(self) -> "list[bytes]":
        """The uids reported present (sorted), frozen ones included."""
        return sorted(u for u, t in self.tracks.items() if t.reported)


# --- the bridge ----------------------------------------------------------------------------------


class _RxDecoder(p.Decoder):
    """The protocol decoder, except that a frame which passed its CRC but does not fit its type
    comes out too, in its place in the stream, as a ``Frame`` with ``message`` None and
    ``refused`` set, so the bridge can answer ERROR 1 "bad frame" in order. It still counts as
    ``malformed``. Hazard: relies on the decoder's ``_finish(body, wire)`` hook;
    ``tests/firmware`` checks the behaviour."""

    def _finish(self, body: bytes, wire: int) -> "p.Frame | None":
        before = self.malformed
        frame = super()._finish(body, wire)
        if frame is None and self.malformed != before:
            frame = p.Frame(body[1], body[2], body[p.HEADER_LEN : -p.CRC_LEN])
            frame.refused = True  # type: ignore[attr-defined]
        return frame


class Bridge:
    """The bridge; see the module docstring.

    ``spi``: a ``machine.SPI``-like bus (``write``, ``write_readinto``); ``cs_pins``: one output
    ``Pin`` per configured reader, in reader order; ``stream``: the host link, ``read(n)``
    returning up to ``n`` bytes or None/b"" without blocking, ``write(data)``; ``ticks_ms``,
    ``sleep_ms`` and ``ticks_diff`` as in MicroPython's ``time`` (``ticks_diff`` defaults to a
    plain subtraction); ``reset_pin``: the readers' shared NRSTPD line, or None; ``leds``:
    ``PinLed``-like objects, the first one is the status LED; ``buzzer``: a ``PwmBuzzer`` or None.

    Not thread-safe: one loop drives it (``run()``, or ``boot()`` then ``step()`` in tests).
    """

    def __init__(
        self,
        config: "Config | dict[str, object]",
        spi: "SpiBus",
        cs_pins: "Sequence[OutPin]",
        stream: "Stream",
        ticks_ms: "Callable[[], int]",
        sleep_ms: "Callable[[int], Any]",
        ticks_diff: "Callable[[int, int], int] | None" = None,
        reset_pin: "OutPin | None" = None,
        leds: "Sequence[Led]" = (),
        buzzer: "Buzzer | None" = None,
        firmware: "tuple[int, int, int]" = FIRMWARE_VERSION,
    ) -> None:
        cfg = config if isinstance(config, Config) else Config.from_dict(config)
        if len(cs_pins) != len(cfg.readers):
            raise ConfigError(
                "%d readers configured but %d chip-select pins given"
                % (len(cfg.readers), len(cs_pins))
            )
        self.config = cfg
        self.stream = stream
        self._ticks_ms = ticks_ms
        self._sleep_ms = sleep_ms
        self._ticks_diff = ticks_diff
        self.reset_pin = reset_pin
        self.leds = list(leds)
        self.buzzer = buzzer
        self.firmware = tuple(firmware)
        self.readers = [Reader(i, rc, spi, cs_pins[i]) for i, rc in enumerate(cfg.readers)]
        self.settle_ms = cfg.settle_ms
        self.field_off_ms = cfg.field_off_ms
        self.present_polls = cfg.present_polls
        self.absent_polls = cfg.absent_polls
        self.absent_ms = cfg.absent_ms
        self.seq = p.Sequencer()
        self.decoder = _RxDecoder()
        self.uptime_ms = 0
        self._last_ticks = ticks_ms()
        self.polls = 0
        self.dropped = 0
        self.sent = 0
        self.garbage_events = 0
        self._garbage_seen = 0
        self.commands = 0
        self.faults = 0
        self.last_fault = ""
        self.exit_requested = False
        self._booted = False
        self._next = 0
        self._next_heartbeat = 0
        self._buzz_until = -1
        self._status_led_host = False
        self._flash_until = -1
        self._seg = bytearray()

    # --- clock -----------------------------------------------------------------------------

    def now(self) -> int:
        """Milliseconds since boot, from wrapping ``ticks_ms`` differences (never wraps)."""
        t = self._ticks_ms()
        if self._ticks_diff is None:
            d = t - self._last_ticks
        else:
            d = self._ticks_diff(t, self._last_ticks)
        self._last_ticks = t
        if d > 0:
            self.uptime_ms += d
        return self.uptime_ms

    def sleep(self, ms: int) -> None:
        if ms > 0:
            self._sleep_ms(ms)

    # --- life cycle --------------------------------------------------------------------------

    def boot(self) -> None:
        """Reset and initialise the readers (one that does not answer is only marked), then
        send HELLO, the (empty) inventory and a HEARTBEAT."""
        self._status_led(LED_BOOT, self.now())
        if self.reset_pin is not None:
            self.reset_pin.value(0)
            self.sleep(10)
            self.reset_pin.value(1)
            self.sleep(50)
        now = self.now()
        self._booted = False  # the HELLO comes first; health changes until then go with it
        for rd in self.readers:
            rd.online = False
            if rd.enabled:
                self._init_reader(rd, now)
        self._booted = True
        self.resync()

    def run(self) -> None:
        """``boot()``, then ``step()`` until the console escape (or ``stop()``). An unexpected
        exception in a step is counted (``faults``, ``last_fault`` in ``stats()``) and the loop
        goes on after 100 ms."""
        self.boot()
        while not self.exit_requested:
            try:
                self.step()
            except Exception as exc:  # noqa: BLE001 - a bug must not take the table down
                self.faults += 1
                self.last_fault = "%s: %s" % (type(exc).__name__, exc)
                self.sleep(100)
        self.shutdown()

    def stop(self) -> None:
        """Ask ``run()`` to return after the current step (from another thread in tests)."""
        self.exit_requested = True

    def shutdown(self) -> None:
        """Fields off, buzzer and LEDs off: the state to leave the board in for the REPL."""
        for rd in self.readers:
            if rd.online:
                try:  # noqa: SIM105 - no contextlib on MicroPython
                    rd.chip.antenna_off()
                except Exception:  # noqa: BLE001 - best effort on the way out
                    pass
        if self.buzzer is not None:
            self.buzzer.off()
        for led in self.leds:
            led.set(False)

    def step(self) -> None:
        """One turn of the loop: host bytes, one reader poll, host bytes, timers."""
        self.service_host()
        if self.exit_requested:
            return
        rd = self._next_reader()
        if rd is None:
            self.sleep(IDLE_SLEEP_MS)
        else:
            self.poll_reader(rd)
        self.service_host()
        self.tick()

    def _next_reader(self) -> "Reader | None":
        n = len(self.readers)
        now = self.now()
        for k in range(n):
            rd = self.readers[(self._next + k) % n]
            if not rd.enabled:
                continue
            if not rd.online and now - rd.next_retry < 0:
                continue
            self._next = (rd.index + 1) % n
            return rd
        return None

    # --- polling -----------------------------------------------------------------------------

    def poll_reader(self, rd: Reader) -> None:
        """Poll one reader: (re)initialise it if it is down, wait out its field-off time,
        field on, settle, inventory, field off, hysteresis. Any error marks the reader not
        responding; nothing propagates."""
        now = self.now()
        if not rd.online and not self._init_reader(rd, now):
            return
        chip = rd.chip
        try:
            version = chip.version()
            if version == 0x00 or version == 0xFF:
                raise m.ChipTimeout("VersionReg reads 0x%02X" % version)
            self._field_off_wait(rd)
            chip.antenna_on()
            try:
                self.sleep(self.settle_ms)
                # tags seen last time: a silent REQA is then asked again (REQA, WUPA)
                inv = m.inventory(chip, self.config.max_tags, len(rd.tracks))
            finally:
                chip.antenna_off()
                rd.off_at = self.now()
        except Exception as exc:  # noqa: BLE001 - a reader error must never stop the bridge
            self._offline(rd, self.now(), exc)
            return
        rd.polls += 1
        self.polls += 1
        self._apply(rd, inv, self.now())

    def _field_off_wait(self, rd: Reader) -> None:
        """Sleep until ``rd``'s field has been off for ``field_off_ms``. The clock counts whole
        milliseconds (an antenna-off at 100.9 ms reads 100), so one more is waited: the gap is
        then never shorter than ``field_off_ms``. With several readers their polls fill the
        gap and nothing is waited."""
        if rd.off_at is None:
            return
        wait = rd.off_at + self.field_off_ms + 1 - self.now()
        if wait > 0:
            self.sleep(wait)

    def _apply(self, rd: Reader, inv: "m.Inventory", now: int) -> None:
        uids = inv.uids
        complete = inv.complete
        rd.reads += len(uids)
        rd.collisions += inv.collisions
        rd.garbled += inv.garbled
        rd.errors += inv.errors
        rd.misses += inv.contradicted  # REQAs nobody answered, yet a second request found tags
        tracks = rd.tracks
        for uid in uids:
            t = tracks.get(uid)
            if t is None:
                t = tracks[uid] = _Track(now)
            t.seen += 1
            if t.missed:  # it was there all along: those polls were missed reads
                rd.misses += t.missed
                t.missed = 0
            t.last_seen = now
            if not t.reported and t.seen >= self.present_polls:
                t.reported = True
                self.send(p.TagPresent(rd.index, uid))
                self._flash(now)
        if not complete:
            # An interrupted inventory says nothing about the tags it did not list: no miss, no
            # removal; only complete polls count (not necessarily in a row: a reader crowded
            # with tags is cut short often, and a lifted tag must still go in bounded time).
            return
        for uid in list(tracks):
            if uid in uids:
                continue
            t = tracks[uid]
            if not t.reported:
                del tracks[uid]  # a candidate that did not stay long enough
                continue
            t.missed += 1
            if t.missed >= self.absent_polls and now - t.last_seen >= self.absent_ms:
                del tracks[uid]
                self.send(p.TagGone(rd.index, uid))
                self._flash(now)

    def _init_reader(self, rd: Reader, now: int) -> bool:
        try:
            rd.chip.init(self.config.chip_timeout_ms, rd.gain)
        except Exception as exc:  # noqa: BLE001 - a dead or absent chip is a state, not a crash
            self._offline(rd, now, exc)
            return False
        rd.off_at = self.now()  # the soft reset switched the field off
        was = rd.status()
        rd.online = True
        rd.last_error = ""
        for t in rd.tracks.values():  # the outage does not count towards absence
            t.last_seen = now
            t.missed = 0
        if was != rd.status() and self._booted:
            self.send_health(rd)
        return True

    def _offline(self, rd: Reader, now: int, exc: Exception) -> None:
        was = rd.status()
        rd.online = False
        rd.errors += 1
        rd.next_retry = now + self.config.retry_ms
        rd.last_error = "%s: %s" % (type(exc).__name__, exc)
        try:  # noqa: SIM105 - no contextlib on MicroPython
            rd.chip.antenna_off()
        except Exception:  # noqa: BLE001 - it is already not answering
            pass
        rd.off_at = self.now()
        if was != rd.status() and self._booted:
            self.send_health(rd)

    # --- frames out --------------------------------------------------------------------------

    def send(self, message: "p.Message") -> None:
        """Frame and write one message; a failed or short write counts in ``dropped``."""
        data = self.seq.encode(message)
        try:
            n = self.stream.write(data)
        except Exception:  # noqa: BLE001 - OSError on a gone link; never crash on output
            self.dropped += 1
            return
        if n is not None and n != len(data):
            self.dropped += 1
        else:
            self.sent += 1

    def rx_errors(self) -> int:
        """Host frames that could not be decoded: CRC failures, cut frames, malformed frames,
        and each burst of garbage bytes."""
        d = self.decoder
        return d.crc_errors + d.truncated + d.malformed + self.garbage_events

    def send_heartbeat(self) -> None:
        """HEARTBEAT, then one READER_HEALTH per reader."""
        self.send(
            p.Heartbeat(
                self.now() & 0xFFFFFFFF,
                self.polls & 0xFFFFFFFF,
                self.dropped & 0xFFFF,
                self.rx_errors() & 0xFFFF,
            )
        )
        for rd in self.readers:
            self.send_health(rd)

    def send_health(self, rd: Reader) -> None:
        """READER_HEALTH of one reader. ``misses`` on the wire also counts garbled uids and
        transmission errors (every read that failed); ``collisions`` the unresolved ones."""
        mask = 0xFFFFFFFF
        self.send(
            p.ReaderHealthReport(
                rd.index,
                rd.status(),
                rd.reads & mask,
                (rd.misses + rd.garbled + rd.errors) & mask,
                rd.collisions & mask,
            )
        )

    def resync(self) -> None:
        """HELLO, a TAG_PRESENT for every tag held present (frozen readers' too), HEARTBEAT."""
        self.send(p.Hello(self.firmware, len(self.readers)))
        for rd in self.readers:
            for uid in rd.present():
                self.send(p.TagPresent(rd.index, uid))
        self.send_heartbeat()
        self._next_heartbeat = self.now() + self.config.heartbeat_ms

    # --- frames in ---------------------------------------------------------------------------

    def service_host(self) -> None:
        """Read what the host sent (without blocking) and answer complete frames."""
        for _ in range(8):
            try:
                data = self.stream.read(RX_CHUNK)
            except Exception:  # noqa: BLE001 - a flaky link must not stop the readers
                return
            if not data:
                return
            if self._watch_escape(data):
                self.exit_requested = True
                return
            frames = self.decoder.feed(data)
            if self.decoder.garbage_bytes != self._garbage_seen:
                self._garbage_seen = self.decoder.garbage_bytes
                self.garbage_events += 1
            for frame in frames:
                self.handle_frame(frame)

    def _watch_escape(self, data: bytes) -> bool:
        seg = self._seg
        for b in data:
            if b == p.FLAG:
                seg[:] = b""
            elif len(seg) < 2:
                seg.append(b)
                if len(seg) == 2 and seg[1] == 0x03 and seg[0] in (0x03, 0x0D):
                    return True
        return False

    def handle_frame(self, frame: "p.Frame") -> None:
        """Act on one decoded host frame and answer it (ACK/ERROR; SYNC gets the resync)."""
        msg = frame.message
        seq = frame.seq
        if getattr(frame, "refused", False):
            self.send(
                p.Error(
                    seq,
                    p.ERR_BAD_FRAME,
                    "a %s frame with a %d-byte payload does not "
                    "fit its type"
                    % (p.TYPE_NAMES.get(frame.type, "0x%02X" % frame.type), len(frame.payload)),
                )
            )
            return
        if not isinstance(msg, p.Command):
            return  # not for the bridge (unknown types are counted by the decoder)
        self.commands += 1
        code = msg.code
        if code == p.CMD_SYNC:
            self._status_led_host = False
            self.resync()
            return
        if code not in p.COMMAND_ARGS:
            self.send(p.Error(seq, p.ERR_UNKNOWN_COMMAND, "unknown command 0x%02X" % code))
            return
        problem = self._command(code, msg.values())
        if problem:
            self.send(p.Error(seq, p.ERR_BAD_ARGS, problem))
        else:
            self.send(p.Ack(seq))

    def _command(self, code: int, args: "tuple[int, ...]") -> str:
        """Apply a command; returns "" or what is wrong with its arguments."""
        now = self.now()
        if code == p.CMD_LED:
            index, r, g, b = args
            if index >= len(self.leds):
                return "no LED %d (this bridge has %d)" % (index, len(self.leds))
            if index == 0:
                self._status_led_host = True
            self.leds[index].set(bool(r or g or b))
            return ""
        if code == p.CMD_BUZZER:
            hz, ms = args
            if self.buzzer is None:
                return "this bridge has no buzzer"
            if hz == 0 or ms == 0:
                self.buzzer.off()
                self._buzz_until = -1
                return ""
            if not 20 <= hz <= 20000:
                return "buzzer frequency %d Hz is outside 20..20000" % hz
            self.buzzer.tone(hz)
            self._buzz_until = now + ms
            return ""
        if code == p.CMD_READER:
            index, enabled, gain = args
            if index >= len(self.readers):
                return "no reader %d (this bridge has %d)" % (index, len(self.readers))
            if enabled > 1 or gain > 7:
                return "enabled is 0/1 and gain 0..7, not %d/%d" % (enabled, gain)
            rd = self.readers[index]
            rd.gain = gain
            was = rd.status()
            rd.enabled = bool(enabled)
            if rd.enabled and rd.online:
                try:
                    rd.chip.set_gain(gain)  # RxGain only: RFCfgReg's other bits are reserved
                except Exception as exc:  # noqa: BLE001
                    self._offline(rd, now, exc)
            elif rd.enabled:
                rd.next_retry = now  # initialise at its next turn
            if was != rd.status():
                self.send_health(rd)
            return ""
        if code == p.CMD_TIMING:
            settle, present, absent = args
            if settle < MIN_SETTLE_MS or settle > 1000:
                return "settle_ms must be %d..1000, not %d" % (MIN_SETTLE_MS, settle)
            if not 1 <= present <= 20:
                return "present_polls must be 1..20, not %d" % present
            if absent > 60000:
                return "absent_ms must be at most 60000, not %d" % absent
            self.settle_ms, self.present_polls, self.absent_ms = settle, present, absent
            return ""
        return "unknown command 0x%02X" % code

    # --- timers and LEDs ---------------------------------------------------------------------

    def tick(self) -> None:
        """Heartbeat when due, buzzer off when its time is up, status LED pattern."""
        now = self.now()
        if now - self._next_heartbeat >= 0:
            self._next_heartbeat = now + self.config.heartbeat_ms
            self.send_heartbeat()
        if self._buzz_until >= 0 and now - self._buzz_until >= 0:
            self._buzz_until = -1
            if self.buzzer is not None:
                self.buzzer.off()
        fault = any(rd.status() != p.STATUS_OK for rd in self.readers)
        self._status_led(LED_FAULT if fault else LED_OK, now)

    def _flash(self, now: int) -> None:
        self._flash_until = now + 100

    def _status_led(self, mode: str, now: int) -> None:
        if not self.leds or self._status_led_host:
            return
        if mode == LED_BOOT:
            on = True
        elif mode == LED_FAULT:
            on = (now // 100) % 2 == 0  # fast blink, 5 Hz
        else:
            on = now % 1000 < 50 or now < self._flash_until  # 50 ms blip a second; tag flash
        self.leds[0].set(on)

    # --- diagnostics -------------------------------------------------------------------------

    def stats(self) -> "dict[str, Any]":
        """Counters for a look from the REPL (``bridge.stats()``); the host gets the same in
        HEARTBEAT / READER_HEALTH."""
        return {
            "uptime_ms": self.uptime_ms,
            "polls": self.polls,
            "sent": self.sent,
            "dropped": self.dropped,
            "rx_errors": self.rx_errors(),
            "commands": self.commands,
            "faults": self.faults,
            "last_fault": self.last_fault,
            "readers": [
                {
                    "index": rd.index,
                    "enabled": rd.enabled,
                    "online": rd.online,
                    "gain": rd.gain,
                    "reads": rd.reads,
                    "misses": rd.misses,
                    "collisions": rd.collisions,
                    "garbled": rd.garbled,
                    "errors": rd.errors,
                    "polls": rd.polls,
                    "error": rd.last_error,
                    "tags": [p.hex_bytes(u) for u in rd.present()],
                }
                for rd in self.readers
            ],
        }
