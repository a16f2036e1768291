"""The checks ``scorekeeper doctor`` makes before it watches: the serial port, the bridge's
HELLO and heartbeats, each reader answering, the layout's readers; and the findings they give.

``Checks`` holds a doctor's state and findings; ``Doctor`` (doctor/watch.py) adds the watch of
live read rates and the whole run.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TextIO

from scorekeeper.commands.doctor.hardware import PI_CHIP_SELECTS, SPI_KINDS


@dataclass(frozen=True)
class Finding:
    """One line of the verdict: ``problem`` findings make the exit status 1."""

    kind: str  # "ok", "problem" or "note"
    text: str

    def line(self) -> str:
        mark = {"ok": "ok  ", "problem": "FIX ", "note": "note"}[self.kind]
        return f"  {mark} {self.text}"


class Checks:
    """A doctor's state, its findings and the checks made before watching; ``Doctor``
    (doctor/watch.py) is the class to use: it adds the watch and the whole run.

    ``spec`` is what the person typed (for the advice); ``backend`` is built but not started.
    ``out`` gets the running report. ``layout`` maps reader id -> zone (optional).
    ``sleep``/``clock`` are injectable for tests. ``simulate_taps`` (sim backends only): no hand
    can tap a simulated reader, so doctor lays a made-up tag on each reader and lifts it again
    when the watch begins.
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
        sleep: Callable[[float], None] = time.sleep,
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
        self.sleep = sleep
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
            self.sleep(0.02)
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
