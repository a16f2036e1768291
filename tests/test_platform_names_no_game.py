"""Outside a game's own packages, no production line names that game (issue 12, Checks).

A game lives in ``scorekeeper/games/<game>/``, ``scorekeeper/sim/<game>/`` and
``webui/games/<id>.js`` (with its docs and tests); the registries (``scorekeeper/games/
__init__.py``, ``scorekeeper/sim/__init__.py``) list it. Everything else, the API, the
commands, the console, the dashboard and the packaging, must work for a game it has never
heard of: a third game is then one package per layer and a registry line. Docstrings and
comments may give a game as an example; code, strings people read and imports may not.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scorekeeper.games import find_game, game_ids, games
from scorekeeper.sim import find_world
from tests.core.test_game_contract import ROOT, platform_mentions

# Strings that are a game's zone kind by coincidence, with why the platform may say them.
INNOCENT = {
    "loc": "the key of a validation error's location in FastAPI's and pydantic's errors",
    "event": "a reader frame's and a backup record's kind (Arcana's event pad is a zone too)",
}


def _own_folders(game_id: str) -> list[Path]:
    """The game's package and its simulated world's package, as the registries name them."""
    modules = [type(find_game(game_id)).__module__, find_world(game_id).__module__]
    return [Path(*module.split(".")[:3]) for module in modules]


def _own(path: Path) -> bool:
    """True for a file that belongs to one game, or to the registries."""
    rel = path.relative_to(ROOT)
    if rel in (Path("scorekeeper/games/__init__.py"), Path("scorekeeper/sim/__init__.py")):
        return True
    for game_id in game_ids():
        if any(rel.is_relative_to(folder) for folder in _own_folders(game_id)):
            return True
    return rel.parts[:2] == ("webui", "games")


def python_files() -> list[Path]:
    """The production Python of the platform: the package and the bridge firmware."""
    found = [
        *ROOT.joinpath("scorekeeper").rglob("*.py"),
        *ROOT.joinpath("firmware_bridge").rglob("*.py"),
    ]
    return sorted(p for p in found if not _own(p) and "__pycache__" not in p.parts)


def web_files() -> list[Path]:
    """The dashboard's and the console's pages, scripts and styles, a game's drawing left out."""
    found = [p for ext in ("js", "html", "css") for p in ROOT.joinpath("webui").rglob(f"*.{ext}")]
    return sorted(p for p in found if not _own(p))


_COMMENTS = re.compile(r"<!--.*?-->|/\*.*?\*/|(?<![:\\'\"])//[^\n]*", re.S)


def web_mentions(paths: list[Path], words: set[str]) -> list[str]:
    """Lines of ``paths`` that name one of ``words`` outside comments (case-insensitive)."""
    out = []
    for path in paths:
        code = _COMMENTS.sub(
            lambda m: "\n" * m.group(0).count("\n"), path.read_text(encoding="utf-8")
        )
        for number, line in enumerate(code.splitlines(), 1):
            low = line.lower()
            if any(word in low for word in words):
                where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
                out.append(f"{where}:{number}: {line.strip()}")
    return out


def _words(game_id: str) -> set[str]:
    game = find_game(game_id)
    package = _own_folders(game_id)[0].name
    return {game.id.lower(), game.id.replace("-", "_"), package, game.name.lower()}


@pytest.mark.parametrize("game_id", sorted(games()))
def test_no_python_outside_the_game_names_it(game_id: str) -> None:
    found = [
        line
        for line in platform_mentions(python_files(), find_game(game_id))
        if not any(line.endswith(f": {word!r}") for word in INNOCENT)
    ]
    assert not found, f"{len(found)} lines name {game_id}:\n" + "\n".join(found)


@pytest.mark.parametrize("game_id", sorted(games()))
def test_no_page_or_script_outside_the_game_names_it(game_id: str) -> None:
    found = web_mentions(web_files(), _words(game_id))
    assert not found, f"{len(found)} lines name {game_id}:\n" + "\n".join(found)


@pytest.mark.parametrize("game_id", sorted(games()))
def test_the_packaging_names_no_game(game_id: str) -> None:
    text = ROOT.joinpath("pyproject.toml").read_text(encoding="utf-8").lower()
    named = sorted(word for word in _words(game_id) if word in text)
    assert not named, f"pyproject.toml names {game_id} ({', '.join(named)})"


def test_the_checks_see_a_game_named_in_code_and_not_in_comments(tmp_path: Path) -> None:
    """The checks would have caught the lines the issue counted, and leave comments alone."""
    page = tmp_path / "console.html"
    page.write_text(
        "<!-- Arcanum needs a board -->\n<h2>Board profiles (Arcanum)</h2>\n"
        "<script>// arcanum, in a comment\nconst x = 'arcanum';</script>\n",
        encoding="utf-8",
    )
    found = web_mentions([page], _words("arcanum"))
    assert [f.split(":")[1] for f in found] == ["2", "4"], found
    code = tmp_path / "table.py"
    code.write_text(
        '"""Docstrings may say angels-and-demons."""\n'
        "# so may comments: Arcanum\n"
        'HELP = "the game id, e.g. angels-and-demons"\n'
        "from scorekeeper.games.arcanum.boards import load_profile\n",
        encoding="utf-8",
    )
    assert len(platform_mentions([code], find_game("angels-and-demons"))) == 1
    assert len(platform_mentions([code], find_game("arcanum"))) == 1
    # The files the checks read are the platform's, not a game's.
    assert ROOT / "scorekeeper" / "api" / "auth.py" in python_files()
    assert not any("arcanum" in str(p) for p in python_files() + web_files())
    assert ROOT / "scorekeeper" / "sim" / "world.py" in python_files()
