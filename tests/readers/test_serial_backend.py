"""The serial backend over a real pseudo-terminal, with a scripted bridge on the master side.

The backend opens a symlink that the test re-points, as udev does with /dev/serial/by-id, so a
bridge can vanish (pty closed) and come back under the same path (a new pty).
"""

from __future__ import annotations

import os
import threading
import time
import tty
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from firmware_bridge import protocol as p
from scorekeeper.core.inputs import Sighting
from scorekeeper.errors import ReaderError
from scorekeeper.readers.base import open_readers
from scorekeeper.readers.fake_bridge import FakeBridge
from scorekeeper.readers.serial import SerialBackend

UID7 = bytes.fromhex("04A1B2C3D4E5F6")
UID4 = bytes.fromhex("DEADBEEF")


def wait_for(cond: Callable[[], bool], timeout: float = 5.0) -> bool:
    """Poll ``cond`` until true or a generous deadline passes (not a speed requirement)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.005)
    return cond()


class PtyLink:
    """A pty pair whose slave is reachable through a stable symlink, like a udev name."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.master = -1
        self.slave = -1
        self.bridge: FakeBridge | None = None

    def plug(self, **bridge_options: object) -> FakeBridge:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        tmp = self.path.with_suffix(".new")
        os.symlink(os.ttyname(self.slave), tmp)
        os.replace(tmp, self.path)
        options: dict = {"heartbeat_interval": 0.05, **bridge_options}
        self.bridge = FakeBridge(self.master, **options)
        return self.bridge

    def unplug(self) -> None:
        if self.bridge is not None:
            self.bridge.stop()
            self.bridge = None
        for fd in (self.master, self.slave):
            if fd >= 0:
                os.close(fd)
        self.master = self.slave = -1
        if self.path.is_symlink():
            self.path.unlink()


class Recorder:
    def __init__(self) -> None:
        self.items: list[Sighting] = []
        self.lock = threading.Lock()

    def __call__(self, s: Sighting) -> None:
        with self.lock:
            self.items.append(s)

    def snapshot(self) -> list[Sighting]:
        with self.lock:
            return list(self.items)

    def wait(self, s: Sighting, timeout: float = 5.0) -> bool:
        return wait_for(lambda: s in self.snapshot(), timeout)


@pytest.fixture
def link(tmp_path: Path) -> Iterator[PtyLink]:
    lk = PtyLink(tmp_path / "bridge")
    yield lk
    lk.unplug()


def make_backend(link: PtyLink, **options: object) -> SerialBackend:
    # heartbeat_timeout is generous so a loaded machine never trips it by accident; only the
    # test that wants the timeout to fire passes a short one
    defaults: dict = {
        "reader_ids": ["play", "loc4"],
        "heartbeat_timeout": 2.0,
        "read_timeout": 0.02,
        "reconnect_min": 0.02,
        "reconnect_max": 0.1,
    }
    defaults.update(options)
    return SerialBackend(str(link.path), **defaults)


def test_sightings_arrive_and_health_follows(link: PtyLink) -> None:
    bridge = link.plug(reader_count=2).start()
    got = Recorder()
    backend = make_backend(link)
    backend.start(got)
    try:
        assert bridge.synced.wait(3)
        assert wait_for(lambda: backend.online)
        bridge.put(0, UID7)
        bridge.put(1, UID4)
        bridge.take(0, UID7)
        assert got.wait(Sighting("play", "04A1B2C3D4E5F6", False))
        assert got.wait(Sighting("loc4", "DEADBEEF", True))
        assert got.snapshot()[0] == Sighting("play", "04A1B2C3D4E5F6", True)
        assert wait_for(lambda: backend.health()["play"].reads == 1)
        health = backend.health()
        assert health["play"].online and health["loc4"].online
        assert health["play"].last_sighting is not None
        stats = backend.stats()
        assert stats["firmware"] == "0.1.0" and stats["garbage_bytes"] == 0
    finally:
        backend.stop()


def test_reader_ids_come_from_hello_when_not_given(link: PtyLink) -> None:
    bridge = link.plug(reader_count=3).start()
    got = Recorder()
    backend = make_backend(link, reader_ids=None)
    backend.start(got)
    try:
        assert wait_for(lambda: backend.reader_ids == ("r0", "r1", "r2"))
        bridge.put(2, UID4)
        assert got.wait(Sighting("r2", "DEADBEEF", True))
    finally:
        backend.stop()


