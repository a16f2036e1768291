"""make soak's table and exit status: a row over budget, a campaign that crashed and one that is
missing all fail the run; counts follow SOAK_SCALE (soak/report.py, soak/__main__.py)."""

from __future__ import annotations

import logging
import sys
import tempfile
import types
from pathlib import Path
from typing import Any

import pytest

from soak import __main__ as soak_main
from soak import cuts
from soak.report import FAILED, OK, OVER, Row, complete, exit_status, failed, render


def _row(name: str, ok: bool = True, **extra: Any) -> Row:
    return Row(name, "3 kills, 1,204 inputs acknowledged", "0 lost", "0 lost", ok, 12.4, **extra)


def test_the_table_has_one_aligned_line_per_row_with_its_verdict() -> None:
    text = render(
        [
            _row("kills"),
            _row("unplugs", ok=False, problems=("median 1300 ms",)),
            failed("power cuts", "soak.powercut cannot be imported"),
        ]
    )
    lines = text.splitlines()
    assert lines[0].split() == [
        "campaign",
        "done",
        "lost",
        "or",
        "leaked",
        "budget",
        "time",
        "verdict",
    ]
    body = lines[2:5]
    assert [line.split()[0] for line in body] == ["kills", "unplugs", "power"]
    assert body[0].rstrip().endswith(OK) and body[1].rstrip().endswith(OVER)
    assert body[2].rstrip().endswith(FAILED)
    # every column starts at the same place on each line
    starts = {line.index("0 lost") for line in body[:2]}
    assert len(starts) == 1
    assert "12 s" in body[0]
    assert "  unplugs: median 1300 ms" in text
    assert "  power cuts: soak.powercut cannot be imported" in text
    assert lines[-1] == "1 of 3 rows within budget; not: unplugs, power cuts"


def test_any_row_over_budget_or_not_run_makes_the_exit_status_non_zero() -> None:
    assert exit_status([_row("kills"), _row("memory")]) == 0
    assert exit_status([_row("kills"), _row("memory", ok=False)]) == 1
    assert exit_status([_row("kills"), failed("memory", "crashed")]) == 1
    # a row claiming ok but that did not run is not a pass
    assert exit_status([Row("x", "", "", "", True, ran=False)]) == 1


def test_a_campaign_that_gave_no_row_is_shown_as_failed() -> None:
    rows = complete([_row("unplugs")], ["kills", "unplugs"])
    assert [r.name for r in rows] == ["kills", "unplugs"]
    assert rows[0].verdict == FAILED and "gave no result" in rows[0].problems[0]
    assert exit_status(rows) == 1


def _campaign(monkeypatch: pytest.MonkeyPatch, name: str, behaviour: Any) -> list[int]:
    """A fake campaign module ``name`` whose run records the counts it is given."""
    counts: list[int] = []
    module = types.ModuleType(name)

    def run(count: int, *, seed: int, workdir: Path, progress: Any) -> Row:
        counts.append(count)
        progress("working")
        return behaviour(count)

    module.run = run  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, name, module)
    return counts


def _crash(count: int) -> Row:
    logging.getLogger("scorekeeper.readers.serial").warning("bridge offline: read failed")
    raise RuntimeError("the pty vanished")


def test_main_runs_each_campaign_scaled_and_fails_on_any_bad_row(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # main's work files go here
    good = _campaign(monkeypatch, "fake_good", lambda n: _row("ignored"))
    over = _campaign(monkeypatch, "fake_over", lambda n: _row("ignored", ok=False))
    _campaign(monkeypatch, "fake_crash", _crash)
    monkeypatch.setattr(
        soak_main,
        "CAMPAIGNS",
        (("good", "fake_good", 10), ("over", "fake_over", 3), ("crash", "fake_crash", 1)),
    )
    assert soak_main.main([], {"SOAK_SCALE": "2.5"}) == 1
    assert good == [25] and over == [8]  # SOAK_SCALE multiplies every count
    captured = capsys.readouterr()
    out = captured.out
    assert "good: working" in out  # progress while it runs
    table = out[out.index("campaign  ") :]
    assert [line.split()[-1] for line in table.splitlines()[2:5]] == [OK, OVER, FAILED]
    assert "crash: it stopped with RuntimeError: the pty vanished" in table

    kept = list(tmp_path.iterdir())
    assert len(kept) == 1 and f"work files kept for a look: {kept[0]}" in out
    # the product's log lines went to the work folder, not between the progress lines
    assert "bridge offline" not in out + captured.err
    assert "WARNING scorekeeper.readers.serial bridge offline" in (kept[0] / "soak.log").read_text()

    monkeypatch.setattr(soak_main, "CAMPAIGNS", (("good", "fake_good", 10),))
    assert soak_main.main([], {}) == 0
    assert good[-1] == 10
    assert list(tmp_path.iterdir()) == kept  # a run that passed leaves nothing behind


def test_bad_settings_are_refused_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert soak_main.main([], {"SOAK_SCALE": "lots"}) == 2
    assert "SOAK_SCALE must be a number" in capsys.readouterr().err
    assert soak_main.main([], {"SOAK_SCALE": "0"}) == 2
    assert soak_main.main(["nonsense"], {}) == 2
    assert "no campaign called 'nonsense'" in capsys.readouterr().err


def test_campaigns_are_chosen_by_short_names() -> None:
    assert [c[0] for c in soak_main.chosen(["leaks", "kills"])] == [
        "kills",
        "views checked for leaks",
    ]
    assert [c[0] for c in soak_main.chosen(["api", "cuts"])] == ["power cuts", "API cases"]
    assert len(soak_main.chosen([])) == len(soak_main.CAMPAIGNS) == 8
    assert [c[0] for c in soak_main.chosen(["event"])] == ["event faults"]


def test_power_cuts_without_their_module_fail_and_say_why(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "soak.powercut", None)  # importing it raises ImportError
    row = cuts.run(1, seed=1, workdir=tmp_path, progress=print)
    assert not row.ran and row.verdict == FAILED
    assert "soak.powercut cannot be imported" in row.problems[0]


def test_a_power_cut_result_passes_only_with_nothing_lost() -> None:
    def result(**changes: Any) -> Any:
        fields = {
            "cuts": 20,
            "acknowledged": 900,
            "lost": 0,
            "altered": 0,
            "refused_starts": 0,
            "seconds": 61.0,
            "problems": (),
            "dropped": 40,
        }
        return types.SimpleNamespace(**{**fields, **changes})

    good = cuts.row_from(result())
    assert (
        good.ok and good.done == "20 cuts, 900 inputs acknowledged, 40 unsynced writes thrown away"
    )
    assert good.lost == "0 lost, 0 altered, 0 refused starts"
    for bad in (
        {"lost": 1},
        {"altered": 2},
        {"refused_starts": 1},
        {"problems": ("cut 3: table t1 #41 missing",)},
        {"dropped": 0},
    ):
        assert not cuts.row_from(result(**bad)).ok, bad
