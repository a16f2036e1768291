"""A FUSE filesystem that models a power cut: what was not fsync'd can be gone.

A SIGKILL leaves the kernel's page cache intact, so a crash test built on kill -9 never sees a
write that was acknowledged before it reached the disk. This filesystem passes a backing
directory through, but keeps every write to a file's data in memory until that file is
fsync'd: reads see the buffered data over the backing file, ``fsync`` and ``fdatasync`` write
the file's buffered data to the backing file (in order) and ``os.fsync`` it. ``cut`` then
plays a power cut: each write still buffered is kept or thrown away by a seeded random draw
(a real page cache may have written back some of it, in any order), or all are thrown away.

The model, and where it is simpler than a disk:

- Data (``write``, ``truncate``, ``open`` with ``O_TRUNC``) is buffered per file until that
  file is fsync'd (through any of its handles: an fsync flushes the whole file, as a kernel
  does). A process that dies changes nothing: its writes stay buffered, as in a page cache,
  for the next reader to see and a later cut to take. A cut keeps a random subset of the
  buffered operations, applied in their original order; a kept write lands whole, or, if
  the cut tears writes, only some of its 512-byte sectors do (a sector is never torn).
- Names are durable at once: create, mkdir, unlink, rmdir and rename reach the backing
  directory when they happen, so a missing fsync of a directory is not caught; a rename
  over a file whose data was never fsync'd is (the new name survives, its data may not).
  ``fsyncdir`` fsyncs the backing directory.
- SQLite's ``-shm`` file (its shared-memory index, mmap'd, never fsync'd, rebuilt from the
  WAL by the first connection after a crash) is buffered like any file, except that a
  write replaces a buffered write of the same range (the kernel writes mmap'd pages back
  again and again; keeping every copy would only grow). It is the one file served through
  the kernel's page cache, which a shared mmap needs; every other file is opened with
  direct I/O, so the kernel caches no data that a cut would make stale, and attributes and
  names are never cached (timeouts 0).
- Locks (fcntl, flock) are left to the kernel, which keeps them for the mount: they work
  between processes and go with a killed process, as on a local disk.
- The daemon answers one request at a time (all of them take one lock anyway).

The daemon runs in its own process (``python fusecut.py BACKING MOUNTPOINT``, what
``Mount`` starts) and takes commands on standard input, one per line, answering each on
standard output: ``cut SEED KEEP TEAR`` (KEEP: the chance that each buffered write is kept,
0 throws all away; TEAR: the chance that a kept one is torn) answers ``cut KEPT DROPPED``;
``pending`` answers ``pending N``; ``stats`` answers ``stats {JSON}`` (fsyncs and dropped
writes per file name); ``arm NAME N OP`` holds the process making the N-th OP (``write`` or
``fsync``) of a file called NAME inside that call (``trapped`` answers ``trapped 1`` then)
until ``release`` or the next ``cut``. Closing its standard input unmounts it, so a mount
never outlives the process that made it. ``--fsync-lies`` makes a disk whose fsync keeps
nothing (for the tests that prove a campaign notices).

This file imports only the standard library and mfusepy, so the daemon starts quickly.
"""

from __future__ import annotations

import contextlib
import ctypes.util
import errno
import importlib.util
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SHM_SUFFIX = "-shm"
MOUNT_TIMEOUT = 10.0
SECTOR = 512  # a torn write lands in whole sectors of this size
TRAP_TIMEOUT = 60.0  # a write held by a trap goes on after this, whatever happens

# One buffered data operation: ("w", offset, data) writes, ("t", length, b"") truncates.
Op = tuple[str, int, bytes]


