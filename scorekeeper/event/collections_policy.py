"""Short pauses for the garbage collector in a hub process, whose heap only grows.

A hub keeps a replica of every game of the event (scorekeeper/event/replicas.py), hundreds of
thousands of objects that live as long as the event. CPython's full collection walks every one
of them with all threads stopped, and it comes each time the heap has grown by a quarter: in
``make bench``'s event run a hub's full collections took 60-280 ms each, and every record that
arrived meanwhile waited (most of the p99 from a table's input to the hub's view).

``keep_full_collections_short()`` has each full collection followed by ``gc.freeze()``: what
survived it moves to the permanent generation, which later collections do not walk, so each
one walks only what the hub made since the last. Objects are still freed when their last
reference goes (reference counting does not look at generations).

Hazard: a reference cycle that was alive at a freeze and becomes garbage later is never
collected (a replica the hub forgets after a re-seat holds one: some hundred kilobytes, a few
times an event). That is the price of the short pauses, paid only by a hub process: a table's
server never calls this, nor do the tests' processes (the policy stays for the process's
life).
"""

from __future__ import annotations

import gc
from typing import Any

_installed: list[bool] = []


def _after(phase: str, info: dict[str, Any]) -> None:
    if phase == "stop" and info.get("generation") == 2:
        gc.freeze()


def keep_full_collections_short() -> None:
    """Freeze what the hub holds now, and after every full collection from now on (for the
    process's life; calling it again changes nothing)."""
    if _installed:
        return
    _installed.append(True)
    gc.collect()
    gc.freeze()
    gc.callbacks.append(_after)
