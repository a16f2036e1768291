"""systemd notification over a real AF_UNIX datagram socket: unit level and a real ``serve``."""

from __future__ import annotations

import os
import signal
import socket
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from scorekeeper.pi.notify import (
    Notifier,
    ServiceNotify,
    Watchdog,
    local_url,
    socket_address,
    watchdog_interval,
)
from tests.api.procs import free_port, start_cli, stop


class Listener:
    """A datagram socket standing in for systemd's notify socket; collects what arrives."""

    def __init__(self, address: str) -> None:
        self.address = address
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(socket_address(address))
        self.sock.settimeout(0.05)
        self.messages: list[tuple[float, str]] = []

    def collect(self, seconds: float) -> list[str]:
        """Read for ``seconds``; returns the messages that arrived meanwhile."""
        end = time.monotonic() + seconds
        got: list[str] = []
        while time.monotonic() < end:
            try:
                data = self.sock.recv(4096)
            except TimeoutError:
                continue
            text = data.decode()
            self.messages.append((time.monotonic(), text))
            got.append(text)
        return got

    def wait_for(self, needle: str, timeout: float) -> str:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for text in self.collect(0.05):
                if needle in text.splitlines():
                    return text
        raise AssertionError(f"{needle} did not arrive; got {[m for _, m in self.messages]}")

    def wait_count(self, message: str, n: int, timeout: float = 10.0, since: int = 0) -> None:
        """Read until ``n`` datagrams equal to ``message`` arrived (counting from
        ``self.messages[since]``); a generous deadline, not a speed requirement."""
        end = time.monotonic() + timeout
        while self.count(message, since) < n and time.monotonic() < end:
            self.collect(0.05)
        got = self.count(message, since)
        assert got >= n, f"{got} of {n} {message} arrived; got {[m for _, m in self.messages]}"

    def count(self, message: str, since: int = 0) -> int:
        return sum(1 for _, m in self.messages[since:] if m == message)

    def drain(self) -> list[str]:
        """Whatever is queued now, without waiting (a local datagram is queued by ``sendto``)."""
        got: list[str] = []
        while True:
            try:
                data = self.sock.recv(4096, socket.MSG_DONTWAIT)
            except (BlockingIOError, TimeoutError):
                return got
            text = data.decode()
            self.messages.append((time.monotonic(), text))
            got.append(text)

    def close(self) -> None:
        self.sock.close()


