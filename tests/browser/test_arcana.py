"""Arcana's dashboard picture (webui/games/arcana.js and its modules), drawn from the game's own
views (scorekeeper/games/arcana/views.py) of simulated games played in this process.

Views at chosen moments (a face-down agent at a district, a district just settled, one being
settled, the end) are rendered through the page's own ``window.scorekeeper.render`` (the
page's table list is answered empty, so no server table replaces the view): the table view at
laptop, phone and TV sizes in large type, a face-down agent as a back with no name on the
public page and another seat's and named with its values on its owner's phone, the sums and
the winner of a settled district, the summary by source at the end, and every kind of moment
drawn with no error, id or empty value. axe-core audits each; screenshots go to
var/screenshots/<view>-<size>.png.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import Page, Route, expect

from tests.browser.axe import serious_violations

if TYPE_CHECKING:
    from tests.browser.conftest import Helpers

GAME = "arcana"
NAMES = ["Ann", "Bea", "Cid", "Dee"]
TOKENS_KEY = "scorekeeper.tokens"
MIN_TEXT_PX = 22.0  # the smallest text the picture may show in large type at 1080p
ALL_OPTIONS = {
    "objectives": True,
    "watch": True,
    "guild_masters": True,
    "events": True,
    "set_aside": True,
}
# A card id or a prompt's answer code, anywhere people read: never allowed.
IDS = re.compile(
    r"(?<![\w-])((blades|thieves|usurers|ferrymen|fortune_tellers|architects)_\d\d|badge_[a-z_]+"
    r"|stake_\d{3}|master_[a-z_]+_\d|objective_\d\d|event_\d\d|captain_\d|constable_\d"
    r"|first_player|princes_games|stake_discard|bribe_arcanum|relic_on|win_at|next_district"
    r"|vp_sources|guild_cards|sums_seen|drew:\d)(?![\w])"
)


# -- the game's own views, from simulated games ---------------------------------------------------


@dataclass
class Moment:
    """The views of one moment of a game: ``views[audience]`` ("public", "organiser", 0, 1)."""

    kind: str
    views: dict[Any, dict[str, Any]] = field(default_factory=dict)


def _play(seats: int, seed: int, options: dict[str, Any]) -> Iterator[Any]:
    """The table after each input of one simulated game, fed to a Table in this process; stops
    at the game's end or at an input the referee refuses (then the world and the referee
    disagree: that is their tests' business, this one looks at the views it was given)."""
    from scorekeeper.core.table import Table, TableConfig
    from scorekeeper.games import find_game
    from scorekeeper.sim import find_world

    game = find_game(GAME)
    opts = {"pack": "sample", **options}
    names = tuple(NAMES[:seats])
    table = Table(TableConfig(GAME, names, opts, game.default_layout(seats)), game)
    for inp in find_world(GAME)(seats, opts, seed).inputs():
        if game.is_over(table.state) or not table.submit(inp).accepted:
            break
        yield table
    yield table


def _envelope(table: Any, audience: Any, kind: str) -> dict[str, Any]:
    view = {"id": "arcana1", "status": "running", "archived": False}
    view.update(table.view(audience))
    view["kind"] = kind
    return view


def _moment(table: Any, kind: str) -> Moment:
    from scorekeeper.core.game import PUBLIC

    return Moment(kind, {a: _envelope(table, a, kind) for a in (PUBLIC, "organiser", 0, 1)})


def _face_down(st: dict[str, Any], owner: int) -> list[dict[str, Any]]:
    return [
        a
        for d in st["districts"]
        for a in d["agents"]
        if a["owner"] == owner and a["face"] == "down"
    ]


