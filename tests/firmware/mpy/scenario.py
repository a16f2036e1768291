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

    def __init__(self, ticks_add, ticks_diff, before_wrap: int, limit_ms: int,
                 events: list) -> None:
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
