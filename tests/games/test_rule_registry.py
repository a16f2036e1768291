"""Rules as a registry (issue 12, point 4): every rule id a game can refuse with is declared
once in its package (``scorekeeper/games/<game>/rule_ids.py``), the platform's ``TABLE-*`` ids in
``scorekeeper/core/rule_ids.py``; every declared id is a rule of the game's players' reference
(``docs/rules/<game>.md``, shipped as ``scorekeeper/rulebook/<game>.md`` and served at
``/rules/<game>``); and every rule of the reference is declared: refused, carried out by the
table, or not observable by readers with a reason.

The ids the code can refuse with are found three ways: every rule-id string literal in the game's
package, every ``rule:`` the golden scripts expect a refusal to cite, and every refusal seen when
the inputs of seeded random games are tried again out of place.
"""

from __future__ import annotations

import ast
import importlib
import random
import re
import sys
from pathlib import Path

import pytest

from scorekeeper.api.rules import HEADING_ID, RULE_ID, RULE_START
from scorekeeper.core.game import Game
from scorekeeper.core.inputs import Decision, Seen
from scorekeeper.core.outcomes import Rejected
from scorekeeper.core.referee import Referee
from scorekeeper.core.rule_ids import TABLE_RULES, RuleRegistry
from scorekeeper.games import find_game, game_ids
from scorekeeper.sim import find_world

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "scorekeeper"
SCRIPTS = ROOT / "tests" / "scripts"
GAMES = game_ids()

# A rule id as prose cites it, looser than RULE_ID so that "R-TURN-3a" is caught whole.
CITED = re.compile(r"(?<![\w-])((?:R|D|A|G|TABLE)-[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*)")
SCRIPT_RULE = re.compile(r"^\s*-?\s*rule:\s*([A-Z0-9-]+)", re.M)


def _package(game: Game) -> tuple[str, Path]:
    """The dotted name and folder of the package that holds ``game``'s class."""
    module = sys.modules[type(game).__module__]
    assert module.__file__ is not None
    return module.__name__.rpartition(".")[0], Path(module.__file__).parent


def _registry(game_id: str) -> RuleRegistry:
    name, _ = _package(find_game(game_id))
    try:
        module = importlib.import_module(f"{name}.rule_ids")
    except ModuleNotFoundError:
        pytest.fail(
            f"{game_id} declares no rules: add {name}.rule_ids with RULES, a "
            "RuleRegistry (see scorekeeper/core/rule_ids.py)"
        )
    rules = getattr(module, "RULES", None)
    assert isinstance(rules, RuleRegistry), f"{name}.rule_ids.RULES is not a RuleRegistry"
    return rules


def _literals(folder: Path) -> dict[str, set[str]]:
    """Every string literal under ``folder`` that is a whole rule id, with the files it is in
    (the registries themselves left out: they declare ids, they do not refuse with them)."""
    found: dict[str, set[str]] = {}
    for path in sorted(folder.rglob("*.py")):
        if path.name == "rule_ids.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and RULE_ID.fullmatch(node.value)
            ):
                found.setdefault(node.value, set()).add(str(path.relative_to(ROOT)))
    return found


def _script_rules(game_id: str) -> set[str]:
    """The rules the golden scripts of ``game_id`` expect refusals to cite (shared steps
    included: they belong to the game of the scripts in their folder)."""
    rules: set[str] = set()
    for folder in sorted(p for p in SCRIPTS.iterdir() if p.is_dir()):
        texts = [p.read_text(encoding="utf-8") for p in sorted(folder.rglob("*.yaml"))]
        games = {m for t in texts for m in re.findall(r"^game:\s*(\S+)", t, re.M)}
        if games == {game_id}:
            rules |= {rule for t in texts for rule in SCRIPT_RULE.findall(t)}
    return rules


def _refused_in_random_games(game_id: str, seeds: tuple[int, ...]) -> set[str]:
    """Play seeded games of ``game_id`` with its simulated world; before each input, try an
    earlier input again (and the next one from the wrong seat) on the position, and keep the
    rule of every refusal. The trials never change the game: a game's rules are pure."""
    game = find_game(game_id)
    rules: set[str] = set()
    for seed in seeds:
        rng = random.Random(seed)
        seats = game.min_seats + seed % (game.max_seats - game.min_seats + 1)
        world = find_world(game_id)(seats, {}, seed)
        ref = Referee(game, {}, seats)
        tried: list[Seen | Decision] = []
        while action := world.next_inputs():
            for inp in action:
                trials: list[Seen | Decision] = [rng.choice(tried)] if tried else []
                if isinstance(inp, Decision):
                    trials.append(Decision(((inp.seat or 0) + 1) % seats, inp.prompt, inp.answer))
                for trial in trials:
                    outcome = (
                        game.observe(ref.state, trial)
                        if isinstance(trial, Seen)
                        else game.decide(ref.state, trial)
                    )
                    if isinstance(outcome, Rejected):
                        rules.add(outcome.rule)
                result = ref.apply(inp)
                assert result.accepted, f"seed {seed}: the world's {inp} was refused"
                if isinstance(inp, Seen | Decision):
                    tried.append(inp)
        rules.add(ref.apply(tried[0]).rejection.rule)  # type: ignore[union-attr]
    return rules