def _find(
    seats: int, options: dict[str, Any], wanted: dict[str, Callable[[dict[str, Any]], bool]]
) -> dict[str, Moment]:
    """The first moment of each kind ``wanted`` (a test of the public state), over the first
    seeds until every kind is found (each game takes a few hundredths of a second)."""
    from scorekeeper.core.game import PUBLIC

    found: dict[str, Moment] = {}
    for seed in range(1, 16):
        for table in _play(seats, seed, options):
            st = table.view(PUBLIC)["state"]
            for kind, test in wanted.items():
                if kind not in found and test(st):
                    found[kind] = _moment(table, kind)
        if len(found) == len(wanted):
            return found
    missing = sorted(set(wanted) - set(found))
    raise AssertionError(f"no simulated game of {seats} seats {options} reaches {missing}")


def _hidden(st: dict[str, Any]) -> bool:
    """Seat 0 has a face-down agent and someone a face-up one, during the intrigue."""
    up = any(a["face"] == "up" for d in st["districts"] for a in d["agents"])
    return st["phase"] == "intrigue" and bool(_face_down(st, 0)) and up


def _settled(st: dict[str, Any]) -> bool:
    """A district settled this round by its result, won with sums."""
    last = st["history"][-1] if st["history"] else None
    return (
        st["phase"] == "results"
        and last is not None
        and last["round"] == st["round"]
        and not last["immediate"]
        and last["winner"] is not None
        and len(last["sums"]) >= 2
    )


def _under_way(st: dict[str, Any]) -> bool:
    return bool(st["results"])


def _over(st: dict[str, Any]) -> bool:
    return bool(st["over"])


# -- the page ------------------------------------------------------------------------------------


def _draw(page: Page, view: dict[str, Any], big: bool = False) -> None:
    """Open the live page with no server table (the list answered empty) and draw ``view``."""

    def no_tables(route: Route) -> None:
        route.fulfill(status=200, content_type="application/json", body="[]")

    page.route("**/api/tables", no_tables)
    if view["audience"].startswith("seat "):
        seat = int(view["audience"].split()[1])
        tokens = {view["id"]: {"token": "fixture", "seat": seat, "name": NAMES[seat]}}
        page.add_init_script(
            f"localStorage.setItem({json.dumps(TOKENS_KEY)}, {json.dumps(json.dumps(tokens))});"
        )
    page.goto(f"/?big={1 if big else 0}")
    page.wait_for_function("() => window.scorekeeper && window.scorekeeper.render")
    page.evaluate(_WATCH)
    _render(page, view)


def _render(page: Page, view: dict[str, Any], settle: bool = True) -> None:
    """Draw ``view`` on the open page; ``settle``: wait for the picture to be fitted."""
    page.evaluate(
        "async (view) => { document.body.classList.remove('no-table');"
        " await window.scorekeeper.render(view); }",
        view,
    )
    expect(page.locator(f"#board svg.{GAME}"), "the game's own picture").to_be_visible()
    if settle:
        page.wait_for_timeout(150)  # the picture is fitted after a render


_WATCH = """() => {
  window.__problems = [];
  window.addEventListener('error', (e) => window.__problems.push(String(e.message)));
  const err = console.error;
  console.error = (...a) => { window.__problems.push(a.map(String).join(' ')); err(...a); };
}"""


def _axe(page: Page, where: str) -> None:
    bad = serious_violations(page)
    assert not bad, f"{where}: axe-core finds serious violations:\n" + "\n".join(bad)


def _page_text(h: type[Helpers], page: Page, where: str) -> str:
    """What the page shows and carries (the platform's hooks for the tests, data-card,
    data-prompt and data-answer, left out), checked for ids, seat markers and empty values."""
    text = h.dom_text(page, skip="script, style, link, meta")
    hooks = ("data-card=", "data-prompt=", "data-answer=")
    text = "\n".join(line for line in text.split("\n") if not line.startswith(hooks))
    found = sorted({m.group(0) for m in IDS.finditer(text)})
    assert not found, f"{where}: ids where people read: {found}"
    for bad in ("undefined", "NaN", "[object Object]", "{seat:", "null"):
        assert bad not in text, f"{where}: {bad!r} on the page"
    problems = page.evaluate("() => window.__problems")
    assert not problems, f"{where}: {problems}"
    return text


