"""What the fuzzers found, each pinned by a plain test beside the corpus that found it."""

from __future__ import annotations

from firmware_bridge import protocol as p
from scorekeeper.core.inputs import Sighting
from scorekeeper.readers.serial import SerialBackend

UID = bytes.fromhex("DEADBEEF")


def test_configured_readers_are_frozen_until_the_bridge_is_online() -> None:
    """``fuzz/corpus/serial/96bb632c...``: with reader ids given in the spec, a TAG_PRESENT that
    arrived before the bridge's first HEARTBEAT became a Sighting at once, while the readers'
    health still said offline; readers the backend adds itself waited for the HEARTBEAT. Now
    both wait: the tag is reported when the link is up, and not before."""
    now = 1000.0
    backend = SerialBackend("/dev/null-test", reader_ids=("left", "right"), clock=lambda: now)
    got: list[Sighting] = []
    backend._outbox.emit = got.append  # what start() sets, without the reader thread
    seq = p.Sequencer()

    backend._handle_bytes(seq.encode(p.TagPresent(1, UID)), now)
    assert got == []
    assert not backend.health()["right"].online

    backend._handle_bytes(seq.encode(p.Heartbeat(5)), now)
    with backend._lock:  # the reader thread's tick after every read
        backend._outbox.put(backend.filter.tick(now))
    backend._outbox.drain()
    assert got == [Sighting("right", "DEADBEEF", True)]
    assert backend.health()["right"].online
