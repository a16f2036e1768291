"""``scorekeeper doctor`` on the sim backend and a scripted bridge on a real pseudo-terminal."""

from __future__ import annotations

import io
import json
import os
import threading
import time
import tty
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import yaml

from firmware_bridge import protocol as p
from scorekeeper import cli
from scorekeeper.commands.doctor import Doctor, bridge_pins
from scorekeeper.readers.fake_bridge import FakeBridge
from scorekeeper.readers.sim import SimBackend

UID = bytes.fromhex("04A1B2C3D4E5F6")


@pytest.fixture
def doctor_cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., tuple[int, str]]:
    """Run ``scorekeeper doctor ARGS`` through the real command line; (exit status, output)."""

    def run(*args: str) -> tuple[int, str]:
        code = cli.main(["doctor", *args])
        captured = capsys.readouterr()
        return code, captured.out + captured.err

    return run


class Bridge:
    """A FakeBridge on the master side of a pty whose slave is reached through a symlink."""

    def __init__(self, link: Path, **options: object) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        os.symlink(os.ttyname(self.slave), link)
        self.link = link
        self.fake = FakeBridge(self.master, **{"heartbeat_interval": 0.05, **options})
        self.fake.start()

    def close(self) -> None:
        self.fake.stop()
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def bridge(tmp_path: Path) -> Iterator[Callable[..., Bridge]]:
    made: list[Bridge] = []

    def plug(**options: object) -> Bridge:
        b = Bridge(tmp_path / f"bridge{len(made)}", **options)
        made.append(b)
        return b

    yield plug
    for b in made:
        b.close()


def later(delay: float, action: Callable[[], None]) -> threading.Thread:
    def go() -> None:
        time.sleep(delay)
        action()

    t = threading.Thread(target=go, daemon=True)
    t.start()
    return t


# -- sim ---------------------------------------------------------------------------------------


def test_sim_is_fine(doctor_cli: Callable[..., tuple[int, str]]) -> None:
    code, out = doctor_cli("--readers", "sim", "--seconds", "0.2")
    assert code == 0, out
    assert "nothing to check" in out and "healthy" in out


class ScriptedTime:
    """Stands in for the doctor module's ``time``: ``sleep`` returns at once and advances a
    scripted clock, running the next scripted action first (as if it happened while asleep).
    The rates then do not depend on how busy the machine is."""

    def __init__(self, *actions: Callable[[], None]) -> None:
        self.now = 100.0
        self.actions = list(actions)

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        if self.actions:
            self.actions.pop(0)()
        self.now += seconds


def test_sim_rates_while_tapping() -> None:
    backend = SimBackend(["r1", "r2"])  # no hysteresis: a put/take is a Sighting at once
    out = io.StringIO()

    def tap() -> None:
        for _ in range(3):
            backend.put("r1", "04AA")
            backend.take("r1", "04AA")

    clock = ScriptedTime(tap)  # three taps during the first second
    code = Doctor("sim", backend, out=out, clock=clock.monotonic, sleep=clock.sleep).run(1.2)
    text = out.getvalue()
    assert code == 0, text
    lines = [line for line in text.splitlines() if line.lstrip().startswith(("1.0 s", "1.2 s"))]
    assert lines == [
        "    1.0 s  r1  3.0/s taps 3  r2  0.0/s taps 0",
        "    1.2 s  r1  0.0/s taps 3  r2  0.0/s taps 0",
    ], text
    assert "read tags on r1" in text
    assert "no tag was read on r2" in text  # a note, not a problem


def test_sim_reader_offline_is_a_problem() -> None:
    backend = SimBackend(["r1", "r2"])
    backend.set_online("r2", False)
    out = io.StringIO()
    assert Doctor("sim", backend, out=out).run(0) == 1
    assert "FIX  reader r2 has not answered" in out.getvalue()


def test_layout_gives_zone_rates(
    doctor_cli: Callable[..., tuple[int, str]], tmp_path: Path
) -> None:
    from scorekeeper.games import find_game

    layout = find_game("angels-and-demons").default_layout(4)
    path = tmp_path / "mat.yaml"
    path.write_text(yaml.safe_dump({"game": "angels-and-demons", "seats": 4, "readers": layout}))
    code, out = doctor_cli(
        "--readers",
        "sim",
        "--layout",
        str(path),
        "--game",
        "angels-and-demons",
        "--seats",
        "4",
        "--seconds",
        "1.05",
    )
    assert code == 0, out
    assert "zones: " in out and next(iter(layout.values())) in out


def test_bad_arguments_exit_2(doctor_cli: Callable[..., tuple[int, str]], tmp_path: Path) -> None:
    assert doctor_cli("--readers", "bogus:1", "--seconds", "0")[0] == 2
    assert doctor_cli("--readers", "sim", "--layout", "x.yaml", "--seconds", "0")[0] == 2
    assert (
        doctor_cli(
            "--readers",
            "sim",
            "--layout",
            str(tmp_path / "none.yaml"),
            "--game",
            "angels-and-demons",
            "--seconds",
            "0",
        )[0]
        == 2
    )
    assert doctor_cli("--readers", "sim", "--seconds", "-1")[0] == 2
    with pytest.raises(SystemExit) as exc:
        doctor_cli("--seconds", "soon")
    assert exc.value.code == 2


