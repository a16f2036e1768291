"""Check the readers: open the backend, test it, show live read rates, and say what to fix.

It opens the reader backend (nothing else: no database, no server; stop the service first if it
holds the bridge, `sudo systemctl stop scorekeeper`), checks it (serial: the port exists, the
bridge says HELLO, heartbeats arrive, every reader answers; spi: each device opens and each chip
answers; sim: nothing to check), then prints read rates per reader (and per zone with a layout)
once a second while someone taps cards, and ends with findings in plain words. While watching
it also counts the tags lying on each reader ("on N" in the running lines; the most at once in
the findings) and times the poll cycle (how often each reader is polled), so that at bring-up
you can measure how many tags one reader resolves and how fast the readers go.

Simulated readers (`--readers sim`) cannot be tapped by a hand: doctor taps a made-up tag on
each of them itself, says so, and watches for one second unless told otherwise. A bare `sim`
has the readers of the shipped bridge (r0 to r3), or those of the layout given.

examples:
  scorekeeper doctor                                     # serial:/dev/scorekeeper-bridge
  scorekeeper doctor --readers serial:/dev/ttyACM0 --seconds 30
  scorekeeper doctor --readers spi:0.0,0.1
  scorekeeper doctor --layout my-mat.yaml               # the file names its game and seats
  scorekeeper doctor --readers sim                       # no hardware: simulated taps

exit status:
  0  everything checked is fine
  1  a problem was found (the findings say what to fix)
  2  bad arguments (an unknown reader spec, a layout file with an error)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TextIO

from scorekeeper.errors import ConfigError

DEFAULT_READERS = "serial:/dev/scorekeeper-bridge"
# The Pi's hardware chip-selects: SPI bus.cs -> what to check.
PI_CHIP_SELECTS = {
    (0, 0): "CE0, GPIO8",
    (0, 1): "CE1, GPIO7",
    (1, 0): "CE0 of SPI1, GPIO18",
    (1, 1): "CE1 of SPI1, GPIO17",
    (1, 2): "CE2 of SPI1, GPIO16",
}
MISS_SHARE = 0.25  # misses above this share of read attempts are worth fixing
MIN_MISSES = 5
SIMULATED_UID = "0000D0C7"  # the made-up tag doctor taps on simulated readers
SPI_KINDS = ("spi", "mfrc522")  # readers on the Pi's own SPI bus
SIM_SECONDS = 1.0  # how long doctor watches simulated readers when --seconds is not given


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``scorekeeper doctor``."""
    parser.add_argument(
        "--readers",
        default=DEFAULT_READERS,
        metavar="SPEC",
        help="reader backend: serial:PORT, spi:0.0,0.1, mfrc522: or sim "
        "(default %(default)s, the udev name from systemd/)",
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=None,
        metavar="N",
        help="watch read rates for N seconds (default: until Ctrl-C)",
    )
    parser.add_argument("--layout", metavar="FILE", help="a zone layout file: rates per zone too")
    parser.add_argument(
        "--game", metavar="ID", help="the game the layout is for (default: the layout's game:)"
    )
    parser.add_argument(
        "--seats",
        type=int,
        metavar="N",
        help="player count of the layout (default: the layout's seats:)",
    )
    parser.add_argument(
        "--bridge-config",
        metavar="FILE",
        help="the bridge's config.json, to name chip-select pins "
        "(default: firmware_bridge/config.json as shipped)",
    )
    parser.add_argument(
        "--wait",
        type=float,
        default=4.0,
        metavar="S",
        help="how long to wait for the bridge to answer (default %(default)s)",
    )


@dataclass(frozen=True)
class Finding:
    """One line of the verdict: ``problem`` findings make the exit status 1."""

    kind: str  # "ok", "problem" or "note"
    text: str

    def line(self) -> str:
        mark = {"ok": "ok  ", "problem": "FIX ", "note": "note"}[self.kind]
        return f"  {mark} {self.text}"


