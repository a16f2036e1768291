# ruff: noqa: UP031  (%-formatting on purpose: this module runs on MicroPython)
"""Entry point on the board: MicroPython runs ``main.py`` after boot. Loads ``config.json``,
builds the ``Bridge`` from ``machine`` objects and runs it on USB serial until the console
escape (press Ctrl-C twice in ``mpremote repl``; ``mpremote`` commands send it themselves).

On CPython this module only defines things (tests call ``build`` with a fake ``machine``); it
runs the bridge only as ``__main__``.

Hazards:

* USB CDC carries both our binary frames and the MicroPython console. ``run`` switches the
  keyboard interrupt off (``micropython.kbd_intr(-1)``), or every 0x03 byte in a host frame
  would stop the program; the bridge watches for the console escape instead and ``run``
  switches Ctrl-C back on before returning to the REPL;
* never ``print`` while the bridge runs: it would land in the middle of the frames (the host
  counts it as garbage). Errors before the bridge starts are printed, which is harmless;
* on a classic ESP32 (no native USB) the host link is a ``machine.UART`` and the REPL lives on
  UART0: see docs/firmware.md, "ESP32 notes".
"""

try:
    from firmware_bridge import config as config_mod
    from firmware_bridge.bridge import Bridge
    from firmware_bridge.hw import PinLed, PwmBuzzer
except ImportError:  # pragma: no cover - MicroPython: the modules sit side by side
    import config as config_mod  # type: ignore[no-redef]
    from bridge import Bridge  # type: ignore[no-redef]
    from hw import PinLed, PwmBuzzer  # type: ignore[no-redef]

TYPE_CHECKING = False
if TYPE_CHECKING:  # never true on the board
    from typing import Any


class UsbStream:
    """The host link over USB CDC: ``sys.stdin.buffer`` polled with ``select.poll`` so a read
    never blocks, and ``sys.stdout.buffer`` (raw bytes, no newline translation) for frames.

    ``read(n)`` stops after a 0x03 byte, so that after a console escape the rest of what
    ``mpremote`` sent (``\\r\\x01``, enter raw REPL) is still waiting for the REPL.
    """

    def __init__(self, sys_mod: "Any", select_mod: "Any") -> None:
        self.rx = sys_mod.stdin.buffer
        self.tx = sys_mod.stdout.buffer
        self.poller = select_mod.poll()
        self.poller.register(sys_mod.stdin, select_mod.POLLIN)

    def read(self, n: int) -> bytes:
        out = bytearray()
        while len(out) < n and self.poller.poll(0):
            b = self.rx.read(1)
            if not b:
                break
            out += b
            if b[0] == 0x03:
                break
        return bytes(out)

    def write(self, data: bytes) -> "int | None":
        written = self.tx.write(data)  # type: int | None
        return written


def build(cfg: "Any", machine: "Any", stream: "Any", time_mod: "Any") -> Bridge:
    """The Bridge for ``cfg`` (a ``config.Config``) on ``machine``'s SPI bus and pins."""
    spi = machine.SPI(
        cfg.spi_id,
        baudrate=cfg.baudrate,
        polarity=0,
        phase=0,
        sck=machine.Pin(cfg.sck),
        mosi=machine.Pin(cfg.mosi),
        miso=machine.Pin(cfg.miso),
    )
    cs_pins = [machine.Pin(r.cs, machine.Pin.OUT, value=1) for r in cfg.readers]
    reset = None
    if cfg.reset_pin is not None:
        reset = machine.Pin(cfg.reset_pin, machine.Pin.OUT, value=1)
    leds = [PinLed(machine.Pin(x, machine.Pin.OUT, value=0)) for x in cfg.led_pins]
    buzzer = None
    if cfg.buzzer_pin is not None:
        buzzer = PwmBuzzer(machine.PWM(machine.Pin(cfg.buzzer_pin)))
    return Bridge(
        cfg,
        spi,
        cs_pins,
        stream,
        time_mod.ticks_ms,
        time_mod.sleep_ms,
        ticks_diff=time_mod.ticks_diff,
        reset_pin=reset,
        leds=leds,
        buzzer=buzzer,
    )


def _blink_forever(machine: "Any", time_mod: "Any") -> None:
    """A config error: blink the on-board LED three times a second, forever; Ctrl-C stops."""
    try:
        led = machine.Pin("LED", machine.Pin.OUT)  # Pico and Pico W; not on every ESP32
    except (ValueError, TypeError):
        return
    while True:
        led.value(1 - led.value())
        time_mod.sleep_ms(160)


def run(path: str = "config.json") -> "Bridge | None":
    """Boot the bridge on this board and run it until the console escape; returns the bridge
    so that ``bridge.stats()`` can be looked at from the REPL afterwards."""
    import select
    import sys
    import time

    import machine  # type: ignore[import-not-found,unused-ignore]
    import micropython  # type: ignore[import-not-found,unused-ignore]

    try:
        cfg = config_mod.load(path)
    except config_mod.ConfigError as exc:
        print("scorekeeper bridge: bad configuration:", exc)
        _blink_forever(machine, time)
        return None
    bridge = build(cfg, machine, UsbStream(sys, select), time)
    micropython.kbd_intr(-1)  # 0x03 in a frame must not interrupt us
    try:
        bridge.run()
    finally:
        micropython.kbd_intr(3)
        bridge.shutdown()
    print(
        "scorekeeper bridge stopped; bridge.stats() shows its counters, machine.reset() restarts it"
    )
    return bridge


if __name__ == "__main__":
    bridge = run()
