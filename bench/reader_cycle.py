"""The readers' poll cycle, timed on the emulated MFRC522's own clock.

What it runs: the bridge firmware (``firmware_bridge.bridge.Bridge``, with the shipped
``config.json``'s timing) and the Pi's ``spi`` backend, each on emulated chips
(``fake_mfrc522``), for 1, 4 and 8 readers, every reader empty or holding one 7-byte (NTAG) tag,
with ``chip_timeout_ms`` as shipped (5) and at 1.

What the time is: the chips' clock (``ChipClock``). Every register access costs ``ACCESS_US``
(50 us: the emulator's assumed figure for one access from MicroPython on a Pico, or through
spidev on a Pi, not a measured one); the chip's timer, a frame on air (9.44 us a bit), a tag's
answer after the frame delay time and the firmware's sleeps (``field_off_ms``, ``settle_ms``)
all pass on that clock, and the driver's waits are bounded by it. Nothing here depends on how
fast this machine is.

What it is not: a measurement of real hardware. A real register access may cost more or less
than 50 us; ``scorekeeper doctor`` times the cycle on the real thing (docs/firmware.md, "How
fast it reads").
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bench.common import report
from firmware_bridge.bridge import Bridge
from firmware_bridge.config import Config
from scorekeeper.readers.fake_mfrc522 import ACCESS_US, ChipClock, FakeMfrc522, FakeSpiBus
from scorekeeper.readers.spi import SpiBackend

NTAG = "04A1B2C3D4E5F6"
READERS = (1, 4, 8)
TIMEOUTS = (None, 1)  # None: chip_timeout_ms as in the shipped config.json
CYCLES = 20  # timed cycles per figure, after two to warm up


class _Bus:
    """A ``machine.SPI`` stand-in: each two-byte register access goes to the selected chip."""

    def __init__(self) -> None:
        self.selected: FakeMfrc522 | None = None

    def write(self, buf: bytes | bytearray) -> None:
        if self.selected is not None:
            self.selected.write_reg((buf[0] >> 1) & 0x3F, buf[1])

    def write_readinto(self, wbuf: bytes | bytearray, rbuf: bytearray) -> None:
        rbuf[0] = 0
        rbuf[1] = 0 if self.selected is None else self.selected.read_reg((wbuf[0] >> 1) & 0x3F)


class _ChipSelect:
    """A chip-select ``Pin``: low selects its chip on the bus."""

    def __init__(self, bus: _Bus, chip: FakeMfrc522) -> None:
        self.bus = bus
        self.chip = chip

    def value(self, v: int) -> None:
        if not v:
            self.bus.selected = self.chip
        elif self.bus.selected is self.chip:
            self.bus.selected = None


class _Host:
    """The host link: sends nothing, swallows the frames."""

    def read(self, n: int) -> bytes:
        return b""

    def write(self, data: bytes) -> int:
        return len(data)


def shipped_config() -> dict[str, Any]:
    path = Path(__file__).resolve().parent.parent / "firmware_bridge" / "config.json"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _drive(clock: ChipClock, driver: Any) -> None:
    """The driver's waits on the chips' clock (a real chip's time, not this machine's)."""
    driver.ticks_ms = lambda: clock.now() / 1000.0
    driver.ticks_diff = lambda a, b: a - b


def bridge_cycle_ms(readers: int, tagged: bool, timeout_ms: int | None) -> tuple[float, float]:
    """(ms a poll, ms a cycle of every reader) of the bridge firmware, on the chips' clock."""
    cfg = shipped_config()
    cfg["readers"] = [{"cs": 17 + i} for i in range(readers)]
    if timeout_ms is not None:
        cfg["chip_timeout_ms"] = timeout_ms
    clock = ChipClock()
    chips = [FakeMfrc522(clock=clock) for _ in range(readers)]
    bus = _Bus()

    def ticks_ms() -> int:
        return int(clock.now() // 1000)

    def sleep_ms(ms: int) -> None:
        clock.advance(ms * 1000.0)

    bridge = Bridge(
        Config.from_dict(cfg),
        bus,
        [_ChipSelect(bus, c) for c in chips],
        _Host(),
        ticks_ms,
        sleep_ms,
    )
    for rd in bridge.readers:
        _drive(clock, rd.chip)
    bridge.boot()
    if tagged:
        for chip in chips:
            chip.place(NTAG)
    for _ in range(2 * readers):
        bridge.step()
    start, polls = clock.now(), bridge.polls
    for _ in range(CYCLES * readers):
        bridge.step()
    done = bridge.polls - polls
    if done != CYCLES * readers:
        raise RuntimeError(f"the bridge polled {done} times in {CYCLES * readers} steps")
    if tagged and any(rd.present() != [bytes.fromhex(NTAG)] for rd in bridge.readers):
        raise RuntimeError("a reader lost its tag during the benchmark")
    elapsed_ms = (clock.now() - start) / 1000.0
    return elapsed_ms / done, elapsed_ms / CYCLES


def spi_cycle_ms(readers: int, tagged: bool, timeout_ms: int | None) -> tuple[float, float]:
    """(ms a poll, ms a cycle) of the Pi's spi backend with its defaults, on the chips' clock."""
    bus = FakeSpiBus()
    clock = bus.clock
    # The drivers wait on the chips' clock here (_drive), so the chips need not keep up with
    # this machine's time: a busy machine's pauses would pass for chip time and move the
    # figures (the test of them failed under a loaded make test).
    clock._real = None  # noqa: SLF001
    devices = [(i // 2, i % 2) for i in range(readers)]
    chips = [bus.add(b, c) for b, c in devices]
    options: dict[str, Any] = {}
    if timeout_ms is not None:
        options["chip_timeout_ms"] = timeout_ms
    backend = SpiBackend(
        devices,
        clock=lambda: clock.now() / 1e6,
        sleep=lambda s: clock.advance(max(s, 0.0) * 1e6),
        spi_factory=bus,
        autopoll=False,
        **options,
    )
    got: list[Any] = []
    backend.start(got.append)
    try:
        for rd in backend._readers:  # noqa: SLF001 - the bench times the drivers it made
            _drive(clock, rd.chip)
        if tagged:
            for chip in chips:
                chip.place(NTAG)
        for _ in range(2):
            backend.poll_once()
        start = clock.now()
        for _ in range(CYCLES):
            backend.poll_once()
        elapsed_ms = (clock.now() - start) / 1000.0
    finally:
        backend.stop()
    if tagged and len(got) != readers:
        raise RuntimeError(f"{len(got)} sightings for {readers} tags")
    return elapsed_ms / (CYCLES * readers), elapsed_ms / CYCLES


def run() -> dict[str, tuple[float, float]]:
    """Print the figures; returns them by label (tests and docs read the same numbers)."""
    cfg = Config.from_dict(shipped_config())
    print(
        f"reader poll cycle on the emulated chip's clock ({ACCESS_US:g} us a register "
        f"access; field_off_ms {cfg.field_off_ms}, settle_ms {cfg.settle_ms}, "
        f"chip_timeout_ms {cfg.chip_timeout_ms} as shipped):",
        flush=True,
    )
    out: dict[str, tuple[float, float]] = {}
    for side, measure in (("bridge", bridge_cycle_ms), ("spi", spi_cycle_ms)):
        for timeout in TIMEOUTS:
            shown = cfg.chip_timeout_ms if timeout is None else timeout
            for tagged in (False, True):
                for n in READERS:
                    poll, cycle = measure(n, tagged, timeout)
                    what = "one 7-byte tag each" if tagged else "empty"
                    label = f"{side}, {n} reader{'s' if n > 1 else ''}, {what}, timeout {shown}"
                    out[label] = (poll, cycle)
                    report(
                        label,
                        f"poll {poll:4.1f} ms, cycle {cycle:5.1f} ms",
                        f"(none; {1000.0 / cycle:4.1f} polls/s a reader)",
                        None,
                    )
    return out


if __name__ == "__main__":
    run()