def bridge_pins(path: str | None) -> list[str]:
    """The chip-select pin of each bridge reader (``GP17``...), from the bridge config file.

    Without ``path`` the config shipped in ``firmware_bridge`` is read; an unreadable file gives
    an empty list (the advice then names no pin). ConfigError when ``path`` was given and bad.
    """
    try:
        if path is not None:
            with open(path, encoding="utf-8") as fh:
                data = json.load(fh)
        else:
            from importlib import resources

            text = resources.files("firmware_bridge").joinpath("config.json").read_text("utf-8")
            data = json.loads(text)
        readers = data.get("readers") or []
        return [
            f"GP{r['cs']}" if isinstance(r.get("cs"), int) else str(r.get("cs", "?"))
            for r in readers
        ]
    except (OSError, ValueError, AttributeError, TypeError, KeyError) as exc:
        if path is not None:
            raise ConfigError(f"cannot read the bridge config {path}: {exc}") from None
        return []


class Doctor:
    """Runs the checks on one backend and collects findings; ``out`` gets the running report.

    ``spec`` is what the person typed (for the advice); ``backend`` is built but not started.
    ``layout`` maps reader id -> zone (optional). ``sleep``/``clock`` are injectable for tests.
    ``simulate_taps`` (sim backends only): no hand can tap a simulated reader, so doctor lays a
    made-up tag on each reader and lifts it again when the watch begins.
    """

    def __init__(
        self,
        spec: str,
        backend: Any,
        *,
        out: TextIO | None = None,
        layout: Mapping[str, str] | None = None,
        pins: list[str] | None = None,
        wait: float = 4.0,
        clock: Callable[[], float] = time.monotonic,
        simulate_taps: bool = False,
    ) -> None:
        self.spec = spec
        self.simulate_taps = simulate_taps
        self.backend = backend
        self.kind = str(getattr(backend, "name", "backend"))
        self.out = out if out is not None else sys.stdout
        self.layout = dict(layout or {})
        self.pins = pins or []
        self.wait = wait
        self.clock = clock
        self.findings: list[Finding] = []
        self.taps: dict[str, int] = {}
        self.on: dict[str, set[str]] = {}  # the tags lying on each reader now
        self.most: dict[str, int] = {}  # the most tags seen on each reader at once
        self._taps_lock = threading.Lock()
        self._started = False
        self._uptimes: list[int] = []
        self.restarts = 0

    # -- reporting ---------------------------------------------------------------------------

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def ok(self, text: str) -> None:
        self.findings.append(Finding("ok", text))

    def problem(self, text: str) -> None:
        self.findings.append(Finding("problem", text))

    def note(self, text: str) -> None:
        self.findings.append(Finding("note", text))

    @property
    def healthy(self) -> bool:
        return not any(f.kind == "problem" for f in self.findings)

    # -- the whole run -----------------------------------------------------------------------

    def run(self, seconds: float | None) -> int:
        """Check, watch for ``seconds`` (None: until Ctrl-C), print the findings; exit status."""
        try:
            if self.check():
                self.watch(seconds)
        finally:
            self.stop()
        self.verdict()
        return 0 if self.healthy else 1

    def stop(self) -> None:
        if self._started:
            self._started = False
            try:
                self.backend.stop()
            except Exception as exc:  # noqa: BLE001 - report, never hide the findings
                self.note(f"the backend did not stop cleanly: {exc}")

    def verdict(self) -> None:
        self.say("")
        self.say("findings:")
        for finding in self.findings:
            self.say(finding.line())
        problems = sum(f.kind == "problem" for f in self.findings)
        self.say(
            "healthy: nothing to fix"
            if not problems
            else f"{problems} problem{'s' if problems > 1 else ''} to fix"
        )

    # -- checks ------------------------------------------------------------------------------

    def _emit(self, sighting: Any) -> None:
        with self._taps_lock:
            on = self.on.setdefault(sighting.reader, set())
            if sighting.present:
                self.taps[sighting.reader] = self.taps.get(sighting.reader, 0) + 1
                on.add(sighting.uid)
                self.most[sighting.reader] = max(self.most.get(sighting.reader, 0), len(on))
            else:
                on.discard(sighting.uid)

    def check(self) -> bool:
        """The static checks; False when there is nothing to watch (the backend did not start)."""
        self.say(f"checking readers {self.spec} ...")
        if self.kind == "serial" and not self._check_port(str(self.backend.port)):
            return False
        try:
            self.backend.start(self._emit)
        except Exception as exc:  # noqa: BLE001 - every failure becomes advice
            self._start_failed(exc)
            return False
        self._started = True
        if self.kind == "serial":
            if not self._check_bridge():
                return False
        elif self.kind in SPI_KINDS:
            self.ok("every SPI device opened")
        elif self.kind == "sim":
            self.ok("simulated readers: nothing to check on the hardware side")
        self._check_readers()
        self._check_layout()
        return True

    def _check_port(self, port: str) -> bool:
        if not os.path.exists(port):
            self.problem(
                f"no bridge on {port}: is it plugged in? `ls /dev/serial/by-id/` lists "
                "the serial devices (the udev rule in systemd/ names the bridge "
                "/dev/scorekeeper-bridge)"
            )
            return False
        if not os.access(port, os.R_OK | os.W_OK):
            self.problem(
                f"no permission to open {port}: add yourself to the dialout group "
                "(`sudo adduser $USER dialout`, then log in again)"
            )
            return False
        self.ok(f"{port} exists")
        return True

    def _start_failed(self, exc: Exception) -> None:
        text = str(exc)
        if self.kind in SPI_KINDS:
            self.problem(
                f"the SPI readers did not start: {text}. Enable SPI with "
                "`sudo raspi-config nonint do_spi 0` and reboot; check that "
                "/dev/spidev* exists and that you are in the spi group"
            )
        else:
            self.problem(f"the readers did not start: {text}")

    def _wait_until(self, cond: Callable[[], bool], timeout: float) -> bool:
        end = self.clock() + timeout
        while self.clock() < end:
            if cond():
                return True
            time.sleep(0.02)
        return cond()

    def _check_bridge(self) -> bool:
        backend = self.backend
        port = backend.port
        self._wait_until(
            lambda: (
                "firmware" in backend.stats()
                or str(backend.stats().get("detail", "")).startswith("cannot open")
            ),
            self.wait,
        )
        stats = backend.stats()
        detail = str(stats.get("detail", ""))
        if detail.startswith("cannot open"):
            self.problem(
                f"{port} exists but {detail}: is another program using it? "
                "(`sudo systemctl stop scorekeeper` first)"
            )
            return False
        if "firmware" not in stats:
            self.problem(
                f"{port} opened but no bridge said HELLO within {self.wait:g} s: is the "
                "scorekeeper firmware on it (docs/firmware.md), and is this the bridge "
                "and not another serial device?"
            )
            return False
        self.ok(
            f"the bridge says HELLO: firmware {stats['firmware']}, protocol "
            f"{stats.get('protocol', '?')}, {len(backend.reader_ids)} readers"
        )
        if not self._wait_until(lambda: bool(backend.stats().get("online")), self.wait):
            self.problem(
                "the bridge said HELLO but sends no heartbeats: reset it (unplug and "
                "plug it back); if that persists, flash the firmware again"
            )
            return False
        # Two more heartbeats: the READER_HEALTH reports that follow each one are then in.
        first = self._uptime()
        self._wait_until(lambda: self._uptime() != first, self.wait)
        second = self._uptime()
        self._wait_until(lambda: self._uptime() != second, self.wait)
        self.ok("heartbeats arrive")
        return True

    def _uptime(self) -> int | None:
        value = self.backend.stats().get("bridge", {}).get("uptime_ms")
        return int(value) if isinstance(value, int) else None

    def _reader_hint(self, index: int, rid: str) -> str:
        if self.kind == "serial":
            pin = f" ({self.pins[index]})" if index < len(self.pins) else ""
            return f"check its chip-select wire{pin} and 3V3"
        if self.kind in SPI_KINDS:
            device = str(self.backend.stats().get("readers", {}).get(rid, {}).get("spi", ""))
            bus, _, cs = device.partition(".")
            if bus.isdigit() and cs.isdigit():
                where = PI_CHIP_SELECTS.get((int(bus), int(cs)), f"SPI {device}")
                return (
                    f"check its chip-select wire ({where}), MISO/MOSI/SCK, RST and 3V3; "
                    "several boards on one bus need the MISO buffer (hardware/)"
                )
        return "check its wiring and power"

    def _check_readers(self) -> None:
        health = self.backend.health()
        if not health:
            self.note("the backend reports no readers")
            return
        for index, (rid, h) in enumerate(health.items()):
            if h.online:
                self.ok(f"reader {rid} answers")
            else:
                why = f" ({h.detail})" if h.detail else ""
                self.problem(f"reader {rid} has not answered{why}: {self._reader_hint(index, rid)}")

    def _check_layout(self) -> None:
        if not self.layout:
            return
        have = set(self.backend.reader_ids)
        for rid, zone in self.layout.items():
            if rid not in have:
                self.problem(
                    f"the layout puts reader {rid} under {zone}, but the backend has "
                    f"no reader {rid} (it has {', '.join(sorted(have)) or 'none'})"
                )
        spare = sorted(have - set(self.layout))
        if spare:
            self.note(
                f"reader(s) {', '.join(spare)} are not in the layout: what they see is "
                "refused at a table"
            )

    # -- watching ----------------------------------------------------------------------------

    def watch(self, seconds: float | None, interval: float = 1.0) -> None:
        """Print read rates every ``interval`` s for ``seconds`` (None: until Ctrl-C)."""
        if self.simulate_taps:
            self.say(
                "simulated readers: no hand can tap them, so doctor taps a made-up tag on "
                "each reader once; read rates per second"
                + (f" for {seconds:g} s:" if seconds is not None else ":")
            )
        else:
            self.say(
                "tap cards on the readers; read rates per second"
                + (f" for {seconds:g} s:" if seconds is not None else " (Ctrl-C to finish):")
            )
        start = self.clock()
        first = self.backend.health()
        stats0 = self.backend.stats()
        if self.simulate_taps:
            self._simulated_taps()
        self._track_restarts()
        before = {r: (h.reads, h.errors) for r, h in first.items()}
        last = dict(before)
        last_t = start
        try:
            while seconds is None or self.clock() - start < seconds:
                step = (
                    interval if seconds is None else min(interval, seconds - (self.clock() - start))
                )
                time.sleep(max(step, 0.0))
                now = self.clock()
                health = self.backend.health()
                self._track_restarts()
                rates = {
                    r: (h.reads - last.get(r, (0, 0))[0]) / max(now - last_t, 1e-6)
                    for r, h in health.items()
                }
                last = {r: (h.reads, h.errors) for r, h in health.items()}
                last_t = now
                self.say(self._rate_line(now - start, rates, health))
        except KeyboardInterrupt:
            self.say("")
        self._judge_watch(self.clock() - start, before, stats0)

    def _simulated_taps(self) -> None:
        """Lay a made-up tag on every sim reader and lift it (counted as reads and taps)."""
        readers = list(self.backend.reader_ids)
        for rid in readers:
            self.backend.put(rid, SIMULATED_UID)
            self.backend.take(rid, SIMULATED_UID)
        self.note(
            f"the taps on {', '.join(readers)} were simulated (made-up tag "
            f"{SIMULATED_UID}): no hardware was tested"
        )

    def _rate_line(
        self,
        elapsed: float,
        rates: Mapping[str, float],
        health: Mapping[str, Any],
    ) -> str:
        with self._taps_lock:
            taps = dict(self.taps)
            on = {rid: len(uids) for rid, uids in self.on.items()}
        parts = []
        for rid, rate in rates.items():
            flag = "" if health[rid].online else " OFFLINE"
            lying = f" on {on[rid]}" if on.get(rid) else ""
            parts.append(f"{rid} {rate:4.1f}/s taps {taps.get(rid, 0)}{lying}{flag}")
        line = f"  {elapsed:5.1f} s  " + "  ".join(parts)
        if self.layout:
            zones: dict[str, float] = {}
            for rid, zone in self.layout.items():
                zones[zone] = zones.get(zone, 0.0) + rates.get(rid, 0.0)
            line += "\n           zones: " + "  ".join(f"{z} {r:.1f}/s" for z, r in zones.items())
        return line

    def _track_restarts(self) -> None:
        if self.kind != "serial":
            return
        uptime = self._uptime()
        if uptime is not None:
            if self._uptimes and uptime < self._uptimes[-1]:
                self.restarts += 1
            self._uptimes.append(uptime)

    def _judge_watch(
        self, elapsed: float, before: Mapping[str, tuple[int, int]], stats0: Mapping[str, Any]
    ) -> None:
        health = self.backend.health()
        stats = self.backend.stats()
        if self.kind == "serial":
            drops = int(stats.get("disconnects", 0)) - int(stats0.get("disconnects", 0))
            restarts = self.restarts + max(drops, 0)
            if restarts:
                often = " every few seconds" if elapsed / restarts < 10 else ""
                self.problem(
                    f"the bridge restarted or dropped off {restarts} time(s) in "
                    f"{elapsed:.0f} s{often}: power supply? (a weak USB supply or a "
                    "thin cable browns out when the antennas switch on)"
                )
            bad = sum(
                int(stats.get(k, 0)) - int(stats0.get(k, 0))
                for k in ("crc_errors", "truncated", "malformed")
            )
            if bad:
                self.problem(
                    f"{bad} damaged frame(s) on the serial line: try another USB cable "
                    "or port, away from the antennas"
                )
        self._judge_cycle(elapsed, stats0, stats, health)
        tapped = []
        for index, (rid, h) in enumerate(health.items()):
            reads0, errors0 = before.get(rid, (0, 0))
            reads, errors = h.reads - reads0, h.errors - errors0
            if not h.online:
                if not any(f.text.startswith(f"reader {rid} ") for f in self.findings):
                    self.problem(
                        f"reader {rid} went offline while watching: {self._reader_hint(index, rid)}"
                    )
                continue
            if errors >= MIN_MISSES and errors > MISS_SHARE * (reads + errors):
                self.problem(
                    f"reader {rid} misses many reads ({errors} of {reads + errors}): "
                    "move the antenna closer or the mat is too thick"
                )
            if reads or self.taps.get(rid):
                tapped.append(rid)
        if elapsed >= 1 and health:
            untested = [r for r in health if r not in tapped and health[r].online]
            if tapped:
                self.ok(f"read tags on {', '.join(tapped)}")
            if untested:
                self.note(
                    f"no tag was read on {', '.join(untested)}: tap a card on "
                    f"{'it' if len(untested) == 1 else 'each'} to test it"
                )

    def _judge_cycle(
        self,
        elapsed: float,
        stats0: Mapping[str, Any],
        stats: Mapping[str, Any],
        health: Mapping[str, Any],
    ) -> None:
        """Notes: how often each reader was polled, and the most tags seen on one at once."""
        polled = sum(1 for h in health.values() if h.online)
        every = poll_interval_ms(self.kind, stats0, stats, elapsed, polled)
        if every is not None:
            self.note(
                f"each reader was polled every {every:.0f} ms ({1000.0 / every:.1f} polls "
                f"a second, {polled} reader(s) answering): a tag lying on a reader is "
                'read that often (docs/firmware.md, "How fast it reads")'
            )
        with self._taps_lock:
            most = {rid: n for rid, n in self.most.items() if n}
        if most:
            listed = ", ".join(f"{rid} {n}" for rid, n in sorted(most.items()))
            self.note(
                f"most tags seen on one reader at once: {listed}. To know how many one "
                "reader resolves, lay the most pawns a zone will hold on it: 'on' must "
                "reach that count and stay there, with no 'misses many reads' finding"
            )