def why_fuse_cannot_mount() -> str | None:
    """Why a FUSE filesystem cannot be mounted here, with what to do; None when it can."""
    if not os.path.exists("/dev/fuse"):
        return (
            "/dev/fuse does not exist: the kernel has no FUSE support here (load it with "
            "`modprobe fuse`; in a container, start it with --device /dev/fuse)"
        )
    if not os.access("/dev/fuse", os.R_OK | os.W_OK):
        return "/dev/fuse is not readable and writable by this user"
    if shutil.which("fusermount3") is None:
        return (
            "fusermount3 is not installed (Debian package fuse3: "
            "`sudo apt-get install fuse3`, or `make system-packages` as root)"
        )
    if ctypes.util.find_library("fuse3") is None:
        return "libfuse3 is not installed (Debian package fuse3: `sudo apt-get install fuse3`)"
    if importlib.util.find_spec("mfusepy") is None:
        return (
            "the Python package mfusepy is not installed: install the [dev] extra "
            "(`.venv/bin/pip install -e '.[dev]'`)"
        )
    return None


# -- the filesystem (runs in the daemon process) ------------------------------------------------


@dataclass
class _Node:
    """One backing file the daemon has open, with the data operations not yet fsync'd."""

    fd: int
    path: str | None  # None once unlinked (or renamed over)
    shm: bool
    ops: list[Op] = field(default_factory=list)
    handles: int = 0
    size: int | None = None  # the size readers see while ops are buffered

    def logical_size(self) -> int:
        if self.size is None:
            self.size = os.fstat(self.fd).st_size
            for kind, at, data in self.ops:
                self.size = max(self.size, at + len(data)) if kind == "w" else at
        return self.size


