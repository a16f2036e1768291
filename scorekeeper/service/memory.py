"""Giving memory back to the system after a table leaves it.

CPython frees a dropped table's objects, but glibc's allocator keeps the freed heap for the
process, so the resident size of a server that has shown many finished games creeps up (about
3 MB after 20 replays of 870-input games: over the 80 MB budget of a Pi Zero's table). A full
collection first (the table's objects hold cycles), then ``malloc_trim(0)``, returns it. Where
the C library has no ``malloc_trim`` (musl, macOS) only the collection runs.
"""

from __future__ import annotations

import ctypes
import gc
from collections.abc import Callable
from functools import cache


@cache
def _trim() -> Callable[[int], int] | None:
    try:
        trim: Callable[[int], int] = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None
    return trim


def release() -> bool:
    """Collect garbage and hand the freed heap back to the system; True when it could trim.
    Costs a full collection (milliseconds): call it after something large was dropped, not on
    every request."""
    gc.collect()
    trim = _trim()
    if trim is None:
        return False
    trim(0)
    return True
