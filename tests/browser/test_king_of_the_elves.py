"""King of the Elves' dashboard picture (webui/games/king-of-the-elves.js and its modules),
from views built here after the contract's "The views" (docs/games/king-of-the-elves.md).

A table in the middle of Anita's journey, Anita's phone with her purse and gold ledger, and a
finished game's summary and journeys. Each is rendered through the page's own
``window.scorekeeper.render`` (the page's table list is answered empty, so no server table
replaces the view), checked for its words (cards in words, no ids, no purse but the reader's
own during play), audited by axe-core, measured (large type at 1080p drawn large by the view
itself, no sideways scroll on a phone) and screenshot to var/screenshots/<view>-<size>.png.
The game's own views and a live table: test_king_of_the_elves_live.py.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from playwright.sync_api import Page, Route, expect

from tests.browser.axe import serious_violations

if TYPE_CHECKING:
    from tests.browser.conftest import Helpers

GAME = "king-of-the-elves"
NAMES = ["Anita", "Jenő", "Márk", "Éva"]
TOKENS_KEY = "scorekeeper.tokens"
MIN_TEXT_PX = 22.0  # the smallest text the picture may show in large type at 1080p
# A card or token id, or a prompt answer's code, anywhere people read: never allowed.
IDS = re.compile(
    r"(?<![\w])(village_\d\d|(giant_pig|elfcycle|magic_cloud|unicorn|troll_wagon|dragon|raft|gold"
    r"|thief|fallen_tree|sea_monster|escort|turnaround)_\d+|token_[a-f]\d|purse:\d|escrow:\d"
    r"|draw3|gold_sources|thieves_(in|out))(?![\w])"
)

# -- views after the contract --------------------------------------------------------------------


def _v(card: str, terrain: str, value: int, **specials: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"card": card, "terrain": terrain, "value": value}
    for kind in ("gold", "thief", "obstacle"):
        out[kind] = specials.get(kind)
    return out


def _sp(card: str, owner: int) -> dict[str, Any]:
    return {"card": card, "type": card.rsplit("_", 1)[0], "owner": owner}


def _seat(crest: str, hand: int, villages: list[dict[str, Any]], **kw: Any) -> dict[str, Any]:
    out = {
        "seat": "abcdef".index(crest),
        "crest": crest,
        "hand": hand,
        "villages": villages,
        "placed": 0,
        "bought": 0,
        "escrow": 0,
        "travelled": False,
    }
    out.update(kw)
    return out


def _table() -> list[dict[str, Any]]:
    """The table of the rulebook's examples (the contract's golden scripts' layout)."""
    # fmt: off
    return [
        _seat("a", 3, [_v("village_05", "river", 2, obstacle=_sp("sea_monster_1", 3)),
                       _v("village_16", "mountain", 6)], placed=1),
        _seat("b", 6, [_v("village_18", "forest", 4, gold=_sp("gold_2", 0),
                          obstacle=_sp("fallen_tree_1", 2)),
                       _v("village_01", "lake", 7)], placed=1),
        _seat("c", 5, [_v("village_09", "desert", 6, thief=_sp("thief_3", 1)),
                       _v("village_23", "plain", 3)], placed=2),
        _seat("d", 4, [_v("village_13", "mountain", 5)], placed=1),
    ]
    # fmt: on


def _visit(seat: int, slot: int, cards: list[str], income: int, **kw: Any) -> dict[str, Any]:
    out = {
        "seat": seat,
        "slot": slot,
        "cards": cards,
        "thief": 0,
        "income": income,
        "gold_card": 0,
        "bonus": 0,
        "teleport": 0,
    }
    out.update(kw)
    return out


