"""The table-script parser and runner, driven by a tiny fake game (no real referee needed).

The fake game: seats take turns putting pieces A-D on the ``board``; each piece put scores a
point for the seat that put it and passes the turn. A piece already on the board is refused
(F-1), taking off a piece that is not there is refused (F-2), and the seat whose turn it is can
answer ``pass yes`` (anyone else: F-3). The game ends when a seat reaches ``target`` points.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.core.game import ORGANISER, PUBLIC, Audience, Game, Option
from scorekeeper.core.inputs import Decision, Seen
from scorekeeper.core.outcomes import Accepted, Outcome, Prompt, Rejected
from scorekeeper.core.script import (
    MatcherError,
    ScriptResult,
    compile_matcher,
    load_script,
    parse_script,
    resolve,
    run_script,
)
from scorekeeper.errors import ScriptError, UnknownGame


@dataclass(frozen=True)
class FakeState:
    seats: int
    target: int
    turn: int = 0
    board: tuple[str, ...] = ()
    scores: tuple[int, ...] = ()


class FakeGame(Game):
    """See the module docstring."""

    id = "fake"
    name = "Fake"
    min_seats = 2
    max_seats = 3
    options = (
        Option("target", 3, "points to win"),
        Option("mode", "basic", "rules", choices=("basic", "advanced")),
    )

    def pieces(self) -> tuple[str, ...]:
        return ("A", "B", "C", "D")

    def describe_piece(self, piece: str) -> str:
        return f"piece {piece}"

    def zones(self, seats: int) -> tuple[str, ...]:
        return ("board", "bin")

    def default_layout(self, seats: int) -> dict[str, str]:
        return {"board": "board", "bin": "bin"}

    def new_game(self, options: Mapping[str, Any], seats: int) -> FakeState:
        return FakeState(seats, int(options["target"]), scores=(0,) * seats)

    def observe(self, state: FakeState, seen: Seen) -> Outcome:
        if seen.zone != "board":
            return Accepted(state)
        if seen.present:
            if seen.piece in state.board:
                return Rejected("F-1", f"{seen.piece} is already on the board", "take it off")
            scores = list(state.scores)
            scores[state.turn] += 1
            return Accepted(
                replace(
                    state,
                    board=state.board + (seen.piece,),
                    scores=tuple(scores),
                    turn=(state.turn + 1) % state.seats,
                ),
                (f"seat {state.turn} put {seen.piece}",),
            )
        if seen.piece not in state.board:
            return Rejected("F-2", f"{seen.piece} is not on the board")
        return Accepted(replace(state, board=tuple(p for p in state.board if p != seen.piece)))

    def decide(self, state: FakeState, decision: Decision) -> Outcome:
        if decision.prompt != "pass" or decision.answer != "yes":
            return Rejected("TABLE-NO-PROMPT", "nobody asked that")
        if decision.seat not in (None, state.turn):
            return Rejected("F-3", f"it is seat {state.turn}'s turn, not {decision.seat}'s")
        return Accepted(replace(state, turn=(state.turn + 1) % state.seats))

    def pending(self, state: FakeState) -> tuple[Prompt, ...]:
        return (
            Prompt("pass", state.turn, "pass your turn?", ("yes",)),
            Prompt("peek", state.turn, "a secret question", ("a", "b"), private=True),
        )

    def waiting_for(self, state: FakeState) -> str:
        return f"Seat {state.turn} to put a piece"

    def scores(self, state: FakeState) -> tuple[int, ...]:
        return state.scores

    def is_over(self, state: FakeState) -> bool:
        return max(state.scores) >= state.target

    def view(self, state: FakeState, audience: Audience) -> dict[str, Any]:
        out: dict[str, Any] = {
            "turn": state.turn,
            "board": list(state.board),
            "counts": {"board": len(state.board)},
        }
        if audience == ORGANISER:
            out["secret"] = "organiser only"
        return out

    def secrets(self, state: FakeState, seat: int) -> frozenset[str]:
        return frozenset()


FAKE = FakeGame()


def find_fake(game_id: str) -> Game:
    """A one-game registry for these tests."""
    if game_id == "fake":
        return FAKE
    raise UnknownGame(f"no game called {game_id!r}; known games: fake")


HEAD = "game: fake\nseats: [Ann, Bea]\n"


def parse(text: str, path: str = "t.yaml") -> Any:
    return parse_script(text, path, find_game=find_fake)


def run(text: str) -> ScriptResult:
    return run_script(parse(text))


def error_of(text: str) -> ScriptError:
    with pytest.raises(ScriptError) as info:
        parse(text)
    return info.value


# --- a script that passes ---------------------------------------------------------------------

GOOD = """\
game: fake
title: a short game
rule_refs: [F-1]
seats: [Ann, Bea]
options: {target: 2}
steps:
  - +board A
  - note: Bea answers the pass prompt
  - decide 1 pass yes
  - reject: +board A
    rule: F-1
    reason: ~contains "already"
  - expect:
      scores: [1, 0]
      state.turn: 0
      state.board: [A]
      waiting_for: ~contains "seat 0"
      pending: {~contains: {id: pass, seat: 0}}
      over: false
  - +board B
  - expect:
      over: true
      winners: [Ann]
      scores.0: 2
      state.board.-1: B
  - reject: +board C
    rule: TABLE-GAME-OVER
