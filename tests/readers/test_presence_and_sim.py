"""Presence hysteresis, the sim backend and ``open_readers`` spec parsing."""

from __future__ import annotations

import sys
import threading
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.core.inputs import Sighting
from scorekeeper.errors import ConfigError, ReaderError, UnknownReader
from scorekeeper.readers.base import ReaderHealth, format_uid, open_readers
from scorekeeper.readers.presence import PresenceConfig, PresenceFilter
from scorekeeper.readers.sim import SimBackend


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t

    def advance(self, ms: float) -> None:
        self.t += ms / 1000.0


def on(r: str, u: str) -> Sighting:
    return Sighting(r, u, True)


def off(r: str, u: str) -> Sighting:
    return Sighting(r, u, False)


# --- PresenceFilter ---------------------------------------------------------------------------


def test_defaults_pass_changes_through_at_once() -> None:
    f = PresenceFilter(clock=Clock())
    assert f.poll("a", {"T"}) == [on("a", "T")]
    assert f.poll("a", {"T"}) == []
    assert f.poll("a", set()) == [off("a", "T")]


def test_present_needs_n_polls_and_x_ms() -> None:
    clock = Clock()
    f = PresenceFilter(
        PresenceConfig(present_after_polls=3, present_after_ms=100, absent_after_ms=200),
        clock=clock,
    )
    assert f.poll("a", {"T"}) == []
    clock.advance(50)
    assert f.poll("a", {"T"}) == []
    clock.advance(50)
    assert f.poll("a", {"T"}) == [on("a", "T")]  # 3 polls and 100 ms


def test_present_after_ms_fires_on_tick() -> None:
    clock = Clock()
    f = PresenceFilter(PresenceConfig(present_after_ms=80), clock=clock)
    assert f.poll("a", {"T"}) == []
    clock.advance(79)
    assert f.tick() == []
    clock.advance(1)
    assert f.tick() == [on("a", "T")]


def test_missed_reads_do_not_look_like_a_removal() -> None:
    clock = Clock()
    f = PresenceFilter(PresenceConfig(absent_after_polls=3, absent_after_ms=250), clock=clock)
    assert f.poll("a", {"T"}) == [on("a", "T")]
    for _ in range(10):  # every other poll misses the tag
        clock.advance(70)
        assert f.poll("a", set()) == []
        clock.advance(70)
        assert f.poll("a", {"T"}) == []
    out = []
    for _ in range(5):  # now it is really gone
        clock.advance(70)
        out += f.poll("a", set())
    assert out == [off("a", "T")]


def test_removal_needs_both_polls_and_time() -> None:
    clock = Clock()
    f = PresenceFilter(PresenceConfig(absent_after_polls=2, absent_after_ms=100), clock=clock)
    f.poll("a", {"T"})
    clock.advance(200)
    assert f.poll("a", set()) == []  # long enough, but one poll only
    assert f.poll("a", set()) == [off("a", "T")]


def test_partial_polls_do_not_count_as_misses() -> None:
    clock = Clock()
    f = PresenceFilter(clock=clock)
    f.poll("a", {"T", "U"})
    clock.advance(500)
    assert f.poll("a", {"U"}, partial=True) == []
    assert f.poll("a", {"U"}) == [off("a", "T")]


def test_bounce_on_edges_makes_no_storm() -> None:
    clock = Clock()
    f = PresenceFilter(PresenceConfig(present_after_ms=50, absent_after_ms=150), clock=clock)
    out = f.edge("a", "T", True)
    for _ in range(20):
        clock.advance(10)
        out += f.edge("a", "T", False)
        clock.advance(10)
        out += f.edge("a", "T", True)
        out += f.tick()
    assert out == [on("a", "T")]
    out = f.edge("a", "T", False)
    clock.advance(149)
    out += f.tick()
    assert out == []
    clock.advance(1)
    assert f.tick() == [off("a", "T")]


def test_a_blip_shorter_than_present_after_is_ignored() -> None:
    clock = Clock()
    f = PresenceFilter(PresenceConfig(present_after_ms=100), clock=clock)
    out = f.edge("a", "T", True)
    clock.advance(30)
    out += f.edge("a", "T", False)
    clock.advance(500)
    out += f.tick()
    assert out == []
    assert f.tracked("a") == set()


