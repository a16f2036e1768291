# ruff: noqa: UP031  (%-formatting on purpose: this module runs on MicroPython)
"""Runs the bridge firmware's scan loop on MicroPython against emulated MFRC522 chips.

The test (``tests/firmware/test_micropython.py``) writes the firmware modules into the root of
MicroPython's filesystem, side by side as on the board, with a ``config.json``; this driver, the
fake ``machine`` and the emulated chip go under ``/rig``. ``run(job)`` then:

* imports the firmware flat (``import bridge``, as ``main.py`` does on the board: its
  ``from firmware_bridge import ...`` must fail and fall back), before anything of the rig that
  could shadow a module;
* builds the emulated chips (``scorekeeper/readers/fake_mfrc522.py``, the same emulator the
  CPython tests use) and wires them to the configured chip-select pins of the fake ``machine``;
* builds the bridge with the firmware's own ``main.build`` from ``config.load("config.json")``
  and runs the real loop, ``Bridge.run()``, on a clock that moves only when the firmware sleeps.
  Tags are placed and lifted, and host bytes arrive, at the scripted clock times; the run ends
  through the firmware's console escape (``\\r\\x03`` after a flag), the way ``mpremote`` stops
  it, and a runaway loop is cut off by an exception the loop cannot swallow;
* returns, as JSON, every write the firmware made to the host link (clock time, hex bytes),
  ``bridge.stats()`` (``faults`` counts exceptions ``run()`` swallowed) and what the fake
  ``machine`` saw.

``run_main(job)`` runs the board's entry point ``main.run()`` itself (stdin, stdout, ``select``,
real time); ``corpus(job)`` reads the fuzz corpus with the frame codec and a bridge.

The emulator is CPython test code, so it gets three stand-ins while it is imported (never while
the firmware is): ``__future__``, ``threading`` (a no-op lock) and a ``firmware_bridge`` package
that hands it the firmware's own ``mfrc522_cascade``; and MicroPython's ``bytearray`` has no
``pop``/``clear``, so the emulator's module sees a ``bytearray`` subclass that has them.
"""

import json
import sys
import time

from scenario import Clock, HostLink, Runaway, answer_host, decode_stream

EMULATOR_DIR = "/rig/emulator"


class _Lock:
    def __enter__(self):
        return self

    def __exit__(self, *exc) -> bool:
        return False


class _Namespace:
    pass


def _with_pop_and_clear(base):
    class Buffer(base):
        """MicroPython's bytearray plus the two list methods the emulator calls."""

        def pop(self, i: int = -1) -> int:
            value = self[i]
            i = i % len(self)
            self[i : i + 1] = b""
            return value

        def clear(self) -> None:
            self[:] = b""

    return Buffer


def load_emulator(cascade):
    """The emulated chip module, imported with its stand-ins, which are then taken away."""
    future = _Namespace()
    future.annotations = True
    threading = _Namespace()
    threading.RLock = _Lock
    threading.Lock = _Lock
    package = _Namespace()
    package.mfrc522_cascade = cascade
    stand_ins = {"__future__": future, "threading": threading, "firmware_bridge": package}
    for name in stand_ins:
        assert name not in sys.modules, name
        sys.modules[name] = stand_ins[name]
    sys.path.insert(0, EMULATOR_DIR)
    try:
        import fake_mfrc522
    finally:
        sys.path.remove(EMULATOR_DIR)
        for name in stand_ins:
            del sys.modules[name]
    fake_mfrc522.bytearray = _with_pop_and_clear(bytearray)
    return fake_mfrc522


def _firmware() -> dict:
    """The firmware's modules, imported flat exactly as main.py imports them on the board,
    before anything of the rig that could shadow a module (the fake machine imports nothing, so
    it cannot hand the firmware a module the board would not have)."""
    assert sys.implementation.name == "micropython", sys.implementation
    import bridge
    import config
    import hw
    import main
    import mfrc522_cascade
    import protocol

    return {
        "bridge": bridge,
        "config": config,
        "hw": hw,
        "main": main,
        "mfrc522_cascade": mfrc522_cascade,
        "protocol": protocol,
    }


def _wire_chips(cfg, emu, machine, ticks_ms, ticks_diff) -> list:
    """One emulated chip behind each configured reader's chip-select pin, all on one bus clock
    that follows ``ticks_ms`` (so the firmware's sleeps count for the chips too)."""
    bus_clock = emu.ChipClock()
    bus_clock.follow_ticks(ticks_ms, ticks_diff)
    chips = []
    for rc in cfg.readers:
        chip = emu.FakeMfrc522(clock=bus_clock)
        machine.wire(rc.cs, chip)
        chips.append(chip)
    return chips


