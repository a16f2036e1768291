"""``make bench``: print every budget figure of docs/design.md, each measured in this run.

Each benchmark prints one line per figure: what was measured, the value, the budget and a
verdict. Nothing here runs under ``make test``. ``python -m bench latency`` (or other words, e.g.
``referee "log append"``) runs only the steps whose name contains one of them.
``python -m bench "event mode"`` runs only event mode's figures (bench/event.py).
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Callable


def main() -> int:
    from bench import (
        bridge,
        event,
        latency,
        log_append,
        long_event,
        reader_cycle,
        referee,
        replay,
        server,
    )

    steps: list[tuple[str, Callable[[], object]]] = [
        *referee.runs(),
        *replay.runs(),
        ("log append", log_append.run),
        ("server start and memory", server.run),
        ("a long event: 500 finished games", long_event.run),
        ("sighting to WebSocket latency", latency.run),
        ("bridge path", bridge.run),
        ("reader poll cycle (emulated chip clock)", reader_cycle.run),
        ("event mode: 100 tables, two hubs, MQTT and PostgreSQL", event.run),
    ]
    wanted = [word.lower() for word in sys.argv[1:]]
    if wanted:
        steps = [(n, s) for n, s in steps if any(w in n.lower() for w in wanted)]
        if not steps:
            print(f"no benchmark step's name contains {' or '.join(wanted)}", file=sys.stderr)
            return 2
    failed = 0
    print("scorekeeper benchmarks (figures measured now, on this machine)\n")
    for name, step in steps:
        try:
            step()
        except Exception:  # a broken benchmark must not hide the others' figures
            failed += 1
            print(f"{name}: FAILED to run")
            traceback.print_exc()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
