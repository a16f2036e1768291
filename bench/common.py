"""Small helpers shared by the benchmarks: percentiles and the report line format."""

from __future__ import annotations

import math
from collections.abc import Sequence


def percentile(values: Sequence[float], pct: float) -> float:
    """The ``pct`` percentile (0-100) of ``values`` by the nearest-rank method."""
    if not values:
        raise ValueError("no values")
    ordered = sorted(values)
    rank = max(1, math.ceil(pct / 100 * len(ordered)))
    return ordered[rank - 1]


def report(name: str, value: str, budget: str, ok: bool | None) -> None:
    """Print one figure with its budget and a verdict (None: no budget applies)."""
    verdict = "" if ok is None else ("  ok" if ok else "  OVER BUDGET")
    print(f"{name:<56} {value:>24}   budget {budget}{verdict}", flush=True)
