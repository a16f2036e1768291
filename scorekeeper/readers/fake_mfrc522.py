"""An emulated MFRC522 at the register/FIFO level, with virtual ISO 14443-A tags in its field.

Ships in the package (like gpiozero's ``MockFactory``) so the spi backend and the cascade in
``mfrc522_cascade`` are tested without hardware. ``FakeMfrc522`` answers register reads and
writes the way the chip does for what our driver uses (CommandReg, ComIrqReg, ErrorReg, FIFO,
BitFramingReg with TxLastBits/RxAlign/StartSend, ControlReg RxLastBits, CollReg, TxControlReg,
VersionReg, soft reset, the timer registers, TxASKReg), and plays the tags' ISO 14443-3 state
machine on air: REQA/WUPA, anticollision and SELECT at cascade levels 1-3 with bit-level
collisions between several tags, HLTA. READY/ACTIVE tags ignore REQA/WUPA and fall back to IDLE,
or to HALT when a WUPA had woken them from there (also when they lose the anticollision); an
anticollision frame whose length and TxLastBits disagree with its NVB gets no answer; without
TxASKReg's Force100ASK no tag hears anything. Writes that change reserved bits (RFCfgReg,
TxASKReg) are recorded in ``reserved_writes``.

Time: every chip reads a ``ChipClock`` (microseconds). Each register access moves it by the SPI
access time (``access_us``, 50 by default: about a Pico's or a Pi's register access), and it
follows an outside clock forward (``follow(seconds)``, ``follow_ticks(ticks_ms, ticks_diff)``:
the rig's fake clock, the bridge's ticks, the spi backend's monotonic time), so a firmware that
sleeps moves the chip's time too. Chips on one bus share one clock (``FakeSpiBus.clock``).
Tags forget HALT only when the field stays off for at least ``field_reset_us`` (5000: ISO/IEC
14443-3's reset time); after a shorter gap they keep their state, as real tags may. A StartSend
schedules on that clock TxIRq (end of the frame, 9.44 us a bit), the answer (RxIRq, FIFO,
ErrorReg) after the frame delay time, or the timer (TModeReg's TAuto, TPrescaler, TReload) after
the transmission; an answer stops the timer. A soft reset lasts ``reset_us`` (40 by default):
CommandReg reads 0x0F and writes are dropped (``dropped_writes``) meanwhile. ``ChipClock.drive``
makes a driver wait on the chip's clock.

Faults to script: ``miss(n)`` (the next n REQA/WUPA go unanswered), ``collide(n)`` (the next n
anticollision answers report a collision at an invalid position), ``garble(n)`` (the next n
anticollision answers have a flipped bit, so the BCC fails), ``crowd(n, at=3, stall=False)``
(when three or more tags answer a REQA/WUPA the chip hears silence, or with ``stall`` a reception
that starts and never ends), ``halt_error(n)`` (an HLTA answered by noise with ProtocolErr),
``noise(n, error)`` (frames arriving with ParityErr, ProtocolErr, CRCErr or BufferOvfl),
``responding = False`` (the chip is gone: reads return 0, writes are lost).

``FakeSpiDevice`` wraps a chip behind an ``xfer2`` like ``spidev.SpiDev``'s, and ``FakeSpiBus``
maps ``(bus, chip-select)`` to chips and is the ``spi_factory`` the spi backend takes.

Hazard: only the registers above behave; others just store what is written.
"""

from __future__ import annotations

import threading

from firmware_bridge import mfrc522_cascade as m

TYPE_CHECKING = False
if TYPE_CHECKING:  # never true on MicroPython, where the firmware tests run this module too
    from collections.abc import Callable
    from typing import Any

IDLE, READY, ACTIVE, HALT, OFF = "IDLE", "READY", "ACTIVE", "HALT", "OFF"