# -- serial over a real pty --------------------------------------------------------------------


def test_healthy_bridge(
    doctor_cli: Callable[..., tuple[int, str]], bridge: Callable[..., Bridge]
) -> None:
    b = bridge(reader_count=2)
    later(0.8, lambda: b.fake.put(0, UID))
    code, out = doctor_cli("--readers", f"serial:{b.link}", "--seconds", "1.5")
    assert code == 0, out
    assert "the bridge says HELLO: firmware 0.1.0" in out
    assert "heartbeats arrive" in out
    assert "reader r0 answers" in out and "reader r1 answers" in out
    assert "read tags on r0" in out
    assert "healthy: nothing to fix" in out


def test_bridge_with_a_reader_not_responding(
    doctor_cli: Callable[..., tuple[int, str]], bridge: Callable[..., Bridge], tmp_path: Path
) -> None:
    b = bridge(reader_count=3)
    b.fake.status[2] = p.STATUS_NOT_RESPONDING
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"readers": [{"cs": 17}, {"cs": 20}, {"cs": 21}]}))
    code, out = doctor_cli(
        "--readers", f"serial:{b.link}", "--seconds", "0", "--bridge-config", str(config)
    )
    assert code == 1, out
    assert "reader r2 has not answered" in out
    assert "check its chip-select wire (GP21) and 3V3" in out
    assert "reader r0 answers" in out


def test_no_device(doctor_cli: Callable[..., tuple[int, str]], tmp_path: Path) -> None:
    code, out = doctor_cli("--readers", f"serial:{tmp_path / 'ttyACM9'}", "--seconds", "5")
    assert code == 1
    assert f"no bridge on {tmp_path / 'ttyACM9'}: is it plugged in?" in out
    assert "ls /dev/serial/by-id/" in out


def test_a_device_that_is_not_a_bridge(
    doctor_cli: Callable[..., tuple[int, str]], bridge: Callable[..., Bridge]
) -> None:
    b = bridge(answer_sync=False, heartbeat_interval=0)
    code, out = doctor_cli("--readers", f"serial:{b.link}", "--seconds", "0", "--wait", "0.5")
    assert code == 1
    assert "no bridge said HELLO" in out


def test_misses_and_restarts_are_found(bridge: Callable[..., Bridge]) -> None:
    from scorekeeper.readers.base import open_readers

    b = bridge(reader_count=2)
    b.fake._started -= 100  # up for 100 s already

    def trouble() -> None:
        b.fake.reads[1] += 4
        b.fake.misses[1] += 30  # many misses on r1
        b.fake._started = time.monotonic()  # uptime starts again: the bridge rebooted

    later(0.6, trouble)
    out = io.StringIO()
    backend = open_readers(f"serial:{b.link}")
    code = Doctor(f"serial:{b.link}", backend, out=out, pins=["GP17", "GP20"]).run(1.5)
    text = out.getvalue()
    assert code == 1, text
    assert "reader r1 misses many reads (30 of 34): move the antenna closer" in text
    assert "the bridge restarted or dropped off 1 time(s)" in text and "power supply?" in text


def test_shipped_bridge_config_names_pins() -> None:
    pins = bridge_pins(None)
    assert pins
    assert all(pin.startswith("GP") for pin in pins)


def test_sim_lists_every_reader_and_taps_them_itself(
    doctor_cli: Callable[..., tuple[int, str]],
) -> None:
    # No --seconds: with simulated readers doctor must not wait for taps that cannot come.
    started = time.monotonic()
    code, out = doctor_cli("--readers", "sim")
    assert time.monotonic() - started < 10
    assert code == 0, out
    for rid in ("r0", "r1", "r2", "r3"):
        assert f"reader {rid} answers" in out
    assert "taps on r0, r1, r2, r3 were simulated" in out
    assert "read tags on r0, r1, r2, r3" in out
    assert "no tag was read" not in out


def test_layout_names_its_game_so_game_is_not_needed(
    doctor_cli: Callable[..., tuple[int, str]], tmp_path: Path
) -> None:
    path = tmp_path / "my-mat.yaml"
    path.write_text("game: angels-and-demons\nseats: 2\nreaders:\n  r0: talon\n  r1: meld:0\n")
    code, out = doctor_cli("--readers", "sim", "--layout", str(path), "--seconds", "0")
    assert code == 0, out
    assert "reader r0 answers" in out and "reader r1 answers" in out
    no_game = tmp_path / "no-game.yaml"
    no_game.write_text("seats: 2\nreaders:\n  r0: talon\n")
    code, out = doctor_cli("--readers", "sim", "--layout", str(no_game), "--seconds", "0")
    assert code == 2 and "names no game" in out and "--game" in out