def _envelope(state: dict[str, Any], audience: str = "public", **kw: Any) -> dict[str, Any]:
    view = {
        "id": "kote1",
        "status": "running",
        "archived": False,
        "game": GAME,
        "game_name": "King of the Elves",
        "name": "Elves at the fixture",
        "seats": NAMES,
        "audience": audience,
        "over": False,
        "scores": None,  # private until the end (Game.scores_private), as the server sends
        "scores_private": True,
        "waiting_for": "Anita's journey: next, Márk's plain village (3): 1 more magic "
        "cloud, or stop",
        "pending": [
            {
                "id": "journey",
                "seat": 0,
                "private": False,
                "options": ["stop"],
                "question": "Anita's journey: lay the next travel cards, or stop",
            }
        ],
        "state": state,
        "feed": [],
        "inputs": 61,
        "accepted": 60,
        "score_history": [],
        "put_back": None,
    }
    view.update(kw)
    return view


def journey_view() -> dict[str, Any]:
    """The public view in the middle of Anita's journey, round 1 of 4."""
    visits = [
        _visit(0, 1, ["raft_1", "raft_2"], 2),
        _visit(0, 2, ["unicorn_4"], 6),
        _visit(1, 1, ["unicorn_5", "unicorn_6"], 4, gold_card=4),
        _visit(1, 2, ["raft_3", "raft_4"], 7),
        _visit(2, 1, ["dragon_2"], 6, thief=2),
    ]
    costs = {"giant_pig": 1, "elfcycle": 1, "troll_wagon": 1, "dragon": 1, "magic_cloud": 2}
    journey = {
        "seat": 0, "at": {"seat": 2, "slot": 1}, "direction": "clockwise",
        "next": {"seat": 2, "slot": 2, "terrain": "plain", "value": 3, "costs": costs},
        "move": {"type": "magic_cloud", "cards": ["magic_cloud_1"], "needed": 2},
        "escort": None, "visits": visits, "visited": 5, "villages": 7, "bonus": False,
        "collected": 29, "paid": 2, "teleport": None,
    }  # fmt: skip
    state = {
        "phase": "travel", "round": 1, "rounds": 4, "start_seat": 0, "active_seat": 0,
        "deck": {"name": "assumed", "assumed": True}, "draw_pile": 62, "discard_pile": 9,
        "seats": _table(), "planning": None, "journey": journey, "history": [],
        "winners": [], "over": False,
        "options": {"money": "coins", "teleport": False, "starting_gold": 7},
    }  # fmt: skip
    return _envelope(state)


# Anita's ledger entries in round 1: (n, reason, rule, from, to, amount, about).
_ENTRIES = [
    (1, "start", "R-SETUP-5", "bank", "purse:0", 7, "the starting purse"),
    (5, "buy", "R-PLAN-6", "purse:0", "escrow:0", 1, "the first purchase this round"),
    (9, "buy_paid", "R-PLAN-7", "escrow:0", "bank", 1, "the end of planning"),
    (10, "village", "R-TRAVEL-8", "bank", "purse:0", 2, "{seat:0}'s river village (2)"),
    (11, "village", "R-TRAVEL-8", "bank", "purse:0", 6, "{seat:0}'s mountain village (6)"),
    (12, "village", "R-TRAVEL-8", "bank", "purse:0", 4, "{seat:1}'s forest village (4)"),
    (13, "gold_card", "R-TRAVEL-8", "bank", "purse:0", 4, "{seat:1}'s forest village (4)"),
    (14, "village", "R-TRAVEL-8", "bank", "purse:0", 7, "{seat:1}'s lake village (7)"),
    (15, "thief", "R-TRAVEL-7", "purse:0", "purse:1", 2, "{seat:2}'s desert village (6)"),
    (16, "village", "R-TRAVEL-8", "bank", "purse:0", 6, "{seat:2}'s desert village (6)"),
]
LEDGER = [
    dict(zip(("n", "reason", "rule", "from", "to", "amount", "about"), e, strict=True), round=1)
    for e in _ENTRIES
]


SOURCES = (
    "start",
    "villages",
    "gold_cards",
    "bonuses",
    "thieves_in",
    "thieves_out",
    "purchases",
    "removals",
    "teleports",
)


def _sources(*amounts: int) -> dict[str, int]:
    """A seat's ``gold_sources``, amounts in the contract's order of keys."""
    return dict(zip(SOURCES, amounts, strict=True))