def wait_for(cond: Callable[[], bool], timeout: float = 10.0) -> bool:
    """Poll ``cond`` until true or a generous deadline passes; returns the last result."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.01)
    return cond()


@pytest.fixture
def short_dir() -> Iterator[Path]:
    # AF_UNIX paths are limited to 107 bytes: pytest's tmp_path can be longer.
    with tempfile.TemporaryDirectory(prefix="sk-notify-") as d:
        yield Path(d)


@pytest.fixture
def listener(short_dir: Path) -> Iterator[Listener]:
    lis = Listener(str(short_dir / "notify.sock"))
    yield lis
    lis.close()


def test_messages_reach_a_path_socket(listener: Listener) -> None:
    n = Notifier(env={"NOTIFY_SOCKET": listener.address})
    assert n.enabled
    assert n.ready("serving at http://x/")
    assert n.status("two\nlines")
    assert n.stopping() and not n.stopping()  # once
    got = listener.collect(0.2)
    assert got == [
        "READY=1\nSTATUS=serving at http://x/",
        "STATUS=two lines",
        "STOPPING=1\nSTATUS=stopping",
    ]
    n.close()


def test_abstract_socket() -> None:
    name = f"@scorekeeper-test-{os.getpid()}-{time.monotonic_ns()}"
    lis = Listener(name)
    try:
        n = Notifier(env={"NOTIFY_SOCKET": name})
        assert n.send("READY=1")
        assert lis.collect(0.2) == ["READY=1"]
    finally:
        lis.close()


def test_no_socket_is_a_no_op(short_dir: Path) -> None:
    n = Notifier(env={})
    assert not n.enabled and not n.ready() and not n.send("WATCHDOG=1")
    svc = ServiceNotify(env={"WATCHDOG_USEC": "1000000"})
    assert svc.watchdog is None
    svc.start("http://127.0.0.1:1/healthz")
    assert svc._thread is None  # no thread started
    svc.close()
    gone = Notifier(env={"NOTIFY_SOCKET": str(short_dir / "nobody.sock")})
    assert gone.send("READY=1") is False  # nobody listening: no exception


def test_watchdog_interval() -> None:
    assert watchdog_interval({}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "30000000"}) == 15.0
    assert watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}) is None
    mine = {"WATCHDOG_USEC": "400000", "WATCHDOG_PID": str(os.getpid())}
    assert watchdog_interval(mine) == 0.2
    assert watchdog_interval({"WATCHDOG_USEC": "soon"}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "0"}) is None


def test_local_url() -> None:
    assert local_url("0.0.0.0", 8000) == "http://127.0.0.1:8000/healthz"
    assert local_url("::", 80) == "http://[::1]:80/healthz"
    assert local_url("192.168.1.5", 8000) == "http://192.168.1.5:8000/healthz"


def test_pinger_pings_only_while_the_loop_ticks(listener: Listener) -> None:
    n = Notifier(env={"NOTIFY_SOCKET": listener.address})
    dog = Watchdog(n, 0.05, stale_after=0.2)
    dog.start()
    try:
        assert listener.collect(0.2) == []  # no tick yet: no ping
        ticking = threading.Event()
        ticking.set()

        def loop() -> None:  # an event loop that ticks every 20 ms while not "blocked"
            while ticking.is_set():
                dog.tick()
                time.sleep(0.02)

        t = threading.Thread(target=loop, daemon=True)
        t.start()
        listener.wait_count("WATCHDOG=1", 4)  # the loop ticks: pings arrive
        ticking.clear()  # the loop blocks
        t.join()
        skipped = dog.skipped  # (a loaded machine may already have starved the loop briefly)
        # A skip whose pinger round began after the join proves the last tick went stale; from
        # then on no round may ping. Two new skips guarantee one such round (the first may have
        # been under way at the join).
        assert wait_for(lambda: dog.skipped >= skipped + 2)
        pings = dog.pings
        assert wait_for(lambda: dog.skipped >= skipped + 5)  # three more rounds...
        assert dog.pings == pings  # ...and the pings stopped
        listener.drain()
        assert listener.count("WATCHDOG=1") == pings  # every ping sent arrived, nothing more
    finally:
        dog.stop()
        n.close()


@pytest.mark.slow
def test_serve_tells_systemd(listener: Listener, tmp_path: Path) -> None:
    port = free_port()
    env_before = dict(os.environ)
    os.environ.update(NOTIFY_SOCKET=listener.address, WATCHDOG_USEC="400000")
    try:
        proc = start_cli(["serve", "--port", str(port), "--db", "var/scorekeeper.db"], tmp_path)
    finally:
        os.environ.clear()
        os.environ.update(env_before)
    try:
        ready = listener.wait_for("READY=1", 20.0)
        assert f"STATUS=serving at http://127.0.0.1:{port}/" in ready.splitlines()
        t_ready = listener.messages[-1][0]
        listener.wait_count("WATCHDOG=1", 3, since=len(listener.messages))  # pings keep coming
        firsts = [m for t, m in listener.messages if t <= t_ready]
        assert "WATCHDOG=1" not in firsts[:1]  # the first message is not a ping
        assert any(m.startswith("STATUS=starting") for m in firsts)
    finally:
        code = stop(proc, signal.SIGTERM)
    assert code in (0, -15)
    listener.wait_for("STOPPING=1", 2.0)