def _names(name: str, text: str) -> bool:
    """Whether ``text`` names the card ``name`` as a whole (the Smuggler is not named by the
    Smugglers' Tunnel lying face up on a discard pile)."""
    return re.search(rf"(?<![\w']){re.escape(name)}(?![\w'])", text) is not None


def _picture(page: Page) -> str:
    return str(page.evaluate("() => document.querySelector('#board svg').textContent"))


def _small_text(page: Page) -> list[str]:
    """Words of the picture below MIN_TEXT_PX, or that the page had to raise to it."""
    return list(
        page.evaluate(f"""() => {{
      const out = [];
      for (const t of document.querySelectorAll('#board svg text')) {{
        const s = t.textContent.trim();
        const r = t.getBoundingClientRect();
        if (!s || !r.width) continue;
        const m = t.getScreenCTM();
        const px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
        if (px < {MIN_TEXT_PX} - 0.05) out.push(s + ' at ' + px.toFixed(1) + 'px');
        if (t.dataset.raisedFrom) out.push(s + ' drawn at ' + t.dataset.raisedFrom);
      }}
      return out;
    }}""")
    )


def _no_sideways_scroll(page: Page, where: str) -> None:
    wide = page.evaluate("() => [document.scrollingElement.scrollWidth, innerWidth]")
    assert wide[0] <= wide[1], f"{where}: the page scrolls sideways ({wide[0]} > {wide[1]} px)"


# -- the tests -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def moments() -> dict[str, Moment]:
    """A 4-seat game with every option (face-down agents, events, watch, masters, objectives)
    and 3-seat games without (a district just settled, one being settled, the end)."""
    out = _find(4, ALL_OPTIONS, {"hidden": _hidden})
    out.update(_find(3, {}, {"settled": _settled, "under way": _under_way, "over": _over}))
    return out


def test_the_table_picture(
    moments: dict[str, Moment], new_page: Callable[..., Page], h: type[Helpers]
) -> None:
    """The TV's picture mid-intrigue: every district with its stake in words and its pile, the
    agents in rows by owner, each face-down agent a back with no name, the seats with their
    guilds and counts, the events and the sample pack; readable in large type on a TV; in one
    column on a phone; no serious axe violation at any size."""
    moment = moments["hidden"]
    view = moment.views["public"]
    st = view["state"]
    secret = moment.views["organiser"]["state"]
    page = new_page("laptop")
    _draw(page, view)
    where = "the table mid-intrigue"
    expect(page.locator("#board [data-district]")).to_have_count(len(st["districts"]))
    pic = _picture(page)
    for d in st["districts"]:
        title = "Neutral district" if d["id"] == "n" else f"District {d['id'].upper()}"
        assert title in pic, f"{where}: no {title!r}"
        if d["stake"]:
            assert d["stake"]["name"] in pic, f"{where}: {d['stake']['name']!r} not drawn"
    backs = sum(1 for d in st["districts"] for a in d["agents"] if a["card"] is None)
    expect(page.locator("#board [data-agent-back]")).to_have_count(backs)
    expect(page.locator("#board [data-agent-down]")).to_have_count(0)
    # what the face-down agents are is nowhere on the table's page
    hidden = {
        s["name"]
        for d, o in zip(st["districts"], secret["districts"], strict=True)
        for a, s in zip(d["agents"], o["agents"], strict=True)
        if a["card"] is None
    }
    assert hidden, f"{where}: no face-down agent"
    shown = " ".join(
        page.locator(sel).inner_text() for sel in ("#board", "#seats", "#waiting", "#phase")
    )
    leaked = sorted(n for n in hidden if _names(n, shown))
    assert not leaked, f"{where}: face-down agents named: {leaked}"
    for i, name in enumerate(NAMES):
        guild = st["seats"][i]["guild_name"]
        assert f"the {guild}" in pic, f"{where}: {name}'s guild not drawn"
    for words in ("Event now:", "sample card pack", "watch deck", "VP so far", "first player"):
        assert words in pic, f"{where}: the picture does not say {words!r}"
    _page_text(h, page, where)
    _axe(page, f"{where} at 1366x768")
    h.shoot(page, "table-arcana")

    page.set_viewport_size({"width": h.SIZES["phone"][0], "height": h.SIZES["phone"][1]})
    expect(page.locator(f"#board svg.{GAME}.narrow")).to_be_visible()
    _no_sideways_scroll(page, f"{where} at 390x844")
    _axe(page, f"{where} at 390x844")
    page.set_viewport_size({"width": h.SIZES["tv"][0], "height": h.SIZES["tv"][1]})
    page.locator("#big-toggle").click()
    expect(page.locator("body.big #board svg:not(.narrow)")).to_be_visible()
    page.wait_for_timeout(200)  # the picture is fitted after a render
    small = _small_text(page)
    assert not small, f"{where} in large type: text below {MIN_TEXT_PX} px: {small}"
    _axe(page, f"{where} in large type at 1920x1080")
    page.screenshot(path=str(h.SCREENSHOTS / "table-arcana-big-tv.png"))