def _reference(game_id: str) -> str:
    """The game's players' reference; its shipped copy must be identical."""
    docs = ROOT / "docs" / "rules" / f"{game_id}.md"
    shipped = PACKAGE / "rulebook" / f"{game_id}.md"
    assert docs.is_file(), f"{game_id} has no rules reference: write docs/rules/{game_id}.md"
    text = docs.read_text(encoding="utf-8")
    assert shipped.is_file() and shipped.read_text(encoding="utf-8") == text, (
        f"scorekeeper/rulebook/{game_id}.md must be a copy of docs/rules/{game_id}.md"
    )
    return text


def _entries(text: str) -> list[str]:
    """The ids of the reference's rule entries ("**R-TURN-3 ...**"), in order. Headings that
    carry an id ("## Your turn (R-TURN)") name sections, not rules."""
    return [m.group(1) for line in text.splitlines() if (m := RULE_START.match(line))]


def _headings(text: str) -> set[str]:
    return {
        m.group(1)
        for line in text.splitlines()
        if line.startswith("#") and (m := HEADING_ID.search(line))
    }


def _is_table(rule: str) -> bool:
    return rule.startswith("TABLE-")


def _undeclared(rules: set[str], game_rules: RuleRegistry) -> list[str]:
    return sorted(
        r for r in rules if r not in (TABLE_RULES.refusals if _is_table(r) else game_rules.refusals)
    )


@pytest.mark.parametrize("game_id", GAMES)
def test_every_rule_id_in_the_game_code_is_a_declared_refusal(game_id: str) -> None:
    rules = _registry(game_id)
    found = _literals(_package(find_game(game_id))[1])
    missing = _undeclared(set(found), rules)
    assert not missing, "rule ids in the code but not declared as refusals: " + "; ".join(
        f"{r} ({', '.join(sorted(found[r]))})" for r in missing
    )


@pytest.mark.parametrize("game_id", GAMES)
def test_every_declared_refusal_is_in_the_game_code(game_id: str) -> None:
    """A refusal nobody can make any more must leave the list (or move to ``applied``)."""
    rules = _registry(game_id)
    found = _literals(_package(find_game(game_id))[1])
    assert sorted(set(rules.refusals) - set(found)) == []


@pytest.mark.parametrize("game_id", GAMES)
def test_every_refusal_the_golden_scripts_expect_is_declared(game_id: str) -> None:
    expected = _script_rules(game_id)
    assert expected, f"no golden script of {game_id} expects a refusal"
    assert _undeclared(expected, _registry(game_id)) == []


@pytest.mark.parametrize("game_id", GAMES)
def test_every_refusal_seen_in_random_games_is_declared(game_id: str) -> None:
    seen = _refused_in_random_games(game_id, (1, 2))
    assert "TABLE-GAME-OVER" in seen and len(seen) > 2, seen  # the trials do refuse
    assert _undeclared(seen, _registry(game_id)) == []


@pytest.mark.parametrize("game_id", GAMES)
def test_every_declared_id_is_a_rule_of_the_reference(game_id: str) -> None:
    entries = set(_entries(_reference(game_id)))
    declared = _registry(game_id).declared() | TABLE_RULES.declared()
    assert sorted(declared - entries) == [], f"declared but not in docs/rules/{game_id}.md"


@pytest.mark.parametrize("game_id", GAMES)
def test_every_rule_of_the_reference_is_declared(game_id: str) -> None:
    """Refused, carried out by the table, or not observable by readers: nothing unaccounted."""
    entries = _entries(_reference(game_id))
    assert len(entries) == len(set(entries)), "a rule id has two entries in the reference"
    rules = _registry(game_id)
    assert sorted(e for e in entries if not _is_table(e)) == sorted(rules.declared())
    assert sorted(e for e in entries if _is_table(e)) == sorted(TABLE_RULES.declared())


@pytest.mark.parametrize("registry", [*GAMES, "TABLE"])
def test_each_id_is_declared_once_with_one_line(registry: str) -> None:
    rules = TABLE_RULES if registry == "TABLE" else _registry(registry)
    lists = (rules.refusals, rules.applied, rules.not_observable)
    assert sum(len(x) for x in lists) == len(rules.declared()), "an id is in two lists"
    for table in lists:
        for rule, text in table.items():
            assert _is_table(rule) == (registry == "TABLE"), rule
            assert text.strip() and "\n" not in text and len(text) <= 100, (rule, text)
            assert rules.text(rule) == text


@pytest.mark.parametrize("game_id", GAMES)
def test_the_rules_code_cites_only_rules_of_the_reference(game_id: str) -> None:
    """Comments and docstrings too: the code once cited R-TURN-3a and R-TURN-3b, which no
    reference defines (R-TURN-3 has options a and b; one rule, one id)."""
    text = _reference(game_id)
    known = set(_entries(text)) | _headings(text)
    _, folder = _package(find_game(game_id))
    stray = sorted(
        {
            f"{path.relative_to(ROOT)}:{n}: {cited}"
            for path in folder.rglob("*.py")
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            for cited in CITED.findall(line)
            if cited not in known
        }
    )
    assert stray == []


def test_every_table_id_of_the_platform_is_declared_in_core() -> None:
    """``TABLE-*`` ids are the platform's: wherever the code names one (core, service, a game),
    core declares it; and each declared one is still named somewhere."""
    found = _literals(PACKAGE)
    table = {r for r in found if _is_table(r)}
    assert sorted(table - TABLE_RULES.declared()) == []
    assert sorted(TABLE_RULES.declared() - table) == []
    assert {r for r in found if not _is_table(r)} <= set().union(
        *(_registry(g).declared() for g in GAMES)
    ), "a game's rule id outside its package"