def test_suspended_reader_reports_no_removal() -> None:
    clock = Clock()
    f = PresenceFilter(PresenceConfig(absent_after_ms=100), clock=clock)
    f.poll("a", {"T"})
    f.suspend("a")
    clock.advance(10_000)
    assert f.poll("a", set()) == [] and f.tick() == []
    f.resume("a")
    assert f.poll("a", {"T"}) == []
    assert f.present("a") == {"T"}


@given(st.lists(st.tuples(st.booleans(), st.integers(0, 300)), max_size=60))
def test_sightings_always_alternate_and_match_the_end_state(steps: list[tuple[bool, int]]) -> None:
    clock = Clock()
    f = PresenceFilter(
        PresenceConfig(
            present_after_polls=2, present_after_ms=40, absent_after_polls=2, absent_after_ms=120
        ),
        clock=clock,
    )
    out: list[Sighting] = []
    for seen, ms in steps:
        clock.advance(ms)
        out += f.poll("a", {"T"} if seen else set())
    states = [s.present for s in out]
    assert all(x != y for x, y in zip(states, states[1:], strict=False))
    assert not states or states[0]
    assert (bool(states) and states[-1]) == ("T" in f.present("a"))


def test_bad_config_is_a_config_error() -> None:
    with pytest.raises(ConfigError):
        PresenceConfig(present_after_polls=0)
    with pytest.raises(ConfigError):
        PresenceConfig(absent_after_ms=-1)


# --- sim backend --------------------------------------------------------------------------------


def test_sim_put_take_are_immediate() -> None:
    sim = SimBackend(["play", "loc4"])
    got: list[Sighting] = []
    sim.start(got.append)
    sim.put("play", "04AA")
    sim.move("04AA", "play", "loc4")
    sim.take("loc4", "04AA")
    sim.take("loc4", "04AA")  # not there: no-op
    assert got == [on("play", "04AA"), off("play", "04AA"), on("loc4", "04AA"), off("loc4", "04AA")]
    health = sim.health()
    assert set(health) == {"play", "loc4"}
    assert isinstance(health["play"], ReaderHealth) and health["play"].online
    assert health["play"].reads == 1 and health["play"].last_sighting is not None
    sim.stop()


def test_sim_unknown_reader() -> None:
    sim = SimBackend(["a"])
    with pytest.raises(UnknownReader):
        sim.put("b", "T")
    free = SimBackend()
    free.put("z", "T")
    assert free.reader_ids == ("z",)


def test_sim_sightings_before_start_are_delivered_at_start() -> None:
    sim = SimBackend(["a"])
    sim.put("a", "T")
    got: list[Sighting] = []
    sim.start(got.append)
    assert got == [on("a", "T")]


def test_sim_bounce_and_miss_without_and_with_hysteresis() -> None:
    raw = SimBackend(["a"])
    got: list[Sighting] = []
    raw.start(got.append)
    raw.put("a", "T")
    raw.bounce("a", "T", times=3)
    raw.miss("a")
    assert len(got) == 1 + 6 + 2  # no hysteresis: every bounce and miss shows
    assert raw.health()["a"].errors == 1

    clock = Clock()
    sim = SimBackend(["a"], present_after_ms=30, absent_after_ms=200, clock=clock, tick_interval=0)
    got = []
    sim.start(got.append)
    sim.put("a", "T")
    sim.bounce("a", "T", times=5)
    sim.miss("a")
    clock.advance(30)
    sim.tick()
    assert got == [on("a", "T")]
    sim.take("a", "T")
    clock.advance(199)
    sim.tick()
    assert got == [on("a", "T")]
    clock.advance(1)
    sim.tick()
    assert got == [on("a", "T"), off("a", "T")]


