"""Every golden table script under tests/scripts/ must pass (see docs/table-scripts.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from scorekeeper.core.script import load_script, run_script

SCRIPTS = sorted((Path(__file__).parent / "scripts").rglob("*.yaml"))


def test_there_are_golden_scripts() -> None:
    names = {p.name[:4] for p in SCRIPTS}
    assert {f"T-{i:02d}" for i in range(1, 18)} <= names, "one script per T- case of the spec"


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.name for p in SCRIPTS])
def test_table_script_passes(path: Path) -> None:
    result = run_script(load_script(path))
    assert result.ok, "\n".join(f.describe(str(path)) for f in result.failures)
