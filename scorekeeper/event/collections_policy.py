"""Short pauses for the garbage collector in a hub process, whose heap only grows.

A hub keeps a replica of every game of the event (scorekeeper/event/replicas.py), hundreds of
thousands of objects that live as long as the event. CPython's full collection walks every one
of them with all threads stopped, and it comes each time the heap has grown by a quarter: in
``make bench``'s event run a hub's full collections took 60-280 ms each, and every record that
arrived meanwhile waited (most of the p99 from a table's input to the hub's view).

``keep_full_collections_short()`` has each full collection followed by ``gc.freeze()``: what
survived it moves to the permanent generation, which later collections do not walk, so each
one walks only what the hub made since the last, and they come more often (FULL_EVERY: the
longest pause in a 60 s run at 2,000 inputs/s went from 68 to 33 ms). Objects are still freed
when their last reference goes (reference counting does not look at generations).

What that would leak, a reference cycle alive at a freeze that became garbage later (a request
that waited for the console's changes, a replica forgotten after a re-seat), is taken back by
``reclaim``: everything unfrozen and walked once, the long pause, which the hub's ingest asks
for when no log message has come for a second (between rounds, or any quiet moment), at most
every RECLAIM_QUIET seconds, and after RECLAIM_LATEST seconds in any case (one pause of a few
hundred ms every five minutes holds up a few hundred records: not the p99).

Hazard: the policy is for a hub process only, for the process's life: a table's server never
calls this, nor do the tests' processes (``reclaim`` does nothing where it is not installed).
"""

from __future__ import annotations

import gc
import time
from typing import Any

# A full collection after this many collections of the middle generation (CPython's default
# 10): what it walks is what was made since the last one, so the more often, the shorter.
FULL_EVERY = 2
RECLAIM_QUIET = 60.0  # seconds between two reclaims at quiet moments, at least
RECLAIM_LATEST = 300.0  # seconds after which a reclaim comes even in the middle of traffic
_installed: list[bool] = []
_reclaimed: list[float] = []  # when the last reclaim (or the install) was, monotonic


def _after(phase: str, info: dict[str, Any]) -> None:
    if phase == "stop" and info.get("generation") == 2:
        gc.freeze()


def keep_full_collections_short() -> None:
    """Freeze what the hub holds now, and after every full collection from now on (for the
    process's life; calling it again changes nothing)."""
    if _installed:
        return
    _installed.append(True)
    _reclaimed.append(time.monotonic())
    gc.collect()
    gc.freeze()
    gc.callbacks.append(_after)
    young, middle, _full = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_EVERY)


def reclaim(*, quiet: bool, now: float | None = None) -> bool:
    """Walk the whole heap once (unfreeze, collect, freeze again) when it is due: ``quiet``
    (nothing is arriving) and RECLAIM_QUIET seconds since the last, or RECLAIM_LATEST seconds
    in any case. True when it ran. A pause as long as the heap is big (hundreds of ms)."""
    if not _installed:
        return False
    now = time.monotonic() if now is None else now
    since = now - _reclaimed[-1]
    if since < (RECLAIM_QUIET if quiet else RECLAIM_LATEST):
        return False
    _reclaimed[-1] = now
    gc.unfreeze()
    gc.collect()  # (the callback freezes what survived)
    return True