class CutFS:
    """The pass-through filesystem with buffered data (an mfusepy Operations object).

    Every callback holds one lock, which ``cut`` takes too. Paths are those libfuse gives:
    ``/`` is the root of the backing directory. Callbacks that get a file handle use it (a
    file may have been renamed or unlinked since it was opened).
    """

    use_ns = True  # times in nanoseconds (mfusepy's non-deprecated mode)

    def __init__(self, backing: str, fsync_lies: bool = False) -> None:
        self.root = os.path.realpath(backing)
        self.fsync_lies = fsync_lies  # a disk that says yes to fsync and keeps nothing
        # Per file name (the last part of its path): fsyncs, and writes the cuts threw away,
        # so a campaign can show what it exercised (the WAL, the database, the marker...).
        self.fsyncs: dict[str, int] = {}
        self.dropped: dict[str, int] = {}
        self.torn: dict[str, int] = {}
        # A trap (``arm``): the n-th write (or fsync) of a file of that name holds the process
        # inside the call until ``let_go``, for a cut at an exact moment (mid-checkpoint).
        self._trap: tuple[str, str, int] | None = None  # ("write" or "fsync", name, n)
        self._trapped = threading.Event()
        self._released = threading.Event()
        self._mutex = threading.Lock()
        self._nodes: dict[str, _Node] = {}  # by path, files with a backing fd open
        self._handles: dict[int, tuple[_Node, bool]] = {}  # fh -> (node, opened O_APPEND)
        self._next_fh = 1
        self.on_mounted: Any = None

    # -- helpers

    def _real(self, path: str) -> str:
        return self.root + path if path != "/" else self.root

    def _node(self, path: str) -> _Node:
        """The node of ``path``, opening its backing file if no one has it open (lock held)."""
        node = self._nodes.get(path)
        if node is None:
            try:
                fd = os.open(self._real(path), os.O_RDWR)
            except PermissionError:  # a read-only file (not as root): it is only read then
                fd = os.open(self._real(path), os.O_RDONLY)
            node = _Node(fd, path, path.endswith(SHM_SUFFIX))
            self._nodes[path] = node
        return node

    def _forget(self, node: _Node) -> None:
        """Close a node's backing fd once nothing needs it (lock held)."""
        if node.handles == 0 and not node.ops:
            if node.path is not None and self._nodes.get(node.path) is node:
                del self._nodes[node.path]
            os.close(node.fd)
            node.fd = -1

    def _handle(self, node: _Node, fi: Any) -> None:
        fh = self._next_fh
        self._next_fh += 1
        node.handles += 1
        self._handles[fh] = (node, bool(fi.flags & os.O_APPEND))
        fi.fh = fh
        # The shm file is mmap'd shared, which needs the page cache; every other file goes
        # straight to this daemon, so the kernel holds no data a cut would make stale.
        fi.direct_io = 0 if node.shm else 1
        fi.keep_cache = 0

    def _buffer(self, node: _Node, op: Op) -> None:
        if node.shm and op[0] == "w":
            # A newer write of the same range hides an older one: keep only the newest (up
            # to the last truncate), or the index file's pages would pile up for ever.
            for i in range(len(node.ops) - 1, -1, -1):
                kind, at, data = node.ops[i]
                if kind == "t":
                    break
                if at == op[1] and len(data) == len(op[2]):
                    del node.ops[i]
                    break
        node.logical_size()
        node.ops.append(op)
        node.size = max(node.size or 0, op[1] + len(op[2])) if op[0] == "w" else op[1]

    @staticmethod
    def _apply(node: _Node, ops: list[Op]) -> None:
        for kind, at, data in ops:
            if kind == "w":
                os.pwrite(node.fd, data, at)
            else:
                os.ftruncate(node.fd, at)

    def _sync(self, node: _Node) -> None:
        name = os.path.basename(node.path or "(unlinked)")
        self.fsyncs[name] = self.fsyncs.get(name, 0) + 1
        if self.fsync_lies:
            return
        self._apply(node, node.ops)
        node.ops.clear()
        node.size = None
        os.fsync(node.fd)

    # -- mfusepy callbacks: attributes and names (durable at once)

    def init(self, path: str) -> None:
        if self.on_mounted is not None:
            self.on_mounted()

    def getattr(self, path: str | None, fh: Any = None) -> dict[str, Any]:
        with self._mutex:
            node = None
            if fh is not None and fh.fh in self._handles:
                node = self._handles[fh.fh][0]
            elif path is not None:
                node = self._nodes.get(path)
            if node is not None and node.fd >= 0:
                st = os.fstat(node.fd)
            elif path is not None:
                st = os.lstat(self._real(path))
            else:
                raise OSError(errno.EBADF, "no such handle")
            attrs = {
                key: getattr(st, key)
                for key in (
                    "st_mode",
                    "st_nlink",
                    "st_uid",
                    "st_gid",
                    "st_size",
                    "st_atime_ns",
                    "st_mtime_ns",
                    "st_ctime_ns",
                    "st_blocks",
                )
            }
            for key in ("st_atime", "st_mtime", "st_ctime"):
                attrs[key] = attrs.pop(key + "_ns")
            if node is not None and node.ops:
                attrs["st_size"] = node.logical_size()
            return attrs

    def access(self, path: str, amode: int) -> int:
        if not os.access(self._real(path), amode):
            raise OSError(errno.EACCES, "access denied")
        return 0

    def readdir(self, path: str, fh: int) -> list[str]:
        return [".", "..", *os.listdir(self._real(path))]

    def mkdir(self, path: str, mode: int) -> int:
        os.mkdir(self._real(path), mode)
        return 0

    def rmdir(self, path: str) -> int:
        os.rmdir(self._real(path))
        return 0

    def unlink(self, path: str) -> int:
        with self._mutex:
            os.unlink(self._real(path))
            node = self._nodes.pop(path, None)
            if node is not None:
                node.path = None
                node.ops.clear()  # an unlinked file's data cannot outlive a cut
                self._forget(node)
            return 0

    def rename(self, old: str, new: str) -> int:
        with self._mutex:
            os.rename(self._real(old), self._real(new))
            gone = self._nodes.pop(new, None)
            if gone is not None:
                gone.path = None
                gone.ops.clear()
                self._forget(gone)
            moved = {p: n for p, n in self._nodes.items() if p == old or p.startswith(old + "/")}
            for p, node in moved.items():
                del self._nodes[p]
                node.path = new + p[len(old) :]
                node.shm = node.path.endswith(SHM_SUFFIX)
                self._nodes[node.path] = node
            return 0

    def chmod(self, path: str, mode: int) -> int:
        os.chmod(self._real(path), mode)
        return 0

    def chown(self, path: str, uid: int, gid: int) -> int:
        os.chown(self._real(path), uid, gid)
        return 0

    def utimens(self, path: str, times: tuple[int, int] | None = None) -> int:
        os.utime(self._real(path), ns=times) if times else os.utime(self._real(path))
        return 0

    def statfs(self, path: str) -> dict[str, int]:
        st = os.statvfs(self._real(path))
        return {
            key: getattr(st, key)
            for key in (
                "f_bavail",
                "f_bfree",
                "f_blocks",
                "f_bsize",
                "f_favail",
                "f_ffree",
                "f_files",
                "f_flag",
                "f_frsize",
                "f_namemax",
            )
        }

    # -- files: data is buffered until fsync

    def create(self, path: str, mode: int, fi: Any) -> int:
        with self._mutex:
            flags = os.O_CREAT | os.O_RDWR | (fi.flags & os.O_EXCL)
            os.close(os.open(self._real(path), flags, mode))  # the name is durable at once
            node = self._node(path)
            if fi.flags & os.O_TRUNC:
                self._buffer(node, ("t", 0, b""))
            self._handle(node, fi)
            return 0

    def open(self, path: str, fi: Any) -> int:
        with self._mutex:
            node = self._node(path)
            if fi.flags & os.O_TRUNC and fi.flags & os.O_ACCMODE != os.O_RDONLY:
                self._buffer(node, ("t", 0, b""))
            self._handle(node, fi)
            return 0

    def read(self, path: str | None, size: int, offset: int, fi: Any) -> bytes:
        with self._mutex:
            node = self._handles[fi.fh][0]
            if not node.ops:
                return os.pread(node.fd, size, offset)
            end = min(offset + size, node.logical_size())
            if end <= offset:
                return b""
            buf = bytearray(os.pread(node.fd, end - offset, offset).ljust(end - offset, b"\0"))
            for kind, at, data in node.ops:  # replay the buffered ops over the window
                if kind == "t":
                    if at < end:
                        cut_from = max(at - offset, 0)
                        buf[cut_from:] = bytes(len(buf) - cut_from)
                    continue
                lo, hi = max(at, offset), min(at + len(data), end)
                if lo < hi:
                    buf[lo - offset : hi - offset] = data[lo - at : hi - at]
            return bytes(buf)

    def write(self, path: str | None, data: bytes, offset: int, fi: Any) -> int:
        with self._mutex:
            node, append = self._handles[fi.fh]
            if append:
                offset = node.logical_size()
            self._buffer(node, ("w", offset, bytes(data)))
            hold = self._caught("write", node)
        if hold:  # outside the lock: a cut may come meanwhile; never for ever (parent gone)
            self._released.wait(TRAP_TIMEOUT)
        return len(data)

    def _caught(self, op: str, node: _Node) -> bool:
        """Whether the trap catches this call (lock held): it counts down, then springs."""
        trap = self._trap
        if trap is None or trap[0] != op or os.path.basename(node.path or "") != trap[1]:
            return False
        self._trap = None if trap[2] <= 1 else (op, trap[1], trap[2] - 1)
        if self._trap is None:
            self._trapped.set()
        return self._trap is None

    def truncate(self, path: str | None, length: int, fh: Any = None) -> int:
        with self._mutex:
            if path is None:  # an unlinked file: its data cannot outlive a cut anyway
                return 0
            node = self._node(path)
            self._buffer(node, ("t", length, b""))
            self._forget(node)
            return 0

    def flush(self, path: str | None, fi: Any) -> int:
        return 0  # close() promises nothing about the disk

    def release(self, path: str | None, fi: Any) -> int:
        with self._mutex:
            entry = self._handles.pop(fi.fh, None)
            if entry is not None:
                entry[0].handles -= 1
                self._forget(entry[0])
            return 0

    def fsync(self, path: str | None, datasync: int, fi: Any) -> int:
        with self._mutex:
            node = self._handles[fi.fh][0]
            hold = self._caught("fsync", node)
            if not hold:
                self._sync(node)
                return 0
        # Held before anything reached the disk; the process is killed meanwhile, and its
        # fsync never completes (nothing is flushed after the release).
        self._released.wait(TRAP_TIMEOUT)
        return 0

    def fsyncdir(self, path: str | None, datasync: int, fh: int) -> int:
        if path is not None:
            fd = os.open(self._real(path), os.O_RDONLY | os.O_DIRECTORY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        return 0

    # -- the power cut

    def pending(self) -> int:
        """How many data operations are buffered, not yet on the backing files."""
        with self._mutex:
            return sum(len(n.ops) for n in self._all_nodes())

    def arm(self, name: str, count: int, op: str = "write") -> None:
        """Hold the process still inside its ``count``-th ``op`` (write or fsync) of a file
        called ``name``."""
        with self._mutex:
            self._trap = (op, name, count)
            self._trapped.clear()
            self._released.clear()

    def trapped(self) -> bool:
        """Whether a writer is held (or was, since the last ``arm``)."""
        return self._trapped.is_set()

    def let_go(self) -> None:
        """Disarm, and let a held write return (not ``release``: that is FUSE's close)."""
        with self._mutex:
            self._trap = None
        self._released.set()

    def stats(self) -> dict[str, dict[str, int]]:
        """Fsyncs, and writes thrown away or torn by cuts, per file name, since the mount."""
        with self._mutex:
            return {
                "fsyncs": dict(self.fsyncs),
                "dropped": dict(self.dropped),
                "torn": dict(self.torn),
            }

    def _all_nodes(self) -> list[_Node]:
        nodes = {id(n): n for n in self._nodes.values()}
        nodes.update((id(n), n) for n, _ in self._handles.values())
        return list(nodes.values())

    def cut(self, seed: int, keep: float, tear: float = 0.0) -> tuple[int, int]:
        """Throw buffered data away as a power cut would: each buffered operation is kept
        with probability ``keep`` (seeded), the kept ones applied in order; a kept write
        that spans sectors is torn with probability ``tear``: each of its 512-byte sectors
        lands or not. Returns ``(kept, dropped)``, a torn write counted as dropped. Files
        nobody has open are closed, so what comes next reads the backing directory afresh."""
        self.let_go()
        rng = random.Random(seed)
        kept = dropped = 0
        with self._mutex:
            for node in sorted(self._all_nodes(), key=lambda n: n.path or ""):
                chosen: list[Op] = []
                whole = 0
                for op in node.ops:
                    if not (keep > 0 and rng.random() < keep):
                        continue
                    pieces = _sectors(op) if op[0] == "w" and rng.random() < tear else [op]
                    if len(pieces) > 1:  # torn: some sectors land, some do not
                        chosen.extend(piece for piece in pieces if rng.random() < 0.5)
                        name = os.path.basename(node.path or "(unlinked)")
                        self.torn[name] = self.torn.get(name, 0) + 1
                        continue
                    chosen.append(op)
                    whole += 1
                kept += whole
                if len(node.ops) > whole:
                    name = os.path.basename(node.path or "(unlinked)")
                    self.dropped[name] = self.dropped.get(name, 0) + len(node.ops) - whole
                    dropped += len(node.ops) - whole
                if node.path is not None and node.fd >= 0:
                    self._apply(node, chosen)
                node.ops.clear()
                node.size = None
                self._forget(node)
        return kept, dropped


def _sectors(op: Op) -> list[Op]:
    """A write cut at the 512-byte sector boundaries of the file it goes to."""
    _kind, at, data = op
    cuts = [at, *range((at // SECTOR + 1) * SECTOR, at + len(data), SECTOR), at + len(data)]
    return [("w", lo, data[lo - at : hi - at]) for lo, hi in zip(cuts, cuts[1:], strict=False)]


def _serve(backing: str, mountpoint: str, fsync_lies: bool) -> None:
    """The daemon: mount ``backing`` at ``mountpoint`` and take commands on stdin."""
    # libfuse3, even where libfuse2 is installed too (mfusepy would take that one first)
    os.environ["FUSE_LIBRARY_NAME"] = "fuse3"
    import mfusepy

    fs = CutFS(backing, fsync_lies)
    out = sys.stdout
    main = threading.main_thread().ident
    assert main is not None

    def stop() -> None:  # interrupts libfuse's read of /dev/fuse: it unmounts and returns
        signal.pthread_kill(main, signal.SIGTERM)

    def control() -> None:
        for line in sys.stdin:
            words = line.split()
            if words[:1] == ["cut"] and len(words) == 4:
                kept, dropped = fs.cut(int(words[1]), float(words[2]), float(words[3]))
                answer = f"cut {kept} {dropped}"
            elif words == ["pending"]:
                answer = f"pending {fs.pending()}"
            elif words == ["stats"]:
                answer = "stats " + json.dumps(fs.stats())
            elif words[:1] == ["arm"] and len(words) == 4 and words[3] in ("write", "fsync"):
                fs.arm(words[1], int(words[2]), words[3])
                answer = "armed"
            elif words == ["trapped"]:
                answer = f"trapped {int(fs.trapped())}"
            elif words == ["release"]:
                fs.let_go()
                answer = "released"
            else:
                answer = f"error unknown command {line.strip()!r}"
            out.write(answer + "\n")
            out.flush()
        stop()

    def mounted() -> None:
        out.write("mounted\n")
        out.flush()
        threading.Thread(target=control, daemon=True).start()

    fs.on_mounted = mounted
    mfusepy.FUSE(
        fs,
        mountpoint,
        raw_fi=True,
        foreground=True,
        nothreads=True,
        hard_remove=True,
        auto_unmount=True,
        attr_timeout=0,
        entry_timeout=0,
        negative_timeout=0,
        fsname="fusecut",
        subtype="fusecut",
    )


# -- the parent's side ------------------------------------------------------------------------


class FuseUnavailable(RuntimeError):
    """FUSE cannot be mounted here; the message says why and what to install."""


class Mount:
    """A ``CutFS`` daemon serving ``backing`` at ``mountpoint`` (a context manager).

    ``cut()`` throws away what was not fsync'd; ``close()`` unmounts, also after a failure.
    ``fsync_lies``: fsync flushes nothing (a disk that lies), for the tests that prove a
    campaign notices.
    """

    def __init__(self, backing: Path, mountpoint: Path, *, fsync_lies: bool = False) -> None:
        reason = why_fuse_cannot_mount()
        if reason is not None:
            raise FuseUnavailable(f"cannot mount the power-cut filesystem: {reason}")
        backing.mkdir(parents=True, exist_ok=True)
        mountpoint.mkdir(parents=True, exist_ok=True)
        self.backing, self.mountpoint = backing, mountpoint
        self.proc = subprocess.Popen(
            [
                sys.executable,
                __file__,
                str(backing),
                str(mountpoint),
                *(["--fsync-lies"] if fsync_lies else []),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdout is not None and self.proc.stdin is not None
        self._in, self._out = self.proc.stdin, self.proc.stdout
        first = self._out.readline().strip()  # the daemon says "mounted" once the kernel has
        if first != "mounted":
            self.proc.kill()
            err = self.proc.communicate(timeout=MOUNT_TIMEOUT)[1]
            self._unmount(lazy=True)
            raise FuseUnavailable(
                f"cannot mount the power-cut filesystem at {mountpoint}: "
                f"{(err or first or 'the daemon exited').strip()[-600:]}"
            )

    def _ask(self, command: str) -> list[str]:
        self._in.write(command + "\n")
        self._in.flush()
        answer = self._out.readline().split()
        if not answer or answer[0] == "error":
            raise RuntimeError(f"power-cut filesystem: {command!r} got {answer!r}")
        return answer

    def cut(self, seed: int, keep: float = 0.0, tear: float = 0.0) -> tuple[int, int]:
        """Cut the power: each write not yet fsync'd is kept with chance ``keep`` (0: all
        are lost), drawn from ``seed``; a kept write is torn (only some of its sectors land)
        with chance ``tear``. Stop every process writing to the mount first: a cut does not
        stop them. Returns ``(kept, dropped)``, a torn write counted as dropped."""
        answer = self._ask(f"cut {seed} {keep!r} {tear!r}")
        return int(answer[1]), int(answer[2])

    def pending(self) -> int:
        """How many data writes are buffered, not yet fsync'd."""
        return int(self._ask("pending")[1])

    def arm(self, name: str, count: int, op: str = "write") -> None:
        """Set a trap: the ``count``-th ``op`` (``write`` or ``fsync``) from now of a file
        called ``name`` holds its process inside the call (see ``trapped``) until ``release``
        or ``cut``; a held fsync flushes nothing. Kill the process first, then release: it
        dies before it runs another instruction. The layer serves one request at a time: while
        a process is held, nothing else on the mount is answered (do not touch it then)."""
        self._ask(f"arm {name} {count} {op}")

    def trapped(self) -> bool:
        """Whether the trap has caught a write since ``arm``."""
        return self._ask("trapped")[1] == "1"

    def release(self) -> None:
        """Disarm the trap and let a held write return."""
        self._ask("release")

    def stats(self) -> dict[str, dict[str, int]]:
        """``{"fsyncs": {file name: count}, "dropped": {file name: writes the cuts threw
        away, torn ones included}, "torn": {file name: writes torn}}`` since the mount: what
        the cuts reached."""
        answer = self._ask("stats")
        return dict(json.loads(" ".join(answer[1:])))

    def forget_in_child(self) -> None:
        """In a process forked from the one that mounted: close the daemon's pipes here (they
        would keep the daemon's input open: it unmounts when its parent's end closes)."""
        for stream in (self._in, self._out, self.proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    os.close(stream.fileno())

    def _unmount(self, lazy: bool) -> bool:
        args = ["fusermount3", "-u", *(["-z"] if lazy else []), str(self.mountpoint)]
        return subprocess.run(args, capture_output=True, check=False).returncode == 0

    def close(self) -> None:
        """Unmount and stop the daemon (lazily, killing it, if it does not go)."""
        if self.proc.poll() is None:
            with contextlib.suppress(OSError):
                self._in.close()  # the daemon unmounts itself when its input closes
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)
        deadline = time.monotonic() + 5
        while os.path.ismount(self.mountpoint) and time.monotonic() < deadline:
            if not self._unmount(lazy=False):
                time.sleep(0.05)
        if os.path.ismount(self.mountpoint):
            self._unmount(lazy=True)
        with contextlib.suppress(OSError):
            self._out.close()
        if self.proc.stderr is not None:
            self.proc.stderr.close()

    def __enter__(self) -> Mount:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4) or sys.argv[3:] not in ([], ["--fsync-lies"]):
        sys.exit("usage: fusecut.py BACKING MOUNTPOINT [--fsync-lies]")
    _serve(sys.argv[1], sys.argv[2], sys.argv[3:] == ["--fsync-lies"])
