"""Creating tables on the hub: options a person must choose, and options frozen into the config."""

from __future__ import annotations

from pathlib import Path

import pytest

from scorekeeper.errors import ConfigError
from scorekeeper.games.arcanum.boards import dump_profile, find_profile
from scorekeeper.service import Hub


def test_an_arcanum_table_needs_a_board_profile(tmp_path: Path) -> None:
    hub = Hub.open(tmp_path / "sk.db")
    try:
        with pytest.raises(ConfigError, match="board"):
            hub.create_table("arcanum", 4)
        with pytest.raises(ConfigError, match="cannot start a table"):
            hub.create_table("arcanum", 4, options={"board": "known"})
        table_id = hub.create_table("arcanum", 4, options={"board": "sample"})
        assert hub.config(table_id).options["board"]["sample"] is True
    finally:
        hub.close()


def test_a_board_given_as_a_file_is_frozen_into_the_table(tmp_path: Path) -> None:
    file = tmp_path / "mine.yaml"
    dump_profile(find_profile("sample"), file)
    hub = Hub.open(tmp_path / "sk.db")
    try:
        table_id = hub.create_table("arcanum", 3, options={"board": str(file)})
    finally:
        hub.close()
    file.write_text("not a profile any more")
    hub = Hub.open(tmp_path / "sk.db")
    try:
        options = hub.config(table_id).options
        assert isinstance(options["board"], dict) and options["length"] == "normal"
        assert hub.status(table_id) == "created"  # it loads, whatever became of the file
    finally:
        hub.close()
