"""``scorekeeper enroll`` and ``scorekeeper kit``: typed and reader enrollment, kit files."""

from __future__ import annotations

import io
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from scorekeeper import cli
from scorekeeper.commands import enroll as enroll_cmd
from scorekeeper.commands import kit as kit_cmd
from scorekeeper.commands.enroll import Enrollment
from scorekeeper.core.inputs import Sighting
from scorekeeper.errors import EnrollmentError
from scorekeeper.store import Store, sqlite_url
from tests.fakes import FakeGame


def uid(n: int) -> str:
    return f"0400000{n}"


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "var" / "sk.db")


@pytest.fixture(autouse=True)
def fake_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """The commands find the fake game instead of the real registry."""

    def find(game_id: str) -> FakeGame:
        assert game_id == "fake"
        return FakeGame()

    monkeypatch.setattr(enroll_cmd, "find_game", find)
    monkeypatch.setattr(kit_cmd, "find_game", find)


def session(
    db: str, typed: str, start: str | None = None, backend=None, reader: str | None = None
) -> tuple[int, str, dict[str, str]]:
    """Run one enrollment with ``typed`` as the keyboard; returns (code, output, kit entries)."""
    out = io.StringIO()
    with Store(sqlite_url(db)) as store:
        code = Enrollment(store, FakeGame(), "club", out).run(
            io.StringIO(typed), backend=backend, reader=reader, start=start
        )
    with Store(sqlite_url(db)) as store:
        entries = store.kit("club").entries if "club" in store.kits() else {}
    return code, out.getvalue(), entries


def test_typed_uids_are_saved_with_progress(db: str) -> None:
    code, out, entries = session(db, "04000001\n04:00:00:02\nq\n")
    assert code == 0
    assert entries == {uid(1): "C1", uid(2): "C2"}
    assert (
        "[0/9 tagged] Place the card 1 (C1) on the reader, or type its tag uid; "
        "Enter skips, 'q' stops"
    ) in out
    assert "C2 = 04000002 (2/9 tagged)" in out
    assert "Place the card 3 (C3)" in out
    assert "Stopped: 2/9 tagged" in out


def test_duplicate_and_malformed_tags_are_refused_and_asked_again(db: str) -> None:
    code, out, entries = session(db, f"{uid(1)}\n{uid(1)}\nnot-a-uid\n{uid(2)}\n")
    assert code == 0
    assert "refused: tag 04000001 is already registered as C1" in out
    assert "refused: 'not-a-uid' is not a tag uid" in out
    assert out.count("Place the card 2 (C2)") == 3
    assert entries == {uid(1): "C1", uid(2): "C2"}


def test_resumes_where_it_left_off(db: str) -> None:
    session(db, f"{uid(1)}\n{uid(2)}\nq\n")
    _, out, entries = session(db, f"{uid(3)}\n")
    assert out.startswith("[2/9 tagged] Place the card 3 (C3)")
    assert entries == {uid(1): "C1", uid(2): "C2", uid(3): "C3"}


def test_enter_skips_and_end_of_input_stops(db: str) -> None:
    _, out, entries = session(db, f"\n{uid(2)}\n")
    assert entries == {uid(2): "C2"}
    _, out, _ = session(db, "")
    assert out.startswith("[1/9 tagged] Place the card 1 (C1)")  # the skipped piece is back


def test_piece_restarts_and_retags(db: str) -> None:
    session(db, f"{uid(1)}\n{uid(2)}\n{uid(3)}\nq\n")
    _, out, entries = session(db, f"04000099\n{uid(4)}\nq\n", start="C2")
    assert "C2 is tagged 04000002" in out
    assert "C2 = 04000099 (was 04000002)" in out
    assert entries == {uid(1): "C1", "04000099": "C2", uid(3): "C3", uid(4): "C4"}
    # Enter keeps the tag; a refused new tag keeps the old one too
    _, out, entries = session(db, f"{uid(1)}\n\nq\n", start="C3")
    assert "refused: tag 04000001 is already registered as C1" in out
    assert entries[uid(3)] == "C3"
    assert "Place the card 5 (C5)" in out


def test_unknown_start_piece_and_other_game(db: str) -> None:
    with pytest.raises(EnrollmentError, match="no piece 'Z1'"):
        session(db, "", start="Z1")
    with Store(sqlite_url(db)) as store:
        store.save_kit("other", "arcanum", {})
        with pytest.raises(EnrollmentError, match="is for 'arcanum'"):
            Enrollment(store, FakeGame(), "other", io.StringIO())


class FakeBackend:
    """A reader backend that plays a list of sightings from a thread once started."""

    def __init__(self, sightings: list[Sighting]) -> None:
        self.sightings = sightings
        self.started = threading.Event()
        self.stopped = False

    def start(self, emit: Callable[[Sighting], None]) -> None:
        def play() -> None:
            for s in self.sightings:
                emit(s)

        threading.Thread(target=play, daemon=True).start()
        self.started.set()

    def stop(self) -> None:
        self.stopped = True


