"""The reader backend interface and ``open_readers``, which picks a backend from a config string.

A backend turns whatever its hardware reports into debounced ``Sighting`` values and hands them
to the ``emit`` callback given to ``start``. Three ship here, selected like gpiozero pin factories:

``sim`` / ``sim:r1,r2``
    scripted, in-process (``readers.sim``); no hardware.
``serial:/dev/ttyACM0`` / ``serial:/dev/serial/by-id/...?baud=115200``
    the reader bridge on a serial/USB line (``readers.serial``, pyserial).
``spi:0.0`` / ``spi:0.0,0.1``
    RC522 readers wired straight to the Pi's SPI bus, one per chip-select (``readers.spi``).
``mfrc522:`` / ``mfrc522:0.0``
    one RC522 wired as the ``mfrc522`` package's tutorials show (CE0, reset on GPIO25), driven
    through that package's ``MFRC522`` class with our cascade on top (``readers.mfrc522_pkg``).

Backends are imported lazily, so ``import scorekeeper.readers.base`` costs nothing on a Pi Zero
and the spi backend imports ``spidev`` only when it is used.

UIDs from real readers are upper-case hex without separators (``04A1B2C3D4E5F6``); the sim
backend passes whatever string it is given.
"""

from __future__ import annotations

import logging
import re
import threading
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from scorekeeper.core.inputs import Sighting
from scorekeeper.errors import ConfigError

log = logging.getLogger("scorekeeper.readers")

Emit = Callable[[Sighting], None]

SPEC_HELP = (
    "use sim[:ID,...], serial:PORT[?baud=N], spi:BUS.CS[,BUS.CS...] or "
    "mfrc522:[BUS.CS], each optionally followed by ?setting=number&..., several "
    "joined with +"
)


def format_uid(uid: bytes) -> str:
    """The Sighting form of a raw uid: upper-case hex, no separators."""
    return bytes(uid).hex().upper()


@dataclass(frozen=True, slots=True)
class ReaderHealth:
    """How one reader is doing, for the organiser's view and the logs.

    ``last_sighting`` is the backend clock's time (``time.monotonic`` unless injected) of the last
    Sighting this reader produced, or None; ``reads`` counts raw successful tag reads, ``read_rate``
    is reads per second over the recent window, ``errors`` counts failed reads of any kind (missed
    polls where a tag was expected, collisions that could not be resolved, garbled uids, chip
    timeouts). ``detail`` says in plain words why a reader is offline.
    """

    reader: str
    online: bool
    last_sighting: float | None = None
    reads: int = 0
    read_rate: float = 0.0
    errors: int = 0
    detail: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "reader": self.reader,
            "online": self.online,
            "last_sighting": self.last_sighting,
            "reads": self.reads,
            "read_rate": round(self.read_rate, 3),
            "errors": self.errors,
            "detail": self.detail,
        }


class RateMeter:
    """Events per second over a sliding window (default 10 s). Not thread-safe on its own."""

    def __init__(self, window_s: float = 10.0) -> None:
        self.window_s = window_s
        self._events: deque[tuple[float, int]] = deque()
        self._total = 0

    def add(self, now: float, count: int = 1) -> None:
        self._events.append((now, count))
        self._total += count
        self._prune(now)

    def rate(self, now: float) -> float:
        self._prune(now)
        return self._total / self.window_s

    def _prune(self, now: float) -> None:
        while self._events and self._events[0][0] <= now - self.window_s:
            self._total -= self._events.popleft()[1]


class Outbox:
    """Delivers Sightings to ``emit`` in the order they were queued, from whichever thread drains.

    Producers ``put`` while holding the lock that ordered them, then ``drain`` after releasing it.
    Only one thread delivers at a time; a thread that finds another one delivering leaves its
    Sightings to it (so a slow or re-entrant ``emit`` cannot deadlock two producer threads).
    An ``emit`` that raises is logged and does not stop delivery or the backend.
    """

    def __init__(self) -> None:
        self.emit: Emit | None = None
        self._queue: deque[Sighting] = deque()
        self._lock = threading.RLock()

    def put(self, sightings: Iterable[Sighting]) -> None:
        self._queue.extend(sightings)

    def drain(self) -> None:
        while True:
            if not self._lock.acquire(blocking=False):
                return
            try:
                while self._queue and self.emit is not None:
                    sighting = self._queue.popleft()
                    try:
                        self.emit(sighting)
                    except Exception:
                        log.exception(
                            "sighting listener failed on %s",
                            sighting.to_str(),
                            extra={"sighting": sighting.to_record()},
                        )
            finally:
                self._lock.release()
            if not self._queue or self.emit is None:
                return


