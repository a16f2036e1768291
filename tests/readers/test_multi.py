"""Several backends as one table's readers: ids are prefixed with the part, health is merged."""

from __future__ import annotations

import os
import time
import tty

import pytest

from scorekeeper.core.inputs import Sighting
from scorekeeper.errors import ConfigError
from scorekeeper.readers import open_readers
from scorekeeper.readers.fake_bridge import FakeBridge
from scorekeeper.readers.multi import MultiBackend
from scorekeeper.readers.sim import SimBackend


def test_two_sim_parts_report_prefixed_reader_ids() -> None:
    backend = open_readers("sim:a,b+sim:a")
    assert isinstance(backend, MultiBackend)
    assert backend.reader_ids == ("0/a", "0/b", "1/a")
    seen: list[Sighting] = []
    backend.start(seen.append)
    try:
        first, second = backend.parts
        assert isinstance(first, SimBackend) and isinstance(second, SimBackend)
        first.put("b", "04A1B2C3")
        second.put("a", "04A1B2C4")
        second.take("a", "04A1B2C4")
    finally:
        backend.stop()
    assert seen == [
        Sighting("0/b", "04A1B2C3", True),
        Sighting("1/a", "04A1B2C4", True),
        Sighting("1/a", "04A1B2C4", False),
    ]
    assert set(backend.health()) == {"0/a", "0/b", "1/a"}
    assert backend.health()["1/a"].reader == "1/a"


def test_options_for_a_joined_spec_are_refused() -> None:
    with pytest.raises(ConfigError, match="each one's"):
        open_readers("sim+sim", reader_ids=["x"])


def test_two_bridges_on_two_serial_lines_feed_one_table() -> None:
    lines = []
    for _ in range(2):
        master, slave = os.openpty()
        tty.setraw(slave)
        lines.append((FakeBridge(master, reader_count=8).start(), os.ttyname(slave), slave))
    backend = open_readers("+".join(f"serial:{path}?heartbeat_timeout=2" for _, path, _ in lines))
    seen: list[Sighting] = []
    backend.start(seen.append)
    try:
        for bridge, _, _ in lines:
            assert bridge.synced.wait(5), "the backend never sent SYNC to a bridge"
        lines[0][0].put(7, bytes.fromhex("04A1B2C3D4E5F6"))
        lines[1][0].put(2, bytes.fromhex("04A1B2C3D4E5F7"))
        deadline = time.monotonic() + 5
        while len(seen) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert sorted(seen, key=lambda s: s.reader) == [
            Sighting("0/r7", "04A1B2C3D4E5F6", True),
            Sighting("1/r2", "04A1B2C3D4E5F7", True),
        ]
        assert len(backend.reader_ids) == 16
    finally:
        backend.stop()
        for bridge, _, slave in lines:
            bridge.stop()
            os.close(slave)