"""


def test_a_good_script_passes() -> None:
    result = run(GOOD)
    assert result.ok, result.failures
    assert result.scores == [2, 0]
    assert result.over and result.winners == [0]
    assert result.view["state"]["board"] == ["A", "B"]
    assert result.steps_run == 8
    data = result.to_dict()
    assert data["winners"] == ["Ann"] and data["ok"] is True


def test_load_script_reads_a_file(tmp_path: Path) -> None:
    file = tmp_path / "good.yaml"
    file.write_text(GOOD)
    script = load_script(file, find_game=find_fake)
    assert script.title == "a short game" and script.rule_refs == ("F-1",)
    assert script.seats == ("Ann", "Bea")
    assert [s.line for s in script.steps][:3] == [7, 8, 9]
    assert run_script(script).ok


def test_seats_may_be_a_number() -> None:
    script = parse("game: fake\nseats: 3\nsteps: []\n")
    assert script.seats == ("P1", "P2", "P3")


# --- failures at run time ---------------------------------------------------------------------


def test_a_failing_expect_names_step_line_expected_and_actual() -> None:
    result = run(
        HEAD + "steps:\n  - +board A\n  - expect:\n      scores: [0, 0]\n      state.turn: 1\n"
    )
    assert not result.ok
    (failure,) = result.failures
    assert failure.kind == "expect"
    assert failure.step == 2 and failure.line == 6
    assert failure.path == "scores.0"
    assert failure.expected == "0" and failure.actual == 1
    assert failure.describe("t.yaml") == "t.yaml:6: step 2: scores.0: expected 0, got 1"


def test_every_failed_expect_is_reported_and_the_run_goes_on() -> None:
    result = run(
        HEAD + "steps:\n  - expect: {scores: [1, 0]}\n  - +board A\n"
        "  - expect: {state.turn: 0, over: true}\n"
    )
    assert [(f.step, f.path) for f in result.failures] == [
        (1, "scores.0"),
        (3, "state.turn"),
        (3, "over"),
    ]
    assert result.steps_run == 3 and not result.stopped


def test_an_unexpected_refusal_names_step_rule_and_reason_and_stops() -> None:
    result = run(HEAD + "steps:\n  - +board A\n  - +board A\n  - +board B\n")
    (failure,) = result.failures
    assert failure.kind == "rejected" and failure.step == 2 and failure.line == 5
    assert "F-1" in failure.message and "already on the board" in failure.message
    assert result.stopped and result.steps_run == 2
    assert result.scores == [1, 0]


def test_a_reject_step_that_is_accepted_fails() -> None:
    result = run(HEAD + "steps:\n  - reject: +board A\n")
    (failure,) = result.failures
    assert failure.kind == "accepted" and failure.line == 4
    assert "must be refused" in failure.message


def test_a_reject_step_with_the_wrong_rule_fails_but_the_run_goes_on() -> None:
    result = run(
        HEAD + "steps:\n  - +board A\n  - reject: +board A\n    rule: F-2\n"
        "  - expect: {scores: [9, 0]}\n"
    )
    assert [f.kind for f in result.failures] == ["rule", "expect"]
    assert "F-1" in result.failures[0].message and "'F-2'" in result.failures[0].message


def test_a_reject_step_checks_the_reason() -> None:
    result = run(
        HEAD + "steps:\n  - +board A\n  - reject: +board A\n    reason: ~contains 'not on'\n"
    )
    assert [f.kind for f in result.failures] == ["reason"]


def test_table_refusals_count_as_refusals() -> None:
    result = run(
        HEAD + "steps:\n  - reject: decide 5 pass yes\n    rule: TABLE-WRONG-SEAT\n"
        "  - reject: decide 1 pass yes\n    rule: F-3\n"
        "  - reject: tag +nowhere 04AA\n    rule: TABLE-UNKNOWN-READER\n"
        "  - reject: tag +board 04AA\n    rule: TABLE-UNKNOWN-TAG\n"
    )
    assert result.ok, result.failures


def test_tag_steps_go_through_layout_and_kit() -> None:
    text = (
        "game: fake\nseats: [Ann, Bea]\nkit: {04A1B2C3: A, 0412: B}\n"
        "layout: {rdr-1: board}\nsteps:\n  - tag +rdr-1 04A1B2C3\n  - tag +rdr-1 0412\n"
        "  - expect: {state.board: [A, B]}\n  - tag -rdr-1 0412\n"
        "  - expect: {state.board: [A]}\n"
    )
    assert run(text).ok


def test_kit_file_is_read_relative_to_the_script(tmp_path: Path) -> None:
    (tmp_path / "kit.yaml").write_text("kit:\n  '0000AA': C\n")
    file = tmp_path / "s.yaml"
    file.write_text(
        HEAD + "kit_file: kit.yaml\nsteps:\n  - tag +board 0000AA\n  - expect: {state.board: [C]}\n"
    )
    assert run_script(load_script(file, find_game=find_fake)).ok


def test_kit_file_uids_stay_as_written_and_its_errors_name_it(tmp_path: Path) -> None:
    # 0412 unquoted is an octal number to YAML 1.1: it must stay the text 0412.
    (tmp_path / "kit.yaml").write_text("0412: C\n04A1B2C3: A\n")
    file = tmp_path / "s.yaml"
    file.write_text(
        HEAD + "kit_file: kit.yaml\nsteps:\n  - tag +board 0412\n  - expect: {state.board: [C]}\n"
    )
    script = load_script(file, find_game=find_fake)
    assert script.config.kit == {"0412": "C", "04A1B2C3": "A"}
    assert run_script(script).ok
    (tmp_path / "kit.yaml").write_text("0412: C\n0412: A\n")
    with pytest.raises(ScriptError) as info:
        load_script(file, find_game=find_fake)
    assert info.value.path == str(tmp_path / "kit.yaml") and info.value.line == 2
    assert "'0412' is listed twice (first on line 1)" in info.value.message


def test_errors_in_steps_name_the_step_counting_included_ones(tmp_path: Path) -> None:
    (tmp_path / "_two.yaml").write_text("- +board A\n- +board B\n")
    file = tmp_path / "s.yaml"
    file.write_text(HEAD + "steps:\n  - include: _two.yaml\n  - expect:\n      scores: ~len x\n")
    with pytest.raises(ScriptError) as info:
        load_script(file, find_game=find_fake)
    assert (info.value.line, info.value.message) == (
        6,
        "step 3: ~len needs a whole number, not 'x'",
    )
    file.write_text(HEAD + "steps:\n  - include: _two.yaml\n  - note: fine\n    colour: red\n")
    with pytest.raises(ScriptError) as info:
        load_script(file, find_game=find_fake)
    assert (info.value.line, info.value.message) == (
        6,
        "step 3: unknown key 'colour'; a note step has note",
    )


def test_undo_and_correct() -> None:
    text = HEAD + (
        "steps:\n  - +board A\n  - undo\n  - expect: {scores: [0, 0]}\n"
        "  - +board A\n  - correct +board B\n  - expect: {state.board: [B]}\n"
        "  - undo\n  - reject: undo\n    rule: TABLE-UNDO-EMPTY\n"
    )
    assert run(text).ok


def test_expect_can_look_at_a_seat_or_organiser_view() -> None:
    text = HEAD + (
        "steps:\n  - expect:\n      pending: ~len 1\n"
        "  - expect:\n      view: 0\n      pending: ~len 2\n"
        "      pending.1: {id: peek, private: true}\n"
        "  - expect:\n      view: Bea\n      pending: ~len 1\n"
        "  - expect:\n      view: organiser\n      state.secret: ~any\n"
        "  - expect: {state.secret: ~absent}\n"
    )
    result = run(text)
    assert result.ok, result.failures


def test_a_failure_in_a_seat_view_says_which_view() -> None:
    result = run(HEAD + "steps:\n  - expect:\n      view: 1\n      pending: ~len 2\n")
    assert "(view 1)" in result.failures[0].message


def test_winners_when_not_over_is_empty() -> None:
    assert run(HEAD + "steps:\n  - expect: {winners: [], over: false}\n").ok


# --- matchers ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expected", "actual", "ok"),
    [
        (3, 3, True),
        (3, 3.0, True),
        (1, True, False),
        (True, True, True),
        (None, None, True),
        ("x", "x", True),
        ([1, 2], [1, 2], True),
        ([1, 2], [1, 2, 3], False),
        ({"a": 1}, {"a": 1, "b": 2}, True),
        ({"a": 1}, {"b": 1}, False),
        ({"a": {"b": [1]}}, {"a": {"b": [1], "c": 0}}, True),
        ("~contains take", "Seat 2 to Take a card", True),
        ("~contains 'give'", "take", False),
        ("~contains 3", [1, 2, 3], True),
        ("~contains 4", [1, 2, 3], False),
        ("~contains deck", {"deck": 4}, True),
        ({"~contains": {"id": "claim"}}, [{"id": "draw"}, {"id": "claim", "seat": None}], True),
        ({"~contains": {"id": "claim"}}, [{"id": "draw"}], False),
        ("~not-contains claim", "a claim window", False),
        ("~not-contains x", ["a"], True),
        ({"~not-contains": {"id": "claim"}}, [{"id": "draw"}], True),
        ("~len 2", [1, 2], True),
        ("~len 2", "abc", False),
        ({"~len": 0}, {}, True),
        ("~any", 0, True),
        ("~re ^Seat \\d", "Seat 2 plays", True),
        ("~re ^x", "y", False),
        ("~>= 2", 3, True),
        ("~>= 2", 1, False),
        ("~<= 2", 2, True),
        ("~<= 2", "2", False),
        ("~= ~tilde", "~tilde", True),
        ({"~exact": {"a": 1}}, {"a": 1, "b": 2}, False),
        ({"~exact": {"a": 1}}, {"a": 1}, True),
        ([0, "~>= 1"], [0, 5], True),
    ],
)
def test_matchers(expected: Any, actual: Any, ok: bool) -> None:
    assert (not compile_matcher(expected).check(actual)) is ok


@pytest.mark.parametrize(
    "bad",
    [
        "~len x",
        "~frobnicate 1",
        "~re (",
        "~>= x",
        "~contains",
        {"~len": -1},
        {"~any": 3},
        {"~contains": 1, "x": 2},
    ],
)
def test_bad_matchers_are_refused(bad: Any) -> None:
    with pytest.raises(MatcherError):
        compile_matcher(bad)


def test_dotted_paths() -> None:
    data = {"state": {"talon": ["H1b1", "A2r"], "seats": [{"n": 1}, {"n": 2}], "m": {3: "x"}}}
    assert resolve(data, "state.talon.0") == "H1b1"
    assert resolve(data, "state.talon.-1") == "A2r"
    assert resolve(data, "state.seats.1.n") == 2
    assert resolve(data, "state.m.3") == "x"
    assert repr(resolve(data, "state.talon.2")) == "<missing>"
    assert repr(resolve(data, "state.nope.x")) == "<missing>"


def test_a_missing_path_fails_with_missing() -> None:
    result = run(HEAD + "steps:\n  - expect: {state.nope: 1}\n")
    assert "got <missing>" in result.failures[0].message


# --- invalid scripts: every error names the file and the line -----------------------------------


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        (HEAD + "steps:\n  - +board A\n   - +board B\n", 4, "not an input: '+board A - +board"),
        (HEAD + "steps:\n  - +board A\n - +board B\n", 5, "YAML syntax"),
        ("game: fake\nseats: [Ann, Bea\nsteps: []\n", 3, "YAML syntax"),
        ("game: chess\nseats: [Ann, Bea]\nsteps: []\n", 1, "no game called 'chess'"),
        ("seats: [Ann]\ngame: fake\nsteps: []\n", 1, "Fake is for 2-3 players"),
        (HEAD + "options:\n  target: 3\n  colour: red\nsteps: []\n", 5, "unknown option"),
        (HEAD + "options:\n  target: 3\n  mode: expert\nsteps: []\n", 5, "must be one of"),
        (HEAD + "options:\n  target: lots\nsteps: []\n", 4, "must be a int"),
        (HEAD + "steps:\n  - +board A\n  - put A on the board\n", 5, "not an input"),
        (
            HEAD + "steps:\n  - +board A\n  - expect:\n      score: [1, 0]\n",
            6,
            "unknown expect key 'score'",
        ),
        (HEAD + "steps:\n  - expect:\n      state..x: 1\n", 5, "unknown expect key"),
        (HEAD + "steps:\n  - expect:\n      scores: ~len many\n", 5, "~len needs a whole number"),
        (HEAD + "steps:\n  - expect: {}\n", 4, "at least one key"),
        (HEAD + "steps:\n  - expect:\n      view: 7\n      over: false\n", 5, "view must be"),
        (HEAD + "steps:\n  - expect:\n      winners: [Zed]\n", 5, "'Zed' is not a seat"),
        (HEAD + "steps:\n  - reject: +board A\n    because: F-1\n", 5, "unknown key 'because'"),
        (HEAD + "steps:\n  - expect: {over: false}\n    reject: undo\n", 4, "exactly one of"),
        (HEAD + "steps:\n  - [1, 2]\n", 4, "a step is an input line"),
        (HEAD + "steps:\n  -\n", 4, "empty input"),
        (HEAD + "stepz: []\n", 3, "unknown key 'stepz'"),
        ("game: fake\nsteps: []\n", 1, "missing 'seats:' (the players' names"),
        (HEAD + "layout: {r1: table}\nsteps: []\n", 3, "zone layout names zones"),
        (HEAD + "kit: {'01': Z}\nsteps: []\n", 3, "kit names pieces"),
        (HEAD + "seats: [Cid]\nsteps: []\n", 3, "'seats' is listed twice (first on line 2)"),
        ("game: fake\nseats: [Ann, Ann]\nsteps: []\n", 2, "distinct"),
        (HEAD + "kit_file: nowhere.yaml\nsteps: []\n", 3, "cannot read kit_file"),
        ("", 1, "empty"),
        ("- just a list\n", 1, "must be a mapping"),
    ],
)
def test_invalid_scripts_name_file_and_line(text: str, line: int, words: str) -> None:
    exc = error_of(text)
    assert exc.path == "t.yaml"
    assert exc.line == line, str(exc)
    assert words in str(exc)
    assert str(exc).startswith(f"t.yaml:{line}: ")


def test_an_unreadable_file_is_a_script_error(tmp_path: Path) -> None:
    with pytest.raises(ScriptError, match="cannot read"):
        load_script(tmp_path / "missing.yaml", find_game=find_fake)


def test_the_public_view_keys_are_the_expect_keys() -> None:
    script = parse(
        HEAD + "steps:\n  - expect:\n      inputs: 0\n      seats: [Ann, Bea]\n"
        "      game: fake\n      feed: []\n"
    )
    assert run_script(script).ok
    assert PUBLIC == "public"


# --- include: shared preludes -----------------------------------------------------------------


def test_include_inlines_the_steps_of_another_file(tmp_path: Path) -> None:
    (tmp_path / "_prelude.yaml").write_text("steps:\n  - +board A\n  - include: _more.yaml\n")
    (tmp_path / "_more.yaml").write_text("- +board B\n- expect: {state.board: [A, X]}\n")
    file = tmp_path / "s.yaml"
    file.write_text(HEAD + "steps:\n  - include: _prelude.yaml\n  - +board C\n")
    script = load_script(file, find_game=find_fake)
    assert [s.text for s in script.steps] == ["+board A", "+board B", "expect", "+board C"]
    assert [s.index for s in script.steps] == [1, 2, 3, 4]
    result = run_script(script)
    # The included expect fails, and its failure points at the include line of the script.
    assert not result.ok and [f.line for f in result.failures] == [4]
    assert result.failures[0].step == 3


def test_an_include_loop_or_a_bad_included_file_names_the_file(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text("steps:\n  - include: b.yaml\n")
    (tmp_path / "b.yaml").write_text("steps:\n  - include: a.yaml\n")
    (tmp_path / "bad.yaml").write_text("steps:\n  - +board A\n  - not an input\n")
    file = tmp_path / "s.yaml"
    file.write_text(HEAD + "steps:\n  - include: a.yaml\n")
    with pytest.raises(ScriptError, match="includes itself"):
        load_script(file, find_game=find_fake)
    file.write_text(HEAD + "steps:\n  - include: bad.yaml\n")
    with pytest.raises(ScriptError) as info:
        load_script(file, find_game=find_fake)
    assert info.value.path is not None and info.value.path.endswith("bad.yaml")
    assert info.value.line == 3
    file.write_text(HEAD + "steps:\n  - include: missing.yaml\n")
    with pytest.raises(ScriptError, match="cannot read the included file") as info:
        load_script(file, find_game=find_fake)
    assert info.value.line == 4
