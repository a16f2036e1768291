"""``main.py``: building the bridge from a config and a (fake) ``machine`` module, and the USB
stream that must leave the rest of a console escape for the REPL."""

from __future__ import annotations

import types

from firmware_bridge import main
from firmware_bridge import protocol as p
from firmware_bridge.config import Config
from scorekeeper.readers.fake_mfrc522 import FakeMfrc522
from tests.firmware import fake_machine
from tests.firmware.rig import Host, tags


def test_build_wires_the_bus_pins_led_and_buzzer_from_the_config() -> None:
    cfg = Config.from_dict(
        {
            "spi": {"id": 1, "sck": 10, "mosi": 11, "miso": 12},
            "readers": [{"cs": 13}, {"cs": 14, "enabled": False}],
            "reset_pin": 9,
            "led_pins": ["LED", 2],
            "buzzer_pin": 15,
        }
    )
    clock = fake_machine.FakeTime()
    host = Host()
    bridge = main.build(cfg, fake_machine.module(), host, clock)
    spi = bridge.readers[0].regs.spi
    assert isinstance(spi, fake_machine.SPI) and spi.id == 1
    assert [getattr(pin, "id", None) for pin in spi.pins] == [10, 11, 12]
    chips = [FakeMfrc522(), FakeMfrc522()]
    for rd, chip in zip(bridge.readers, chips, strict=True):
        spi.attach(rd.regs.cs, chip)  # type: ignore[arg-type]
    assert [rd.regs.cs.id for rd in bridge.readers] == [13, 14]  # type: ignore[attr-defined]
    chips[0].place("DEADBEEF")
    chips[1].place("04A1B2C3D4E5F6")
    bridge.boot()
    assert bridge.reset_pin is not None and bridge.reset_pin.history == [0, 1]  # type: ignore
    for _ in range(4):
        bridge.step()
    assert tags(host.messages()) == [("+", 0, "DEADBEEF")]  # reader 1 is disabled
    host.send(p.Command.buzzer(880, 50))
    host.send(p.Command.led(1, 0, 9, 0))
    bridge.service_host()
    assert [type(x) for x in host.take()[-2:]] == [p.Ack, p.Ack]
    assert bridge.buzzer.pwm.freq() == 880  # type: ignore[union-attr]
    assert bridge.leds[1].pin.level == 1  # type: ignore[attr-defined]


class FakeIn:
    def __init__(self, data: bytes) -> None:
        self.data = bytearray(data)

    def read(self, n: int) -> bytes:
        out = bytes(self.data[:n])
        del self.data[:n]
        return out


class FakePoll:
    def __init__(self, src: FakeIn) -> None:
        self.src = src

    def register(self, obj: object, mask: int) -> None:
        pass

    def poll(self, timeout: int) -> list[tuple[object, int]]:
        return [(self.src, 1)] if self.src.data else []


def test_usb_stream_reads_without_blocking_and_stops_after_ctrl_c() -> None:
    src = FakeIn(b"\x7e\x01\r\x03\r\x01")
    out: list[bytes] = []

    def write(data: bytes) -> int:
        out.append(data)
        return len(data)

    sys_mod = types.SimpleNamespace(
        stdin=types.SimpleNamespace(buffer=src),
        stdout=types.SimpleNamespace(buffer=types.SimpleNamespace(write=write)),
    )
    select_mod = types.SimpleNamespace(poll=lambda: FakePoll(src), POLLIN=1)
    stream = main.UsbStream(sys_mod, select_mod)
    assert stream.read(32) == b"\x7e\x01\r\x03"
    assert bytes(src.data) == b"\r\x01"  # left for the REPL
    assert stream.read(1) == b"\r"
    assert stream.read(32) == b"\x01" and stream.read(32) == b""
    assert stream.write(b"abc") == 3 and out == [b"abc"]
