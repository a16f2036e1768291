"""A port already in use is refused in plain words before anything is opened or printed."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from scorekeeper import cli


@pytest.mark.parametrize("command", ["serve", "demo"])
def test_busy_port_is_refused_before_the_database_is_touched(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        db = tmp_path / "var" / "busy.db"
        code = cli.main([command, "--port", str(port), "--db", str(db)])
    out = capsys.readouterr()
    assert code == 2
    assert f"cannot listen on 127.0.0.1:{port}" in out.err and "--port" in out.err
    assert "organiser token" not in out.out
    assert not db.exists()