def poll_interval_ms(
    kind: str, stats0: Mapping[str, Any], stats: Mapping[str, Any], elapsed: float, polled: int
) -> float | None:
    """How often each reader was polled while doctor watched, in ms (None: not known).

    ``stats0``/``stats`` are the backend's ``stats()`` before and after, ``elapsed`` the seconds
    between them and ``polled`` the readers that answered. The bridge counts single reader polls
    in its heartbeats (``polls``, with its own ``uptime_ms``); the spi backends count rounds of
    every reader (``polls``).
    """
    if kind == "serial":
        b0, b1 = stats0.get("bridge", {}), stats.get("bridge", {})
        try:
            polls = int(b1["polls"]) - int(b0["polls"])
            ms = int(b1["uptime_ms"]) - int(b0["uptime_ms"])
        except (KeyError, TypeError, ValueError):
            return None
        if polls <= 0 or ms <= 0 or polled <= 0:
            return None
        return ms * polled / polls
    if kind in SPI_KINDS:
        rounds = int(stats.get("polls", 0)) - int(stats0.get("polls", 0))
        if rounds <= 0 or elapsed <= 0:
            return None
        return elapsed * 1000.0 / rounds
    return None


def _layout(args: argparse.Namespace) -> dict[str, str] | None:
    if args.layout is None:
        if args.game is not None or args.seats is not None:
            raise ConfigError("--game and --seats go with --layout FILE")
        return None
    from scorekeeper.core.layout import load_layout
    from scorekeeper.games import find_game

    game_id = args.game if args.game is not None else layout_game(args.layout)
    return load_layout(args.layout, find_game(game_id), args.seats)