def seat_view() -> dict[str, Any]:
    """Anita's own view at the same moment: her purse (33), its sources and her ledger."""
    view = journey_view()
    me = view["state"]["seats"][0]
    me["gold"] = 33
    me["gold_sources"] = _sources(7, 25, 4, 0, 0, -2, -1, 0, 0)
    me["ledger"] = LEDGER
    view["audience"] = "seat 0"
    return view


def over_view() -> dict[str, Any]:
    """The public view of a finished game: purses and their sources, the journeys."""
    sources = [
        _sources(7, 71, 8, 10, 4, -6, -6, 0, 0),
        _sources(7, 58, 0, 0, 8, -2, -3, -4, 0),
        _sources(7, 49, 5, 10, 0, -4, -1, 0, 0),
        _sources(7, 40, 0, 0, 2, -2, 0, 0, 0),
    ]
    seats = []
    for i, src in enumerate(sources):
        s = _seat("abcd"[i], 2 + i, [], travelled=True)
        s["gold_sources"] = src
        s["gold"] = sum(src.values())
        seats.append(s)
    history = []
    for rnd in range(1, 5):
        for k in range(4):
            seat = (rnd - 1 + k) % 4
            history.append(
                {
                    "round": rnd,
                    "seat": seat,
                    "cards": 6 + k,
                    "visits": 2 + (k + rnd) % 3,
                    "collected": 12 + k,
                    "paid": 2 * (k % 2),
                    "bonus": rnd == 4 and seat == 0,
                }
            )
    golds = [s["gold"] for s in seats]
    state = {
        "phase": "over",
        "round": 4,
        "rounds": 4,
        "start_seat": 3,
        "active_seat": None,
        "deck": {"name": "assumed", "assumed": True},
        "draw_pile": 40,
        "discard_pile": 30,
        "seats": seats,
        "planning": None,
        "journey": None,
        "history": history,
        "winners": [0],
        "over": True,
        "options": {"money": "coins", "teleport": False, "starting_gold": 7},
    }
    return _envelope(
        state,
        over=True,
        scores=golds,
        scores_private=False,
        pending=[],
        waiting_for="The game is over: Anita is King of the Elves with 88 gold",
    )


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
    page.evaluate(
        "async (view) => { document.body.classList.remove('no-table');"
        " await window.scorekeeper.render(view); }",
        view,
    )
    expect(page.locator(f"#board svg.{GAME}"), "the game's own picture").to_be_visible()
    page.wait_for_timeout(200)  # the picture is fitted after a render


def _axe(page: Page, where: str) -> None:
    bad = serious_violations(page)
    assert not bad, f"{where}: axe-core finds serious violations:\n" + "\n".join(bad)


def _no_ids(h: type[Helpers], page: Page, where: str) -> str:
    text = h.dom_text(page, skip="script, style, link, meta")
    found = sorted({m.group(0) for m in IDS.finditer(text)})
    assert not found, f"{where}: ids where people read: {found}"
    return str(text)


def _picture_text(page: Page) -> str:
    return str(page.evaluate("() => document.querySelector('#board svg').textContent"))


def _small_text(page: Page) -> list[str]:
    """Words of the picture below MIN_TEXT_PX, or that the page had to raise to it."""
    return list(
        page.evaluate(f"""() => {{
      const out = [];
      for (const t of document.querySelectorAll('#board svg text')) {{
        const s = t.textContent.trim();
        const r = t.getBoundingClientRect();
        if (!s || !r.width || t.closest('.fine')) continue;
        const m = t.getScreenCTM();
        const px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
        if (px < {MIN_TEXT_PX} - 0.05) out.push(s + ' at ' + px.toFixed(1) + 'px');
        // drawn large enough by the game's view itself, not raised by the page afterwards
        if (t.dataset.raisedFrom) out.push(s + ' drawn at ' + t.dataset.raisedFrom);
      }}
      return out;
    }}""")
    )


