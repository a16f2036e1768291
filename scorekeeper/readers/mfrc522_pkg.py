"""The ``mfrc522`` backend: an RC522 wired as the ``mfrc522`` package's tutorials show.

For a Pi that already has the ``mfrc522`` package (pip ``mfrc522``, with ``RPi.GPIO``) and one
RC522 on SPI0 CE0 with its reset on GPIO25 (physical pin 22): ``mfrc522:`` (or ``mfrc522:0.0``;
several ``BUS.CS`` may be listed, but for several readers or a Pi 5 ``spi:`` is the better
choice, see docs/hardware.md). The package's ``MFRC522`` class opens the SPI device, drives the
reset pin and initialises the chip (``MFRC522_Init``); its register accessors
(``Read_MFRC522``/``Write_MFRC522``) carry everything else. The package's own ``read_id`` is
not used: it runs cascade level 1 only, so a 7-byte NTAG uid would come back as 0x88 and three
bytes. Our cascade (``firmware_bridge.mfrc522_cascade``) runs on top of the package's registers
instead, with the same polling, presence filter and health as the ``spi`` backend.

The package is imported only when this backend starts; tests pass ``mfrc522_factory`` with an
object that has the package's methods and talks to the emulated chip.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from firmware_bridge import mfrc522_cascade as m
from scorekeeper.errors import ReaderError
from scorekeeper.readers.spi import SpiBackend, _Reader


class PackageReader(Protocol):
    """The part of the ``mfrc522`` package's ``MFRC522`` class this backend uses."""

    def Read_MFRC522(self, addr: int) -> int: ...  # noqa: N802 - the package's names

    def Write_MFRC522(self, addr: int, val: int) -> None: ...  # noqa: N802

    def MFRC522_Init(self) -> None: ...  # noqa: N802

    def Close_MFRC522(self) -> None: ...  # noqa: N802


PackageFactory = Callable[[int, int], PackageReader]


def open_package_reader(bus: int, device: int) -> PackageReader:
    """The package's ``MFRC522`` on ``/dev/spidev<bus>.<device>`` with its own defaults (GPIO
    numbering by board pin, reset on pin 22 = GPIO25); ReaderError with a hint if it fails."""
    try:
        from mfrc522 import MFRC522  # only on a Pi, from the [mfrc522] extra
    except ImportError as exc:
        raise ReaderError(
            "the mfrc522 reader backend needs the mfrc522 package: "
            "pip install 'scorekeeper[mfrc522]' (or use spi:0.0, which needs "
            "only spidev)"
        ) from exc
    except RuntimeError as exc:  # RPi.GPIO refuses to load off a Pi, or on a Pi 5
        raise ReaderError(
            f"the mfrc522 package cannot drive the GPIO here: {exc}; on a Pi 5 use spi:0.0 instead"
        ) from exc
    try:
        reader: PackageReader = MFRC522(bus=bus, device=device)
    except (OSError, RuntimeError) as exc:
        raise ReaderError(
            f"cannot open the RC522 on /dev/spidev{bus}.{device}: {exc} (is SPI "
            "enabled? raspi-config > Interface Options > SPI)"
        ) from exc
    return reader


class _PackageDevice:
    """Stands where the spi backend keeps its SPI device: closing it closes the package's
    reader (its SPI device and GPIO)."""

    def __init__(self, reader: PackageReader) -> None:
        self.reader = reader

    def xfer2(self, data: list[int]) -> list[int]:
        return list(getattr(self.reader, "spi").xfer2(data))  # noqa: B009 - not in Protocol

    def close(self) -> None:
        self.reader.Close_MFRC522()


class Mfrc522Backend(SpiBackend):
    """RC522 reader(s) through the ``mfrc522`` package; see the module docstring.

    Takes the ``spi`` backend's settings; ``devices`` default to ``[(0, 0)]`` (CE0).
    ``mfrc522_factory(bus, device)`` builds the package's reader (tests give a fake one).
    """

    name = "mfrc522"

    def __init__(
        self,
        devices: Sequence[tuple[int, int]] = ((0, 0),),
        *,
        reader_ids: Sequence[str] | None = None,
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
        clock: Callable[[], float] | None = None,
        sleep: Callable[[float], None] | None = None,
        mfrc522_factory: PackageFactory | None = None,
        autopoll: bool = True,
    ) -> None:
        extra: dict[str, Any] = {}
        if clock is not None:
            extra["clock"] = clock
        if sleep is not None:
            extra["sleep"] = sleep
        super().__init__(
            devices,
            reader_ids=reader_ids,
            settle_ms=settle_ms,
            field_off_ms=field_off_ms,
            poll_interval=poll_interval,
            max_tags=max_tags,
            chip_timeout_ms=chip_timeout_ms,
            gain=gain,
            present_after_polls=present_after_polls,
            present_after_ms=present_after_ms,
            absent_after_polls=absent_after_polls,
            absent_after_ms=absent_after_ms,
            retry_interval=retry_interval,
            autopoll=autopoll,
            **extra,
        )
        self._package_factory: PackageFactory = mfrc522_factory or open_package_reader
        self._packages: dict[str, PackageReader] = {}

    def _open_reader(self, rd: _Reader) -> None:
        reader = self._package_factory(rd.bus, rd.cs)
        self._packages[rd.rid] = reader
        rd.dev = _PackageDevice(reader)

        def write(reg: int, value: int) -> None:
            reader.Write_MFRC522(reg, value & 0xFF)

        rd.chip = m.Mfrc522(reader.Read_MFRC522, write)

    def _configure(self, rd: _Reader) -> None:
        """The package initialises the chip (soft reset, timer, 100 % ASK, CRC preset, antenna
        on); then the few settings our cascade relies on are written through its accessors."""
        reader = self._packages[rd.rid]
        chip = rd.chip
        assert chip is not None
        reader.MFRC522_Init()
        if not chip.responding():
            raise m.ChipTimeout(f"no chip answers (VersionReg reads 0x{chip.version():02X})")
        # The package's timer gives up on a silent field after 15 ms; ours after
        # chip_timeout_ms, so that a poll with no tag stays short (readers take turns).
        # set_timer also bounds the driver's waits by it.
        chip.set_timer(self.chip_timeout_ms)
        # ValuesAfterColl = 0, as our cascade's own init sets it for bit-wise anticollision
        # (the package leaves the chip's reset value there).
        reader.Write_MFRC522(m.COLL_REG, 0x00)
        chip.set_gain(self.gain)  # RxGain only: RFCfgReg's other bits are reserved
        chip.antenna_off()  # the poll turns it on for its turn only (neighbours, heat)

    def _close_dev(self, rd: _Reader) -> None:
        super()._close_dev(rd)
        self._packages.pop(rd.rid, None)

    def stats(self) -> dict[str, Any]:
        out = super().stats()
        out["backend"] = self.name
        return out
