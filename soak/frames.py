"""Fuzzed frames: seeded random mutations of valid bridge frames, through the host frame codec,
the serial backend's byte handling, and the serial backend over a real pseudo-terminal.

1. In process, each case is a short stream of valid frames (every message type the bridge
   sends, and unknown ones) with one to three mutations (a flipped bit, a byte changed,
   inserted, deleted or duplicated, a frame cut short, two pieces spliced). Each goes through
   the checks the atheris targets use (``fuzz.targets``): the codec's frames, re-encodings and
   counters agree with a second, simple reading of PROTOCOL.md, and the serial backend reports
   exactly the tags the good frames announced, nothing invented and nothing lost. A broken
   check counts as a frame lost; any other exception as a crash; a case running past
   ``HANG_S`` as a hang.
2. Over a real pty, a scripted bridge (``FakeBridge``) lays and lifts tags while mutated frames
   are pushed down the same line between its good ones; every tag edge the bridge sent must
   reach the host as a sighting, in order, and no other sighting may appear.
"""

from __future__ import annotations

import contextlib
import logging
import os
import random
import signal
import threading
import time
import tty
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from firmware_bridge import protocol as p
from soak.report import Row, count

NAME = "fuzzed frames"
BUDGET = "all 0"
HANG_S = 5.0
PTY_SHARE = 10  # one frame in PTY_SHARE goes over the pty (it is real time, the rest is not)


class Hang(Exception):
    """A case ran past HANG_S."""


def valid_frame(rng: random.Random, seq: int) -> bytes:
    """One well-formed frame of a random kind, as a bridge would send it."""
    uid = rng.randbytes(rng.choice((4, 7)))
    reader = rng.randrange(3)
    choice = rng.randrange(8)
    message: p.Message
    if choice < 3:
        message = p.TagPresent(reader, uid)
    elif choice == 3:
        message = p.TagGone(reader, uid)
    elif choice == 4:
        message = p.Heartbeat(rng.randrange(1 << 32), rng.randrange(1 << 16))
    elif choice == 5:
        message = p.ReaderHealthReport(reader, rng.choice((p.STATUS_OK, p.STATUS_NOT_RESPONDING)))
    elif choice == 6:
        message = p.Hello((0, 1, rng.randrange(9)), rng.randrange(1, 4))
    else:
        return p.encode_raw(seq & 0xFF, rng.randrange(0x40, 0x80), rng.randbytes(3))
    return p.encode(seq & 0xFF, message)


def mutate(rng: random.Random, data: bytes) -> bytes:
    """``data`` with one random mutation."""
    out = bytearray(data)
    if not out:
        return bytes(rng.randbytes(rng.randrange(1, 8)))
    at = rng.randrange(len(out))
    kind = rng.randrange(7)
    if kind == 0:
        out[at] ^= 1 << rng.randrange(8)
    elif kind == 1:
        out[at] = rng.choice((p.FLAG, p.ESC, rng.randrange(256)))
    elif kind == 2:
        out[at:at] = bytes(
            rng.choice((p.FLAG, p.ESC, rng.randrange(256))) for _ in range(rng.randrange(1, 4))
        )
    elif kind == 3:
        del out[at : at + rng.randrange(1, 4)]
    elif kind == 4:
        end = rng.randrange(at, len(out) + 1)
        out[end:end] = out[at:end]
    elif kind == 5:
        del out[at:]  # a frame cut short
    else:
        other = rng.randrange(len(out))
        out = out[: min(at, other)] + out[max(at, other) :]
    return bytes(out)


def cases(rng: random.Random, frames: int) -> Iterator[tuple[bytes, int]]:
    """Mutated streams holding ``frames`` frames in all: (input for fuzz.targets, frames)."""
    made = 0
    seq = 0
    while made < frames:
        n = min(rng.randrange(1, 7), frames - made)
        stream = b"".join(valid_frame(rng, seq + i) for i in range(n))
        seq += n
        for _ in range(rng.randrange(1, 4)):
            stream = mutate(rng, stream)
        made += n
        # the control byte: chunk size, repair LEN/CRC (reaches the parsers), fixed reader ids
        yield bytes((rng.randrange(256),)) + stream, n


def _alarm(_signum: int, _frame: Any) -> None:
    raise Hang


