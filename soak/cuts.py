"""Power cuts: the row of ``soak.powercut`` (power cut at random moments under a FUSE layer that
drops unsynced writes), turned into a table row.

``soak.powercut`` is imported only here, when the row runs: if it is missing or cannot run, the
row says so and fails; it is never shown as passed.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from soak.report import Row, count, failed

NAME = "power cuts"
BUDGET = "all 0"


def row_from(result: Any) -> Row:
    """The row for a ``CutResult`` (cuts, acknowledged, lost, altered, refused_starts, seconds,
    problems): every acknowledged input must survive unaltered and every start must come up."""
    lost, altered, refused = int(result.lost), int(result.altered), int(result.refused_starts)
    problems = tuple(str(p) for p in (result.problems or ()))
    dropped = getattr(result, "dropped", None)
    if dropped == 0 and result.cuts > 0:  # nothing unsynced was ever thrown away
        problems += ("no unsynced write was thrown away by any cut: the cuts tested nothing",)
    ok = lost == 0 and altered == 0 and refused == 0 and not problems and result.cuts > 0
    thrown = "" if dropped is None else f", {count(dropped, 'unsynced write')} thrown away"
    return Row(
        NAME,
        f"{count(result.cuts, 'cut')}, {count(result.acknowledged, 'input')} acknowledged{thrown}",
        f"{lost:,} lost, {altered:,} altered, {refused:,} refused starts",
        BUDGET,
        ok,
        float(result.seconds),
        problems=problems,
    )


def run(cuts: int, *, seed: int, workdir: Path, progress: Callable[[str], None]) -> Row:
    """Run ``cuts`` power cuts through ``soak.powercut.run``; a failed row when it is absent."""
    try:
        powercut = importlib.import_module("soak.powercut")
    except ImportError as exc:
        return failed(
            NAME,
            f"soak.powercut cannot be imported ({exc}): the power-cut "
            "campaign is not there, so this row cannot pass",
        )
    unavailable = getattr(powercut, "FuseUnavailable", ())
    try:
        result = powercut.run(cuts, seed=seed, workdir=workdir, progress=progress)
    except unavailable as exc:  # FUSE cannot mount here: said in words, and failed
        return failed(NAME, str(exc))
    return row_from(result)