def test_tags_from_a_reader_backend(db: str) -> None:
    sightings = [
        Sighting("r9", "04999999", True),  # another reader: ignored
        Sighting("r1", "04-00-00-01", True),
        Sighting("r1", "04-00-00-01", False),  # taken off again: ignored
        Sighting("r1", uid(1), True),
    ]  # placed again: refused, asked again
    sightings += [Sighting("r1", uid(n), True) for n in range(2, 10)]
    backend = FakeBackend(sightings)
    code, out, entries = session(db, "", backend=backend, reader="r1")
    assert code == 0 and backend.stopped
    assert entries == {uid(n): f"C{n}" for n in range(1, 10)}
    assert "refused: tag 04000001 is already registered as C1" in out
    assert "All 9 pieces of kit club are tagged." in out


def test_cli_enroll_list_and_kit_commands(
    db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{uid(1)}\n{uid(2)}\nq\n"))
    assert cli.main(["enroll", "--game", "fake", "--kit", "club", "--db", db]) == 0
    assert cli.main(["enroll", "--game", "fake", "--kit", "club", "--db", db, "--list"]) == 0
    out = capsys.readouterr().out
    assert "kit club (Fake game): 2/9 tagged" in out
    assert "C3       -" in out and "04000001" in out

    assert cli.main(["kit", "list", "--db", db]) == 0
    assert "2/9 tagged" in capsys.readouterr().out
    assert cli.main(["kit", "show", "club", "--db", db]) == 0
    assert "04000002             C2       card 2" in capsys.readouterr().out

    for name in ("club.yaml", "club.json"):
        path = str(tmp_path / name)
        assert cli.main(["kit", "export", "club", path, "--db", db]) == 0
        assert cli.main(["kit", "export", "club", path, "--db", db]) == 2  # exists
        assert cli.main(["kit", "import", path, "--db", db]) == 0  # same tags: fine
        copy = name.replace(".", "-copy.")
        assert cli.main(["kit", "import", path, "--name", copy.split(".")[0], "--db", db]) == 0
    with Store(sqlite_url(db)) as store:
        assert store.kits() == ["club", "club-copy"]
        assert store.kit("club-copy").entries == store.kit("club").entries
        store.save_kit("club", "fake", {uid(5): "C5"})
    yaml_path = str(tmp_path / "club.yaml")
    assert cli.main(["kit", "import", yaml_path, "--db", db]) == 2  # differs: refused
    assert "--replace" in capsys.readouterr().err
    assert cli.main(["kit", "import", yaml_path, "--db", db, "--replace"]) == 0
    with Store(sqlite_url(db)) as store:
        assert store.kit("club").entries == {uid(1): "C1", uid(2): "C2"}
    assert cli.main(["kit", "show", "nope", "--db", db]) == 2


def test_enter_on_a_sim_reader_simulates_a_made_up_tag(db: str) -> None:
    from scorekeeper.readers.sim import SimBackend

    backend = SimBackend()
    # Enter twice (two simulated tags), 's' skips C3, a typed uid for C4, then stop.
    code, out, entries = session(db, "\n\ns\n04000004\nq\n", backend=backend)
    assert code == 0
    assert entries == {"FA4E0000000001": "C1", "FA4E0000000002": "C2", uid(4): "C4"}
    assert "press Enter to simulate a made-up tag on sim reader r0" in out
    assert "simulated: a made-up tag FA4E0000000001 on sim reader r0" in out
    assert "C1 = FA4E0000000001 (1/9 tagged)" in out
    assert backend.health()["r0"].reads == 2  # both went through the sim reader


def test_enter_simulates_on_the_chosen_sim_reader_through_the_cli(
    db: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("\n\n"))  # then end of input: it stops
    assert (
        cli.main(
            [
                "enroll",
                "--game",
                "fake",
                "--kit",
                "club",
                "--db",
                db,
                "--readers",
                "sim:r1,r2",
                "--reader",
                "r2",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "on sim reader r2" in out and "Stopped: 2/9 tagged" in out


def test_kit_fake_makes_a_labelled_made_up_kit(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["kit", "fake", "--game", "fake", "--kit", "dry", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "9 MADE-UP tags" in out and "dry runs" in out
    with Store(sqlite_url(db)) as store:
        kit = store.kit("dry")
    assert list(kit.entries.values()) == list(FakeGame().pieces())
    assert all(u.startswith("FA4E") and len(u) == 14 for u in kit.entries)
    assert cli.main(["kit", "list", "--db", db]) == 0
    assert "MADE UP: no real tags" in capsys.readouterr().out
    assert cli.main(["kit", "show", "dry", "--db", db]) == 0
    assert "FA4E0000000001       C1       card 1  (made up)" in capsys.readouterr().out
    assert cli.main(["kit", "fake", "--game", "fake", "--kit", "dry", "--db", db]) == 2
    assert "--replace" in capsys.readouterr().err
    assert cli.main(["kit", "fake", "--game", "fake", "--kit", "dry", "--db", db, "--replace"]) == 0
