"""A fake MicroPython ``machine`` (Pin, SPI, PWM) and ``time`` for running the bridge firmware on
CPython.

``SPI`` routes every byte to the emulated MFRC522 (``scorekeeper.readers.fake_mfrc522``) whose
chip-select ``Pin`` is low, speaking the chip's SPI framing (address byte ``1AAAAAA0`` to read,
``0AAAAAA0`` to write, reads pipelined one byte behind). Two chip-selects low at once is a wiring
bug in the firmware and raises ``AssertionError``; with none low MISO reads 0x00 (a board that
is not there). ``FakeTime`` is a ``ticks_ms``/``ticks_diff``/``sleep_ms`` clock that only moves
when slept on (or ``advance``d), and can wrap like MicroPython's ticks.

``module()`` packs the classes as a ``machine`` module for code that does ``import machine``.
"""

from __future__ import annotations

import types
from collections.abc import Callable

from scorekeeper.readers.fake_mfrc522 import FakeMfrc522


class Pin:
    """A GPIO: remembers its mode and level; listeners hear every level change."""

    IN, OUT, OPEN_DRAIN = 0, 1, 2
    PULL_UP, PULL_DOWN = 1, 2

    def __init__(
        self, pin_id: object, mode: int = -1, pull: int = -1, value: int | None = None
    ) -> None:
        self.id = pin_id
        self.mode = mode
        self.level = 1 if value else 0
        self.history: list[int] = []
        self.listeners: list[Callable[[Pin, int], None]] = []

    def value(self, v: int | None = None) -> int | None:
        if v is None:
            return self.level
        v = 1 if v else 0
        if v != self.level:
            self.level = v
            self.history.append(v)
            for listen in self.listeners:
                listen(self, v)
        return None

    __call__ = value

    def on(self) -> None:
        self.value(1)

    def off(self) -> None:
        self.value(0)

    def __repr__(self) -> str:
        return f"Pin({self.id!r}, level={self.level})"


class _Link:
    """The SPI state of one chip between a falling and a rising chip-select edge."""

    def __init__(self, chip: FakeMfrc522) -> None:
        self.chip = chip
        self.mode: str | None = None  # None: the next byte is an address
        self.reg = 0

    def exchange(self, mosi: int) -> int:
        if self.mode is None:
            self.reg = (mosi >> 1) & 0x3F
            self.mode = "r" if mosi & 0x80 else "w"
            return 0x00
        if self.mode == "r":
            out = self.chip.read_reg(self.reg)
            self.reg = (mosi >> 1) & 0x3F
            return out
        self.chip.write_reg(self.reg, mosi)
        return 0x00


class SPI:
    """A ``machine.SPI`` whose devices are emulated MFRC522 chips, one per chip-select pin."""

    def __init__(
        self,
        spi_id: int = 0,
        baudrate: int = 1_000_000,
        polarity: int = 0,
        phase: int = 0,
        sck: object = None,
        mosi: object = None,
        miso: object = None,
    ) -> None:
        self.id = spi_id
        self.baudrate = baudrate
        self.pins = (sck, mosi, miso)
        self._links: dict[int, tuple[Pin, _Link]] = {}
        self.transfers = 0
        self.fail: OSError | None = None  # raise this on every transfer (a bus fault)

    def attach(self, cs: Pin, chip: FakeMfrc522) -> None:
        """Wire ``chip`` to this bus behind chip-select ``cs``."""
        link = _Link(chip)
        self._links[id(cs)] = (cs, link)

        def edge(pin: Pin, level: int) -> None:
            link.mode = None  # a new transaction starts at every edge

        cs.listeners.append(edge)

    def _selected(self) -> _Link | None:
        low = [link for cs, link in self._links.values() if cs.level == 0]
        assert len(low) <= 1, "two chip-selects are low at once"
        return low[0] if low else None

    def _xfer(self, out: bytes | bytearray) -> bytes:
        if self.fail is not None:
            raise self.fail
        self.transfers += 1
        link = self._selected()
        if link is None:
            return bytes(len(out))
        return bytes(link.exchange(b) for b in out)

    def write(self, buf: bytes | bytearray) -> None:
        self._xfer(buf)

    def read(self, n: int, write: int = 0) -> bytes:
        return self._xfer(bytes((write,)) * n)

    def readinto(self, buf: bytearray, write: int = 0) -> None:
        buf[:] = self._xfer(bytes((write,)) * len(buf))

    def write_readinto(self, wbuf: bytes | bytearray, rbuf: bytearray) -> None:
        rbuf[:] = self._xfer(wbuf)

    def deinit(self) -> None:
        pass


class PWM:
    """A PWM output: remembers frequency and duty (``playing`` when duty is non-zero)."""

    def __init__(self, pin: Pin, freq: int = 0, duty_u16: int = 0) -> None:
        self.pin = pin
        self._freq = freq
        self._duty = duty_u16

    def freq(self, hz: int | None = None) -> int | None:
        if hz is None:
            return self._freq
        self._freq = hz
        return None

    def duty_u16(self, duty: int | None = None) -> int | None:
        if duty is None:
            return self._duty
        self._duty = duty
        return None

    @property
    def playing(self) -> bool:
        return self._duty != 0

    def deinit(self) -> None:
        self._duty = 0


class FakeTime:
    """MicroPython's ``ticks_ms``/``ticks_diff``/``sleep_ms`` on a clock that moves only when
    slept on. ``period`` makes the ticks wrap like on the board (2**30 on the RP2040)."""

    def __init__(self, start: int = 0, period: int = 1 << 30) -> None:
        self.t = start % period
        self.period = period
        self.slept = 0

    def ticks_ms(self) -> int:
        return self.t

    def ticks_diff(self, a: int, b: int) -> int:
        half = self.period // 2
        return ((a - b + half) % self.period) - half

    def ticks_add(self, a: int, d: int) -> int:
        return (a + d) % self.period

    def sleep_ms(self, ms: int) -> None:
        self.slept += ms
        self.advance(ms)

    def advance(self, ms: int) -> None:
        self.t = (self.t + ms) % self.period


def module() -> types.ModuleType:
    """``Pin``, ``SPI`` and ``PWM`` as a ``machine`` module."""
    mod = types.ModuleType("machine")
    mod.Pin = Pin  # type: ignore[attr-defined]
    mod.SPI = SPI  # type: ignore[attr-defined]
    mod.PWM = PWM  # type: ignore[attr-defined]
    return mod