ACCESS_US = 50.0  # one register access over SPI, in microseconds (a Pico or a Pi, roughly)
FIELD_RESET_US = 5000.0  # ISO/IEC 14443-3: field off this long resets every tag
PAUSE_S = 0.001  # a host pause longer than this counts for a chip that keeps up with real time
NEVER = -1.0e18  # "the field was never on": any gap is long enough
RESET_US = 40.0  # a soft reset while the oscillator runs (from power-down it takes ms)
BIT_US = 128 / 13.56  # one bit on air at 106 kbit/s (9.44 us)
FDT_US = 1236 / 13.56  # frame delay time, the end of a command to a tag's answer (91 us)
RF_CFG_RESET = 0x48  # RFCfgReg after reset: RxGain 33 dB, reserved bits 0x08
RESERVED = {m.RF_CFG_REG: 0x8F, m.TX_ASK_REG: 0xBF}  # register -> its reserved bits


class ChipClock:
    """The time the emulated chips on one bus see, in microseconds.

    ``access()`` is one register access: it returns the time the access happens at and moves
    the clock on by ``access_us``. An outside clock can be followed (``follow``, seconds, or
    ``follow_ticks``, wrapping milliseconds): whenever it has moved forward the chip's time moves
    as much, so a firmware's sleeps count. Time never goes back.
    """

    def __init__(
        self, source: Callable[[], float] | None = None, access_us: float = ACCESS_US
    ) -> None:
        self.us = 0.0
        self.access_us = access_us
        self.source: Callable[[], float] | None = None
        self._last = 0.0
        self._real: list[Any] | None = None  # [time.monotonic, its last reading] when keeping up
        if source is not None:
            self.follow(source)

    def keep_up_with_real_time(self) -> None:
        """From now on a pause of the host (``time.monotonic`` moving more than ``PAUSE_S``
        between two readings of this clock) passes for the chip too. For a chip whose driver
        bounds its waits by real time (the spi backend's): a host descheduled for 20 ms must
        find the frame out and the timer fired, as on a real chip, not a chip that saw two
        accesses meanwhile. Shorter gaps are left out, so that ordinary runs stay repeatable."""
        import time

        self._real = [time.monotonic, time.monotonic()]

    def follow(self, source: Callable[[], float]) -> None:
        """Follow ``source()``, a monotonic time in seconds (``time.monotonic``, a test clock)."""
        self.source = source
        self._last = source()

    def follow_ticks(
        self,
        ticks_ms: Callable[[], float],
        ticks_diff: Callable[[float, float], float] | None = None,
    ) -> None:
        """Follow MicroPython-style ``ticks_ms`` (wrapping; ``ticks_diff`` tells the difference,
        plain subtraction without it): the bridge's clock in a rig."""
        state = [ticks_ms(), 0]

        def seconds() -> float:
            t = ticks_ms()
            d = ticks_diff(t, state[0]) if ticks_diff is not None else t - state[0]
            state[0] = t
            if d > 0:
                state[1] += d
            return state[1] / 1000.0

        self.follow(seconds)

    def now(self) -> float:
        """The time now, in microseconds (having caught up with the followed clock)."""
        if self.source is not None:
            t = self.source()
            if t > self._last:
                self.us += (t - self._last) * 1e6
                self._last = t
        if self._real is not None:
            t = self._real[0]()
            if t - self._real[1] > PAUSE_S:
                self.us += (t - self._real[1]) * 1e6
            self._real[1] = t
        return self.us

    def access(self) -> float:
        """One register access: when it happens; the clock then moves on by ``access_us``."""
        t = self.now()
        self.us += self.access_us
        return t

    def advance(self, us: float) -> None:
        """Let ``us`` microseconds pass (a test standing in for a wait)."""
        self.us += us

    def ticks_ms(self) -> float:
        """The time in milliseconds, for a driver that should wait on the chip's own clock."""
        return self.now() / 1000.0

    def ticks_diff(self, a: float, b: float) -> float:
        return a - b

    def drive(self, driver: m.Mfrc522) -> None:
        """Make ``driver`` (an ``mfrc522_cascade.Mfrc522``) bound its waits by this clock, not
        by the host's: an emulated chip's time moves with register accesses, which a slow host
        (MicroPython in WebAssembly, a loaded CI machine) makes slower than real time. Each
        reading of the clock takes a microsecond, so a wait ends even on a chip stand-in that
        answers without touching the clock."""

        def ticks_ms() -> float:
            self.us += 1.0
            return self.now() / 1000.0

        driver.ticks_ms = ticks_ms
        driver.ticks_diff = self.ticks_diff


