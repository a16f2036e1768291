"""systemd's notify protocol (sd_notify) with the standard library only.

``scorekeeper serve`` under ``Type=notify`` tells systemd:

- ``READY=1`` once the server *answers* (``GET /healthz`` returns 200), not merely once the
  process started, so ``systemctl start`` returns when the dashboard is really up;
- ``STATUS=...`` lines that ``systemctl status scorekeeper`` shows;
- ``WATCHDOG=1`` every half ``$WATCHDOG_USEC``, from a thread that pings only while the event loop
  is responsive: the loop calls ``Notifier.tick()`` (uvicorn's main loop ticks every 0.1 s) and
  the pinger skips its ping when the last tick is older than one ping interval. A loop wedged by
  a blocking call therefore stops the pings and systemd restarts the service
  (``WatchdogSec=``, ``Restart=on-failure``);
- ``STOPPING=1`` when a stop begins.

Without ``$NOTIFY_SOCKET`` (a terminal, a test, another supervisor) everything here is a no-op
and starts no thread. ``$NOTIFY_SOCKET`` may name a path or an abstract socket (``@name``); the
message is one datagram of ``KEY=value`` lines. ``$WATCHDOG_PID``, when set, must be our pid,
otherwise the watchdog belongs to another process and we do not ping.

Hazard: a datagram to a socket nobody reads can fail (``ECONNREFUSED``, ``EAGAIN``); sending
never raises, it logs at debug level and returns False: systemd notification must never stop
the server.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Mapping, Sequence

log = logging.getLogger("scorekeeper.notify")

Clock = Callable[[], float]


def socket_address(value: str) -> str:
    """The ``sendto`` address for a ``$NOTIFY_SOCKET`` value: ``@name`` -> abstract ``\\0name``."""
    return "\0" + value[1:] if value.startswith("@") else value


def watchdog_interval(env: Mapping[str, str]) -> float | None:
    """Seconds between WATCHDOG=1 pings (half of ``$WATCHDOG_USEC``), or None when there is
    no watchdog for this process (unset, not a positive number, or ``$WATCHDOG_PID`` names
    another process)."""
    raw = env.get("WATCHDOG_USEC", "").strip()
    pid = env.get("WATCHDOG_PID", "").strip()
    if not raw:
        return None
    if pid and pid != str(os.getpid()):
        return None
    try:
        usec = int(raw)
    except ValueError:
        log.warning("ignoring WATCHDOG_USEC=%r: not a whole number of microseconds", raw)
        return None
    return usec / 2_000_000 if usec > 0 else None


class Notifier:
    """Sends sd_notify datagrams to ``address`` (default: ``$NOTIFY_SOCKET``).

    ``enabled`` is False when there is no socket: every method is then a cheap no-op.
    Thread-safe: ``send`` may be called from any thread.
    """

    def __init__(self, address: str | None = None, *, env: Mapping[str, str] | None = None) -> None:
        env = os.environ if env is None else env
        self.raw_address = address if address is not None else env.get("NOTIFY_SOCKET", "")
        self.enabled = bool(self.raw_address)
        self._address = socket_address(self.raw_address) if self.enabled else ""
        self._sock: socket.socket | None = None
        self._lock = threading.Lock()
        self._stopping_sent = False

    def send(self, *lines: str) -> bool:
        """Send ``lines`` (``KEY=value``) as one datagram; False (never an exception) on failure."""
        if not self.enabled or not lines:
            return False
        data = "\n".join(lines).encode("utf-8", "replace")
        with self._lock:
            try:
                if self._sock is None:
                    self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
                    self._sock.setblocking(False)
                self._sock.sendto(data, self._address)
            except OSError as exc:
                log.debug("sd_notify to %s failed: %s", self.raw_address, exc)
                return False
        return True

    def ready(self, status: str = "") -> bool:
        """READY=1 (and a STATUS line): the service is up."""
        return self.send("READY=1", *((f"STATUS={status}",) if status else ()))

    def status(self, text: str) -> bool:
        """A one-line STATUS shown by ``systemctl status``."""
        return self.send(f"STATUS={_one_line(text)}")

    def stopping(self, status: str = "stopping") -> bool:
        """STOPPING=1, once: the service is shutting down on purpose."""
        if self._stopping_sent:
            return False
        self._stopping_sent = True
        return self.send("STOPPING=1", f"STATUS={_one_line(status)}")

    def close(self) -> None:
        with self._lock:
            if self._sock is not None:
                self._sock.close()
                self._sock = None


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


class Watchdog:
    """Pings ``WATCHDOG=1`` every ``interval`` seconds while the event loop keeps ticking.

    The event loop calls ``tick()`` often (every 0.1 s under uvicorn); the pinger thread pings
    only when the last tick is at most ``stale_after`` seconds old (default: one interval, at
    least 1 s). Nothing is pinged before the first tick. Hazard: ``tick`` runs on the event loop
    and must stay trivial (it stores one float).
    """

    def __init__(
        self,
        notifier: Notifier,
        interval: float,
        *,
        stale_after: float | None = None,
        clock: Clock = time.monotonic,
    ) -> None:
        self.notifier = notifier
        self.interval = interval
        self.stale_after = stale_after if stale_after is not None else max(interval, 1.0)
        self.clock = clock
        self.pings = 0
        self.skipped = 0
        self._last_tick: float | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def tick(self) -> None:
        """The event loop is alive (call from the loop)."""
        self._last_tick = self.clock()

    def alive(self) -> bool:
        """True when the loop ticked within ``stale_after`` seconds."""
        last = self._last_tick
        return last is not None and self.clock() - last <= self.stale_after

    def ping_once(self) -> bool:
        """One round of the pinger: ping if the loop is alive; True when a ping was sent."""
        if self.alive():
            if self.notifier.send("WATCHDOG=1"):
                self.pings += 1
                return True
            return False
        if self._last_tick is not None:
            self.skipped += 1
            if self.skipped == 1 or self.skipped % 10 == 0:
                log.warning(
                    "event loop has not ticked for %.1f s: not pinging the watchdog",
                    self.clock() - self._last_tick,
                )
        return False

    def start(self) -> None:
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="sd-watchdog", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=2.0)

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self.ping_once()


def local_url(host: str, port: int, path: str = "/healthz") -> str:
    """A URL of this server reachable from the same machine (``0.0.0.0`` -> ``127.0.0.1``)."""
    if host in ("", "0.0.0.0"):
        host = "127.0.0.1"
    elif host == "::":
        host = "::1"
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}{path}"


def answers(url: str, timeout: float = 2.0) -> bool:
    """True when ``GET url`` returns 200 (no proxy, whatever the environment says)."""
    import urllib.error
    import urllib.request

    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(url, timeout=timeout) as response:
            return int(response.status) == 200
    except (urllib.error.URLError, OSError, ValueError):
        return False


class ServiceNotify:
    """Everything ``scorekeeper serve`` tells systemd, wired in one object.

    ``start(url)`` starts a thread that polls ``url`` until it answers, then sends READY=1 and a
    STATUS line and calls each ``on_ready`` callback (the GPIO feedback turns its LED on then);
    it starts the watchdog pinger when ``$WATCHDOG_USEC`` asks for one. ``tick`` goes to the
    event loop, ``stopping`` to the signal handler, ``close`` to the end of ``serve``. Without
    ``$NOTIFY_SOCKET`` and without callbacks no thread is started.
    """

    def __init__(
        self,
        *,
        env: Mapping[str, str] | None = None,
        on_ready: Sequence[Callable[[], None]] = (),
        poll: float = 0.1,
    ) -> None:
        env = os.environ if env is None else env
        self.notifier = Notifier(env=env)
        interval = watchdog_interval(env) if self.notifier.enabled else None
        self.watchdog = Watchdog(self.notifier, interval) if interval else None
        self.on_ready = list(on_ready)
        self.poll = poll
        self.is_ready = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, url: str, served_at: str = "") -> None:
        """Begin waiting for ``url`` to answer (in a thread); see the class docstring."""
        self.notifier.status("starting: loading tables")
        if self.watchdog is not None:
            self.watchdog.start()
        if self.notifier.enabled or self.on_ready:
            self._thread = threading.Thread(
                target=self._wait_ready, args=(url, served_at), name="sd-ready", daemon=True
            )
            self._thread.start()

    def tick(self) -> None:
        """Called by the event loop on every tick (cheap)."""
        if self.watchdog is not None:
            self.watchdog.tick()

    def stopping(self) -> None:
        """A stop has begun: STOPPING=1, and no more READY or pings."""
        self._stop.set()
        self.notifier.stopping()

    def close(self) -> None:
        """Stop the threads and close the socket (after the server has stopped)."""
        self.stopping()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(timeout=3.0)
        if self.watchdog is not None:
            self.watchdog.stop()
        self.notifier.close()

    def _wait_ready(self, url: str, served_at: str) -> None:
        while not self._stop.is_set():
            if answers(url):
                break
            self._stop.wait(self.poll)
        else:
            return
        self.notifier.ready(f"serving at {served_at or url}")
        self.is_ready.set()
        log.info("server answers", extra={"url": url, "systemd": self.notifier.enabled})
        for callback in self.on_ready:
            try:
                callback()
            except Exception:  # noqa: BLE001 - a callback must not stop the server
                log.exception("ready callback failed")
