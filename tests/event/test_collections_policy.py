"""A hub process's collector policy (scorekeeper/event/collections_policy.py), in a process of
its own (the policy stays for a process's life): what survives a full collection is frozen,
so the next full collection walks only what came after; installing it twice changes nothing;
reference counting still frees frozen objects; a cycle frozen and dropped is taken back by
``reclaim`` when it is due, and only then."""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import gc, time, weakref
from scorekeeper.event.collections_policy import (
    RECLAIM_LATEST, RECLAIM_QUIET, keep_full_collections_short, reclaim,
)

class Box:
    pass

assert not reclaim(quiet=True, now=time.monotonic() + 10**6)  # not installed: nothing
keep_full_collections_short()
keep_full_collections_short()
assert gc.callbacks.count(gc.callbacks[-1]) == 1 and len(gc.callbacks) == 1
assert gc.get_threshold()[2] == 2  # full collections every 2 of the middle generation's
frozen = gc.get_freeze_count()
assert frozen > 1000, frozen  # the modules' objects, frozen at once
kept = [Box() for _ in range(5000)]
gc.collect(2)  # a full collection: the survivors are frozen after it
assert gc.get_freeze_count() >= frozen + 5000, (frozen, gc.get_freeze_count())
gone = weakref.ref(kept[0])
del kept
assert gone() is None  # frozen, and freed when its last reference went
ring = Box()
ring.me = ring  # a cycle: only a collection frees it
cycle = weakref.ref(ring)
gc.collect(2)  # frozen
del ring
gc.collect(2)
assert cycle() is not None  # frozen garbage: a full collection does not walk it
start = time.monotonic()
assert not reclaim(quiet=True, now=start + RECLAIM_QUIET / 2)  # not due yet
assert not reclaim(quiet=False, now=start + RECLAIM_QUIET * 2)  # busy: not due yet
assert cycle() is not None
assert reclaim(quiet=True, now=start + RECLAIM_QUIET * 2)
assert cycle() is None  # taken back
assert gc.get_freeze_count() > 1000  # the rest frozen again
assert reclaim(quiet=False, now=start + RECLAIM_QUIET * 2 + RECLAIM_LATEST)
print("ok")
"""


def test_a_full_collection_freezes_what_survived_it() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