class VirtualTag:
    """A tag with a 4-, 7- or 10-byte uid and its ISO 14443-3 state (``OFF`` outside a field)."""

    def __init__(self, uid: bytes, sak: int | None = None) -> None:
        uid = bytes(uid)
        if len(uid) not in (4, 7, 10):
            raise ValueError(f"a uid has 4, 7 or 10 bytes, not {len(uid)}")
        self.uid = uid
        self.levels = {4: 1, 7: 2, 10: 3}[len(uid)]
        self.final_sak = (0x08 if len(uid) == 4 else 0x00) if sak is None else sak
        self.state = OFF
        self.level = 0
        self.woken = False  # woken from HALT by a WUPA: READY* / ACTIVE*, falls back to HALT

    def atqa(self) -> bytes:
        return bytes(({1: 0x04, 2: 0x44, 3: 0x84}[self.levels], 0x00))

    def cascade(self, level: int) -> bytes:
        """The 5 bytes (4 uid bytes or CT + 3, then BCC) this tag answers at ``level`` (0-based)."""
        u = self.uid
        if level == self.levels - 1:
            cl = u[3 * level : 3 * level + 4]
        else:
            cl = bytes((m.CASCADE_TAG,)) + u[3 * level : 3 * level + 3]
        return cl + bytes((m.bcc(cl),))

    def sak(self, level: int) -> int:
        return self.final_sak if level == self.levels - 1 else m.SAK_CASCADE


def _bits(data: bytes, nbits: int | None = None) -> list[int]:
    out = [(b >> i) & 1 for b in data for i in range(8)]
    return out if nbits is None else out[:nbits]


