"""Wrong arguments and unwritable outputs end in plain words and exit 2, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from scorekeeper import cli
from scorekeeper.core.table import TableConfig
from scorekeeper.store import Store


@pytest.mark.parametrize(
    "argv",
    [
        ["serve", "--port", "99999"],
        ["demo", "--port", "0"],
        ["serve", "--port", "http"],
        ["table", "--timeout", "-1", "list"],
    ],
)
def test_out_of_range_numbers_are_refused_by_the_parser(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        cli.main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "error: argument" in err and "Traceback" not in err


def test_export_to_an_unwritable_place_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "x.db"
    store = Store(f"sqlite:///{db}")
    table_id = store.create_table(TableConfig(game="angels-and-demons", seats=("A", "B")))
    store.close()
    out = tmp_path / "missing" / "game.json"
    assert cli.main(["export", table_id, "--db", str(db), "--out", str(out)]) == 2
    assert f"cannot write {out}" in capsys.readouterr().err
