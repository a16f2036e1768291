"""fsync helpers: making a file's data, or a name in a folder, survive a power cut.

Used wherever the store or the server writes something it must find again after a crash: the
marker, backups, the organiser token file, and the database files before a marker is written
from them.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path


def fsync_file(path: str | os.PathLike[str], *, missing_ok: bool = False) -> None:
    """fsync the file at ``path`` (opened read-only: fsync covers the whole file either way).
    With ``missing_ok`` a file that is not there is skipped."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        if missing_ok:
            return
        raise
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def fsync_folder(folder: str | os.PathLike[str]) -> None:
    """Make the names in ``folder`` durable (a rename, a new file). Some file systems (FAT on a
    USB stick, on some kernels) cannot fsync a folder: there the files' own fsync is what they
    offer, and this does nothing."""
    try:
        fd = os.open(Path(folder), os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno not in (errno.EINVAL, errno.EOPNOTSUPP):
            raise
    finally:
        os.close(fd)