def _pack(bits: list[int]) -> bytes:
    out = bytearray((len(bits) + 7) // 8)
    for i, bit in enumerate(bits):
        if bit:
            out[i // 8] |= 1 << (i % 8)
    return bytes(out)


class FakeMfrc522:
    """The emulated chip; see the module docstring. Thread-safe (one lock per chip)."""

    VERSION = 0x92

    def __init__(
        self,
        tags: list[VirtualTag] | None = None,
        clock: ChipClock | Callable[[], float] | None = None,
    ) -> None:
        """``clock``: a ``ChipClock`` (shared with the other chips on the bus), a callable
        giving seconds to follow, or None for a clock of its own that moves per access only."""
        self._lock = threading.RLock()
        self.tags: list[VirtualTag] = list(tags or [])
        if clock is None or isinstance(clock, ChipClock):
            self.clock = clock if clock is not None else ChipClock()
        else:
            self.clock = ChipClock(clock)
        self.field_reset_us = FIELD_RESET_US
        self.reset_us = RESET_US
        self._off_at = NEVER  # chip time of the last antenna-off
        self._reset_until = NEVER  # a soft reset runs until then
        # (chip time, what) of the command under way, in time order
        self._events: list[tuple[float, Callable[[], None]]] = []
        self._timer_run: tuple[float, float] | None = None
        self.responding = True
        self._miss = 0
        self._collide = 0
        self._garble = 0
        self._noise: list[int] = []  # ErrorReg bits of the next frames that arrive noisy
        self._halt_errors: list[int] = []  # ErrorReg bits of the next HLTAs answered with noise
        self._crowd = 0  # requests still to lose when crowd_at or more tags answer (-1: all)
        self.crowd_at = 3
        self._crowd_stall = False
        self._crowd_one_in = 0
        self._crowd_seen = 0
        self.transceives = 0
        self.field_cycles = 0
        self.soft_resets = 0
        self.dropped_writes = 0  # writes lost to a soft reset under way
        # (reg, value) writes that changed reserved bits
        self.reserved_writes: list[tuple[int, int]] = []
        self._reset()

    # --- scripting ---------------------------------------------------------------------------

    def place(self, uid: bytes | str, sak: int | None = None) -> VirtualTag:
        """Lay a tag on the reader (``uid`` as bytes or hex); it powers up if the field is on."""
        raw = bytes.fromhex(uid) if isinstance(uid, str) else bytes(uid)
        tag = VirtualTag(raw, sak)
        with self._lock:
            tag.state = IDLE if self.field_on else OFF
            self.tags.append(tag)
        return tag

    def remove(self, uid: bytes | str) -> None:
        raw = bytes.fromhex(uid) if isinstance(uid, str) else bytes(uid)
        with self._lock:
            self.tags = [t for t in self.tags if t.uid != raw]

    def clear(self) -> None:
        with self._lock:
            self.tags = []

    def miss(self, n: int = 1) -> None:
        """The next ``n`` REQA/WUPA get no answer (a missed read)."""
        with self._lock:
            self._miss += n

    def collide(self, n: int = 1) -> None:
        """The next ``n`` anticollision answers report a collision the driver cannot resolve."""
        with self._lock:
            self._collide += n

    def garble(self, n: int = 1) -> None:
        """The next ``n`` anticollision answers arrive with one bit flipped (BCC fails)."""
        with self._lock:
            self._garble += n

    def noise(self, n: int = 1, error: int = m.ERR_PARITY) -> None:
        """The next ``n`` frames the chip receives (a noise burst where no tag answers) come
        with ``error`` set in ErrorReg (ParityErr, ProtocolErr, CRCErr, BufferOvfl) and ErrIRq."""
        with self._lock:
            self._noise.extend([error] * n)

    def halt_error(self, n: int = 1, error: int = m.ERR_PROTOCOL) -> None:
        """The next ``n`` HLTAs halt the tag but the chip receives noise after them: a few bits
        with ``error`` in ErrorReg (only a time-out means success after HLTA)."""
        with self._lock:
            self._halt_errors.extend([error] * n)

    def crowd(self, n: int = -1, at: int = 3, stall: bool = False, hear_one_in: int = 0) -> None:
        """When ``at`` or more tags answer a REQA/WUPA at once the chip hears nothing of it, for
        the next ``n`` such requests (-1: always), as RC522 boards do with three or more tags:
        plain silence (the timer fires), or with ``stall`` a reception that starts (the timer
        stops) and never finishes. The tags still went READY. ``hear_one_in`` k > 0: of those
        requests every k-th is heard after all (real boards time out "often", not always)."""
        with self._lock:
            self._crowd = n
            self.crowd_at = at
            self._crowd_stall = stall
            self._crowd_one_in = hear_one_in
            self._crowd_seen = 0

    @property
    def field_on(self) -> bool:
        return self.regs[m.TX_CONTROL_REG] & 0x03 == 0x03

    # --- registers ---------------------------------------------------------------------------

    def _reset(self) -> None:
        self.regs = bytearray(0x40)
        self.regs[m.COMMAND_REG] = 0x20
        self.regs[m.COM_IEN_REG] = 0x80
        self.regs[m.COLL_REG] = 0x80
        self.regs[m.MODE_REG] = 0x3F
        self.regs[m.TX_CONTROL_REG] = 0x80
        self.regs[m.RF_CFG_REG] = RF_CFG_RESET
        self.regs[m.VERSION_REG] = self.VERSION
        self.fifo = bytearray()
        self._command = m.CMD_IDLE
        self._events = []
        self._timer_run = None  # (from, until) chip time of the timer's run, if it runs

    def _catch_up(self, now: float) -> None:
        """Let what was due by ``now`` happen: the end of a soft reset, of a transmission, of a
        reception, the timer."""
        if self._reset_until != NEVER and now >= self._reset_until:
            self._reset_until = NEVER
        while self._events and self._events[0][0] <= now:
            self._events.pop(0)[1]()

    def _resetting(self) -> bool:
        return self._reset_until != NEVER

    def read_reg(self, reg: int) -> int:
        with self._lock:
            now = self.clock.access()
            if not self.responding:
                return 0x00
            self._catch_up(now)
            reg &= 0x3F
            if reg == m.COMMAND_REG and self._resetting():
                return m.CMD_SOFT_RESET
            if reg == m.FIFO_DATA_REG:
                return self.fifo.pop(0) if self.fifo else 0x00
            if reg == m.FIFO_LEVEL_REG:
                return len(self.fifo)
            if reg == m.STATUS1_REG:
                run = self._timer_run
                return m.T_RUNNING if run is not None and run[0] <= now < run[1] else 0x00
            return self.regs[reg]

    def write_reg(self, reg: int, value: int) -> None:
        with self._lock:
            now = self.clock.access()
            if not self.responding:
                return
            self._catch_up(now)
            if self._resetting():
                self.dropped_writes += 1
                return
            reg &= 0x3F
            value &= 0xFF
            if reg == m.COMMAND_REG:
                cmd = value & 0x0F
                self._events = []  # any command ends the one under way (a reception too)
                self._timer_run = None
                if cmd == m.CMD_SOFT_RESET:
                    if self.field_on:
                        self._off_at = now  # a soft reset switches the antenna off
                    self._reset()
                    self.soft_resets += 1
                    if self.reset_us > 0:
                        self._reset_until = now + self.reset_us
                    return
                self._command = cmd
                self.regs[reg] = value & 0x30
                if cmd == m.CMD_CALC_CRC:
                    crc = m.crc_a(bytes(self.fifo))
                    self.regs[0x22], self.regs[0x21] = crc[0], crc[1]
                    self.regs[m.DIV_IRQ_REG] |= 0x04
            elif reg == m.COM_IRQ_REG:
                if value & 0x80:
                    self.regs[reg] |= value & 0x7F
                else:
                    self.regs[reg] &= ~value & 0x7F
            elif reg == m.FIFO_DATA_REG:
                if len(self.fifo) < 64:
                    self.fifo.append(value)
            elif reg == m.FIFO_LEVEL_REG:
                if value & 0x80:
                    self.fifo.clear()
            elif reg == m.BIT_FRAMING_REG:
                self.regs[reg] = value & 0x7F
                if value & 0x80 and self._command == m.CMD_TRANSCEIVE:
                    self._transmit(value)  # it starts once this write is done
            elif reg == m.TX_CONTROL_REG:
                was_on = self.field_on
                self.regs[reg] = value
                if self.field_on and not was_on:
                    self.field_cycles += 1
                    self._power_up(now)
                elif was_on and not self.field_on:
                    self._off_at = now
            elif reg == m.VERSION_REG:
                pass
            else:
                mask = RESERVED.get(reg)
                if mask is not None and (value ^ self.regs[reg]) & mask:
                    self.reserved_writes.append((reg, value))
                self.regs[reg] = value

    def _power_up(self, now: float) -> None:
        """Field on: tags it had been off long enough for (or never powered) come up IDLE; after
        a shorter gap a tag keeps its state (a halted one stays halted)."""
        reset = now - self._off_at >= self.field_reset_us
        for t in self.tags:
            if reset or t.state == OFF:
                t.state, t.level, t.woken = IDLE, 0, False

    def timer_us(self) -> float | None:
        """How long after a transmission the timer fires, from TModeReg, TPrescalerReg and
        TReloadReg (TPrescalEven 0: f = 13.56 MHz / (2 * TPrescaler + 1)); None without TAuto
        (the timer then never starts by itself)."""
        mode = self.regs[m.T_MODE_REG]
        if not mode & 0x80:
            return None
        prescaler = ((mode & 0x0F) << 8) | self.regs[m.T_PRESCALER_REG]
        reload = (self.regs[m.T_RELOAD_H_REG] << 8) | self.regs[m.T_RELOAD_L_REG]
        return (2 * prescaler + 1) * (reload + 1) / 13.56

    # --- on air ------------------------------------------------------------------------------

    def _transmit(self, framing: int, now: float | None = None) -> None:
        """StartSend: the frame goes out ``now``; what comes back (or the timer) is scheduled on
        the chip clock and happens as time passes (``_catch_up``)."""
        if now is None:
            now = self.clock.now()
        self.transceives += 1
        tx = bytes(self.fifo)
        self.fifo.clear()
        tx_last_bits = framing & 0x07
        rx_align = (framing >> 4) & 0x07
        self.regs[m.ERROR_REG] = 0
        self.regs[m.COLL_REG] = self.regs[m.COLL_REG] & 0x80
        bits = len(tx) * 9 - ((8 - tx_last_bits) if tx_last_bits else 0)
        tx_end = now + (bits + 2) * BIT_US  # with start and end of frame
        timer = self.timer_us()
        timer_at = None if timer is None else tx_end + timer
        # 100 % ASK is what type A tags decode: without Force100ASK they hear nothing
        heard = self.field_on and bool(self.regs[m.TX_ASK_REG] & 0x40)
        answers, coll_invalid, error, stall = (
            self._air(tx, tx_last_bits) if heard else ([], False, 0, False)
        )
        events = [(tx_end, self._tx_done)]
        rx_start = tx_end + FDT_US + 5 * BIT_US  # the timer stops at a reception's 5th bit
        if not answers and not error:
            if stall:  # reception starts, never finishes
                if timer_at is not None and timer_at < rx_start:
                    events.append((timer_at, self._timer_fired))
                self._timer_run = None if timer_at is None else (tx_end, min(timer_at, rx_start))
            elif timer_at is not None:
                events.append((timer_at, self._timer_fired))
                self._timer_run = (tx_end, timer_at)
            self._events = events
            return
        if not answers:  # noise: a few bits with an error
            answers = [[1, 0, 1, 1]]
        done = tx_end + FDT_US + (len(answers[0]) + len(answers[0]) // 8 + 2) * BIT_US
        if timer_at is not None and timer_at < rx_start:
            events.append((timer_at, self._timer_fired))
        self._timer_run = None if timer_at is None else (tx_end, min(timer_at, rx_start))

        def received() -> None:
            self._receive(answers, coll_invalid, error, rx_align)

        events.append((done, received))
        events.sort(key=lambda e: e[0])
        self._events = events

    def _tx_done(self) -> None:
        self.regs[m.COM_IRQ_REG] |= m.IRQ_TX

    def _timer_fired(self) -> None:
        self.regs[m.COM_IRQ_REG] |= m.IRQ_TIMER

    def _receive(
        self, answers: list[list[int]], coll_invalid: bool, error: int, rx_align: int
    ) -> None:
        """The end of a reception: the (merged) answers in the FIFO, CollReg, ErrorReg, IRQs."""
        length = len(answers[0])
        merged: list[int] = []
        coll_at: int | None = None
        for i in range(length):
            column = {a[i] for a in answers}
            if len(column) > 1 and coll_at is None:
                coll_at = i
            merged.append(0 if coll_at is not None else answers[0][i])
        bits = [0] * rx_align + merged
        self.fifo = bytearray(_pack(bits))
        self.regs[m.CONTROL_REG] = (self.regs[m.CONTROL_REG] & 0xF8) | (len(bits) % 8)
        if coll_invalid:
            self.regs[m.ERROR_REG] |= m.ERR_COLL
            self.regs[m.COLL_REG] = (self.regs[m.COLL_REG] & 0x80) | m.COLL_POS_NOT_VALID
        elif coll_at is not None:
            self.regs[m.ERROR_REG] |= m.ERR_COLL
            pos = (rx_align + coll_at + 1) & 0x1F  # 32 reads as 0, as on the chip
            self.regs[m.COLL_REG] = (self.regs[m.COLL_REG] & 0x80) | pos
        self.regs[m.ERROR_REG] |= error
        irq = m.IRQ_RX
        if self.regs[m.ERROR_REG] & ~m.ERR_COLL:
            irq |= m.IRQ_ERR
        self.regs[m.COM_IRQ_REG] |= irq

    def _air(self, tx: bytes, tx_last_bits: int) -> tuple[list[list[int]], bool, int, bool]:
        """The tags' answers (bit lists, LSB first) to the frame ``tx``, whether a scripted
        collision fault applies, the ErrorReg bits of noise on the answer, and whether the
        reception stalls."""
        if not tx:
            return [], False, 0, False
        answers, coll_invalid = self._tags_answer(tx, tx_last_bits)
        stall = False
        error = 0
        if tx[0] == m.PICC_HALT and self._halt_errors:
            error = self._halt_errors.pop(0)
        elif self._noise:
            error = self._noise.pop(0)
        if answers and tx_last_bits == 7 and len(answers) >= self.crowd_at and self._crowd:
            self._crowd_seen += 1
            if not self._crowd_one_in or self._crowd_seen % self._crowd_one_in:
                if self._crowd > 0:
                    self._crowd -= 1
                answers = []
                stall = self._crowd_stall
        return answers, coll_invalid, error, stall

    def _tags_answer(self, tx: bytes, tx_last_bits: int) -> tuple[list[list[int]], bool]:
        """ISO/IEC 14443-3 type A on the tags' side: their state changes and answers."""
        in_field = [t for t in self.tags if t.state != OFF]
        head = tx[0]
        if tx_last_bits == 7 and len(tx) == 1 and head in (m.PICC_REQA, m.PICC_WUPA):
            responders = []
            for t in in_field:
                if t.state in (READY, ACTIVE):
                    _fall_back(t)  # an unexpected command: no answer (miguelbalboa #437)
                elif t.state == IDLE or (t.state == HALT and head == m.PICC_WUPA):
                    responders.append(t)
            if self._miss:
                self._miss -= 1
                for t in responders:  # they answered; the reader did not hear it
                    t.woken = t.state == HALT
                    t.state, t.level = READY, 0
                return [], False
            for t in responders:
                t.woken = t.state == HALT
                t.state, t.level = READY, 0
            return [_bits(t.atqa()) for t in responders], False
        if head in m.PICC_SEL and len(tx) >= 2:
            level = m.PICC_SEL.index(head)
            ready = [t for t in in_field if t.state == READY and t.level == level]
            nvb = tx[1]
            if nvb == m.NVB_SELECT and len(tx) == 9 and tx_last_bits == 0:
                if m.crc_a(tx[:7]) != tx[7:9]:
                    for t in ready:
                        _fall_back(t)
                    return [], False
                answers = []
                for t in ready:
                    if t.cascade(level) == tx[2:7]:
                        sak = t.sak(level)
                        if level == t.levels - 1:
                            t.state = ACTIVE
                        else:
                            t.level = level + 1
                        answers.append(_bits(bytes((sak,)) + m.crc_a(bytes((sak,)))))
                    else:
                        _fall_back(t)  # lost the anticollision: IDLE, or HALT if woken
                return answers, False
            # anticollision: NVB counts the bits sent (SEL and NVB included); the frame's length
            # and TxLastBits must say the same, or the tags take it as an error
            on_air = (len(tx) - 1) * 8 + (tx_last_bits or 8)
            known = ((nvb >> 4) - 2) * 8 + (nvb & 0x0F)
            if (nvb & 0x0F) > 7 or on_air != (nvb >> 4) * 8 + (nvb & 0x0F) or not 0 <= known < 40:
                for t in ready:
                    _fall_back(t)
                return [], False
            prefix = _bits(tx[2:], known)
            answers = [
                _bits(t.cascade(level))[known:]
                for t in ready
                if _bits(t.cascade(level))[:known] == prefix
            ]
            if not answers:
                return [], False
            if self._collide:
                self._collide -= 1
                return answers, True
            if self._garble and all(a == answers[0] for a in answers):
                self._garble -= 1
                answers = [a[:-1] + [1 - a[-1]] for a in answers]
            return answers, False
        if head == m.PICC_HALT and len(tx) == 4 and m.crc_a(tx[:2]) == tx[2:4]:
            for t in in_field:
                if t.state == ACTIVE:
                    t.state, t.level, t.woken = HALT, 0, False
                elif t.state == READY:
                    _fall_back(t)
            return [], False
        for t in in_field:
            if t.state in (READY, ACTIVE):
                _fall_back(t)
        return [], False


def _fall_back(tag: VirtualTag) -> None:
    """A READY or ACTIVE tag that got a command it does not expect goes back to IDLE, or to
    HALT when a WUPA had woken it from there (ISO/IEC 14443-3, READY* and ACTIVE*)."""
    tag.state = HALT if tag.woken else IDLE
    tag.level = 0
    tag.woken = False


class FakeSpiDevice:
    """A ``spidev.SpiDev`` look-alike wired to one ``FakeMfrc522``: MFRC522 SPI framing
    (address byte ``1AAAAAA0`` to read, ``0AAAAAA0`` to write; multi-byte reads and FIFO bursts)."""

    def __init__(self, chip: FakeMfrc522) -> None:
        self.chip = chip
        self.max_speed_hz = 1_000_000
        self.mode = 0
        self.closed = False
        self.transfers = 0

    def xfer2(self, data: list[int]) -> list[int]:
        if self.closed:
            raise OSError("SPI device is closed")
        self.transfers += 1
        if not data:
            return []
        addr = data[0]
        reg = (addr >> 1) & 0x3F
        if addr & 0x80:
            out = [0]
            for nxt in data[1:]:
                out.append(self.chip.read_reg(reg))
                reg = (nxt >> 1) & 0x3F
            return out
        for value in data[1:]:
            self.chip.write_reg(reg, value)
        return [0] * len(data)

    def close(self) -> None:
        self.closed = True


class FakeSpiBus:
    """Chips by ``(bus, chip_select)``; calling it opens one, like the spi backend's factory.

    Opening a chip-select with no chip raises FileNotFoundError, as a missing
    ``/dev/spidevB.C`` does.
    """

    def __init__(
        self,
        chips: dict[tuple[int, int], FakeMfrc522] | None = None,
        clock: ChipClock | Callable[[], float] | None = None,
    ) -> None:
        """``clock``: the ``ChipClock`` the chips ``add`` makes share, or a callable giving
        seconds for it to follow (the backend's clock); ``self.clock.follow`` can set it later.
        The clock keeps up with real time too (``ChipClock.keep_up_with_real_time``).
        """
        self.chips: dict[tuple[int, int], FakeMfrc522] = dict(chips or {})
        self.devices: list[FakeSpiDevice] = []
        self.clock = clock if isinstance(clock, ChipClock) else ChipClock(clock)
        # the spi backend's drivers wait on real time: the chips must not fall behind it
        self.clock.keep_up_with_real_time()

    def add(self, bus: int, cs: int) -> FakeMfrc522:
        chip = self.chips[(bus, cs)] = FakeMfrc522(clock=self.clock)
        return chip

    def __call__(self, bus: int, cs: int, speed_hz: int) -> FakeSpiDevice:
        chip = self.chips.get((bus, cs))
        if chip is None:
            raise FileNotFoundError(f"no such SPI device /dev/spidev{bus}.{cs}")
        dev = FakeSpiDevice(chip)
        dev.max_speed_hz = speed_hz
        self.devices.append(dev)
        return dev
