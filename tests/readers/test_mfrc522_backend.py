"""The ``mfrc522:`` backend: the ``mfrc522`` package's class for registers and initialisation,
our cascade on top, against the emulated chip.

``PackageLike`` has the methods of the package's ``MFRC522`` (mfrc522 0.0.7, MFRC522.py) that
the backend uses, with the package's register addressing (``Read_MFRC522``/``Write_MFRC522``
shift the address into an SPI byte) and its ``MFRC522_Init`` register writes; its SPI device is
the emulated chip's. The package itself needs RPi.GPIO and a Pi, so it is not imported here.
"""

from __future__ import annotations

import sys

import pytest

from scorekeeper.core.inputs import Sighting
from scorekeeper.errors import ConfigError
from scorekeeper.readers.base import open_readers
from scorekeeper.readers.fake_mfrc522 import FakeMfrc522, FakeSpiDevice
from scorekeeper.readers.mfrc522_pkg import Mfrc522Backend

NTAG = "04A1B2C3D4E5F6"
NTAG_TWIN = "04A1B2C3D4E5F7"  # same cascade level 1: the package's read_id cannot tell them
MIFARE = "DEADBEEF"


class PackageLike:
    """Stands in for ``mfrc522.MFRC522(bus, device)``: same method names and register writes."""

    def __init__(self, chip: FakeMfrc522, bus: int = 0, device: int = 0) -> None:
        self.spi = FakeSpiDevice(chip)
        self.bus, self.device = bus, device
        self.inits = 0
        self.closed = False
        self.MFRC522_Init()  # the package's constructor initialises the chip

    def Write_MFRC522(self, addr: int, val: int) -> None:  # noqa: N802 - the package's names
        self.spi.xfer2([(addr << 1) & 0x7E, val])

    def Read_MFRC522(self, addr: int) -> int:  # noqa: N802
        return self.spi.xfer2([((addr << 1) & 0x7E) | 0x80, 0])[1]

    def MFRC522_Init(self) -> None:  # noqa: N802 - what the package writes, in its order
        self.inits += 1
        self.Write_MFRC522(0x01, 0x0F)  # CommandReg: soft reset
        self.Write_MFRC522(0x2A, 0x8D)  # TModeReg
        self.Write_MFRC522(0x2B, 0x3E)  # TPrescalerReg
        self.Write_MFRC522(0x2D, 30)  # TReloadRegL
        self.Write_MFRC522(0x2C, 0)  # TReloadRegH
        self.Write_MFRC522(0x15, 0x40)  # TxAutoReg: 100 % ASK
        self.Write_MFRC522(0x11, 0x3D)  # ModeReg: CRC preset 6363
        tx = self.Read_MFRC522(0x14)  # AntennaOn
        self.Write_MFRC522(0x14, tx | 0x03)

    def Close_MFRC522(self) -> None:  # noqa: N802
        self.closed = True


def backend_on(chip: FakeMfrc522, made: list[PackageLike]) -> Mfrc522Backend:
    def factory(bus: int, device: int) -> PackageLike:
        reader = PackageLike(chip, bus, device)
        made.append(reader)
        return reader

    clock = [10.0]  # a clock the backend's waits move, and the chip follows

    def sleep(s: float) -> None:
        clock[0] += max(s, 0.0)

    chip.clock.follow(lambda: clock[0])
    chip.clock.keep_up_with_real_time()  # the backend's driver waits on real time
    return Mfrc522Backend(
        mfrc522_factory=factory,
        autopoll=False,
        settle_ms=0,
        absent_after_ms=0,
        sleep=sleep,
        clock=lambda: clock[0],
    )


@pytest.mark.parametrize("uid", [NTAG, MIFARE])
def test_a_seven_byte_and_a_four_byte_uid_read_whole(uid: str) -> None:
    chip = FakeMfrc522()
    chip.place(uid)
    made: list[PackageLike] = []
    backend = backend_on(chip, made)
    seen: list[Sighting] = []
    backend.start(seen.append)
    try:
        backend.poll_once()
    finally:
        backend.stop()
    assert [(s.reader, s.uid, s.present) for s in seen] == [("r0", uid, True)]
    assert made[0].inits >= 2  # the package built it and initialised it again for the backend
    assert made[0].closed  # stop closes the package's reader (its SPI device and GPIO)


def test_ntag_twins_and_removal_are_told_apart() -> None:
    chip = FakeMfrc522()
    for uid in (NTAG, NTAG_TWIN, MIFARE):
        chip.place(uid)
    backend = backend_on(chip, [])
    seen: list[Sighting] = []
    backend.start(seen.append)
    try:
        backend.poll_once()
        assert sorted(s.uid for s in seen if s.present) == sorted([NTAG, NTAG_TWIN, MIFARE])
        chip.remove(NTAG_TWIN)
        for _ in range(3):  # absent_after_polls
            backend.poll_once()
        assert [s.uid for s in seen if not s.present] == [NTAG_TWIN]
        assert backend.health()["r0"].online
    finally:
        backend.stop()


def test_a_chip_that_does_not_answer_is_offline_not_fatal() -> None:
    chip = FakeMfrc522()
    chip.responding = False
    backend = backend_on(chip, [])
    backend.start(lambda s: None)
    try:
        health = backend.health()["r0"]
        assert not health.online and "not responding" in health.detail
    finally:
        backend.stop()


def test_the_config_string_finds_it() -> None:
    backend = open_readers("mfrc522:")
    assert isinstance(backend, Mfrc522Backend) and backend.name == "mfrc522"
    assert backend.reader_ids == ("r0",)
    assert backend.stats()["readers"]["r0"]["spi"] == "0.0"  # the tutorials' CE0
    two = open_readers("mfrc522:0.1?settle_ms=6&absent_after_ms=300")
    assert isinstance(two, Mfrc522Backend) and two.stats()["readers"]["r0"]["spi"] == "0.1"
    assert two.settle_ms == 6
    with pytest.raises(ConfigError, match="does not take option"):
        open_readers("mfrc522:", spi_factory=object())
    with pytest.raises(ConfigError, match="unknown setting"):
        open_readers("mfrc522:?baud=9600")


def test_without_the_package_start_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    from scorekeeper.errors import ReaderError

    monkeypatch.setitem(sys.modules, "mfrc522", None)  # as if not installed: import fails
    with pytest.raises(ReaderError, match=r"scorekeeper\[mfrc522\]"):
        open_readers("mfrc522:").start(lambda s: None)


def test_the_pi_extra_no_longer_pulls_the_package_and_its_own_extra_does() -> None:
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    extras = tomllib.loads((root / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    names = {
        extra: {d.split(">")[0].split("=")[0].strip().lower() for d in deps}
        for extra, deps in extras.items()
    }
    # mfrc522 pulls RPi.GPIO, which clashes with rpi-lgpio: never in the same extra.
    assert "mfrc522" not in names["pi"] and "rpi-lgpio" in names["pi"]
    assert {"mfrc522", "spidev"} <= names["mfrc522"] and "rpi-lgpio" not in names["mfrc522"]