class ReaderBackend(ABC):
    """One source of Sightings: a set of readers behind one kind of hardware.

    Life cycle: construct (cheap, no hardware touched), ``start(emit)`` (starts the backend's
    threads; ``emit`` is then called from those threads, or from the caller's thread for
    ``sim``), ``stop()`` (idempotent; joins the threads). ``emit`` must not block for long: the
    reader loop waits for it.
    """

    name = "backend"

    @property
    @abstractmethod
    def reader_ids(self) -> tuple[str, ...]:
        """The reader ids this backend reports, in reader-index order."""

    @abstractmethod
    def start(self, emit: Emit) -> None:
        """Begin reporting Sightings to ``emit``."""

    @abstractmethod
    def stop(self) -> None:
        """Stop reporting and release the hardware; safe to call twice."""

    @abstractmethod
    def health(self) -> dict[str, ReaderHealth]:
        """Per reader id, how that reader is doing right now."""

    def stats(self) -> dict[str, Any]:
        """Backend-wide counters (link errors, reconnects, ...) for logs and the organiser."""
        return {"backend": self.name}

    def signal_refusal(self, reader: str) -> None:
        """Tell the people at ``reader`` that what they just put there was refused.

        Backends with something to sound or light (a bridge's buzzer) override this; it must
        not block or raise: the table has already logged and shown the refusal. The default
        has nothing to signal with.
        """
        return None

    def __enter__(self) -> ReaderBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _parse_spi(rest: str, spec: str) -> list[tuple[int, int]]:
    devices: list[tuple[int, int]] = []
    for part in rest.split(","):
        bus, dot, cs = part.strip().partition(".")
        if not (dot and bus.isdigit() and cs.isdigit()):
            raise ConfigError(
                f"bad SPI device {part!r} in reader spec {spec!r}: "
                "write BUS.CS, e.g. spi:0.0 or spi:0.0,0.1"
            )
        dev = (int(bus), int(cs))
        if dev in devices:
            raise ConfigError(f"SPI device {part.strip()} appears twice in reader spec {spec!r}")
        devices.append(dev)
    return devices


def _check_options(cls: type, options: dict[str, Any], spec: str, fixed: Iterable[str]) -> None:
    import inspect  # only when a backend is opened: keeps start-up imports lean

    params = inspect.signature(cls).parameters
    allowed = {
        n
        for n, p in params.items()
        if n != "self" and p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)
    }
    allowed -= set(fixed)
    unknown = sorted(set(options) - allowed)
    if unknown:
        raise ConfigError(
            f"reader backend {spec!r} does not take option(s) {', '.join(unknown)};"
            f" it takes {', '.join(sorted(allowed))}"
        )


# Settings a person may write in a spec's query string (``serial:PORT?absent_after_ms=300``):
# plain numbers only; everything else (clocks, factories) is for code.
_QUERY_ALIASES = {"baud": "baudrate"}


def _query_options(query: str, cls: type, spec: str) -> dict[str, Any]:
    """Numeric constructor settings of ``cls`` from a spec's ``?a=1&b=2``; ConfigError if bad."""
    import inspect
    from urllib.parse import parse_qsl

    params = inspect.signature(cls).parameters
    out: dict[str, Any] = {}
    for key, value in parse_qsl(query, keep_blank_values=True):
        name = _QUERY_ALIASES.get(key, key)
        param = params.get(name)
        default = None if param is None else param.default
        if isinstance(default, bool) or not isinstance(default, int | float):
            numeric = sorted(
                k
                for k, p in params.items()
                if isinstance(p.default, int | float) and not isinstance(p.default, bool)
            )
            shown = ["baud" if k == "baudrate" else k for k in numeric]
            raise ConfigError(
                f"unknown setting {key!r} in reader spec {spec!r}; it takes {', '.join(shown)}"
            )
        try:
            number = float(value)
        except ValueError:
            raise ConfigError(
                f"{key} must be a number in reader spec {spec!r}, not {value!r}"
            ) from None
        if number < 0 or (isinstance(default, int) and not number.is_integer()):
            kind = "a whole number" if isinstance(default, int) else "a number"
            raise ConfigError(f"{key} must be {kind} of at least 0 in {spec!r}")
        if name == "baudrate" and number <= 0:
            raise ConfigError(f"baud must be a positive whole number in {spec!r}")
        out[name] = int(number) if isinstance(default, int) else number
    return out


