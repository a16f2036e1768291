# ruff: noqa: UP031  (%-formatting on purpose: this module runs on MicroPython)
"""A fake ``machine`` module for running the bridge firmware on MicroPython (the WebAssembly
port, which has no ``machine``): ``Pin``, ``SPI`` and ``PWM`` as ``firmware_bridge/main.py``
builds them, with emulated MFRC522 chips wired to chip-select pins.

It is the MicroPython twin of ``tests/firmware/fake_machine.py`` and speaks the same SPI framing
to the chip (address byte ``1AAAAAA0`` to read, ``0AAAAAA0`` to write, reads pipelined one byte
behind; a transaction starts at every chip-select edge). ``wire(pin_id, chip)`` connects a chip
(anything with ``read_reg``/``write_reg``) to the GPIO ``pin_id`` before the firmware makes its
pins, as a soldered board would be. Two chip-selects low at once is a firmware wiring bug and
raises ``AssertionError``; with none low MISO reads 0x00 (no board there).

MicroPython-compatible on purpose: plain classes, ``%`` formatting, no annotations beyond
functions, no imports. The test copies it into MicroPython's filesystem as ``machine.py``.
"""

_chips = {}  # pin id -> chip wired behind that chip-select
_links = {}  # pin id -> _Link of the chip behind it
pins = {}  # pin id -> the last Pin made for it (the test reads LED and reset levels here)
pwms = []  # every PWM made, in order


def wire(pin_id, chip) -> None:
    """Solder ``chip`` behind chip-select GPIO ``pin_id``."""
    _chips[pin_id] = chip
    _links[pin_id] = _Link(chip)


def reset() -> None:
    """Unsolder everything (a fresh board)."""
    _chips.clear()
    _links.clear()
    pins.clear()
    del pwms[:]


class _Link:
    """The SPI state of one chip between two chip-select edges."""

    def __init__(self, chip) -> None:
        self.chip = chip
        self.mode = None  # None: the next byte is an address; then "r" or "w"
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


class Pin:
    """A GPIO: mode, level and the history of level changes; a chip-select edge starts a new
    SPI transaction for the chip wired behind it."""

    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, pin_id, mode: int = -1, pull: int = -1, value=None) -> None:
        self.id = pin_id
        self.mode = mode
        self.level = 1 if value else 0
        self.history = []
        pins[pin_id] = self

    def value(self, v=None):
        if v is None:
            return self.level
        v = 1 if v else 0
        if v != self.level:
            self.level = v
            self.history.append(v)
            link = _links.get(self.id)
            if link is not None:
                link.mode = None
        return None

    def __call__(self, v=None):
        return self.value(v)

    def on(self) -> None:
        self.value(1)

    def off(self) -> None:
        self.value(0)

    def __repr__(self) -> str:
        return "Pin(%r, level=%d)" % (self.id, self.level)


class SPI:
    """A ``machine.SPI`` bus whose devices are the chips wired to chip-select pins."""

    def __init__(
        self,
        spi_id: int = 0,
        baudrate: int = 1000000,
        polarity: int = 0,
        phase: int = 0,
        sck=None,
        mosi=None,
        miso=None,
    ) -> None:
        self.id = spi_id
        self.baudrate = baudrate
        self.pins = (sck, mosi, miso)
        self.transfers = 0

    def _selected(self):
        low = [_links[i] for i in _links if i in pins and pins[i].level == 0]
        assert len(low) <= 1, "two chip-selects are low at once"
        return low[0] if low else None

    def _xfer(self, out) -> bytes:
        self.transfers += 1
        link = self._selected()
        if link is None:
            return bytes(len(out))
        return bytes([link.exchange(b) for b in out])

    def write(self, buf) -> None:
        self._xfer(buf)

    def read(self, n: int, write: int = 0) -> bytes:
        return self._xfer(bytes([write]) * n)

    def readinto(self, buf, write: int = 0) -> None:
        buf[:] = self._xfer(bytes([write]) * len(buf))

    def write_readinto(self, wbuf, rbuf) -> None:
        got = self._xfer(wbuf)
        for i in range(len(got)):
            rbuf[i] = got[i]

    def deinit(self) -> None:
        pass


class PWM:
    """A PWM output: remembers frequency and duty, and every (freq, duty) it was set to."""

    def __init__(self, pin, freq: int = 0, duty_u16: int = 0) -> None:
        self.pin = pin
        self._freq = freq
        self._duty = duty_u16
        self.history = []
        pwms.append(self)

    def freq(self, hz=None):
        if hz is None:
            return self._freq
        self._freq = hz
        return None

    def duty_u16(self, duty=None):
        if duty is None:
            return self._duty
        self._duty = duty
        self.history.append((self._freq, duty))
        return None

    def deinit(self) -> None:
        self._duty = 0