def in_process(frames: int, rng: random.Random, progress: Callable[[str], None]) -> dict[str, Any]:
    """Run ``frames`` mutated frames through the codec and the serial targets."""
    from fuzz.targets import fuzz_codec, fuzz_serial

    tally: dict[str, Any] = {
        "frames": 0,
        "cases": 0,
        "crashes": 0,
        "hangs": 0,
        "lost": 0,
        "problems": [],
    }
    main = threading.current_thread() is threading.main_thread()
    old = signal.signal(signal.SIGALRM, _alarm) if main else None
    step = max(1, frames // 5)
    try:
        for data, n in cases(rng, frames):
            for label, target in (("codec", fuzz_codec), ("serial backend", fuzz_serial)):
                began = time.monotonic()
                try:
                    if main:
                        signal.setitimer(signal.ITIMER_REAL, HANG_S)
                    target(data)
                except Hang:
                    tally["hangs"] += 1
                    tally["problems"].append(f"the {label} hung on {data.hex()}")
                except AssertionError as exc:
                    tally["lost"] += 1
                    tally["problems"].append(
                        f"the {label} broke its check on {data.hex()}: {str(exc)[:200]}"
                    )
                except Exception as exc:
                    tally["crashes"] += 1
                    tally["problems"].append(f"the {label} raised {exc!r} on {data.hex()}")
                finally:
                    if main:
                        signal.setitimer(signal.ITIMER_REAL, 0)
                if not main and time.monotonic() - began > HANG_S:
                    tally["hangs"] += 1
            before = tally["frames"]
            tally["frames"] += n
            tally["cases"] += 1
            if before // step != tally["frames"] // step:
                progress(
                    f"{tally['frames']:,}/{frames:,} frames through the codec and the "
                    f"serial backend, {tally['crashes']} crashes, {tally['lost']} lost"
                )
    finally:
        if main:
            signal.signal(signal.SIGALRM, old)
    return tally


def junk(rng: random.Random) -> tuple[bytes, int]:
    """Mutated frames that hold no good frame (checked), ending with a flag so that they
    never merge with the next good frame: (bytes, frames in them)."""
    from fuzz.targets import reference_frames

    while True:
        n = rng.randrange(1, 5)
        stream = b"".join(valid_frame(rng, rng.randrange(256)) for _ in range(n))
        for _ in range(rng.randrange(1, 4)):
            stream = mutate(rng, stream)
        stream += bytes((p.FLAG,))
        if not reference_frames(bytes((p.FLAG,)) + stream):
            return stream, n


def over_pty(
    frames: int, rng: random.Random, workdir: Path, progress: Callable[[str], None]
) -> dict[str, Any]:
    """Push ``frames`` frames (mutated ones between a bridge's good ones) through a real pty
    into a running SerialBackend; count the tag edges lost and invented."""
    from scorekeeper.readers.fake_bridge import FakeBridge
    from scorekeeper.readers.serial import SerialBackend

    master, slave = os.openpty()
    tty.setraw(slave)
    link = workdir / "bridge"
    os.symlink(os.ttyname(slave), link)
    bridge = FakeBridge(master, reader_count=2, heartbeat_interval=0.05).start()
    got: list[tuple[str, str, bool]] = []
    lock = threading.Lock()

    def emit(s: Any) -> None:
        with lock:
            got.append((s.reader, s.uid, s.present))

    backend = SerialBackend(
        str(link),
        reader_ids=["left", "right"],
        heartbeat_timeout=3.0,
        read_timeout=0.02,
        reconnect_min=0.02,
        reconnect_max=0.1,
    )
    ids = ("left", "right")
    sent: list[tuple[str, str, bool]] = []
    tally: dict[str, Any] = {"frames": 0, "lost": 0, "invented": 0, "problems": []}
    backend.start(emit)
    try:
        if not _wait(lambda: backend.online, 10):
            tally["problems"].append("the serial backend never came online over the pty")
            return tally
        laid: list[tuple[int, bytes]] = []
        step = max(1, frames // 4)
        while tally["frames"] < frames:
            data, n = junk(rng)
            bridge.send_raw(data)
            before = tally["frames"]
            tally["frames"] += n + 1
            if laid and (len(laid) > 6 or rng.random() < 0.3):
                reader, uid = laid.pop(rng.randrange(len(laid)))
                bridge.take(reader, uid)
                sent.append((ids[reader], uid.hex().upper(), False))
            else:
                reader, uid = rng.randrange(2), rng.randbytes(rng.choice((4, 7)))
                laid.append((reader, uid))
                bridge.put(reader, uid)
                sent.append((ids[reader], uid.hex().upper(), True))
            if before // step != tally["frames"] // step:
                with lock:
                    arrived = len(got)
                progress(
                    f"{tally['frames']:,}/{frames:,} frames over a real pty, "
                    f"{arrived:,} of {len(sent):,} tag edges arrived so far"
                )
        _wait(lambda: len(got) >= len(sent), 15)
        time.sleep(0.2)  # anything extra (invented) would arrive now
        with lock:
            arrived_edges = list(got)
        missing = [e for e in sent if e not in arrived_edges]
        extra = [e for e in arrived_edges if e not in sent]
        tally["lost"] = len(missing)
        tally["invented"] = len(extra) + max(0, len(arrived_edges) - len(sent) - len(extra))
        if missing:
            tally["problems"].append(f"{len(missing)} tag edges never arrived, e.g. {missing[0]}")
        if extra:
            tally["problems"].append(f"{len(extra)} sightings nobody sent, e.g. {extra[0]}")
        if not missing and [e for e in arrived_edges if e in sent] != sent:
            tally["problems"].append("the tag edges arrived out of order")
            tally["lost"] += 1
    finally:
        backend.stop()
        bridge.stop()
        for fd in (master, slave):
            with contextlib.suppress(OSError):
                os.close(fd)
        link.unlink(missing_ok=True)
    return tally


def _wait(cond: Callable[[], bool], timeout: float) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.01)
    return cond()


def run(frames: int, *, seed: int, workdir: Path, progress: Callable[[str], None]) -> Row:
    """``frames`` mutated frames in process, and a tenth as many more over a real pty."""
    rng = random.Random(seed)
    quiet = logging.getLogger("scorekeeper.readers")
    level = quiet.level
    quiet.setLevel(logging.CRITICAL)  # every bad frame is logged; thousands would bury progress
    try:
        first = in_process(frames, rng, progress)
        second = over_pty(max(1, frames // PTY_SHARE), rng, workdir, progress)
    finally:
        quiet.setLevel(level)
    crashes, hangs = first["crashes"], first["hangs"]
    lost = first["lost"] + second["lost"]
    invented = second["invented"]
    problems = tuple(first["problems"][:5] + second["problems"][:5])
    ok = crashes == hangs == lost == invented == 0 and not problems
    return Row(
        NAME,
        f"{first['frames']:,} frames in process + {count(second['frames'], 'frame')} over a pty",
        f"{crashes} crashes, {hangs} hangs, {lost} sightings lost, {invented} invented",
        BUDGET,
        ok,
        problems=problems,
    )
