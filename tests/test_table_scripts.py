"""Every golden table script under tests/scripts/ must pass (see docs/table-scripts.md).

Files whose names start with ``_`` are shared steps that scripts ``include:``, not scripts.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from scorekeeper.core.script import load_script, run_script

ROOT = Path(__file__).parent / "scripts"
SCRIPTS = sorted(p for p in ROOT.rglob("*.yaml") if not p.name.startswith("_"))


def _names(game_folder: str) -> set[str]:
    return {p.stem for p in SCRIPTS if p.parent.name == game_folder}


def _has(names: set[str], prefix: str) -> bool:
    """A script named ``prefix`` or ``prefix-<slug>`` exists (``T-01`` matches ``T-01-setup``
    but not ``T-010``)."""
    return any(
        n == prefix or n.startswith(prefix + "-") or n.startswith(prefix + "b") for n in names
    )


def test_there_are_golden_scripts() -> None:
    names = _names("angels_demons")
    assert {f"T-{i:02d}" for i in range(1, 18)} <= {n[:4] for n in names}


def test_arcanum_has_a_script_per_example_location_major_and_rule() -> None:
    """Issue 3: every T case, every location effect, every major, and a refusal per R-PLAY,
    R-MIN and R-DRAW rule."""
    names = _names("arcanum")
    wanted = (
        [f"T-{i:02d}" for i in range(1, 18)]
        + [f"L-{i:02d}" for i in range(1, 11)]
        + [f"M-{i:02d}" for i in range(22)]
        + [f"R-PLAY-{i}" for i in range(1, 6)]
        + [f"R-MIN-{i}" for i in range(1, 8)]
        + [f"R-DRAW-{i}" for i in range(1, 6)]
    )
    missing = [w for w in wanted if not _has(names, w)]
    assert not missing, f"no script for {missing}"


def test_king_of_the_elves_has_a_script_per_example_and_travel_refusal() -> None:
    """Issue 13: every T- case of the rules, and a refusal per travel rule. Its G-n scripts are
    rulings (not games, as Arcanum's zero-padded G-01 is), so each refuses citing its ruling."""
    names = _names("king_of_the_elves")
    examples = ["T-SETUP-1", "T-SETUP-2", "T-COST-1", "T-COST-2", "T-COST-3", "T-BUY-1"]
    examples += ["T-PLACE-1", "T-REMOVE-1", "T-PLAN-EX1", "T-TRAVEL-ANITA", "T-TRAVEL-EVA"]
    refusals = [f"R-TRAVEL-{i}" for i in (6, 7, 10, 11, 15, 16)] + ["G-1", "G-8"]
    missing = [w for w in examples + refusals if not _has(names, w)]
    assert not missing, f"no script for {missing}"
    for path in SCRIPTS:
        rule = "-".join(path.stem.split("-")[0:2])
        if path.parent.name == "king_of_the_elves" and path.stem.startswith("G-"):
            text = path.read_text(encoding="utf-8")
            assert f"rule: {rule}\n" in text, f"{path.name} has no reject citing {rule}"


def test_arcana_has_a_script_per_example_option_and_intrigue_refusal() -> None:
    """Issue 14 (docs/games/arcana.md, "Golden scripts"): every T- case, one script per option
    and per gap option's other choice, a refusal per intrigue rule (each citing it), and the
    whole 4-player game."""
    names = _names("arcana")
    examples = [f"T-{i:02d}" for i in range(1, 20)]
    options = ["custom-guild", "objectives", "watch-extra", "masters-by-card"]
    options += ["masters-unlimited", "events", "set-aside", "late-princes-games", "leftovers"]
    options += ["tie-breakers-any", "harlequin-bribes"]
    refusals = ["R-INT-1", "R-INT-2", "R-INT-3", "R-INT-6", "R-BRIBE-1", "R-BRIBE-2"]
    refusals += ["R-OPT-D-2", "R-OPT-E-2", "G-5", "G-22", "G-32", "G-35"]
    wanted = examples + [f"OPT-{o}" for o in options] + refusals
    missing = [w for w in wanted if not _has(names, w)]
    missing += [] if "GAME-four-players-all-options" in names else ["GAME-four-players-all-options"]
    assert not missing, f"no script for {missing}"
    folder = ROOT / "arcana"
    for rule in refusals:
        text = (folder / f"{rule}.yaml").read_text(encoding="utf-8")
        assert f"rule: {rule}\n" in text, f"{rule}.yaml has no reject citing {rule}"


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.name for p in SCRIPTS])
def test_table_script_passes(path: Path) -> None:
    result = run_script(load_script(path))
    assert result.ok, "\n".join(f.describe(str(path)) for f in result.failures)


def test_rejection_scripts_cite_their_rule() -> None:
    """A script named after a rule (R-MIN-2.yaml) refuses at least one input citing it."""
    for path in SCRIPTS:
        if not path.stem.startswith("R-"):
            continue
        rule = path.stem.split("-")[0:3]
        text = path.read_text(encoding="utf-8")
        assert f"rule: {'-'.join(rule)}" in text, f"{path.name} has no reject citing {rule}"
