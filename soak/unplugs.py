"""Unplugs: the serial reader backend over a real pty, the bridge vanishing and coming back.

The backend opens a symlink, as it opens ``/dev/serial/by-id/...`` on a Pi; unplugging closes
the pty and removes the link, plugging back makes a new pty under the same name, as udev does.
While the bridge is away, tags are lifted and laid on its readers. Each time it comes back the
host must, after the bridge's HELLO and inventory, report exactly what changed meanwhile: a
gone sighting for each lifted tag and a present one for each laid tag; nothing else (no tag
reported gone because the cable fell out). Recovery time is from the pty coming back to the
host holding the bridge's tags again, with the backend's production retry settings.
"""

from __future__ import annotations

import contextlib
import os
import random
import statistics
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path
from typing import Any

from soak.report import Row, count

NAME = "unplugs"
RECOVERY_BUDGET_S = 1.0  # a person re-seating a cable does not wait longer than this
BUDGET = f"all 0; median <= {RECOVERY_BUDGET_S * 1000:.0f} ms"
READERS = ("play", "loc4")
AWAY = (0.05, 0.4)  # seconds unplugged, drawn uniformly


class PtyLink:
    """A pty pair reached through a stable symlink (a udev name) with a scripted bridge on the
    master side; ``unplug`` is the USB cable pulled."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.fds: tuple[int, int] | None = None
        self.bridge: Any = None

    def plug(self, tags: dict[int, set[bytes]]) -> Any:
        from scorekeeper.readers.fake_bridge import FakeBridge

        master, slave = os.openpty()
        tty.setraw(slave)
        self.fds = (master, slave)
        bridge = FakeBridge(master, reader_count=len(READERS), heartbeat_interval=0.1)
        for reader, uids in tags.items():
            bridge.tags[reader] = set(uids)
        tmp = self.path.with_suffix(".new")
        os.symlink(os.ttyname(slave), tmp)
        os.replace(tmp, self.path)
        self.bridge = bridge.start()
        return self.bridge

    def unplug(self) -> None:
        if self.bridge is not None:
            self.bridge.stop()
            self.bridge = None
        for fd in self.fds or ():
            with contextlib.suppress(OSError):
                os.close(fd)
        self.fds = None
        self.path.unlink(missing_ok=True)


class Edges:
    """The sightings the backend emitted, as (reader, uid, present), thread-safe."""

    def __init__(self) -> None:
        self.items: list[tuple[str, str, bool]] = []
        self.lock = threading.Lock()

    def __call__(self, s: Any) -> None:
        with self.lock:
            self.items.append((s.reader, s.uid, s.present))

    def since(self, start: int) -> list[tuple[str, str, bool]]:
        with self.lock:
            return self.items[start:]

    def __len__(self) -> int:
        with self.lock:
            return len(self.items)


def _wait(cond: Callable[[], bool], timeout: float) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.002)
    return cond()


def _keys(tags: dict[int, set[bytes]]) -> set[tuple[str, str]]:
    return {(READERS[r], uid.hex().upper()) for r, uids in tags.items() for uid in uids}


def run(unplugs: int, *, seed: int, workdir: Path, progress: Callable[[str], None]) -> Row:
    """``unplugs`` times: unplug, change the tags, plug back, check and time the recovery."""
    from scorekeeper.readers.serial import SerialBackend

    rng = random.Random(seed)
    link = PtyLink(workdir / "bridge")
    edges = Edges()
    tags: dict[int, set[bytes]] = {0: {rng.randbytes(7)}, 1: {rng.randbytes(4)}}
    held: set[tuple[str, str]] = set()  # what the host has said is present
    recoveries: list[float] = []
    lost = invented = sightings = done = 0
    problems: list[str] = []
    backend = SerialBackend(str(link.path), reader_ids=list(READERS))  # production retry times
    link.plug(tags)
    backend.start(edges)
    try:
        for n in range(unplugs + 1):
            # Back (or first) plugged in: exactly the changes since the host last saw the bridge.
            began = time.monotonic()
            mark = len(edges)
            want = {(r, u, False) for r, u in held - _keys(tags)} | {
                (r, u, True) for r, u in _keys(tags) - held
            }
            arrived = _wait(lambda m=mark, w=want: backend.online and set(edges.since(m)) >= w, 10)  # type: ignore[misc]
            if n:
                recoveries.append(time.monotonic() - began)
            time.sleep(0.05)  # a late extra sighting would show now
            got = edges.since(mark)
            lost += len(want - set(got))
            extra = [e for e in got if e not in want]
            invented += len(extra) + len(got) - len(set(got))
            if not arrived:
                problems.append(
                    f"plug {n}: the host did not recover within 10 s "
                    f"(online {backend.online}, missing {sorted(want - set(got))})"
                )
            if extra:
                problems.append(f"plug {n}: sightings nobody caused: {extra[:3]}")
            sightings += len(got)
            held = _keys(tags)
            # A move while connected: lay a tag, then lift one.
            reader = rng.randrange(len(READERS))
            uid = rng.randbytes(rng.choice((4, 7)))
            mark = len(edges)
            link.bridge.put(reader, uid)
            tags[reader].add(uid)
            moved = (READERS[reader], uid.hex().upper(), True)
            if not _wait(lambda m=mark, e=moved: e in edges.since(m), 5):  # type: ignore[misc]
                lost += 1
                problems.append(f"plug {n}: a tag laid while connected never arrived")
            sightings += 1
            held = _keys(tags)
            if n == unplugs:
                break
            link.unplug()
            if not _wait(lambda: not backend.online, 10):
                problems.append(f"unplug {n + 1}: the backend never noticed the bridge was gone")
            # Away: one tag lifted, one laid, for a random while.
            reader = rng.randrange(len(READERS))
            if tags[reader]:
                tags[reader].discard(rng.choice(sorted(tags[reader])))
            tags[rng.randrange(len(READERS))].add(rng.randbytes(rng.choice((4, 7))))
            time.sleep(rng.uniform(*AWAY))
            link.plug(tags)
            done += 1
            if done % 10 == 0 or done == unplugs:
                progress(
                    f"{done}/{unplugs} unplugs, median recovery "
                    f"{statistics.median(recoveries or [0]) * 1000:.0f} ms, "
                    f"{lost} lost, {invented} invented"
                )
    finally:
        backend.stop()
        link.unplug()
    median = statistics.median(recoveries) if recoveries else float("inf")
    ok = lost == invented == 0 and not problems and median <= RECOVERY_BUDGET_S and done == unplugs
    worst = max(recoveries) if recoveries else float("inf")
    return Row(
        NAME,
        f"{count(done, 'unplug')}, {count(sightings, 'sighting')}, recovery "
        f"median {median * 1000:.0f} ms (max {worst * 1000:.0f})",
        f"{lost} lost, {invented} invented",
        BUDGET,
        ok,
        problems=tuple(problems[:10]),
    )
