"""The fuzz targets: one function per target, taking one input and asserting the contract.

Shared by the atheris runner (``python -m fuzz``) and the corpus replay in
``tests/fuzz/test_corpus.py``; nothing here imports atheris. A broken contract is an
``AssertionError``; any other exception escaping a target is a crash too (the code under test
documents that it never raises on input bytes).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from firmware_bridge import protocol as p

# The largest input worth trying; longer ones only cost time (``-max_len`` of the runner).
MAX_LEN = 2048

# --- input shaping -------------------------------------------------------------------------------


def split_control(data: bytes) -> tuple[int, bool, bytes]:
    """The chunk size (1..64), whether to repair LEN and CRC, and the byte stream of an input."""
    if not data:
        return 1, False, b""
    control = data[0]
    return (control & 0x3F) + 1, bool(control & 0x80), data[1:]


def chunks(stream: bytes, size: int) -> list[bytes]:
    """``stream`` cut into pieces of ``size`` bytes, as a serial read might hand it out."""
    return [stream[i : i + size] for i in range(0, len(stream), size)]


def unstuff(segment: bytes) -> tuple[bytes, bool]:
    """The body of one flag-free segment and whether it ended in an escape (an abort)."""
    out = bytearray()
    esc = False
    for b in segment:
        if esc:
            out.append(b ^ p.ESC_XOR)
            esc = False
        elif b == p.ESC:
            esc = True
        else:
            out.append(b)
    return bytes(out), esc


def stuff(body: bytes) -> bytes:
    """``body`` with ``7E`` and ``7D`` escaped, as ``encode_raw`` sends it."""
    out = bytearray()
    for b in body:
        if b in (p.FLAG, p.ESC):
            out += bytes((p.ESC, b ^ p.ESC_XOR))
        else:
            out.append(b)
    return bytes(out)


def repair(stream: bytes) -> bytes:
    """Every segment of ``stream`` with its LEN and CRC made right (where it has room for them),
    so that mutations reach the message parsers instead of dying at the CRC check."""
    out = []
    for segment in stream.split(bytes((p.FLAG,))):
        body, _ = unstuff(segment)
        if p.MIN_BODY <= len(body) <= p.MAX_BODY:
            fixed = bytes((len(body) - p.MIN_BODY,)) + body[1 : -p.CRC_LEN]
            crc = p.crc16(fixed)
            segment = stuff(fixed + bytes((crc >> 8, crc & 0xFF)))
        out.append(segment)
    return bytes((p.FLAG,)).join(out)


def segments(stream: bytes) -> list[bytes]:
    """The flag-terminated segments of ``stream`` (the unterminated tail is not one)."""
    return stream.split(bytes((p.FLAG,)))[:-1]


def reference_frames(stream: bytes) -> list[tuple[int, int, bytes]]:
    """(seq, type, payload) of every segment that is a whole frame with a good CRC, whatever its
    type and payload: a second, deliberately simple reading of PROTOCOL.md."""
    out = []
    for segment in segments(stream):
        body, aborted = unstuff(segment)
        if aborted or len(body) < p.MIN_BODY or len(body) != body[0] + p.MIN_BODY:
            continue
        if p.crc16(body[: -p.CRC_LEN]) != (body[-2] << 8) | body[-1]:
            continue
        out.append((body[1], body[2], body[p.HEADER_LEN : -p.CRC_LEN]))
    return out


def fits(msg_type: int, payload: bytes) -> bool:
    """Whether a payload of a known type parses (a frame that does not is ``malformed``)."""
    try:
        p.parse_message(msg_type, payload)
    except p.ProtocolError:
        return False
    return True


# --- 1. the host frame codec ---------------------------------------------------------------------

BAD_COUNTERS = ("crc_errors", "truncated", "malformed")


def fuzz_codec(data: bytes) -> None:
    """``protocol.Decoder``: the frames, their re-encoding, the counting and chunk independence."""
    size, fix, stream = split_control(data)
    if fix:
        stream = repair(stream)

    chunked = p.Decoder()
    frames = []
    for piece in chunks(stream, size):
        frames.extend(chunked.feed(piece))

    # Exactly the good frames of known-fitting or unknown type, in order.
    expected = [
        (s, t, pl)
        for s, t, pl in reference_frames(stream)
        if t not in p.MESSAGE_CLASSES or fits(t, pl)
    ]
    got = [(f.seq, f.type, f.payload) for f in frames]
    assert got == expected, (got, expected)

    for f in frames:
        wire = p.encode_raw(f.seq, f.type, f.payload)
        assert unstuff(wire[1:-1])[0] in [unstuff(s)[0] for s in segments(stream)]
        if f.type in p.MESSAGE_CLASSES:
            msg = f.message
            assert msg is not None and f.type == msg.TYPE
            assert p.encode(f.seq, msg) == wire  # the parsed message says exactly those bytes
        else:
            assert f.message is None

    # One segment at a time: each non-empty segment is a frame or counted exactly once.
    single = p.Decoder()
    for segment in segments(stream):
        before = single.counters()
        single.feed(segment + bytes((p.FLAG,)))
        after = single.counters()
        moved = [k for k in ("frames", "garbage_bytes", *BAD_COUNTERS) if after[k] != before[k]]
        if segment:
            assert len(moved) == 1, (segment.hex(), moved)
            assert after[moved[0]] == before[moved[0]] + 1 or moved[0] == "garbage_bytes"
        else:
            assert not moved, moved

    # The chunking changes nothing: same counters as one decoder fed segment by segment.
    tail = stream.split(bytes((p.FLAG,)))[-1]
    single.feed(tail)
    assert chunked.counters() == single.counters()
    # The end of the stream: a partial frame left over is counted, never returned.
    before = chunked.counters()
    chunked.flush()
    after = chunked.counters()
    lost = sum(after[k] - before[k] for k in ("garbage_bytes", *BAD_COUNTERS))
    assert (lost > 0) == bool(tail), (tail.hex(), before, after)
    assert chunked.feed(b"") == []


# --- 2. the serial backend's byte handling -------------------------------------------------------


class _Clock:
    """A clock the harness moves by hand (the backend's filter and heartbeat read it)."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def fuzz_serial(data: bytes) -> None:
    """``SerialBackend._handle_bytes``: no exception, the decoder's counters, and no Sighting
    that a TAG frame with a good CRC did not announce."""
    from scorekeeper.readers.serial import SerialBackend

    size, fix, stream = split_control(data)
    if fix:
        stream = repair(stream)
    # bit 6 of the control byte: two reader ids configured (frames for others are counted and
    # dropped) instead of ids that grow with the bridge's readers
    fixed = ("left", "right") if data and data[0] & 0x40 else None
    clock = _Clock()
    backend = SerialBackend("/dev/null-fuzz", clock=clock, reader_ids=fixed)
    sightings: list[Any] = []
    backend._outbox.emit = sightings.append  # what start() sets, without the reader thread
    for piece in chunks(stream, size):
        backend._handle_bytes(piece, clock())
        clock.t += 0.01

    reference = p.Decoder()
    reference.feed(stream)
    stats = backend.stats()
    for name in p.COUNTER_NAMES:
        assert stats[name] == reference.counters()[name], (name, stats, reference.counters())

    announced = set()
    unknown_reader = 0
    for _, msg_type, payload in reference_frames(stream):
        if msg_type not in (p.TAG_PRESENT, p.TAG_GONE, p.READER_HEALTH):
            continue
        if not fits(msg_type, payload):
            continue
        if fixed is not None and payload[0] >= len(fixed):
            unknown_reader += 1
            continue
        rid = fixed[payload[0]] if fixed is not None else f"r{payload[0]}"
        if msg_type != p.READER_HEALTH:
            announced.add((rid, payload[1:].hex().upper()))
    assert stats["unknown_reader"] == unknown_reader, (stats, unknown_reader)
    state: dict[tuple[str, str], bool] = {}
    for s in sightings:
        key = (s.reader, s.uid)
        assert key in announced, ("invented sighting", s, announced)
        # presence alternates: a tag arrives before it leaves, never twice in a row
        assert state.get(key, False) != s.present, ("repeated edge", s)
        state[key] = s.present
    # Nothing lost either: once the link is up, a last tick leaves every reader that is not
    # frozen holding exactly the tags the bridge last said it holds (after a HELLO, the
    # inventory up to the next HEARTBEAT replaces what the host held).
    if backend.online:
        clock.t += 1.0
        with backend._lock:
            backend._outbox.put(backend.filter.tick(clock()))
        backend._outbox.drain()
    else:
        assert not sightings, ("a sighting before the bridge was online", sightings)
    held = {key for key, present in _net(sightings).items() if present}
    said = _bridge_says(reference_frames(stream), fixed)
    for rid in backend.reader_ids:
        if backend.online and not backend.filter.is_suspended(rid):
            mine = {k for k in held if k[0] == rid}
            theirs = {k for k in said if k[0] == rid}
            assert mine == theirs, ("lost or extra tags", rid, mine, theirs)
    health = backend.health()
    assert set(health) == set(backend.reader_ids)
    if fixed is not None:
        assert backend.reader_ids == fixed


def _net(sightings: list[Any]) -> dict[tuple[str, str], bool]:
    """The last edge of every (reader, uid) in a list of Sightings."""
    return {(s.reader, s.uid): s.present for s in sightings}


def _bridge_says(
    frames: list[tuple[int, int, bytes]], fixed: tuple[str, ...] | None
) -> set[tuple[str, str]]:
    """The (reader id, uid) pairs a bridge's good frames leave present, read from PROTOCOL.md:
    TAG_PRESENT adds, TAG_GONE removes, and HELLO opens an inventory that the next HEARTBEAT
    closes, dropping every tag it did not list."""
    present: set[tuple[str, str]] = set()
    listed: set[tuple[str, str]] | None = None
    for _, msg_type, payload in frames:
        if msg_type in p.MESSAGE_CLASSES and not fits(msg_type, payload):
            continue
        if msg_type == p.HELLO:
            listed = set()
        elif msg_type == p.HEARTBEAT and listed is not None:
            present &= listed
            listed = None
        elif msg_type in (p.TAG_PRESENT, p.TAG_GONE):
            if fixed is not None and payload[0] >= len(fixed):
                continue
            key = (
                fixed[payload[0]] if fixed is not None else f"r{payload[0]}",
                payload[1:].hex().upper(),
            )
            if msg_type == p.TAG_PRESENT:
                present.add(key)
                if listed is not None:
                    listed.add(key)
            else:
                present.discard(key)
    return present


# --- 3. the firmware's decoding of host commands -------------------------------------------------


def fuzz_firmware(data: bytes) -> None:
    """``Bridge.service_host``/``handle_frame`` on CPython: no exception out of a step, only
    well-formed frames out, one answer per command (and per refused frame), in order."""
    from tests.firmware.rig import Rig

    _, fix, stream = split_control(data)
    if fix:
        stream = repair(stream)
    rig = Rig(n=2)
    rig.host.take()  # the boot's HELLO, inventory and heartbeat
    rig.host.frames.clear()
    rig.host.send_raw(stream)
    bridge = rig.bridge
    # Each step reads at most 2 x 8 x 32 bytes; a few more steps let timers and answers settle.
    for _ in range(len(stream) // 32 + 4):
        bridge.step()
        if bridge.exit_requested:
            break

    host = rig.host.decoder
    for name in ("garbage_bytes", "crc_errors", "truncated", "malformed", "unknown_types"):
        assert getattr(host, name) == 0, ("the bridge sent a bad frame", host.counters())
    assert bridge.faults == 0

    expected: list[tuple[Any, ...]] = []
    commands: list[p.Command | None] = []  # the command behind each expected answer
    for seq, msg_type, payload in reference_frames(stream):
        if msg_type in p.MESSAGE_CLASSES and not fits(msg_type, payload):
            expected.append(("error", seq, p.ERR_BAD_FRAME))
            commands.append(None)
        elif msg_type == p.COMMAND:
            cmd = p.Command.from_payload(payload)
            commands.append(cmd)
            if cmd.code == p.CMD_SYNC:
                expected.append(("hello",))
            elif cmd.code not in p.COMMAND_ARGS:
                expected.append(("error", seq, p.ERR_UNKNOWN_COMMAND))
            elif _acceptable(cmd, rig):
                expected.append(("ack", seq))
            else:
                expected.append(("error", seq, p.ERR_BAD_ARGS))
    answers: list[tuple[Any, ...]] = []
    for frame in rig.host.frames:
        msg = frame.message
        if isinstance(msg, p.Hello):
            answers.append(("hello",))
        elif isinstance(msg, p.Ack):
            answers.append(("ack", msg.seq))
        elif isinstance(msg, p.Error):
            answers.append(("error", msg.seq, msg.code))
    if bridge.exit_requested:
        # the console escape ends the loop: what came before it was answered, nothing more
        assert answers == expected[: len(answers)], (answers, expected)
    else:
        assert answers == expected, (answers, expected)
        assert not rig.host.inbox, "host bytes left unread"

    # An accepted setting is applied, a refused one changes nothing.
    timing: tuple[int, ...] = (
        rig.bridge.config.settle_ms,
        rig.bridge.config.present_polls,
        rig.bridge.config.absent_ms,
    )
    readers = {rd.index: (rd.enabled, rd.gain) for rd in bridge.readers}
    for answer, sent in zip(answers, commands, strict=False):
        if answer[0] != "ack" or sent is None:
            continue
        if sent.code == p.CMD_TIMING:
            timing = sent.values()
        elif sent.code == p.CMD_READER:
            index, enabled, gain = sent.values()
            readers[index] = (bool(enabled), gain)
    assert (bridge.settle_ms, bridge.present_polls, bridge.absent_ms) == timing
    assert {rd.index: (rd.enabled, rd.gain) for rd in bridge.readers} == readers
    d = bridge.decoder
    assert bridge.rx_errors() == d.crc_errors + d.truncated + d.malformed + bridge.garbage_events


def _acceptable(cmd: p.Command, rig: Any) -> bool:
    """Whether a command's arguments are in the ranges PROTOCOL.md and docs/firmware.md give,
    for the rig's bridge (two readers, one LED, a buzzer)."""
    from firmware_bridge.config import MIN_SETTLE_MS

    values = cmd.values()
    if cmd.code == p.CMD_LED:
        return values[0] < len(rig.bridge.leds)
    if cmd.code == p.CMD_BUZZER:
        hz, ms = values
        return hz == 0 or ms == 0 or 20 <= hz <= 20000
    if cmd.code == p.CMD_READER:
        index, enabled, gain = values
        return index < len(rig.bridge.readers) and enabled <= 1 and gain <= 7
    if cmd.code == p.CMD_TIMING:
        settle, present, absent = values
        return MIN_SETTLE_MS <= settle <= 1000 and 1 <= present <= 20 and absent <= 60000
    return True


TARGETS: dict[str, Callable[[bytes], None]] = {
    "codec": fuzz_codec,
    "serial": fuzz_serial,
    "firmware": fuzz_firmware,
}