def _no_sideways_scroll(page: Page, where: str) -> None:
    wide = page.evaluate("() => [document.scrollingElement.scrollWidth, innerWidth]")
    assert wide[0] <= wide[1], f"{where}: the page scrolls sideways ({wide[0]} > {wide[1]} px)"


# -- the tests -----------------------------------------------------------------------------------


def test_the_table_mid_journey(new_page: Callable[..., Page], h: type[Helpers]) -> None:
    """The TV's picture: principalities in seat order with their villages and special cards in
    words, the journey (here, next and its cost, the move, spent, collected, paid), the dragon,
    the deck's name and the piles; no purse anywhere; readable in large type; no serious axe
    violation at laptop size, in large type and on a phone."""
    view = journey_view()
    page = new_page("laptop")
    _draw(page, view)
    where = "the table mid-journey"
    expect(page.locator("#board [data-board-seat]")).to_have_count(4)
    # round the table clockwise: seats 0 and 1 along the top from the left, seats 2 and 3 along
    # the bottom from the right, each principality's villages in the same running order
    box = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
        '#board [data-board-seat], #board [data-village]')].map((e) => {
          const r = e.getBoundingClientRect();
          return [e.dataset.boardSeat ?? e.dataset.village, [r.x, r.y]];
        }))""")
    assert box["0"][0] < box["1"][0] and box["0"][1] == box["1"][1], box
    assert box["3"][0] < box["2"][0] and box["2"][1] > box["0"][1], box
    assert box["0.1"][0] < box["0.2"][0] and box["2.2"][0] < box["2.1"][0], box
    pic = _picture_text(page)
    for words in (
        "Round 1 of 4",
        "deck: assumed",
        "Jenő's thief",
        "Éva's sea monster",
        "Márk's fallen tree",
        "Anita's gold card",
        "Anita's journey",
        "at Márk's desert village (6)",
        "next: Márk's plain village (3)",
        "this move: 1 of 2 magic clouds, 1 more",
        "+29",
        "−2",
        "dragon",
    ):
        assert words in pic, f"{where}: the picture does not say {words!r}"
    # the journey's marks: the traveller on the desert village, "next" on the plain one
    here = page.locator('#board [data-village="2.1"]')
    assert "Anita is here" in (here.text_content() or "")
    assert "next" in (page.locator('#board [data-village="2.2"]').text_content() or "")
    # the obstacle is drawn across the village it blocks
    expect(page.locator('#board [data-village="1.1"] .obstacle')).to_have_count(1)
    text = _no_ids(h, page, where)
    assert "purse" not in text and not re.search(r"\b33 gold\b", text), f"{where}: a purse"
    expect(page.locator("#phase")).to_contain_text("Anita's journey")
    # the traveller's journey prompt is left to her phone (the waiting line says it here)
    expect(page.locator('#prompts [data-prompt="journey"]')).to_have_count(0)
    _axe(page, f"{where} at 1366x768")
    h.shoot(page, "table-king-of-the-elves")

    # the same page on a phone: the picture in one column
    page.set_viewport_size({"width": h.SIZES["phone"][0], "height": h.SIZES["phone"][1]})
    expect(page.locator(f"#board svg.{GAME}.narrow")).to_be_visible()
    _no_sideways_scroll(page, f"{where} at 390x844")
    _axe(page, f"{where} at 390x844")
    # and on a TV in large type
    page.set_viewport_size({"width": h.SIZES["tv"][0], "height": h.SIZES["tv"][1]})
    page.locator("#big-toggle").click()
    expect(page.locator("body.big #board svg:not(.narrow)")).to_be_visible()
    page.wait_for_timeout(200)  # the picture is fitted after a render
    small = _small_text(page)
    assert not small, f"{where} in large type: text below {MIN_TEXT_PX} px: {small}"
    _axe(page, f"{where} in large type at 1920x1080")
    page.screenshot(path=str(h.SCREENSHOTS / "table-king-of-the-elves-big-tv.png"))


def test_a_phone_shows_its_purse_and_ledger(
    new_page: Callable[..., Page], h: type[Helpers]
) -> None:
    """Anita's phone: her purse big, her tokens and hand, her ledger newest first (reasons in
    words, signed amounts, what caused each, the rule), no private cards, nobody else's purse."""
    page = new_page("phone")
    _draw(page, seat_view())
    where = "Anita's phone"
    mine = page.locator("#mine")
    expect(mine).to_be_visible()
    expect(mine.locator("[data-purse]")).to_have_text("33 gold")
    expect(mine.locator('#my-prompts [data-prompt="journey"] button')).to_have_text(
        "Stop the journey here"
    )
    expect(page.locator("#my-cards [data-card]")).to_have_count(0)
    expect(mine).to_contain_text("3 cards in your hand")
    expect(mine).to_contain_text("3 tokens left this round")
    rows = mine.locator("tr[data-ledger]")
    expect(rows).to_have_count(len(LEDGER))
    # newest first, from Anita's side: the desert village's income, then Márk's... Jenő's thief
    expect(rows.nth(0)).to_contain_text("A village visited")
    expect(rows.nth(0)).to_contain_text("+6")
    expect(rows.nth(1)).to_contain_text("Jenő's thief")
    expect(rows.nth(1)).to_contain_text("−2")
    expect(rows.nth(1)).to_contain_text("Márk's desert village (6)")  # the seat marker named
    expect(rows.nth(1).locator('a[href$="#R-TRAVEL-7"]')).to_have_count(1)
    expect(mine.locator('tr[data-ledger="9"]')).to_contain_text("1 gold from your escrow")
    # her own purse in the players' list; no other seat's
    expect(page.locator('#seats [data-seat="0"]')).to_contain_text("your purse 33 gold")
    for i in (1, 2, 3):
        assert "gold" not in (
            page.locator(f'#seats [data-seat="{i}"] .seat-extra').text_content() or ""
        )
    assert "{seat:" not in _no_ids(h, page, where), f"{where}: a seat marker left unnamed"
    _no_sideways_scroll(page, f"{where} at 390x844")
    _axe(page, f"{where} at 390x844")
    h.shoot(page, "seat-king-of-the-elves")


