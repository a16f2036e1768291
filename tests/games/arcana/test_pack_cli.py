"""Arcana's card packs through ``scorekeeper data`` (check, export, import, show, list), the
generic command every data kind shares. The game is not registered yet: a stand-in that
declares only the pack kind is, for these tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from scorekeeper import cli
from scorekeeper import games as registry
from scorekeeper.core.data_kind import DataKind
from scorekeeper.games.arcana import pack
from scorekeeper.games.arcana.pack_data import PACK_KIND


class _PacksOnly:
    """What ``scorekeeper data`` asks of a game: its data kinds."""

    id = "arcana"
    name = "Arcana"

    def data_kinds(self) -> tuple[DataKind, ...]:
        return (PACK_KIND,)


@pytest.fixture(autouse=True)
def packs_registered(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    make: Any = _PacksOnly
    monkeypatch.setitem(registry._REGISTRY, "arcana", make)
    monkeypatch.setattr(registry, "_LOADED", dict(registry._LOADED))
    monkeypatch.chdir(tmp_path)


def data(*args: str) -> int:
    return cli.main(["data", *args, "--game", "arcana", "--db", "sk.db"])


def test_export_import_show_and_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert data("list") == 0
    assert capsys.readouterr().out.split() == ["sample", "complete", "sample", "(made", "up)"]
    assert data("export", "sample", "--format", "csv", "--output", "ours.csv") == 0
    assert data("import", "ours.csv", "--name", "club") == 0
    assert "saved card pack 'club' in sk.db (complete)" in capsys.readouterr().out
    assert data("show", "club") == 0
    shown = capsys.readouterr().out
    assert shown.startswith("card pack 'club': A made-up pack for demos and tests.")
    assert "  ferrymen_03: Crossbowman: agent, ferrymen, letter A, wand 0 sword 3" in shown


def test_check_names_the_file_line_card_and_field(capsys: pytest.CaptureFixture[str]) -> None:
    text = Path(pack.shipped()["sample"]).read_text(encoding="utf-8")
    text = text.replace("name: sample\nsample: true", "name: ours\nsample: false")
    broken = text.replace(
        "coin: 7}, major: [sword], threshold: {sword: 5}",
        "coin: 7}, major: [sword], threshold: {sword: 6}",
    )
    Path("ours.yaml").write_text(broken, encoding="utf-8")
    assert data("check", "ours.yaml") == 2
    line = broken.splitlines().index(
        next(x for x in broken.splitlines() if x.startswith("  stake_002:"))
    )
    said = capsys.readouterr().err
    assert said.startswith(f"ours.yaml:{line + 1}: stake_002 (Ayane): threshold in sword is 6")
    half = "\n".join(x for x in text.splitlines() if not x.startswith("  stake_116:"))
    Path("half.yaml").write_text(half + "\n", encoding="utf-8")
    assert data("check", "half.yaml") == 1
    out = capsys.readouterr().out
    assert "card pack 'ours' is incomplete:\n  - stakes: 1 of the 116 are not recorded" in out
