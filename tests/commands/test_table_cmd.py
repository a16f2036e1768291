"""``scorekeeper table`` against a real ``scorekeeper serve`` subprocess (one per module).

The console runs in-process through ``scorekeeper.cli.main`` (fast), except for the check that
the installed entry point reports a missing server; the server is a real subprocess on a free
port with a temporary database, playing the real game angels-and-demons.
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import httpx
import pytest

from scorekeeper.cli import main
from tests.api.procs import free_port, start_cli, stop, wait_http

GAME = "angels-and-demons"
DEAL = ("D4b1", "H1b1", "H2b1", "H3b1")  # three seats: four cards turned onto the talon


@dataclass(frozen=True)
class Server:
    """The running server of this module: its URL, database and folder."""

    url: str
    db: Path
    root: Path

    @property
    def token(self) -> str:
        return (self.db.parent / "organiser-token").read_text().strip()


@dataclass(frozen=True)
class Ran:
    """One ``scorekeeper table`` run: exit code and what it printed."""

    code: int
    out: str
    err: str


class Sk(Protocol):
    """Runs ``scorekeeper table ARGS`` (with this module's --server and --db unless told)."""

    def __call__(self, *args: str, connect: bool = True) -> Ran: ...


def _match(pattern: str, text: str) -> str:
    found = re.search(pattern, text)
    assert found, f"{pattern!r} not in {text!r}"
    return found.group(1)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    root = tmp_path_factory.mktemp("table-cmd")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = start_cli(["serve", "--port", str(port), "--db", "var/scorekeeper.db"], root)
    try:
        wait_http(f"{url}/healthz", proc)
        yield Server(url, root / "var" / "scorekeeper.db", root)
    finally:
        stop(proc, signal.SIGTERM)


@pytest.fixture
def sk(server: Server, capsys: pytest.CaptureFixture[str]) -> Iterator[Sk]:
    """``sk("list")`` runs ``scorekeeper table list --server URL --db DB`` in-process."""

    def run(*args: str, connect: bool = True) -> Ran:
        extra = ["--server", server.url, "--db", str(server.db)] if connect else []
        capsys.readouterr()
        try:
            code = main(["table", *args, *extra])
        except SystemExit as exc:  # argparse: bad arguments
            code = int(exc.code or 0)
        out, err = capsys.readouterr()
        return Ran(code, out, err)

    yield run


def _new_table(sk: Sk, *extra: str) -> str:
    ran = sk("create", "--game", GAME, "--seats", "Ann,Bea,Cid", "--start", *extra)
    assert ran.code == 0, ran.err
    return _match(r"created table (t\d+) \(running\)", ran.out)


def _dealt(sk: Sk) -> str:
    tid = _new_table(sk)
    for card in DEAL:
        ran = sk("input", tid, f"+talon {card}")
        assert ran.code == 0 and "accepted" in ran.out, ran.out + ran.err
    return tid


def _view(sk: Sk, tid: str) -> dict[str, Any]:
    ran = sk("show", tid, "--json")
    assert ran.code == 0, ran.err
    view = json.loads(ran.out)
    assert isinstance(view, dict)
    return view


def test_create_start_and_list(sk: Sk, server: Server) -> None:
    ran = sk(
        "create",
        "--game",
        GAME,
        "--seats",
        "Ann,Bea,Cid",
        "--name",
        "Table 3",
        "--option",
        "mode=basic",
        "--start",
    )
    assert ran.code == 0, ran.err
    tid = _match(r"created table (t\d+) \(running\)", ran.out)
    assert f"watch it: {server.url}/#{tid}" in ran.out

    listed = sk("list")
    assert listed.code == 0, listed.err
    block = listed.out[listed.out.index(f"{tid} ") :]
    assert "running" in block and "Table 3" in block
    assert "0 Ann 0, 1 Bea 0, 2 Cid 0" in block
    assert "waiting for: Ann: turn 4 more cards onto the talon" in block
    rows = json.loads(sk("list", "--json").out)
    row = next(r for r in rows if r["id"] == tid)
    assert row["seats"] == ["Ann", "Bea", "Cid"] and row["status"] == "running"

    created = sk("create", "--game", GAME, "--seats", "2", "--json")
    assert json.loads(created.out)["status"] == "created"
    assert "start it: scorekeeper table start" not in created.out  # --json: JSON only


def test_input_refused_accepted_and_undo(sk: Sk) -> None:
    tid = _new_table(sk)
    refused = sk("input", tid, "+discard:1 H1b1")
    assert refused.code == 1
    assert "refused" in refused.out and "rule R-SETUP-4:" in refused.out
    assert "hint: " in refused.out and "now waiting for: Ann" in refused.out
    for card in DEAL:
        assert sk("input", tid, f"+talon {card}").code == 0
    last = sk("input", tid, "-talon D4b1")
    assert last.code == 0 and "accepted" in last.out
    assert _view(sk, tid)["state"]["talon"] == ["H1b1", "H2b1", "H3b1"]

    fixed = sk("correct", tid, "-talon H1b1", "--yes")  # it was H1, not D4
    assert fixed.code == 0, fixed.out + fixed.err
    assert _view(sk, tid)["state"]["talon"] == ["D4b1", "H2b1", "H3b1"]

    undone = sk("undo", tid, "--yes")
    assert undone.code == 0 and "accepted" in undone.out
    assert "undo would take back #" in undone.out and "lifted off" in undone.out
    assert "at the table: Put the " in undone.out
    assert _view(sk, tid)["state"]["talon"] == list(DEAL)
    redo = sk("correct", tid, "-talon D4b1")  # no terminal and no --yes: nothing is changed
    assert redo.code == 2 and "add --yes" in redo.err
    assert _view(sk, tid)["state"]["talon"] == list(DEAL)

    syntax = sk("input", tid, "bogus")
    assert syntax.code == 1 and "not an input: 'bogus'" in syntax.err


def test_decide(sk: Sk) -> None:
    tid = _dealt(sk)
    ran = sk("decide", tid, "1", "waiting", "yes")
    assert ran.code == 0 and "Bea declares" in ran.out, ran.out + ran.err
    nobody = sk("decide", tid, "organiser", "claim", "pass")
    assert nobody.code == 1 and "rule TABLE-NO-PROMPT:" in nobody.out
    assert sk("decide", tid, "bob", "waiting", "yes").code == 2


def test_show_text_json_and_seat(sk: Sk) -> None:
    tid = _dealt(sk)
    sk("input", tid, "+discard:2 H7b1")  # refused: not Cid's turn
    ran = sk("show", tid)
    assert ran.code == 0, ran.err
    text = ran.out
    assert f"{tid} —" in text and "running (organiser view)" in text
    assert "seats and scores: 0 Ann 0, 1 Bea 0, 2 Cid 0" in text
    assert "waiting for: Ann: take a card from the talon" in text
    assert "pending prompts:" in text
    assert f"scorekeeper table decide {tid} 2 waiting yes" in text
    assert "REFUSED the black human 7 laid on Cid's discard row" in text  # words, not ids
    assert "rule R-TURN-" in text and "hint: " in text
    assert "yes, waiting = yes" in text
    assert "Ann dealt round 1" in text

    view = _view(sk, tid)
    assert view["audience"] == "organiser" and view["id"] == tid and "readers" in view

    seat = sk("show", tid, "--seat", "1")
    assert seat.code == 0 and "(seat 1 view)" in seat.out
    assert "+talon" not in seat.out  # raw inputs are for the organiser only
    assert sk("show", tid, "--seat", "7").code == 1


def test_pause_and_start(sk: Sk) -> None:
    tid = _new_table(sk)
    paused = sk("pause", tid)
    assert paused.code == 0 and "paused" in paused.out
    refused = sk("input", tid, "+talon D4b1")
    assert refused.code == 1 and "is paused" in refused.err and "not recorded" in refused.err
    again = sk("pause", tid)
    assert again.code == 1 and "not running" in again.err
    started = sk("start", tid)
    assert started.code == 0 and "running" in started.out
    assert sk("input", tid, "+talon D4b1").code == 0
    ended = sk("end", tid)
    assert ended.code == 0 and "ended" in ended.out and "export" in ended.out


def test_pair(sk: Sk, server: Server) -> None:
    tid = _new_table(sk)
    ran = sk("pair", tid, "1")
    assert ran.code == 0, ran.err
    code = _match(r"pairing code for seat 1 \(Bea\) of t\d+: (\w+)", ran.out)
    assert f"open on the phone: {server.url}/?pair={code}" in ran.out
    redeemed = httpx.post(f"{server.url}/api/pair", json={"code": code})
    assert redeemed.status_code == 200 and redeemed.json()["seat"] == 1
    assert sk("pair", tid, "9").code == 1
    unpaired = sk("unpair", tid, "1")
    assert unpaired.code == 0 and "withdrew 1 token and 0 unused pairing codes" in unpaired.out


def test_layout_and_kit_files(sk: Sk, server: Server, tmp_path: Path) -> None:
    layout = tmp_path / "mat.yaml"
    layout.write_text("game: angels-and-demons\nseats: 3\nreaders:\n  r1: talon\n  r2: discard:0\n")
    kit = tmp_path / "club-copy.yaml"
    kit.write_text("game: angels-and-demons\nname: club-copy\ntags:\n  04A1B2C3: D4b1\n")
    tid = _new_table(sk, "--layout", str(layout), "--kit", str(kit), "--readers", "sim")
    seen = sk("input", tid, "tag +r1 04A1B2C3")
    assert seen.code == 0 and "accepted" in seen.out, seen.out + seen.err
    assert _view(sk, tid)["state"]["talon"] == ["D4b1"]
    assert "readers online: r1, r2" in sk("show", tid).out

    before = len(httpx.get(f"{server.url}/api/tables").json())
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: angels-and-demons\nreaders:\n  r1: talon\n  r2: dicsard:0\n")
    ran = sk("create", "--game", GAME, "--seats", "Ann,Bea,Cid", "--layout", str(bad))
    assert ran.code == 2
    assert f"{bad}:4:" in ran.err and "no zone 'dicsard:0'" in ran.err
    assert len(httpx.get(f"{server.url}/api/tables").json()) == before


def test_server_errors_in_its_own_words(sk: Sk, server: Server) -> None:
    wrong = sk("undo", "t1", "--token", "not-the-token")
    assert wrong.code == 1 and "this token is not known here" in wrong.err
    missing = sk("undo", "t99")
    assert missing.code == 1 and "there is no table 't99'" in missing.err
    game = sk("create", "--game", "chess", "--seats", "2")
    assert game.code == 1 and "no game called 'chess'" in game.err
    with_token = sk("list", "--token", server.token, "--server", server.url, connect=False)
    assert with_token.code == 0


def test_no_token_and_bad_arguments(sk: Sk, server: Server, tmp_path: Path) -> None:
    ran = sk(
        "undo", "t1", "--server", server.url, "--db", str(tmp_path / "other.db"), connect=False
    )
    assert ran.code == 2
    assert "no organiser token: pass --token, or --db of the server's database" in ran.err
    assert sk("create", "--game", GAME, "--seats", "Ann,,Bea").code == 2
    assert sk("create", "--game", GAME, "--seats", "3", "--option", "mode").code == 2
    assert sk("input").code == 2


def test_no_server(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    done = subprocess.run(
        [sys.executable, "-m", "scorekeeper", "table", "list", "--server", url],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 1
    assert f"no scorekeeper server at {url}: start it with 'scorekeeper serve'" in done.stderr


def test_create_asks_for_the_board_profile_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Arcanum's board is an option a person must choose: asked on a terminal; a file is sent
    whole (the server keeps the profile it was created with)."""
    import io

    from scorekeeper.commands import table as table_cmd
    from scorekeeper.games.arcanum.boards import dump_profile, find_profile

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    file = tmp_path / "mine.yaml"
    dump_profile(find_profile("sample"), file)
    monkeypatch.setattr("sys.stdin", Tty())
    answers = iter(["", str(file)])  # Enter first: there is no default, so it asks again
    prompts: list[str] = []

    def fake_input(prompt: str = "") -> str:
        prompts.append(prompt)
        return next(answers)

    monkeypatch.setattr("builtins.input", fake_input)
    capsys.readouterr()
    options: dict[str, object] = {}
    table_cmd._ask_options("arcanum", options)
    shown = capsys.readouterr().out
    assert isinstance(options["board"], dict) and options["board"]["name"] == "sample"
    assert len(prompts) == 2 and all("no default" in p and "[" not in p for p in prompts)
    assert "there is no default" in shown
    assert "sample" in shown and "made up" in shown and "known" in shown  # the choices, named
    options = {"board": "sample"}
    table_cmd._ask_options("arcanum", options)  # given: nothing is asked
    assert options == {"board": "sample"}
    monkeypatch.setattr("sys.stdin", io.StringIO())  # no terminal: the flag to give is named
    with pytest.raises(table_cmd.ConsoleError) as exc:
        table_cmd._ask_options("arcanum", {})
    said = str(exc.value)
    assert "--option board=NAME or --option board=FILE" in said and "sample" in said


def test_archive_list_and_delete_a_table_that_is_over(sk: Sk) -> None:
    tid = _new_table(sk)
    running = sk("archive", tid)
    assert running.code == 1 and "still running: end it" in running.err
    assert sk("end", tid).code == 0
    archived = sk("archive", tid)
    assert archived.code == 0 and "(archived)" in archived.out and "log" in archived.out
    assert f"{tid} " not in sk("list").out
    assert f"{tid} " in sk("list", "--archived").out
    assert sk("unarchive", tid).code == 0 and f"{tid} " in sk("list").out
    unasked = sk("delete", tid)  # no terminal and no --yes: nothing is deleted
    assert unasked.code == 2 and "add --yes" in unasked.err and f"{tid} " in sk("list").out
    deleted = sk("delete", tid, "--yes")
    assert deleted.code == 0 and f"deleted table {tid}" in deleted.out
    assert f"{tid} " not in sk("list", "--archived").out


def test_create_sends_a_data_file_whole_and_an_entry_name_as_it_is(sk: Sk, tmp_path: Path) -> None:
    """An option that selects a game's data takes a file (read here, checked, sent whole) or
    the name of an entry the server knows; a bad file is refused here, naming it and its line."""
    from scorekeeper.core import data
    from scorekeeper.games import find_game

    kind = data.kind_for_option(find_game("arcanum"), "board")
    assert kind is not None
    ours = {**data.find_entry(kind, "sample").data, "name": "ours", "sample": False}
    file = tmp_path / "ours.yaml"
    file.write_text(data.to_yaml(kind, ours), encoding="utf-8")
    seats = "Ann,Bea,Cid"
    made = sk("create", "--game", "arcanum", "--seats", seats, "--option", f"board={file}")
    assert made.code == 0, made.err
    tid = _match(r"created table (t\d+)", made.out)
    assert _view(sk, tid)["state"]["board"]["name"] == "ours"
    by_name = sk("create", "--game", "arcanum", "--seats", seats, "--board", "sample")
    assert by_name.code == 0, by_name.err
    tid = _match(r"created table (t\d+)", by_name.out)
    assert _view(sk, tid)["state"]["board"]["sample"] is True
    file.write_text("name: ours\nsample: false\ncathedral_gain: {vp: -1}\n", encoding="utf-8")
    bad = sk("create", "--game", "arcanum", "--seats", seats, "--option", f"board={file}")
    assert bad.code == 2, bad.err
    assert f"this board profile is not valid: {file}:3: the Cathedral's gain" in bad.err
