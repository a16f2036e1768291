"""Arcana's card packs through the generic commands every data kind shares: ``scorekeeper
data`` (check, export, import, show, list) and ``scorekeeper enroll``, which asks what is
printed on each card as it is tagged and saves the pack under the kit's name."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from scorekeeper import cli
from scorekeeper.core.kit import made_up_uid
from scorekeeper.games.arcana import pack
from scorekeeper.store import Store, sqlite_url


@pytest.fixture(autouse=True)
def in_tmp(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
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


def test_enroll_asks_each_card_and_saves_the_pack(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    uid = [made_up_uid(i).upper() for i in range(1, 4)]
    badge = ["Blades' Badge", "badge", "Blades", "-", "-", "-", "-", "none", "none", "0"]
    badge += ["none", "no", "{when: always, tie_win: {arcanum: [sword]}}"]
    thieves = ["Thieves' Badge", "badge", "thieves", "-", "-", "-", "-", "none", "none", "0"]
    thieves += ["none", "no", "{when: always, tie_win: {stake_type: relic"]  # not YAML: again
    thieves += ["{when: always, tie_win: {stake_type: [relic]}}"]
    typed = "\n".join([uid[0], *badge, uid[1], *thieves]) + "\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    assert cli.main(["enroll", "--game", "arcana", "--kit", "ours", "--db", "sk.db"]) == 0
    out = capsys.readouterr().out
    assert out.count("Guild or domain (") == 2 and "write it as one line like" in out
    with Store(sqlite_url("sk.db")) as store:
        saved = store.data("arcana", "pack", "ours")
    assert saved is not None and saved["sample"] is False
    sample = pack.load_shipped("sample")["cards"]
    assert saved["cards"] == {p: sample[p] for p in ("badge_blades", "badge_thieves")}