def test_face_down_agents_on_the_phones(
    moments: dict[str, Moment], new_page: Callable[..., Page], h: type[Helpers]
) -> None:
    """Ann's phone names her face-down agents (in the picture and among her cards, with their
    values), gives her exact VP, her sums with them counted and her objectives' progress; Bea's
    phone shows the same agents as backs, named nowhere."""
    moment = moments["hidden"]
    mine = moment.views[0]
    own = _face_down(mine["state"], 0)
    names = sorted({a["name"] for a in own})
    page = new_page("phone")
    _draw(page, mine)
    where = "Ann's phone"
    expect(page.locator("#board [data-agent-down]")).to_have_count(len(own))
    pic = _picture(page)
    for name in names:
        assert name in pic, f"{where}: her face-down {name!r} not named in the picture"
    chips = page.locator("#my-cards [data-card]")
    seat = mine["state"]["seats"][0]
    expect(chips).to_have_count(len(seat["face_down"]) + len(seat["hand_known"]))
    first = seat["face_down"][0]
    chip = page.locator(f'#my-cards [data-card="{first["card"]}"]')
    expect(chip).to_contain_text(first["name"])
    expect(chip).to_contain_text("face down at")
    expect(page.locator("#mine .my-vp")).to_contain_text(f"Your VP now {seat['vp']}")
    expect(page.locator("#mine tr[data-my-sum]").first).to_be_visible()
    objectives = page.locator("#mine [data-objective]")
    expect(objectives).to_have_count(len(seat["objectives"]))
    expect(objectives.first).to_contain_text(f"of {seat['objectives'][0]['need']} stake")
    _page_text(h, page, where)
    _no_sideways_scroll(page, f"{where} at 390x844")
    _axe(page, f"{where} at 390x844")
    h.shoot(page, "seat-arcana")

    other = new_page("phone")
    _draw(other, moment.views[1])
    where = "Bea's phone"
    pic = _picture(other) + other.locator("#mine").inner_text()
    leaked = [n for n in names if _names(n, pic)]
    assert not leaked, f"{where}: Ann's face-down agents named: {leaked}"
    row = other.locator('#board [data-row-seat="0"] [data-agent-back]')
    assert row.count() >= len(own), f"{where}: Ann's face-down agents not drawn as backs"
    _page_text(h, other, where)

    # the organiser's view names every face-down agent, with its values
    everything = moment.views["organiser"]
    _render(other, everything)
    down = [a for s in range(len(NAMES)) for a in _face_down(everything["state"], s)]
    expect(other.locator("#board [data-agent-down]")).to_have_count(len(down))
    expect(other.locator("#board [data-agent-back]")).to_have_count(0)
    value = re.compile(r"\S+ [⚚⚔♥] -?\d+")
    expect(other.locator("#board [data-agent-down]").first).to_contain_text(value)
    _page_text(h, other, "the organiser's view")


