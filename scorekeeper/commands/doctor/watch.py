"""Watching the readers for ``scorekeeper doctor``: live read rates once a second while someone
taps cards (or doctor taps simulated readers itself), then findings on what was seen: misses,
bridge restarts, damaged frames, the poll cycle and the most tags on one reader at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.commands.doctor.checks import Checks
from scorekeeper.commands.doctor.hardware import poll_interval_ms

MISS_SHARE = 0.25  # misses above this share of read attempts are worth fixing
MIN_MISSES = 5
SIMULATED_UID = "0000D0C7"  # the made-up tag doctor taps on simulated readers


class Doctor(Checks):
    """Checks one backend, watches its live read rates and prints the findings (``run``); made
    as ``Checks`` is (see there)."""

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
                self.sleep(max(step, 0.0))
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