def _module_names(fw: dict) -> dict:
    return {
        "bridge.p": fw["bridge"].p.__name__,
        "bridge.m": fw["bridge"].m.__name__,
        "main.config_mod": fw["main"].config_mod.__name__,
    }


def run(job: dict) -> str:
    """The scripted scenario (``job["scenario"]``) through ``main.build`` and ``Bridge.run()``
    on the scenario's clock; see the module docstring."""
    fw = _firmware()
    import machine

    emu = load_emulator(fw["mfrc522_cascade"])
    cfg = fw["config"].load("config.json")
    chips = []  # type: list

    def event(kind: str, reader: int, uid: str):
        def apply() -> None:
            if kind == "place":
                chips[reader].place(uid)
            elif kind == "lift":
                chips[reader].remove(uid)
            elif kind == "unplug":
                chips[reader].responding = False
            elif kind == "plug":
                chips[reader].responding = True
            else:
                raise ValueError("unknown scenario event %r" % kind)

        return apply

    scenario = job["scenario"]
    clock = Clock(
        time.ticks_add,
        time.ticks_diff,
        scenario["before_wrap_ms"],
        scenario["limit_ms"],
        [(t, event(kind, reader, uid)) for t, kind, reader, uid in scenario["tags"]],
    )
    chips.extend(_wire_chips(cfg, emu, machine, clock.ticks_ms, clock.ticks_diff))
    link = HostLink(clock, scenario["host"])
    bridge = fw["main"].build(cfg, machine, link, clock)
    for rd in bridge.readers:  # waits on the chips' clock: wasm is slower than a real chip
        chips[0].clock.drive(rd.chip)
    try:
        bridge.run()
        stopped = ""
    except Runaway as exc:
        stopped = str(exc)
    return json.dumps(
        {
            "implementation": sys.implementation.name,
            "version": list(sys.implementation.version[:3]),
            "firmware_modules": _module_names(fw),
            "runaway": stopped,
            "elapsed_ms": clock.elapsed,
            "ticks_wrapped": clock.ticks_ms() < clock.start,
            "writes": link.writes,
            "unread_host_bytes": link.unread(),
            "stats": bridge.stats(),
            "reset_pin": machine.pins[cfg.reset_pin].history if cfg.reset_pin is not None else [],
            "buzzer": [list(x) for pwm in machine.pwms for x in pwm.history],
        }
    )


def run_main(job: dict) -> str:
    """The board's own entry point, ``main.run()``: config.json, ``import machine``, the USB
    stream on ``sys.stdin``/``sys.stdout`` polled with ``select``, ``micropython.kbd_intr``,
    real time. Tags ``job["tags"]`` (reader, uid) lie on the readers from the start; the host's
    bytes, the console escape included, come on stdin. Returns what ``run()`` left behind and
    the stdin bytes it left for the REPL."""
    fw = _firmware()
    import machine

    emu = load_emulator(fw["mfrc522_cascade"])
    chips = _wire_chips(
        fw["config"].load("config.json"), emu, machine, time.ticks_ms, time.ticks_diff
    )
    for reader, uid in job["tags"]:
        chips[reader].place(uid)
    bridge = fw["main"].run()
    left = sys.stdin.buffer.read(job["left_for_repl"])
    return json.dumps(
        {
            "firmware_modules": _module_names(fw),
            "stats": bridge.stats() if bridge is not None else None,
            "left_for_repl": (left or b"").hex(),
        }
    )


def corpus(job: dict) -> str:
    """The fuzz corpus on MicroPython: ``job["codec"]`` (``[size, hex]``) through the frame
    codec, ``job["firmware"]`` (hex) into a bridge; see ``scenario.decode_stream`` and
    ``scenario.answer_host``, which the test runs on CPython too."""
    fw = _firmware()
    import machine

    return json.dumps(
        {
            "codec": [
                decode_stream(fw["protocol"], bytes.fromhex(h), size) for size, h in job["codec"]
            ],
            "firmware": [
                answer_host(
                    fw["bridge"],
                    fw["hw"],
                    machine,
                    Clock(time.ticks_add, time.ticks_diff, 0, 1 << 24, []),
                    bytes.fromhex(h),
                )
                for h in job["firmware"]
            ],
        }
    )
