"""``scorekeeper sim``: tags laid on a running table's readers from the command line, with a
kit of made-up tags (``kit fake``), against a real ``scorekeeper serve`` subprocess."""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from scorekeeper.cli import main
from tests.api.procs import free_port, start_cli, stop, wait_http

GAME = "angels-and-demons"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    root = tmp_path_factory.mktemp("sim-cmd")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = start_cli(["serve", "--port", str(port), "--db", "var/scorekeeper.db"], root)
    try:
        wait_http(f"{url}/healthz", proc)
        yield url, root / "var" / "scorekeeper.db"
    finally:
        stop(proc, signal.SIGTERM)


def test_tap_tag_and_lift_drive_the_table_like_a_reader(
    server: tuple[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url, db = server
    conn = ["--server", url, "--db", str(db)]
    kit_db = str(tmp_path / "kits.db")
    assert main(["kit", "fake", "--game", GAME, "--kit", "dry", "--db", kit_db]) == 0
    kit_file = tmp_path / "dry.yaml"
    assert main(["kit", "export", "dry", str(kit_file), "--db", kit_db]) == 0
    layout = tmp_path / "mat.yaml"
    layout.write_text(f"game: {GAME}\nseats: 3\nreaders:\n  r0: talon\n  r1: meld:0\n")
    capsys.readouterr()
    assert (
        main(
            [
                "table",
                "create",
                "--game",
                GAME,
                "--seats",
                "Ann,Bea,Cid",
                "--kit",
                str(kit_file),
                "--layout",
                str(layout),
                "--start",
                "--json",
                *conn,
            ]
        )
        == 0
    )
    table_id = json.loads(capsys.readouterr().out)["id"]

    from scorekeeper.core.kit import made_up_uid
    from scorekeeper.games import find_game

    pieces = list(find_game(GAME).pieces())
    uid_of = {p: made_up_uid(i) for i, p in enumerate(pieces, start=1)}
    # The deal turns four cards onto the talon: each laid on the talon's reader r0, and left.
    for card in ("D4b1", "H1b1", "H2b1", "H3b1"):
        assert main(["sim", "tag", table_id, "r0", uid_of[card], *conn]) == 0, capsys.readouterr()
    out = capsys.readouterr().out
    assert "accepted" in out and "0 of 4 so far" not in out
    assert main(["table", "show", table_id, "--json", *conn]) == 0
    view = json.loads(capsys.readouterr().out)
    assert [e["words"] for e in view["feed"]][:2] == [
        "the black demon 4 laid on the talon",
        "the black human 1 laid on the talon",
    ]
    assert "more cards onto the talon" not in str(view.get("waiting_for"))  # the deal is done

    # A tap lays a tag and lifts it again: two reports, in that order.
    assert main(["sim", "tap", table_id, "r1", uid_of["H1b2"], "--json", *conn]) in (0, 1)
    capsys.readouterr()
    assert main(["table", "show", table_id, "--json", *conn]) == 0
    inputs = [e["input"] for e in json.loads(capsys.readouterr().out)["feed"]]
    assert f"tag +r1 {uid_of['H1b2']}" in inputs

    # A tag on a reader the layout does not have is refused in words, exit 1.
    assert main(["sim", "tag", table_id, "r9", uid_of["H1b2"], *conn]) == 1
    assert "r9" in capsys.readouterr().out + capsys.readouterr().err