def test_a_finished_game_summary_and_journeys(
    new_page: Callable[..., Page], h: type[Helpers]
) -> None:
    """The end: each purse by source (columns that add up to the purse), the winner, every
    purse on the picture, and the journeys' history newest first."""
    view = over_view()
    page = new_page("laptop")
    _draw(page, view)
    where = "the finished game"
    summary = page.locator("#summary")
    expect(summary).to_be_visible()
    expect(summary.locator("h2")).to_contain_text("Anita wins")
    heads = summary.locator("thead th").all_text_contents()
    for col in (
        "Start",
        "Villages",
        "Gold cards",
        "Bonuses",
        "Thieves in",
        "Thieves out",
        "Purchases",
        "Removals",
    ):
        assert col in heads, f"{where}: no column {col!r} in {heads}"
    assert "Teleports" not in heads, f"{where}: a teleport column without the variant"
    first = summary.locator('tr[data-summary-seat="0"]')
    expect(first.locator('td[data-label="Thieves out"]')).to_have_text("−6")
    expect(first.locator('td[data-label="Total"]')).to_have_text("88")
    pic = _picture_text(page)
    assert "Anita is King of the Elves" in pic and "Jenő: 64 gold" in pic, pic
    history = page.locator("#history li[data-journey]")
    expect(history).to_have_count(16)
    expect(history.first).to_contain_text("Round 4: Márk")
    expect(page.locator('#history li[data-journey="4.0"]')).to_contain_text("bonus of 10")
    expect(page.locator('#history li[data-journey="1.0"]')).to_have_text(
        "Round 1: Anita — 3 visits, 6 cards, +12 gold"
    )
    _no_ids(h, page, where)
    _axe(page, f"{where} at 1366x768")
    h.shoot(page, "summary-king-of-the-elves")