def test_a_settled_district_and_the_end(
    moments: dict[str, Moment], new_page: Callable[..., Page], h: type[Helpers]
) -> None:
    """The district just settled: its winner, the reason and every seat's sum on the banner,
    and the mark on the district; one being settled, on the banner; at the end each seat's VP
    by source adding up to its total, the winners, and the districts settled, newest first."""
    page = new_page("laptop")
    view = moments["settled"].views["public"]
    _draw(page, view)
    st = view["state"]
    last = st["history"][-1]
    winner = NAMES[last["winner"]]
    banner = page.locator("#board .banner")
    expect(banner).to_contain_text("Last settled")
    expect(banner).to_contain_text(f"{winner} wins")
    for s, v in last["sums"].items():
        expect(banner).to_contain_text(re.compile(rf"{NAMES[int(s)]} \S+ {v}\b"))
    mark = page.locator(f'#board [data-district="{last["district"]}"]')
    expect(mark).to_contain_text(f"won by {winner}")
    _page_text(h, page, "a district settled")

    view = moments["under way"].views["public"]
    _render(page, view)
    district = view["state"]["results"]["district"]
    name = "the neutral district" if district == "n" else f"district {district.upper()}"
    expect(page.locator("#board .banner")).to_contain_text(f"Settling {name}")
    expect(page.locator(f'#board [data-district="{district}"]')).to_contain_text("being settled")
    _page_text(h, page, "a district being settled")

    view = moments["over"].views["public"]
    _render(page, view)
    where = "the end"
    st = view["state"]
    summary = page.locator("#summary")
    expect(summary).to_be_visible()
    winners = " and ".join(NAMES[i] for i in st["winners"])
    expect(summary.locator("h2")).to_contain_text(winners)
    heads = summary.locator("thead th").all_text_contents()
    assert "Guild cards" in heads and "Stakes" in heads, heads
    for i, seat in enumerate(st["seats"]):
        row = summary.locator(f'tr[data-summary-seat="{i}"]')
        expect(row.locator('td[data-label="Total"]')).to_have_text(str(seat["vp"]))
        cells = row.locator("td.num:not(.total)").all_text_contents()
        total = sum(int(c.replace("−", "-")) for c in cells if c != "·")
        assert total == seat["vp"] == sum(seat["vp_sources"].values()), (where, i, cells)
    expect(page.locator("#board .banner")).to_contain_text(f"{winners} wins")
    expect(page.locator("#history li[data-settled]")).to_have_count(len(st["history"]))
    _page_text(h, page, where)
    _axe(page, f"{where} at 1366x768")
    h.shoot(page, "summary-arcana")


def test_every_kind_of_moment_draws(new_page: Callable[..., Page], h: type[Helpers]) -> None:
    """Every kind of moment of two simulated games (2 seats with a custom guild, 4 with every
    option): each phase and each prompt, on the table's page (and with every option on seat
    0's phone), draws the game's picture with no error, no id, no unnamed seat marker and no
    empty value."""
    from scorekeeper.core.game import PUBLIC

    pages: dict[str, Page] = {}
    drawn = 0
    for seats, options in ((2, {"custom_guild": True}), (4, ALL_OPTIONS)):
        seen: set[str] = set()
        for table in _play(seats, 2, options):
            view = table.view(PUBLIC)
            kinds = {view["state"]["phase"]} | {p["id"] for p in view["pending"]}
            new = kinds - seen
            if not new:
                continue
            seen |= new
            kind = ",".join(sorted(new))
            audiences = ((PUBLIC, "laptop"), (0, "phone")) if seats == 4 else ((PUBLIC, "laptop"),)
            for audience, size in audiences:
                env = _envelope(table, audience, kind)
                where = f"{seats} seats {options}, {kind}, {env['audience']}"
                if env["audience"] not in pages:
                    pages[env["audience"]] = new_page(size)
                    _draw(pages[env["audience"]], env)
                else:
                    _render(pages[env["audience"]], env, settle=False)
                _page_text(h, pages[env["audience"]], where)
                drawn += 1
    assert drawn >= 16, drawn
