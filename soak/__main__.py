"""``make soak``: run every reliability campaign with bounded counts and print one table.

``python -m soak`` runs them all; ``python -m soak kills leaks`` runs only those named.
``SOAK_SCALE`` (default 1) multiplies every campaign's count (``SOAK_SCALE=10 make soak`` for a
night's run), ``SOAK_SEED`` (default 2026) seeds every random choice so that a run can be
repeated. Each campaign prints its progress while it runs; the table comes at the end. The exit
status is 1 when any row missed its budget or could not run (docs/reliability.md).
"""

from __future__ import annotations

import dataclasses
import importlib
import logging
import os
import shutil
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path

from soak.report import Row, complete, exit_status, failed, render

# name, module, count at SOAK_SCALE=1 (chosen so the whole run takes 5-10 minutes on 2 cores):
# kills, cuts, frames, examples per API operation, games, unplugs, oversized requests, hub kills
CAMPAIGNS: tuple[tuple[str, str, int], ...] = (
    ("kills", "soak.kills", 50),
    ("power cuts", "soak.cuts", 200),
    ("fuzzed frames", "soak.frames", 400_000),
    ("API cases", "soak.api_cases", 80),
    ("views checked for leaks", "soak.leaks", 6),
    ("unplugs", "soak.unplugs", 40),
    ("memory", "soak.memory", 20),
    ("event faults", "soak.event_faults", 100),
)
NAMES = tuple(name for name, _, _ in CAMPAIGNS)
# the words that name a campaign on the command line: its module's name, or its first word
SHORT = {
    **{name.split()[0].lower(): name for name in NAMES},
    **{module.rsplit(".", 1)[1]: name for name, module, _ in CAMPAIGNS},
    "api": "API cases",
    "leaks": "views checked for leaks",
}


class UsageError(ValueError):
    """A bad SOAK_SCALE, SOAK_SEED or campaign name: said in words, exit status 2."""


def scale_from(env: dict[str, str]) -> float:
    """SOAK_SCALE as a positive number (1 when unset)."""
    raw = env.get("SOAK_SCALE", "").strip() or "1"
    try:
        scale = float(raw)
    except ValueError:
        raise UsageError(f"SOAK_SCALE must be a number (e.g. 10), not {raw!r}") from None
    if not 0 < scale < 10_000:
        raise UsageError(f"SOAK_SCALE must be above 0 and below 10000, not {raw}")
    return scale


def scaled(default: int, scale: float) -> int:
    """A campaign's count at ``scale``: never below 1."""
    return max(1, round(default * scale))


def chosen(args: list[str]) -> list[tuple[str, str, int]]:
    """The campaigns named on the command line (all of them when none is named)."""
    if not args:
        return list(CAMPAIGNS)
    wanted = []
    for arg in args:
        name = arg if arg in NAMES else SHORT.get(arg.lower())
        if name is None:
            raise UsageError(
                f"no campaign called {arg!r}; the campaigns are: " + ", ".join(sorted(SHORT))
            )
        wanted.append(name)
    return [c for c in CAMPAIGNS if c[0] in wanted]


def progress_for(name: str) -> Callable[[str], None]:
    """A progress printer for one campaign: a time stamp, the campaign and the line."""
    began = time.monotonic()

    def say(text: str) -> None:
        print(f"  [{time.monotonic() - began:6.1f} s] {name}: {text}", flush=True)

    return say


def run_one(name: str, module: str, count: int, seed: int, workdir: Path) -> Row:
    """Run one campaign; any exception makes a failed row naming it (the others go on)."""
    began = time.monotonic()
    say = progress_for(name)
    try:
        mod = importlib.import_module(module)
        row: Row = mod.run(count, seed=seed, workdir=workdir, progress=say)
    except Exception as exc:  # a broken campaign must not hide the others' rows
        traceback.print_exc()
        return failed(
            name, f"it stopped with {type(exc).__name__}: {exc}", time.monotonic() - began
        )
    return dataclasses.replace(row, name=name, seconds=time.monotonic() - began)


class LogsToFile:
    """While a run lasts, the product's own log lines go to ``soak.log`` in the work folder
    instead of the terminal: the reader backend warns at every unplug and the campaigns cause
    thousands of them, which would bury the progress lines."""

    def __init__(self, path: Path) -> None:
        self.logger = logging.getLogger("scorekeeper")
        self.handler = logging.FileHandler(path)
        self.handler.setFormatter(
            logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s")
        )

    def __enter__(self) -> None:
        self.logger.addHandler(self.handler)
        self.propagate, self.logger.propagate = self.logger.propagate, False

    def __exit__(self, *_: object) -> None:
        self.logger.removeHandler(self.handler)
        self.logger.propagate = self.propagate
        self.handler.close()


def main(argv: list[str] | None = None, env: dict[str, str] | None = None) -> int:
    env = dict(os.environ) if env is None else env
    try:
        scale = scale_from(env)
        seed = int(env.get("SOAK_SEED", "2026") or "2026")
        campaigns = chosen(list(sys.argv[1:] if argv is None else argv))
    except ValueError as exc:
        print(f"soak: {exc}", file=sys.stderr)
        return 2
    workdir = Path(tempfile.mkdtemp(prefix="scorekeeper-soak-"))
    print(
        f"scorekeeper soak: {len(campaigns)} campaigns, SOAK_SCALE={scale:g}, "
        f"SOAK_SEED={seed}, work files in {workdir}",
        flush=True,
    )
    began = time.monotonic()
    rows = []
    with LogsToFile(workdir / "soak.log"):
        for name, module, default in campaigns:
            count = scaled(default, scale)
            print(f"\n{name} (count {count:,})", flush=True)
            place = workdir / name.split()[0].lower()
            place.mkdir()
            rows.append(run_one(name, module, count, seed, place))
    rows = complete(rows, [name for name, _, _ in campaigns])
    status = exit_status(rows)
    print(
        f"\nscorekeeper soak, SOAK_SCALE={scale:g}, SOAK_SEED={seed}, "
        f"{time.monotonic() - began:.0f} s in all\n",
        flush=True,
    )
    print(render(rows), flush=True)
    if status == 0:
        shutil.rmtree(workdir, ignore_errors=True)
    else:
        print(f"\nwork files kept for a look: {workdir}", flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
