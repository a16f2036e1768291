"""A bench for the bridge firmware on CPython: emulated RC522 chips on a fake SPI bus, a fake
clock, and a scripted host on the other end of the bridge's stream."""

from __future__ import annotations

from typing import Any

from firmware_bridge import protocol as p
from firmware_bridge.bridge import Bridge
from firmware_bridge.hw import PinLed, PwmBuzzer
from scorekeeper.readers.fake_mfrc522 import ChipClock, FakeMfrc522
from tests.firmware.fake_machine import PWM, SPI, FakeTime, Pin


class Host:
    """The host end of the bridge's stream: decodes what the bridge writes, queues what the
    test sends (``read`` hands it out in chunks, like a serial line)."""

    def __init__(self) -> None:
        self.decoder = p.Decoder()
        self.frames: list[p.Frame] = []
        self.inbox = bytearray()
        self.seq = p.Sequencer()
        self._taken = 0
        self.fail_writes = False

    # the bridge's side
    def read(self, n: int) -> bytes:
        out = bytes(self.inbox[:n])
        del self.inbox[:n]
        return out

    def write(self, data: bytes) -> int:
        if self.fail_writes:
            raise OSError("USB gone")
        self.frames.extend(self.decoder.feed(data))
        return len(data)

    # the test's side
    def send(self, message: p.Message) -> int:
        seq = self.seq.next_seq
        self.inbox += self.seq.encode(message)
        return seq

    def send_raw(self, data: bytes) -> None:
        self.inbox += data

    def messages(self) -> list[Any]:
        return [f.message for f in self.frames]

    def take(self) -> list[Any]:
        """The messages that arrived since the last ``take``."""
        out = [f.message for f in self.frames[self._taken :]]
        self._taken = len(self.frames)
        return out


def tags(messages: list[Any]) -> list[tuple[str, int, str]]:
    """TAG_PRESENT / TAG_GONE messages as ``("+"|"-", reader, HEX)``, in order."""
    out = []
    for msg in messages:
        if isinstance(msg, p.TagPresent | p.TagGone):
            sign = "+" if isinstance(msg, p.TagPresent) else "-"
            out.append((sign, msg.reader, p.hex_bytes(msg.uid)))
    return out


def health(messages: list[Any], reader: int) -> list[p.ReaderHealthReport]:
    return [m for m in messages if isinstance(m, p.ReaderHealthReport) and m.reader == reader]


class Rig:
    """``n`` emulated readers on one bus, the bridge booted on them."""

    def __init__(
        self,
        n: int = 2,
        chips: list[FakeMfrc522] | None = None,
        boot: bool = True,
        start: int = 1000,
        **config: Any,
    ) -> None:
        self.time = FakeTime(start=start)
        self.spi = SPI(0)
        # the chips share one bus clock that follows the bridge's ticks (its sleeps count)
        self.chip_clock = ChipClock()
        self.chip_clock.follow_ticks(self.time.ticks_ms, self.time.ticks_diff)
        self.chips = chips if chips is not None else [FakeMfrc522() for _ in range(n)]
        for chip in self.chips:
            chip.clock = self.chip_clock
        self.pins = [Pin(17 + i, Pin.OUT, value=1) for i in range(len(self.chips))]
        for pin, chip in zip(self.pins, self.chips, strict=True):
            self.spi.attach(pin, chip)
        self.led_pin = Pin(25, Pin.OUT, value=0)
        self.pwm = PWM(Pin(15))
        self.host = Host()
        cfg: dict[str, Any] = {"readers": [{"cs": 17 + i} for i in range(len(self.chips))]}
        cfg.update(config)
        self.bridge = Bridge(
            cfg,
            self.spi,
            self.pins,
            self.host,
            self.time.ticks_ms,
            self.time.sleep_ms,
            self.time.ticks_diff,
            leds=[PinLed(self.led_pin)],
            buzzer=PwmBuzzer(self.pwm),
            firmware=(1, 2, 3),
        )
        for rd in self.bridge.readers:  # the drivers' waits run on the chips' clock too
            self.chip_clock.drive(rd.chip)
        if boot:
            self.bridge.boot()

    def cycles(self, count: int = 1) -> None:
        """Step the bridge until every reader was visited ``count`` more times."""
        for _ in range(count * len(self.chips)):
            self.bridge.step()

    def run_ms(self, ms: int) -> None:
        """Step the bridge until ``ms`` of bridge time have passed."""
        end = self.bridge.now() + ms
        while self.bridge.now() < end:
            self.bridge.step()