def layout_game(path: str) -> str:
    """The ``game:`` a layout file names (so ``--game`` need not repeat it); ConfigError if none.

    Only the game is read here; ``load_layout`` then checks the whole file against that game.
    """
    from scorekeeper.core.layout import layout_file_game

    game_id = layout_file_game(path)
    if game_id is not None:
        return game_id
    raise ConfigError("the layout names no game: add 'game: ID' to it, or give --game ID", path)


def default_sim_readers() -> tuple[str, ...]:
    """The readers a bare ``sim`` stands in for: the shipped bridge's, named as it names them."""
    count = len(bridge_pins(None)) or 2
    return tuple(f"r{i}" for i in range(count))


def open_backend(spec: str, layout: Mapping[str, str] | None) -> Any:
    """The backend for ``spec``; a bare ``sim`` gets the layout's readers (or the shipped
    bridge's: r0, r1, ...). ConfigError if bad."""
    from scorekeeper.readers.base import open_readers

    if spec.strip().lower() == "sim":
        return open_readers(spec, reader_ids=tuple(layout or default_sim_readers()))
    return open_readers(spec)


def run(args: argparse.Namespace) -> int:
    """Check the readers and print the findings; 0 healthy, 1 a problem, 2 bad arguments."""
    if args.seconds is not None and args.seconds < 0:
        raise ConfigError("--seconds must be 0 or more")
    import logging

    layout = _layout(args)
    backend = open_backend(args.readers, layout)
    pins = bridge_pins(args.bridge_config) if backend.name == "serial" else []
    simulated = backend.name == "sim"
    doctor = Doctor(
        args.readers, backend, layout=layout, pins=pins, wait=args.wait, simulate_taps=simulated
    )
    seconds = args.seconds
    if simulated and seconds is None:
        seconds = SIM_SECONDS  # nothing will tap a simulated reader: do not wait for Ctrl-C
    # The findings say in plain words what the backend's warnings say in log lines; the level
    # is restored afterwards (tests run this in-process).
    readers_log = logging.getLogger("scorekeeper.readers")
    level = readers_log.level
    readers_log.setLevel(logging.ERROR)
    try:
        return doctor.run(seconds)
    finally:
        readers_log.setLevel(level)
