"""The game contract's defaults (core/game.py), the shared prompt matching and TABLE-* refusals
(core/answering.py), and that the platform names no game: the zone mats (mats.py, mat_plan.py)
and core/ hold no registered game's id, name or zone vocabulary in their code."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from scorekeeper import mats
from scorekeeper.core import answering
from scorekeeper.core.answering import answer_ok, game_over, match_prompt, unknown_zone
from scorekeeper.core.game import Game, seat_in_zone_name
from scorekeeper.core.inputs import Decision
from scorekeeper.core.outcomes import Prompt
from scorekeeper.core.putback import zone_words
from scorekeeper.core.rule_ids import TABLE_RULES
from scorekeeper.games import find_game, games
from tests.fakes import FakeGame

ROOT = Path(__file__).resolve().parents[2]
PLATFORM = [
    ROOT / "scorekeeper" / "mats.py",
    ROOT / "scorekeeper" / "mat_plan.py",
    *sorted((ROOT / "scorekeeper" / "core").glob("*.py")),
]
NAMES = ("Ann", "Bea", "Cid")


class PileGame(FakeGame):
    """The fake game with a numbered zone per seat (``pile:<n>``) besides its shared ones."""

    def zones(self, seats: int) -> tuple[str, ...]:
        return ("hand", "play", *(f"big_pile:{s}" for s in range(seats)))

    def default_layout(self, seats: int) -> dict[str, str]:
        return {z.replace(":", "-"): z for z in self.zones(seats)}


class CityGame(PileGame):
    """A game whose numbered zones are city locations, not seats', and its own words."""

    def seat_of_zone(self, zone: str) -> int | None:
        return None

    def describe_zone(self, zone: str) -> str:
        return f"Street {zone.partition(':')[2]}" if ":" in zone else "Market"


# -- the defaults ------------------------------------------------------------------------------


def test_a_zone_belongs_to_the_seat_its_name_ends_in_by_default() -> None:
    game = PileGame()
    assert game.seat_of_zone("big_pile:2") == 2
    assert game.seat_of_zone("big_pile") is None
    assert game.seat_of_zone("big_pile:x") is None and game.seat_of_zone("big_pile:") is None
    assert seat_in_zone_name("a:b:12") == 12


def test_a_zone_is_described_by_its_kind_by_default() -> None:
    game = PileGame()
    assert game.describe_zone("big_pile:2") == "Big pile"
    assert game.describe_zone("draw-pile") == "Draw pile"


def test_a_zone_is_named_with_its_seat_by_default() -> None:
    game = PileGame()
    assert game.zone_named("big_pile:1", NAMES) == "Bea's big pile"
    assert game.zone_named("play", NAMES) == "the play"
    assert game.zone_named("big_pile:7", NAMES) == "Big pile"  # no seat 7: named without one
    assert zone_words(game, "big_pile:2", NAMES) == "Cid's big pile"  # the put-back words


def test_mats_follow_the_defaults() -> None:
    plan = mats.plan_mat(PileGame(), 2)
    got = {(p.zone, p.seat, p.label) for p in plan.pads}
    assert got == {
        ("hand", None, "Hand"),
        ("play", None, "Play"),
        ("big_pile:0", 0, "Big pile"),
        ("big_pile:1", 1, "Big pile"),
    }
    assert mats.zone_seat("big_pile:1", 2) == 1 and mats.zone_seat("big_pile:2", 2) is None


def test_a_game_that_overrides_the_mapping_is_followed_everywhere() -> None:
    game = CityGame()
    plan = mats.plan_mat(game, 2)
    assert {(p.zone, p.seat, p.label) for p in plan.pads if ":" in p.zone} == {
        ("big_pile:0", None, "Street 0"),
        ("big_pile:1", None, "Street 1"),
    }
    assert mats.zone_seat("big_pile:1", 2, game) is None
    assert zone_words(game, "big_pile:1", NAMES) == "Street 1"
    assert zone_words(game, "hand", NAMES) == "the market"


def test_the_real_games_map_their_zones() -> None:
    arcanum, angels = find_game("arcanum"), find_game("angels-and-demons")
    assert arcanum.seat_of_zone("loc:2") is None and arcanum.seat_of_zone("hide:2") == 2
    assert arcanum.zone_named("hide:1", NAMES) == "Bea's hide strip"
    assert arcanum.zone_named("loc:3", NAMES) == "Location 3"
    assert angels.seat_of_zone("discard:1") == 1 and angels.seat_of_zone("talon") is None
    assert angels.describe_zone("discard:1") == "Discards"
    assert angels.zone_named("discard:1", NAMES) == "Bea's discard pile"
    assert angels.zone_named("talon", NAMES) == "the talon"


# -- prompts and the platform's refusals -------------------------------------------------------

OPEN = (
    Prompt("claim", None, "Anyone?", ("pass",)),
    Prompt("waiting", 1, "Bea: waiting?", ("yes",)),
    Prompt("waiting", 2, "Cid: waiting?", ("yes",)),
)


