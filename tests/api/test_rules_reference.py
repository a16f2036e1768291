"""The players' rules reference at /rules/<game>: every rule a refusal can name has its entry.

Refusals show a rule id (R-MIN-4, D-4, TABLE-GAME-OVER) and link to /rules/<game>#<id>; a rule
cited anywhere in a game's package without an entry on that game's page fails here.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from scorekeeper.api.rules import RULEBOOK, anchors, reference_text
from scorekeeper.games import games

PACKAGE = Path(__file__).resolve().parents[2] / "scorekeeper"
DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"

# A game rule as the packages cite it: R-MIN-4, an optional rule's R-OPT-B-1 (Arcana), a
# section such as R-FAME, a definition (D-4), a ruling (A-5, G-12). TABLE-... ids are the
# table's own refusals, shared by every game.
GAME_RULE = re.compile(r"(?<![\w-])(R-[A-Z]+(?:-[A-Z]+)?(?:-\d+)?|[DAG]-\d+)(?![\w-])")
TABLE_RULE = re.compile(r"(?<![\w-])(TABLE-[A-Z]+(?:-[A-Z]+)*)(?![\w-])")

# Every numbered rule of each game's rules, by section: each one gets its own entry.
SECTIONS = {
    "angels-and-demons": {
        "SETUP": 5,
        "TURN": 6,
        "CLAIM": 4,
        "EXH": 4,
        "OUT": 3,
        "SCORE": 4,
        "END": 3,
        "ADV": 6,
    },
    "arcanum": {
        "SETUP": 9,
        "ROUND": 5,
        "DRAW": 5,
        "PLAY": 5,
        "DECK": 1,
        "VAR": 2,
        "MIN": 7,
        "MAJ": 1,
        "REP": 4,
        "FAME": 11,
        "END": 3,
    },
    "king-of-the-elves": {"SETUP": 12, "PLAN": 16, "TRAVEL": 18, "END": 9},
    "arcana": {
        "SETUP": 8,
        "ROUND": 2,
        "INT": 6,
        "RES": 5,
        "TIE": 2,
        "MULTI": 3,
        "VAL": 4,
        "BRIBE": 3,
        "HARL": 1,
        "EOR": 3,
        "END": 4,
        "OPT-B": 1,
        "OPT-C": 4,
        "OPT-D": 4,
        "OPT-E": 2,
        "OPT-F": 3,
        "OPT-T": 2,
    },
}
DEFINITIONS = {"angels-and-demons": 11, "arcanum": 0, "king-of-the-elves": 0, "arcana": 0}


def _cited(folder: Path, pattern: re.Pattern[str]) -> set[str]:
    found: set[str] = set()
    for path in folder.rglob("*"):
        if path.suffix in (".py", ".yaml") and path.is_file():
            found |= set(pattern.findall(path.read_text(encoding="utf-8")))
    return found


def _package(game_id: str) -> Path:
    return Path(inspect.getfile(type(games()[game_id]))).parent


GAME_IDS = sorted(games())


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_rule_a_game_cites_has_an_entry_on_its_page(client: TestClient, game_id: str) -> None:
    cited = _cited(_package(game_id), GAME_RULE) | _cited(PACKAGE, TABLE_RULE)
    # the scan finds what it should: the game's own rules and the table's
    assert len({c for c in cited if c.startswith("R-")}) >= 10
    assert {"TABLE-GAME-OVER", "TABLE-NOT-RUNNING"} <= cited
    r = client.get(f"/rules/{game_id}")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    ids = set(re.findall(r'\bid="([^"]+)"', r.text))
    missing = sorted(cited - ids)
    assert not missing, (
        f"rules cited in {_package(game_id)} with no entry on /rules/{game_id} "
        f"(add them to docs/rules/{game_id}.md and copy it to {RULEBOOK}): "
        f"{missing}"
    )


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_numbered_rule_of_the_game_has_its_own_entry(game_id: str) -> None:
    text = reference_text(game_id)
    assert text is not None, f"no rules reference for {game_id}"
    have = anchors(text)
    wanted = {
        f"R-{section}-{n}"
        for section, count in SECTIONS[game_id].items()
        for n in range(1, count + 1)
    }
    wanted |= {f"R-{section}" for section in SECTIONS[game_id] if section != "MAJ"}
    wanted |= {f"D-{n}" for n in range(1, DEFINITIONS[game_id] + 1)}
    assert not sorted(wanted - have)
    # one entry each: an id given twice would make the link jump to the first
    entries = re.findall(r"^\*\*((?:R|D|A|G|TABLE)-[A-Z0-9-]*[A-Z0-9])", text, re.M)
    assert len(entries) == len(set(entries))


def test_the_page_has_one_element_per_rule_with_its_id_and_the_way_back(client: TestClient) -> None:
    r = client.get("/rules/arcanum")
    assert r.status_code == 200
    page = r.text
    assert "<title>Arcanum: the rules at the table</title>" in page
    entry = re.search(r'<section class="rule" id="R-MIN-4">(.*?)</section>', page, re.S)
    assert entry is not None
    assert "must really move" in entry.group(1) and "Tower" in entry.group(1)
    assert page.count('id="R-MIN-4"') == 1
    assert re.search(r'<a id="back" href="/">[^<]*Back to the table</a>', page)
    # other rules named in an entry link to theirs
    assert '<a href="#R-MIN-1">R-MIN-1</a>' in page
    # nothing is fetched from elsewhere (a table may have no internet)
    assert not re.search(r'(src|href)="(https?:)?//', page)
    assert "<link" not in page
    all_ids = re.findall(r'\bid="([^"]+)"', page)
    assert len(all_ids) == len(set(all_ids))


def test_options_are_described_with_their_default(client: TestClient) -> None:
    page = client.get("/rules/angels-and-demons").text
    item_win = re.search(r'id="R-ADV-6">(.*?)</section>', page, re.S)
    assert item_win is not None
    assert "Table option" in item_win.group(1) and "(default)" in item_win.group(1)


def test_index_lists_every_game(client: TestClient) -> None:
    r = client.get("/rules")
    assert r.status_code == 200
    for game_id in GAME_IDS:
        assert f'href="/rules/{game_id}"' in r.text
    assert "Angels &amp; Demons: the rules at the table" in r.text


@pytest.mark.parametrize("name", ["king-of-chess", "ARCANUM", "arcanum.md"])
def test_unknown_game_is_a_404_in_plain_words(client: TestClient, name: str) -> None:
    r = client.get(f"/rules/{name}")
    assert r.status_code == 404
    assert r.headers["content-type"].startswith("text/html")
    assert "There is no rules page for" in r.text
    assert 'href="/rules"' in r.text


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_shipped_reference_is_the_one_in_docs(game_id: str) -> None:
    """docs/rules/ is what people read in the repository; the package ships a copy."""
    source = DOCS / f"{game_id}.md"
    assert source.is_file(), f"no {source}"
    shipped = RULEBOOK / f"{game_id}.md"
    assert shipped.read_text(encoding="utf-8") == source.read_text(encoding="utf-8"), (
        f"{shipped} differs from {source}: cp {source} {shipped}"
    )