def test_line_errors_are_counted_and_the_backend_keeps_running(link: PtyLink) -> None:
    bridge = link.plug().start()
    got = Recorder()
    backend = make_backend(link)
    backend.start(got)
    try:
        assert bridge.synced.wait(3)
        bridge.send_raw(b"\x00\x13line noise\xff")  # garbage between frames
        cut = p.encode(200, p.TagPresent(0, UID4))
        bridge.send_raw(cut[:8])  # a truncated frame...
        bad = bytearray(p.encode(201, p.TagPresent(0, UID4)))
        bad[6] ^= 0x01  # ...and a corrupted one
        bridge.send_raw(bytes(bad))
        bridge.skip_seq(3)  # three frames lost on the way
        bridge.put(1, UID7)
        assert got.wait(Sighting("loc4", "04A1B2C3D4E5F6", True))
        stats = backend.stats()
        assert stats["garbage_bytes"] >= 13
        assert stats["truncated"] >= 1
        assert stats["crc_errors"] == 1
        assert stats["lost"] >= 3 and stats["seq_gaps"] >= 1
        assert all(s.uid != "DEADBEEF" for s in got.snapshot())  # nothing guessed
        assert backend.online
    finally:
        backend.stop()


def test_heartbeat_timeout_marks_offline_without_removals(link: PtyLink) -> None:
    bridge = link.plug().start()
    got = Recorder()
    backend = make_backend(link, heartbeat_timeout=0.25)
    backend.start(got)
    try:
        assert wait_for(lambda: backend.online)
        bridge.put(0, UID4)
        assert got.wait(Sighting("play", "DEADBEEF", True))
        bridge.heartbeats = False
        bridge.answer_sync = False
        assert wait_for(lambda: not backend.health()["play"].online)
        assert "heartbeat" in backend.health()["play"].detail
        assert backend.stats()["heartbeat_timeouts"] >= 1
        bridge.heartbeats = True
        bridge.answer_sync = True
        assert wait_for(lambda: backend.health()["play"].online)
        assert got.snapshot() == [Sighting("play", "DEADBEEF", True)]
    finally:
        backend.stop()


def test_device_vanishes_and_returns(link: PtyLink) -> None:
    bridge = link.plug().start()
    got = Recorder()
    backend = make_backend(link)
    backend.start(got)
    try:
        bridge.put(0, UID4)
        bridge.put(1, UID7)
        assert got.wait(Sighting("loc4", "04A1B2C3D4E5F6", True))
        link.unplug()  # the USB cable is pulled
        assert wait_for(lambda: not backend.online)
        assert not backend.health()["play"].online
        assert wait_for(lambda: backend.stats()["open_failures"] >= 1)  # reopening fails
        # it comes back; meanwhile the card on reader 1 was lifted, the tag on 0 stayed
        bridge = link.plug()
        bridge.tags[0].add(UID4)
        bridge.start()
        assert got.wait(Sighting("loc4", "04A1B2C3D4E5F6", False))
        assert wait_for(lambda: backend.online)
        bridge.put(1, UID4)
        assert got.wait(Sighting("loc4", "DEADBEEF", True))
        assert got.snapshot().count(Sighting("play", "DEADBEEF", True)) == 1
        assert backend.stats()["opens"] >= 2
    finally:
        backend.stop()


def test_commands_reach_the_bridge(link: PtyLink) -> None:
    bridge = link.plug().start()
    backend = make_backend(link)
    with pytest.raises(ReaderError):
        backend.send_command(p.Command.buzzer(440, 100))  # not started yet
    backend.start(Recorder())
    try:
        assert wait_for(lambda: backend.online)
        backend.send_command(p.Command.led(1, 0, 255, 0))
        backend.send_command(p.Command.timing(5, 2, 300))
        assert wait_for(lambda: len(bridge.commands) >= 3)
        assert bridge.commands[1:3] == [p.Command.led(1, 0, 255, 0), p.Command.timing(5, 2, 300)]
        assert wait_for(lambda: backend.stats()["acks"] == 2)
    finally:
        backend.stop()


def test_missing_port_keeps_retrying_and_says_why(tmp_path: Path) -> None:
    backend = open_readers(
        f"serial:{tmp_path / 'nothing'}", reader_ids=["a"], reconnect_min=0.01, reconnect_max=0.02
    )
    backend.start(Recorder())
    try:
        assert wait_for(lambda: backend.stats()["open_failures"] >= 2)
        health = backend.health()["a"]
        assert not health.online and "cannot open" in health.detail
    finally:
        backend.stop()