def test_a_decision_is_matched_to_its_prompt() -> None:
    assert match_prompt(OPEN, Decision(0, "claim", "pass")).prompt == OPEN[0]  # anyone's
    assert match_prompt(OPEN, Decision(2, "waiting", "yes")).prompt == OPEN[2]  # its own
    assert match_prompt(OPEN, Decision(None, "waiting", "yes")).prompt == OPEN[1]  # organiser
    wrong = match_prompt(OPEN, Decision(0, "waiting", "yes"))
    assert (wrong.problem, wrong.prompt) == ("wrong-seat", OPEN[1])
    none = match_prompt(OPEN, Decision(0, "draw_count", "2"))
    assert (none.problem, none.prompt) == ("no-prompt", None)
    assert match_prompt((), Decision(None, "claim", "pass")).problem == "no-prompt"
    assert answer_ok(OPEN[0], "pass") and not answer_ok(OPEN[0], "claim")


def test_the_platform_refusals_are_the_declared_ids_with_their_words() -> None:
    ids = {
        answering.GAME_OVER,
        answering.NO_PROMPT,
        answering.WRONG_SEAT,
        answering.UNKNOWN_READER,
        answering.UNKNOWN_TAG,
        answering.NOT_RUNNING,
        answering.UNDO_EMPTY,
    }
    assert ids == set(TABLE_RULES.refusals)
    over = game_over()
    assert (over.rule, over.reason, over.hint) == (
        "TABLE-GAME-OVER",
        "the game is over",
        "undo the last input to reopen it",
    )
    bad = unknown_zone("nowhere", ("a", "b"))
    assert (bad.rule, bad.reason, bad.hint) == (
        "TABLE-UNKNOWN-READER",
        "'nowhere' is not a zone of this table",
        "zones: a, b",
    )


def test_no_game_spells_a_table_id_itself() -> None:
    """The games import the TABLE-* ids from core; a string literal of one in a game's code is a
    copy that could drift."""
    found = [
        f"{path.relative_to(ROOT)}:{line}: {text}"
        for path in sorted((ROOT / "scorekeeper" / "games").rglob("*.py"))
        for line, text in _literals(path)
        if text.startswith("TABLE-")
    ]
    assert not found, found


# -- the platform names no game ----------------------------------------------------------------


def _literals(path: Path) -> Iterator[tuple[int, str]]:
    """Every string constant in ``path``'s code (f-string pieces included), docstrings left
    out: they may give a game as an example, the code may not depend on one."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
        ):
            yield node.lineno, node.value


def _imports(path: Path) -> Iterator[tuple[int, str]]:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            yield node.lineno, node.module
        elif isinstance(node, ast.Import):
            yield from ((node.lineno, a.name) for a in node.names)


def _vocabulary(game: Game) -> tuple[set[str], set[str]]:
    """(words no platform string may contain, zone words no platform string may be): the game's
    id, package name and name; its zone names and zone kinds at its largest seat count."""
    contain = {game.id.lower(), game.id.replace("-", "_").lower(), game.name.lower()}
    zones = set(game.zones(game.max_seats))
    return contain, zones | {z.partition(":")[0] for z in zones}


def platform_mentions(paths: list[Path], game: Game) -> list[str]:
    """Where ``paths``' code names ``game``: a string holding its id or name, a string that is
    one of its zones or zone kinds (a dictionary of its zone words), an import of its package."""
    contain, zones = _vocabulary(game)
    package = f"scorekeeper.games.{game.id.replace('-', '_')}"
    out = []
    for path in paths:
        where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        for line, text in _literals(path):
            low = text.lower()
            if any(word in low for word in contain) or text in zones:
                out.append(f"{where}:{line}: {text!r}")
        for line, module in _imports(path):
            if module.startswith(package):
                out.append(f"{where}:{line}: imports {module}")
    return out


@pytest.mark.parametrize("game_id", sorted(games()))
def test_mats_and_core_name_no_game(game_id: str) -> None:
    found = platform_mentions(PLATFORM, find_game(game_id))
    assert not found, f"the platform names {game_id}: " + "; ".join(found)


def test_the_check_finds_a_dictionary_of_zone_words(tmp_path: Path) -> None:
    """The check would have caught mats.py before this change: its ZONE_WORDS held Angels &
    Demons' zone kinds."""
    old = tmp_path / "old_mats.py"
    old.write_text('ZONE_WORDS = {"talon": "Talon", "meld": "Sets laid"}\n', encoding="utf-8")
    named = tmp_path / "named.py"
    named.write_text('"""Docstrings may say arcanum."""\nGAME = f"{1}arcanum"\n', encoding="utf-8")
    found = platform_mentions([old], find_game("angels-and-demons"))
    assert len(found) == 2, found
    assert len(platform_mentions([named], find_game("arcanum"))) == 1
