"""Power cuts at two exact moments the random campaign cannot aim at, each once a real bug:

- a start that writes its marker from a commit whose writer died inside its fsync (never
  acknowledged, only in the page cache): a cut then left the marker ahead of the disk, and the
  next start refused a good store;
- a first start cut while it saves the organiser token: the hash was stored before the file
  was written, leaving a server whose organiser token nobody had.

The database folder sits on soak/fusecut.py's layer, whose traps hold a process inside its
n-th write or fsync of a file so the cut lands there.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from scorekeeper.core.table import TableConfig
from scorekeeper.store import Store, sqlite_url
from scorekeeper.store.marker import COMPACT_BYTES, _line, marker_path, read_marker
from soak.fusecut import Mount

RECORD = {"type": "decision", "seat": 0, "prompt": "p", "answer": "a"}
APPEND = """
import sys
from scorekeeper.store import Store
store = Store(sys.argv[1])
print("open", flush=True)
print("seq", store.append("t1", {"type": "decision", "seat": 0, "prompt": "p", "answer": "a"}),
      flush=True)
"""
OPEN = """
import sys, time
from scorekeeper.store import Store
store = Store(sys.argv[1])
print("open", flush=True)
time.sleep(60)
"""
START = """
import sys
from scorekeeper.service.hub import Hub
hub = Hub.open(sys.argv[1])
print("opened", flush=True)
print("token", hub.tokens.ensure_organiser_token(hub.token_file), flush=True)
"""


def _spawn(code: str, arg: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", code, arg], stdout=subprocess.PIPE, text=True)


def _wait_trapped(disk: Mount) -> None:
    deadline = time.monotonic() + 20
    while not disk.trapped():
        assert time.monotonic() < deadline, "the writer never reached the trapped call"
        time.sleep(0.005)


def _grow_marker(db: Path) -> None:
    """A marker past COMPACT_BYTES, as a long-running server's gets: the next open rewrites it."""
    with open(marker_path(db), "ab") as f:
        f.write(_line("t1 1") * (COMPACT_BYTES // 14 + 100))
        f.flush()
        os.fsync(f.fileno())


@pytest.mark.parametrize("marker", ["grown", "unreadable"])
def test_a_start_after_a_crash_inside_an_fsync_never_puts_the_marker_ahead(
    disk: Mount, tmp_path: Path, marker: str
) -> None:
    db = tmp_path / "mnt" / "s.db"
    url = sqlite_url(str(db))
    with Store(url) as store:
        store.create_table(TableConfig(game="fake", seats=("a",)))
        for _ in range(5):
            store.append("t1", RECORD)
    # A writer dies inside the WAL fsync of seq 6: never acknowledged.
    disk.arm("s.db-wal", 2, "fsync")
    writer = _spawn(APPEND, url)
    assert writer.stdout is not None and writer.stdout.readline().strip() == "open"
    _wait_trapped(disk)
    writer.kill()
    disk.release()
    writer.wait()
    assert "seq" not in writer.stdout.read()
    if marker == "grown":
        _grow_marker(db)
    else:
        marker_path(db).write_bytes(b"\x00" * 64)
        os.sync()
    # The next start opens (and writes its marker) and is itself stopped before committing.
    start = _spawn(OPEN, url)
    assert start.stdout is not None and start.stdout.readline().strip() == "open"
    start.kill()
    start.wait()
    disk.cut(seed=1, keep=0.0)  # what was never fsync'd is gone

    with Store(url) as store:  # the start after the cut opens: nothing acknowledged was lost
        seqs = [seq for seq, _ in store.records("t1")]
    assert seqs[:5] == [1, 2, 3, 4, 5]
    state = read_marker(marker_path(db))
    assert state is not None and state.last["t1"] == seqs[-1]


def test_a_first_start_cut_while_saving_the_token_leaves_no_token_nobody_has(
    disk: Mount, tmp_path: Path
) -> None:
    db = tmp_path / "mnt" / "scorekeeper.db"
    disk.arm("organiser-token.tmp", 1, "fsync")
    first = _spawn(START, str(db))
    assert first.stdout is not None and first.stdout.readline().strip() == "opened"
    _wait_trapped(disk)
    first.kill()
    disk.release()
    first.wait()
    disk.cut(seed=1, keep=0.0)

    again = subprocess.run(
        [sys.executable, "-c", START, str(db)], capture_output=True, text=True, timeout=60
    )
    assert again.returncode == 0, again.stderr
    printed = again.stdout.split("token ", 1)[1].strip()
    saved = (db.parent / "organiser-token").read_text().strip()
    # Either this start made the token (and saved it), or it adopted the file the first one
    # saved: the token in the file is the one that works.
    check = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys\nfrom scorekeeper.service.hub import Hub\nhub = Hub.open(sys.argv[1])\n"
            "print(hub.tokens.identify(sys.argv[2]).organiser)",
            str(db),
            saved,
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert check.stdout.strip() == "True", check.stderr
    assert printed in (saved, "None")