def test_sim_ticker_thread_applies_hysteresis() -> None:
    sim = SimBackend(["a"], present_after_ms=20, absent_after_ms=20, tick_interval=0.002)
    got: list[Sighting] = []
    done = threading.Event()

    def emit(s: Sighting) -> None:
        got.append(s)
        if not s.present:
            done.set()

    sim.start(emit)
    sim.put("a", "T")
    time.sleep(0.08)
    sim.take("a", "T")
    assert done.wait(2.0)
    sim.stop()
    assert got == [on("a", "T"), off("a", "T")]


def test_sim_offline_reader_freezes_and_reconciles() -> None:
    sim = SimBackend(["a"])
    got: list[Sighting] = []
    sim.start(got.append)
    sim.put("a", "T")
    sim.put("a", "U")
    sim.set_online("a", False)
    assert not sim.health()["a"].online
    sim.take("a", "T")  # happens while the reader is dead
    sim.put("a", "V")
    assert got == [on("a", "T"), on("a", "U")]
    sim.set_online("a", True)
    assert got[2:] == [off("a", "T"), on("a", "V")]


def test_sim_is_thread_safe_and_keeps_order_per_tag() -> None:
    sim = SimBackend([f"r{i}" for i in range(4)])
    got: list[Sighting] = []
    lock = threading.Lock()

    def emit(s: Sighting) -> None:
        with lock:
            got.append(s)

    sim.start(emit)

    def worker(n: int) -> None:
        for i in range(200):
            r, u = f"r{i % 4}", f"T{n}"
            sim.put(r, u)
            sim.take(r, u)
        sim.put("r0", f"T{n}")

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for n in range(6):
        mine = [s for s in got if s.uid == f"T{n}"]
        assert len(mine) == 401
        assert all(a.present != b.present for a, b in zip(mine, mine[1:], strict=False))
    assert sim.tags("r0") == {f"T{n}" for n in range(6)}


def test_sim_emit_may_call_back_into_the_backend() -> None:
    sim = SimBackend(["play", "discard"])
    got: list[Sighting] = []

    def emit(s: Sighting) -> None:
        got.append(s)
        if s.reader == "play" and s.present:
            sim.move(s.uid, "play", "discard")

    sim.start(emit)
    sim.put("play", "C1")
    assert got == [on("play", "C1"), off("play", "C1"), on("discard", "C1")]


def test_a_failing_listener_does_not_stop_the_backend() -> None:
    sim = SimBackend(["a"])
    got: list[Sighting] = []

    def emit(s: Sighting) -> None:
        got.append(s)
        raise RuntimeError("listener bug")

    sim.start(emit)
    sim.put("a", "T")
    sim.take("a", "T")
    assert len(got) == 2


# --- open_readers -------------------------------------------------------------------------------


def test_open_readers_selects_backends() -> None:
    sim = open_readers("sim:a, b")
    assert isinstance(sim, SimBackend) and sim.reader_ids == ("a", "b")
    assert open_readers("sim", reader_ids=["x"]).reader_ids == ("x",)
    ser = open_readers("serial:/dev/ttyACM0?baud=9600", reader_ids=["a"])
    assert ser.name == "serial" and getattr(ser, "baudrate", None) == 9600
    spi = open_readers("spi:0.0,0.1")
    assert spi.name == "spi" and spi.reader_ids == ("r0", "r1")


@pytest.mark.parametrize(
    "spec",
    [
        "",
        "usb:/dev/x",
        "serial:",
        "serial:/dev/x?speed=1",
        "serial:/dev/x?baud=fast",
        "spi:",
        "spi:0",
        "spi:0.0,0.0",
        "spi:a.b",
    ],
)
def test_open_readers_rejects_bad_specs(spec: str) -> None:
    with pytest.raises(ConfigError) as info:
        open_readers(spec)
    assert str(info.value)


def test_open_readers_rejects_unknown_options() -> None:
    with pytest.raises(ConfigError, match="does not take"):
        open_readers("sim", hysteresis=3)


def test_spi_backend_without_spidev_is_a_reader_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "spidev", None)  # as on a machine without it: ImportError
    backend = open_readers("spi:0.0")
    with pytest.raises(ReaderError, match="spidev"):
        backend.start(lambda s: None)


def test_format_uid() -> None:
    assert format_uid(bytes.fromhex("04a1b2c3d4e5f6")) == "04A1B2C3D4E5F6"
