"""Replay the committed fuzz corpus (``fuzz/corpus/<target>/``) through the fuzz targets.

Every file is an input atheris once found interesting (or a hand-made seed); each goes through
the same target body as ``make fuzz`` (``fuzz/targets.py``), in plain pytest, without atheris.
So an input that once reached a corner of the frame decoder, the serial backend or the bridge's
command handling keeps being checked against the same contract in ``make test``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_bridge import protocol as p
from fuzz import targets

CORPUS = Path(__file__).resolve().parents[2] / "fuzz" / "corpus"
# Far above what any input takes (milliseconds), far below a hang.
PER_INPUT_SECONDS = 2.0


def _inputs(target: str) -> list[Path]:
    return sorted((CORPUS / target).iterdir())


@pytest.fixture(autouse=True)
def _quiet() -> Iterator[None]:
    # the serial backend logs every line error; thousands of lines would only slow the replay
    logging.disable(logging.CRITICAL)
    yield
    logging.disable(logging.NOTSET)


@pytest.mark.parametrize("target", sorted(targets.TARGETS))
def test_corpus_replays(target: str) -> None:
    files = _inputs(target)
    # a corpus of seeds alone would mean make fuzz never added what it found
    assert len(files) > 20, f"fuzz/corpus/{target} holds only {len(files)} inputs"
    for path in files:
        data = path.read_bytes()
        assert len(data) <= targets.MAX_LEN + 1, path.name
        started = time.monotonic()
        try:
            targets.TARGETS[target](data)
        except Exception as exc:  # the file name says which input to debug
            raise AssertionError(f"fuzz/corpus/{target}/{path.name}: {exc!r}") from exc
        assert time.monotonic() - started < PER_INPUT_SECONDS, path.name


def test_corpus_is_small() -> None:
    files = [f for t in targets.TARGETS for f in _inputs(t)]
    assert len(files) < 1000
    assert sum(f.stat().st_size for f in files) < 1_000_000


# The harness itself must catch what it is there to catch: each check below breaks one
# contract on purpose and expects the target to fail.


def test_codec_target_catches_a_decoder_that_drops_a_frame(monkeypatch: pytest.MonkeyPatch) -> None:
    stream = b"\x07" + p.Sequencer().encode(p.TagPresent(0, bytes.fromhex("DEADBEEF")))
    targets.fuzz_codec(stream)
    real = p.Decoder._finish

    def drop_tags(self: p.Decoder, body: bytes, wire: int) -> p.Frame | None:
        frame = real(self, body, wire)
        return None if frame is not None and frame.type == p.TAG_PRESENT else frame

    monkeypatch.setattr(p.Decoder, "_finish", drop_tags)
    with pytest.raises(AssertionError):
        targets.fuzz_codec(stream)


def test_serial_target_catches_an_invented_sighting(monkeypatch: pytest.MonkeyPatch) -> None:
    from scorekeeper.core.inputs import Sighting
    from scorekeeper.readers.serial import SerialBackend

    stream = b"\x07" + p.Sequencer().encode(p.Heartbeat(1)) + b"garbage\x7e"
    targets.fuzz_serial(stream)
    real = SerialBackend._handle_bytes

    def invent(self: SerialBackend, data: bytes, now: float) -> None:
        real(self, data, now)
        self._outbox.put([Sighting("r0", "DEADBEEF", True)])
        self._outbox.drain()

    monkeypatch.setattr(SerialBackend, "_handle_bytes", invent)
    with pytest.raises(AssertionError, match="invented"):
        targets.fuzz_serial(stream)


def test_firmware_target_catches_an_unanswered_command(monkeypatch: pytest.MonkeyPatch) -> None:
    from firmware_bridge.bridge import Bridge

    stream = b"\x07" + p.Sequencer(5).encode(p.Command.buzzer(440, 100))
    targets.fuzz_firmware(stream)
    real = Bridge.send

    def forget_acks(self: Bridge, message: p.Message) -> None:
        if not isinstance(message, p.Ack):
            real(self, message)

    monkeypatch.setattr(Bridge, "send", forget_acks)
    with pytest.raises(AssertionError):
        targets.fuzz_firmware(stream)


def test_repair_makes_every_long_enough_segment_a_frame() -> None:
    stream = targets.repair(b"\x7e\x00\x01\x10\x00\xff\xff\x7e\x01\x7e")
    assert targets.reference_frames(stream) == [(1, p.COMMAND, b"\x00")]


def test_firmware_target_catches_a_bad_setting_accepted(monkeypatch: pytest.MonkeyPatch) -> None:
    from firmware_bridge.bridge import Bridge

    stream = b"\x07" + p.Sequencer().encode(p.Command.timing(1, 0, 65000))  # all out of range
    targets.fuzz_firmware(stream)
    monkeypatch.setattr(Bridge, "_command", lambda self, code, args: "")
    with pytest.raises(AssertionError):
        targets.fuzz_firmware(stream)