# The serial ports a spec that came over HTTP may name: the kernel's tty devices, numbered
# pseudo-terminals (a bridge emulated over a pty, as the benchmarks and dry runs do), the stable
# names udev gives USB serial devices, and the name systemd/99-scorekeeper-bridge.rules gives
# the Pico bridge. One path segment each (no "/", no ".."): nothing else on the server opens.
_REMOTE_PORT = re.compile(
    r"/dev/(?:tty[A-Za-z0-9_]{1,32}|pts/[0-9]{1,6}"
    r"|serial/by-id/[A-Za-z0-9_:@+=-][A-Za-z0-9_.:@+=-]{0,200}"
    r"|scorekeeper-bridge)"
)
REMOTE_SPEC_HELP = (
    "a table or an enrollment started from the console or the API can use "
    "sim, or a serial port: serial:/dev/ttyACM0, serial:/dev/ttyUSB0, "
    "serial:/dev/serial/by-id/… or serial:/dev/scorekeeper-bridge (the reader "
    "bridge), or readers on the Pi's SPI bus (spi:0.0, mfrc522:)"
)


def check_remote_spec(spec: str) -> str:
    """The reader spec ``spec`` that came over HTTP, stripped, if it names only a serial device
    (``/dev/tty*``, ``/dev/serial/by-id/*``, ``/dev/scorekeeper-bridge``), ``sim``, or SPI bus
    numbers (``spi:``/``mfrc522:``, which name no file); ConfigError otherwise.

    Over HTTP a spec must never open a file of the server's choosing (``serial:/etc/passwd``),
    so the check looks at the text only: it never touches the path, and its message is the
    same whether the file exists or not. Settings (``?baud=…``) are checked by ``open_readers``.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise ConfigError(f"empty reader spec: {REMOTE_SPEC_HELP}")
    spec = spec.strip()
    for part in spec.split("+"):
        head = part.partition("?")[0].strip()
        scheme, _, rest = head.partition(":")
        scheme = scheme.lower()
        if scheme == "sim":
            continue
        if scheme in ("spi", "mfrc522"):
            if rest:
                _parse_spi(rest, spec)  # numbers only: ConfigError for anything else
            continue
        if scheme == "serial" and _REMOTE_PORT.fullmatch(rest):
            continue
        raise ConfigError(f"the readers {part.strip()!r} cannot be used here: {REMOTE_SPEC_HELP}")
    return spec


def open_readers(spec: str, **options: Any) -> ReaderBackend:
    """Build (but do not start) the backend a config string names; ConfigError if it is wrong.

    The string may end with numeric settings: ``serial:/dev/ttyACM0?baud=115200&absent_after_ms=
    300``, ``spi:0.0,0.1?settle_ms=6``, ``sim?absent_after_ms=200`` (presence and removal
    hysteresis, timings). ``options`` go to the backend's constructor as well (e.g.
    ``reader_ids=[...]``, ``clock=``); an option the backend does not take is a ConfigError.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise ConfigError(f"empty reader spec: {SPEC_HELP}")
    spec = spec.strip()
    if "+" in spec:
        from scorekeeper.readers.multi import MultiBackend

        if options:
            raise ConfigError(
                f"reader spec {spec!r} joins several backends; give each one's "
                "settings in its own part (serial:A?absent_after_ms=300+...)"
            )
        return MultiBackend([open_readers(part) for part in spec.split("+")])
    head, _, query = spec.partition("?")
    scheme, _, rest = head.partition(":")
    scheme = scheme.lower()
    if scheme == "sim":
        from scorekeeper.readers.sim import SimBackend

        if rest:
            if "reader_ids" in options:
                raise ConfigError(f"reader ids given twice: in {spec!r} and as reader_ids")
            options["reader_ids"] = [r.strip() for r in rest.split(",") if r.strip()]
        options.update(_query_options(query, SimBackend, spec))
        _check_options(SimBackend, options, spec, ())
        return SimBackend(**options)
    if scheme == "serial":
        from scorekeeper.readers.serial import SerialBackend

        if not rest:
            raise ConfigError(
                f"reader spec {spec!r} names no serial port: "
                "write serial:/dev/ttyACM0 or serial:/dev/serial/by-id/..."
            )
        options.update(_query_options(query, SerialBackend, spec))
        _check_options(SerialBackend, options, spec, ("port",))
        return SerialBackend(rest, **options)
    if scheme == "spi":
        from scorekeeper.readers.spi import SpiBackend

        if not rest:
            raise ConfigError(f"reader spec {spec!r} names no SPI device: write spi:0.0")
        devices = _parse_spi(rest, spec)
        options.update(_query_options(query, SpiBackend, spec))
        _check_options(SpiBackend, options, spec, ("devices",))
        return SpiBackend(devices, **options)
    if scheme == "mfrc522":
        from scorekeeper.readers.mfrc522_pkg import Mfrc522Backend

        # A bare mfrc522: is the tutorials' wiring: SPI0, CE0.
        devices = _parse_spi(rest, spec) if rest else [(0, 0)]
        options.update(_query_options(query, Mfrc522Backend, spec))
        _check_options(Mfrc522Backend, options, spec, ("devices",))
        return Mfrc522Backend(devices, **options)
    raise ConfigError(f"unknown reader backend {scheme!r} in {spec!r}: {SPEC_HELP}")
