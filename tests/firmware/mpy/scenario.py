# ruff: noqa: UP031  (%-formatting on purpose: this module runs on MicroPython)
"""The scripted world around the bridge firmware in a run: a clock and the host link.

Runs on MicroPython (``driver.py`` in the WebAssembly port) and on CPython (the reference run
in ``tests/firmware/test_micropython.py``), so that both interpreters see the same world at the
same clock times and their output can be compared byte for byte.

Scenario events are ``(ms, callable)``; host bytes are ``(ms, hex)``; times are milliseconds of
the clock since the run started.
"""


class Runaway(BaseException):
    """The loop ran past its time limit: ``Bridge.run()`` swallows ``Exception``, not this."""


class Clock:
    """``ticks_ms``/``ticks_diff``/``sleep_ms`` for the firmware on a counter that moves only
    when the firmware sleeps, starting ``before_wrap`` ms before the ticks wrap. ``ticks_add``
    and ``ticks_diff`` are the tick arithmetic (MicroPython's own ``time`` functions on the
    board's interpreter). Events that are due run as time passes."""

    def __init__(
        self, ticks_add, ticks_diff, before_wrap: int, limit_ms: int, events: list
    ) -> None:
        self.ticks_add = ticks_add
        self.ticks_diff = ticks_diff
        self.start = ticks_add(0, -before_wrap)
        self.elapsed = 0
        self.limit_ms = limit_ms
        self.events = sorted(events, key=lambda e: e[0])

    def ticks_ms(self) -> int:
        return self.ticks_add(self.start, self.elapsed)

    def sleep_ms(self, ms: int) -> None:
        self.elapsed += ms
        if self.elapsed > self.limit_ms:
            raise Runaway("the scan loop was still running after %d ms" % self.limit_ms)
        while self.events and self.events[0][0] <= self.elapsed:
            self.events.pop(0)[1]()


class HostLink:
    """The bridge's host stream: hands out the host's bytes once their time has come (at most
    ``n`` per read, never blocking) and records every write with its clock time."""

    def __init__(self, clock: Clock, incoming: list) -> None:
        self.clock = clock
        self.incoming = sorted(incoming, key=lambda e: e[0])
        self.pending = b""
        self.writes = []  # type: list

    def read(self, n: int) -> bytes:
        while self.incoming and self.incoming[0][0] <= self.clock.elapsed:
            self.pending += bytes.fromhex(self.incoming.pop(0)[1])
        out = self.pending[:n]
        self.pending = self.pending[n:]
        return out

    def write(self, data: bytes) -> int:
        self.writes.append([self.clock.elapsed, bytes(data).hex()])
        return len(data)

    def unread(self) -> int:
        """Host bytes the firmware never read."""
        return len(self.pending) + sum(len(h) // 2 for _, h in self.incoming)


# --- the fuzz corpus, replayed alike on both interpreters ---------------------------------------


def decode_stream(protocol, data: bytes, size: int) -> dict:
    """The frame codec's reading of ``data`` fed in ``size``-byte pieces, then flushed: each
    frame as ``[seq, type, payload hex, message class or None]``, and the counters."""
    decoder = protocol.Decoder()
    frames = []
    for i in range(0, len(data), size):
        for f in decoder.feed(data[i : i + size]):
            kind = None if f.message is None else type(f.message).__name__
            frames.append([f.seq, f.type, bytes(f.payload).hex(), kind])
    decoder.flush()
    return {"frames": frames, "counters": decoder.counters()}


def answer_host(bridge_mod, hw_mod, machine, clock: Clock, data: bytes) -> dict:
    """A two-reader bridge (no chips answer) booted, then stepped while the host bytes ``data``
    arrive, as the firmware fuzz target does: everything it wrote and what it ended up with."""
    pins = [machine.Pin(40 + i, machine.Pin.OUT, value=1) for i in range(2)]
    link = HostLink(clock, [[0, bytes(data).hex()]])
    bridge = bridge_mod.Bridge(
        {"readers": [{"cs": 40}, {"cs": 41}]},
        machine.SPI(1),
        pins,
        link,
        clock.ticks_ms,
        clock.sleep_ms,
        clock.ticks_diff,
        leds=[hw_mod.PinLed(machine.Pin(25, machine.Pin.OUT, value=0))],
        buzzer=hw_mod.PwmBuzzer(machine.PWM(machine.Pin(15))),
        firmware=(1, 2, 3),
    )
    bridge.boot()
    for _ in range(len(data) // 32 + 4):
        bridge.step()
        if bridge.exit_requested:
            break
    pwm = bridge.buzzer.pwm
    return {
        "wrote": "".join(h for _, h in link.writes),
        "rx_errors": bridge.rx_errors(),
        "counters": bridge.decoder.counters(),
        "garbage_events": bridge.garbage_events,
        "commands": bridge.commands,
        "faults": bridge.faults,
        "last_fault": bridge.last_fault,
        "exit": bridge.exit_requested,
        "timing": [bridge.settle_ms, bridge.present_polls, bridge.absent_ms],
        "readers": [[rd.enabled, rd.gain] for rd in bridge.readers],
        "led": bridge.leds[0].lit,
        "buzzer": [pwm.freq(), pwm.duty_u16()],
        "unread": link.unread(),
    }
