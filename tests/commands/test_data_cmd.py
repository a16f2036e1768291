"""``scorekeeper data``: list, show, check, import (YAML and CSV), export, save and delete board
profiles in a database, through ``scorekeeper.cli.main`` (real parsing and exit codes)."""

from __future__ import annotations

from pathlib import Path

import pytest

from scorekeeper import cli
from scorekeeper.games.arcanum.boards import dump_profile, find_profile, load_profile
from scorekeeper.store import Store, sqlite_url


@pytest.fixture(autouse=True)
def in_own_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    # Arcanum's, named: with more than one game keeping data the command asks which.
    code = cli.main(["data", *args, *(() if "--game" in args else ("--game", "arcanum"))])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_data_is_a_listed_command() -> None:
    assert cli.COMMANDS["data"][0] == "scorekeeper.commands.data"


def test_import_export_save_list_and_delete(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = str(tmp_path / "sk.db")
    mine = tmp_path / "mine.yaml"
    dump_profile(find_profile("sample"), mine)
    mine.write_text(mine.read_text().replace("name: sample", "name: club"), encoding="utf-8")
    code, out, _ = run(capsys, "import", str(mine), "--db", db)
    assert code == 0 and "saved board profile 'club'" in out and "(complete)" in out
    with Store(sqlite_url(db)) as store:
        assert store.data("arcanum", "board", "club")["sample"] is False  # type: ignore[index]

    code, out, _ = run(capsys, "export", "club", "--format", "csv", "--db", db, "-o", "club.csv")
    assert code == 0 and (tmp_path / "club.csv").read_text().startswith("location,id,name")
    code, out, _ = run(capsys, "import", "club.csv", "--name", "from-csv", "--db", db)
    assert code == 0 and "saved board profile 'from-csv'" in out
    code, out, _ = run(capsys, "export", "from-csv", "--db", db)
    assert code == 0 and "name: from-csv" in out and "10: {id: castle" in out
    (tmp_path / "back.yaml").write_text(out, encoding="utf-8")
    assert load_profile(tmp_path / "back.yaml").locations == find_profile("sample").locations

    code, out, _ = run(capsys, "save", "half", "--from", "known", "--db", db)
    assert code == 0 and "incomplete: location 1: effect, name and icons unknown" in out
    code, out, _ = run(capsys, "list", "--db", db)
    lines = [line.split()[:2] for line in out.splitlines()]
    assert lines == [
        ["known", "incomplete"],
        ["sample", "complete"],
        ["club", "complete"],
        ["from-csv", "complete"],
        ["half", "incomplete"],
    ]
    assert "saved" in out.splitlines()[2] and "sample (made up)" in out.splitlines()[1]
    code, out, _ = run(capsys, "check", "club", "half", "--db", db)
    assert code == 1 and "club: board profile 'club' is complete" in out

    code, out, _ = run(capsys, "delete", "half", "--db", db)
    assert code == 0 and "deleted the board profile 'half'" in out
    code, _, err = run(capsys, "delete", "sample", "--db", db)
    assert code == 2 and "samples cannot be deleted" in err
    code, _, err = run(capsys, "save", "sample", "--from", "club", "--db", db)
    assert code == 2 and "cannot be changed; save yours under another name" in err


def test_a_bad_csv_names_the_file_and_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "bad.csv").write_text("location,id\n1,market\n2,pub\n", encoding="utf-8")
    code, _, err = run(capsys, "import", "bad.csv", "--db", str(tmp_path / "sk.db"))
    assert code == 2
    assert "bad.csv:3: location 2: effect must be 'wizard_tower'" in err and "'pub'" in err
    code, _, err = run(capsys, "check", "bad.csv")
    assert code == 2 and "bad.csv:3: location 2" in err


def test_show_and_list_without_a_database_show_the_samples(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = run(capsys, "list", "--game", "arcanum", "--kind", "board")
    assert code == 0 and [line.split()[0] for line in out.splitlines()] == ["known", "sample"]
    assert not (tmp_path / "var").exists()  # no database made just to look
    code, out, _ = run(capsys, "show", "sample")
    assert code == 0 and out.startswith("SAMPLE board")
    code, _, err = run(capsys, "list", "--game", "angels-and-demons")
    assert code == 2 and "keeps no data of its own" in err
