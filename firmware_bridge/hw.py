# ruff: noqa: UP031  (%-formatting on purpose: this module also runs on MicroPython)
"""Small hardware adapters for the bridge: MFRC522 register access over ``machine.SPI`` and a
chip-select ``Pin``, an on/off LED, a PWM buzzer; and (for mypy only) the shapes of the
``machine`` objects the bridge is given, so CPython tests can hand in fakes.

MicroPython-compatible: no imports at run time.
"""

TYPE_CHECKING = False
if TYPE_CHECKING:  # never true on the board; mypy reads the protocols below
    from typing import Any, Protocol

    class SpiBus(Protocol):
        """The part of ``machine.SPI`` the bridge uses."""

        def write(self, buf: bytes | bytearray) -> Any: ...

        def write_readinto(self, wbuf: bytes | bytearray, rbuf: bytearray) -> Any: ...

    class OutPin(Protocol):
        """The part of ``machine.Pin`` the bridge uses."""

        def value(self, v: int) -> Any: ...

    class Stream(Protocol):
        """The host link: non-blocking ``read(n)`` (None or b"" when nothing came), ``write``."""

        def read(self, n: int) -> bytes | None: ...

        def write(self, data: bytes) -> int | None: ...

    class Pwm(Protocol):
        def freq(self, hz: int) -> Any: ...

        def duty_u16(self, duty: int) -> Any: ...

    class Led(Protocol):
        def set(self, on: bool) -> None: ...

    class Buzzer(Protocol):
        def tone(self, hz: int) -> None: ...

        def off(self) -> None: ...


class SpiRegisters:
    """MFRC522 register access over a ``machine.SPI`` bus and this reader's chip-select ``Pin``:
    ``read_reg``/``write_reg`` are what ``mfrc522_cascade.Mfrc522`` takes.

    The address byte is ``1AAAAAA0`` to read and ``0AAAAAA0`` to write. Buffers are allocated
    once (no garbage per register access on the board). Hazard: cheap RC522 boards drive MISO
    even when not selected; several on one bus need a tri-state buffer (see hardware/).
    """

    def __init__(self, spi: "SpiBus", cs: "OutPin") -> None:
        self.spi = spi
        self.cs = cs
        self._tx = bytearray(2)
        self._rx = bytearray(2)
        cs.value(1)

    def read_reg(self, reg: int) -> int:
        tx = self._tx
        tx[0] = ((reg << 1) & 0x7E) | 0x80
        tx[1] = 0
        self.cs.value(0)
        try:
            self.spi.write_readinto(tx, self._rx)
        finally:
            self.cs.value(1)
        return self._rx[1]

    def write_reg(self, reg: int, value: int) -> None:
        tx = self._tx
        tx[0] = (reg << 1) & 0x7E
        tx[1] = value & 0xFF
        self.cs.value(0)
        try:
            self.spi.write(tx)
        finally:
            self.cs.value(1)


class PinLed:
    """An LED on a GPIO: on when any colour channel of an LED command is non-zero."""

    def __init__(self, pin: "OutPin") -> None:
        self.pin = pin
        self.lit = False

    def set(self, on: bool) -> None:
        if on != self.lit:
            self.pin.value(1 if on else 0)
            self.lit = on


class PwmBuzzer:
    """A passive buzzer on a ``machine.PWM`` output: ``tone(hz)`` at 50 % duty, ``off()``."""

    def __init__(self, pwm: "Pwm") -> None:
        self.pwm = pwm
        self.off()

    def tone(self, hz: int) -> None:
        self.pwm.freq(hz)
        self.pwm.duty_u16(32768)

    def off(self) -> None:
        self.pwm.duty_u16(0)
