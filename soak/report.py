"""The soak table: one row per campaign, what it did, what was lost, its budget and a verdict.

A campaign hands back a ``Row``; ``render`` lays the rows out as one plain-text table and
``exit_status`` says whether ``make soak`` passed. A campaign that was expected but gave no row
(it crashed, or its module is not there yet) is shown as FAILED, never as passed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

OK, OVER, FAILED = "ok", "OVER", "FAILED"


@dataclass(frozen=True)
class Row:
    """One campaign's outcome.

    ``done`` is what it did with counts and units ("30 kills, 2,114 inputs acknowledged"),
    ``lost`` what was lost or leaked (every count in it must be 0 for a pass, unless the
    budget says otherwise), ``budget`` the promise it is held to, ``ok`` whether it kept it.
    ``ran`` is False when the campaign could not run at all; ``problems`` name what went wrong,
    each in one line, printed under the table.
    """

    name: str
    done: str
    lost: str
    budget: str
    ok: bool
    seconds: float = 0.0
    ran: bool = True
    problems: tuple[str, ...] = field(default=())

    @property
    def verdict(self) -> str:
        if self.ok and self.ran:
            return OK
        return OVER if self.ran else FAILED


def failed(name: str, why: str, seconds: float = 0.0) -> Row:
    """The row of a campaign that did not run to its end: counted as failed, with the reason."""
    return Row(name, "did not run", "unknown", "-", False, seconds, ran=False, problems=(why,))


def complete(rows: Iterable[Row], expected: Sequence[str]) -> list[Row]:
    """``rows`` in the order of ``expected``, with a failed row for every expected campaign
    that gave none (a campaign missing from the table must not look like a pass)."""
    by_name = {row.name: row for row in rows}
    out = [
        by_name.pop(name) if name in by_name else failed(name, "the campaign gave no result")
        for name in expected
    ]
    return out + list(by_name.values())


def exit_status(rows: Iterable[Row]) -> int:
    """0 when every row kept its budget, 1 otherwise."""
    return 0 if all(row.ok and row.ran for row in rows) else 1


def count(n: int | float, unit: str, plural: str | None = None) -> str:
    """``n`` with thousands separators and its unit ("1 kill", "12,786 inputs")."""
    words = unit if n == 1 else (plural or unit + "s")
    return f"{n:,} {words}"


HEADINGS = ("campaign", "done", "lost or leaked", "budget", "time", "verdict")


def render(rows: Sequence[Row]) -> str:
    """The rows as one table, each column as wide as its longest cell, then each row's
    problems; long cells are kept whole (a terminal wraps them, the figures stay exact)."""
    cells = [HEADINGS] + [
        (r.name, r.done, r.lost, r.budget, f"{r.seconds:.0f} s", r.verdict) for r in rows
    ]
    widths = [max(len(line[i]) for line in cells) for i in range(len(HEADINGS))]

    def line(values: Sequence[str]) -> str:
        return "  ".join(v.ljust(w) for v, w in zip(values, widths, strict=True)).rstrip()

    out = [line(cells[0]), "  ".join("-" * w for w in widths)]
    out += [line(c) for c in cells[1:]]
    notes = [f"{r.name}: {p}" for r in rows for p in r.problems]
    if notes:
        out += ["", "problems:"] + [f"  {n}" for n in notes]
    failing = [r.name for r in rows if not (r.ok and r.ran)]
    out += [
        "",
        f"{len(rows) - len(failing)} of {len(rows)} rows within budget"
        + (f"; not: {', '.join(failing)}" if failing else ""),
    ]
    return "\n".join(out)
