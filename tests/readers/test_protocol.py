"""The bridge frame codec: round trips, robustness against any input, and error accounting."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import protocol as p

u8 = st.integers(0, 0xFF)
u16 = st.integers(0, 0xFFFF)
u32 = st.integers(0, 0xFFFFFFFF)
uids = st.one_of(*(st.binary(min_size=n, max_size=n) for n in p.UID_LENGTHS))

messages = st.one_of(
    st.builds(p.Hello, st.tuples(u8, u8, u8), u8, u8),
    st.builds(p.TagPresent, u8, uids),
    st.builds(p.TagGone, u8, uids),
    st.builds(p.Heartbeat, u32, u32, u16, u16),
    st.builds(p.ReaderHealthReport, u8, st.sampled_from([0, 1]), u32, u32, u32),
    st.just(p.Command.sync()),
    st.builds(p.Command.led, u8, u8, u8, u8),
    st.builds(p.Command.buzzer, u16, u16),
    st.builds(p.Command.reader_settings, u8, st.booleans(), st.integers(0, 7)),
    st.builds(p.Command.timing, u16, u8, u16),
    st.builds(p.Ack, u8),
    st.builds(p.Error, u8, u8, st.text(alphabet="abcXYZ 0123~}", max_size=40)),
)


def chunked(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts})
    out, last = [], 0
    for c in points + [len(data)]:
        out.append(data[last:c])
        last = c
    return out


def feed_all(dec: p.Decoder, chunks: list[bytes]) -> list[p.Frame]:
    frames: list[p.Frame] = []
    for chunk in chunks:
        frames.extend(dec.feed(chunk))
    return frames


def test_crc_check_value() -> None:
    assert p.crc16(b"123456789") == 0x29B1


@pytest.mark.parametrize(
    ("seq", "message", "wire"),
    [
        (
            5,
            p.TagPresent(0, bytes.fromhex("04A1B2C3D4E5F6")),
            "7E 08 05 02 00 04 A1 B2 C3 D4 E5 F6 8C D7 7E",
        ),
        (0, p.Hello((1, 2, 3), 4), "7E 05 00 01 01 01 02 03 04 9B 72 7E"),
        (
            6,
            p.Heartbeat(1000, 50, 0, 0),
            "7E 0C 06 04 00 00 03 E8 00 00 00 32 00 00 00 00 6B 34 7E",
        ),
        (
            126,
            p.TagGone(1, bytes.fromhex("7E7D0102")),
            "7E 05 7D 5E 03 01 7D 5E 7D 5D 01 02 C2 DD 7E",
        ),
        (9, p.Command.led(0, 255, 0, 0), "7E 05 09 10 01 00 FF 00 00 2D FA 7E"),
    ],
)
def test_golden_examples_from_protocol_md(seq: int, message: p.Message, wire: str) -> None:
    raw = bytes.fromhex(wire)
    assert p.encode(seq, message) == raw
    (frame,) = p.Decoder().feed(raw)
    assert (frame.seq, frame.message) == (seq, message)


@given(st.lists(messages, min_size=1, max_size=8), u8, st.lists(st.integers(0, 10_000)))
def test_round_trip_any_messages_any_chunking(
    msgs: list[p.Message], start: int, cuts: list[int]
) -> None:
    seq = p.Sequencer(start)
    wire = b"".join(seq.encode(m) for m in msgs)
    dec = p.Decoder()
    frames = feed_all(dec, chunked(wire, cuts))
    assert [f.message for f in frames] == msgs
    assert [f.seq for f in frames] == [(start + i) & 0xFF for i in range(len(msgs))]
    counters = dec.counters()
    assert counters["frames"] == len(msgs)
    assert all(
        counters[k] == 0
        for k in ("garbage_bytes", "crc_errors", "truncated", "malformed", "seq_gaps", "lost")
    )


@settings(max_examples=300)
@given(st.binary(max_size=600), st.lists(st.integers(0, 1000), max_size=20))
def test_any_bytes_never_raise_and_only_real_frames_come_out(data: bytes, cuts: list[int]) -> None:
    dec = p.Decoder()
    frames = feed_all(dec, chunked(data, cuts))
    dec.flush()
    for f in frames:
        # a frame only comes out if its exact, CRC-valid encoding was in the input
        assert p.encode_raw(f.seq, f.type, f.payload)[1:-1] in data


@given(
    st.lists(messages, min_size=1, max_size=5),
    st.lists(st.binary(max_size=40), max_size=6),
    st.lists(st.integers(0, 10_000)),
)
def test_garbage_between_frames_is_skipped(
    msgs: list[p.Message], junk: list[bytes], cuts: list[int]
) -> None:
    seq = p.Sequencer()
    parts = []
    for i, m in enumerate(msgs):
        parts.append(junk[i] if i < len(junk) else b"")
        parts.append(seq.encode(m))
    dec = p.Decoder()
    frames = feed_all(dec, chunked(b"".join(parts), cuts))
    got = [f.message for f in frames]
    # garbage may by chance hold a valid frame; every real frame still comes out, in order
    it = iter(got)
    assert all(any(g == m for g in it) for m in msgs)


@given(
    st.lists(messages, min_size=1, max_size=5),
    st.lists(
        st.binary(min_size=1, max_size=40).filter(
            lambda b: (
                p.FLAG not in b
                and p.ESC not in b
                and (len(b) < 3 or b[2] not in p.MESSAGE_CLASSES)
                and len(b) != b[0] + p.MIN_BODY
            )
        ),
        min_size=1,
        max_size=5,
    ),
)
def test_garbage_bytes_are_counted_exactly(msgs: list[p.Message], junk: list[bytes]) -> None:
    # junk that looks like the header of a known frame type is counted as a truncated frame, and
    # junk exactly as long as its first byte promises is judged by its CRC (a crc_error)
    seq = p.Sequencer()
    wire = b"".join(j + seq.encode(m) for j, m in zip(junk, msgs, strict=False))
    used = sum(len(j) for j in junk[: len(msgs)])
    dec = p.Decoder()
    frames = dec.feed(wire)
    assert len(frames) == min(len(msgs), len(junk))
    assert dec.garbage_bytes == used


@given(messages, messages, st.data())
def test_truncated_frame_is_counted_and_the_next_frame_survives(
    a: p.Message, b: p.Message, data: st.DataObject
) -> None:
    seq = p.Sequencer()
    first, second = seq.encode(a), seq.encode(b)
    cut = data.draw(st.integers(2, len(first) - 2))
    dec = p.Decoder()
    frames = dec.feed(first[:cut] + second)
    assert [f.message for f in frames] == [b]
    c = dec.counters()
    assert c["truncated"] + c["crc_errors"] + (c["garbage_bytes"] > 0) >= 1


def test_truncated_frame_with_header_counts_as_truncated() -> None:
    wire = p.encode(1, p.TagPresent(0, bytes(7)))
    dec = p.Decoder()
    assert dec.feed(wire[:7]) == []
    assert dec.truncated == 0  # still waiting for the rest
    assert len(dec.feed(p.encode(2, p.Heartbeat(1)))) == 1
    assert dec.truncated == 1
    dec.feed(wire[:9])
    dec.flush()  # the stream ended inside a frame
    assert dec.truncated == 2


@given(messages, messages, st.data())
def test_any_single_bit_flip_is_detected(a: p.Message, b: p.Message, data: st.DataObject) -> None:
    seq = p.Sequencer()
    first, second = bytearray(seq.encode(a)), seq.encode(b)
    bit = data.draw(st.integers(0, len(first) * 8 - 1))
    first[bit // 8] ^= 1 << (bit % 8)
    dec = p.Decoder()
    frames = dec.feed(bytes(first) + second)
    assert [f.message for f in frames] == [b]
    c = dec.counters()
    assert c["crc_errors"] + c["truncated"] + c["garbage_bytes"] + c["malformed"] >= 1


def test_crc_failure_is_counted_and_seen_as_a_lost_frame() -> None:
    seq = p.Sequencer()
    good1, bad, good2 = (bytearray(seq.encode(p.Heartbeat(i))) for i in range(3))
    bad[5] ^= 0x10  # a payload byte
    dec = p.Decoder()
    frames = dec.feed(bytes(good1 + bad + good2))
    assert [f.seq for f in frames] == [0, 2]
    assert dec.crc_errors == 1
    assert (dec.seq_gaps, dec.lost) == (1, 1)


@given(st.lists(st.integers(1, 100), min_size=1, max_size=10))
def test_sequence_gaps_are_counted_not_guessed(gaps: list[int]) -> None:
    dec = p.Decoder()
    seq = 250
    wire = p.encode(seq, p.Heartbeat(0))
    for gap in gaps:
        seq = (seq + 1 + gap) & 0xFF
        wire += p.encode(seq, p.Heartbeat(0))
    frames = dec.feed(wire)
    assert len(frames) == len(gaps) + 1
    assert dec.seq_gaps == len(gaps)
    assert dec.lost == sum(gaps)


def test_hello_restarts_sequence_tracking() -> None:
    dec = p.Decoder()
    wire = p.encode(40, p.Heartbeat(0)) + p.encode(0, p.Hello((1, 0, 0), 2))
    wire += p.encode(1, p.Heartbeat(0))
    assert len(dec.feed(wire)) == 3
    assert dec.lost == 0


def test_unknown_type_and_malformed_payload_are_counted() -> None:
    dec = p.Decoder()
    wire = p.encode_raw(0, 0x7F, b"future") + p.encode_raw(1, p.TAG_PRESENT, b"\x00\x01\x02")
    frames = dec.feed(wire)
    assert [(f.type, f.message) for f in frames] == [(0x7F, None)]
    assert (dec.unknown_types, dec.malformed) == (1, 1)


def test_overlong_segment_is_garbage() -> None:
    dec = p.Decoder()
    frames = dec.feed(b"\x7e" + b"\x01" * 1000 + p.encode(0, p.Ack(3)))
    assert [f.message for f in frames] == [p.Ack(3)]
    assert dec.garbage_bytes == 1000


def test_bad_values_raise_protocol_error() -> None:
    with pytest.raises(p.ProtocolError):
        p.TagPresent(0, bytes(5))
    with pytest.raises(p.ProtocolError):
        p.Heartbeat(-1)
    with pytest.raises(p.ProtocolError):
        p.Command.led(0, 256, 0, 0)
    with pytest.raises(p.ProtocolError):
        p.Command(p.CMD_BUZZER, b"\x00")
    with pytest.raises(p.ProtocolError):
        p.encode_raw(0, 1, bytes(256))
    assert p.Command.timing(5, 2, 300).values() == (5, 2, 300)
