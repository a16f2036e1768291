"""King of the Elves' dashboard picture with the game's own views: views.py's views of simulated
games at every kind of moment drawn through the page (the helpers of test_king_of_the_elves.py),
and a live table on the server with a paired phone following its purse.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from playwright.sync_api import Page, expect

from tests.browser.test_king_of_the_elves import GAME, NAMES, _draw, _no_ids

if TYPE_CHECKING:
    from tests.browser.conftest import Helpers, Server, WorldTable


# -- real views: the game's own, from simulated games --------------------------------------------


def _real_views(seats: int, seed: int, options: dict[str, Any]) -> list[dict[str, Any]]:
    """Views of one simulated game, fed input by input to a table in this process: the first
    of each kind of moment (phase, the action or move under way, a teleport's stage), the
    public view and seat 0's, and both at the end."""
    from scorekeeper.core.game import PUBLIC
    from scorekeeper.core.table import Table, TableConfig
    from scorekeeper.games.king_of_the_elves.game import KingOfTheElves
    from scorekeeper.sim.king_of_the_elves.world import KingOfTheElvesWorld

    game = KingOfTheElves()
    names = tuple(["Anita", "Jenő", "Márk", "Éva", "Bartholomew", "Zsófi"][:seats])
    table = Table(TableConfig(game.id, names, options, game.default_layout(seats)), game)
    seen: set[str] = set()
    out: list[dict[str, Any]] = []

    def keep(kind: str) -> None:
        for audience in (PUBLIC, 0):
            view = {"id": f"real{seats}", "status": "running", "archived": False}
            view.update(table.view(audience))
            view["kind"] = kind
            out.append(view)

    for inp in KingOfTheElvesWorld(seats, options, seed).inputs():
        assert table.submit(inp).accepted, inp.to_str()
        st = table.view(PUBLIC)["state"]
        j, pl = st.get("journey"), st.get("planning")
        kind = str(st["phase"])
        if pl and pl.get("action"):
            kind += ":" + str(pl["action"]["kind"])
        if j:
            kind += ":move" if j.get("move") else ":between"
            kind += ":teleport" if j.get("teleport") else ""
            kind += ":escort" if j.get("escort") is not None else ""
        if kind not in seen:
            seen.add(kind)
            keep(kind)
    assert table.game.is_over(table.state)
    keep("over")
    return out


_WATCH = """() => {
  window.__problems = [];
  window.addEventListener('error', (e) => window.__problems.push(String(e.message)));
  const err = console.error;
  console.error = (...a) => { window.__problems.push(a.map(String).join(' ')); err(...a); };
}"""


def test_real_views_of_simulated_games_draw(
    new_page: Callable[..., Page], h: type[Helpers]
) -> None:
    """The game's own views (views.py) of simulated games at 2, 3 and 6 seats, with teleports
    and money on the phones, at every kind of moment: each draws the game's picture with no
    error, no id, no unnamed seat marker and no empty value; a phone shows its seat's purse."""
    # seats, seed, options, whether seat 0's phone is drawn too
    games: list[tuple[int, int, dict[str, Any], bool]] = [
        (3, 5, {"teleport": True, "money": "phones"}, True),
        (2, 6, {"teleport": True}, False),
        (6, 7, {}, False),
    ]
    pages: dict[str, Page] = {}  # one page per audience, every game drawn on it in turn
    for seats, seed, options, phone in games:
        views = _real_views(seats, seed, options)
        for view in views:
            if view["audience"] != "public" and not phone:
                continue
            audience = view["audience"]
            view["id"] = "real"  # one id: the phone's seat token stays good for every game
            if audience not in pages:
                pages[audience] = page = new_page("laptop" if audience == "public" else "phone")
                _draw(page, view)
                page.evaluate(_WATCH)
            page = pages[audience]
            page.evaluate("async (view) => await window.scorekeeper.render(view)", view)
            where = f"{seats} seats {options}, {view['kind']}, {audience}"
            expect(page.locator(f"#board svg.{GAME}"), where).to_be_visible()
            text = _no_ids(h, page, where)
            for bad in ("undefined", "NaN", "[object Object]", "{seat:", "null"):
                assert bad not in text, f"{where}: {bad!r} on the page"
            if audience != "public":
                purse = view["state"]["seats"][0]["gold"]
                expect(page.locator("#mine [data-purse]"), where).to_have_text(f"{purse} gold")
            problems = page.evaluate("() => window.__problems")
            assert not problems, f"{where}: {problems}"
        assert len(views) >= 8, [v["kind"] for v in views]


def test_a_live_table_and_a_paired_phone(
    world_table: Callable[..., WorldTable],
    server: Server,
    new_page: Callable[..., Page],
    h: type[Helpers],
) -> None:
    """Through the server: a table played by the simulated world up to a move under way shows
    the journey live; a phone paired with seat 0 shows exactly that seat's purse (the
    organiser's figure) and follows it as the game goes on; no frame the phone or the table's
    screen receives carries another seat's purse or ledger."""
    table = world_table(GAME, 4, seed=2, names=NAMES, options={"deck": "assumed"})

    def moving() -> bool:
        journey = table.organiser()["state"].get("journey") or {}
        return bool(journey.get("move")) and len(journey.get("visits") or []) >= 2

    table.until(moving, what="a move under way with two visits made")
    tv = new_page("laptop")
    tv_frames = h.Frames()
    tv_frames.attach(tv)
    h.open_table(tv, table.id)
    expect(tv.locator(f"#board svg.{GAME}")).to_be_visible()
    expect(tv.locator("#board .journey")).to_contain_text("this move:")
    expect(tv.locator("#board [data-board-seat]")).to_have_count(4)
    phone = new_page("phone")
    phone_frames = h.Frames()
    phone_frames.attach(phone)
    phone.goto(f"/?pair={server.pairing_code(table.id, 0)}")
    purse = phone.locator("#mine [data-purse]")
    for _ in range(2):
        gold = table.organiser()["state"]["seats"][0]["gold"]
        expect(purse).to_have_text(f"{gold} gold")
        table.run(25)
    expect(purse).to_have_text(f"{table.organiser()['state']['seats'][0]['gold']} gold")
    for who, frames, mine in (("the table", tv_frames, None), ("seat 0", phone_frames, 0)):
        views = [v for v in frames.views() if isinstance(v.get("state"), dict)]
        assert views, f"{who}: no view received"
        for view in views:
            for i, seat in enumerate(view["state"]["seats"]):
                if i != mine and not view["over"]:
                    assert not {"gold", "gold_sources", "ledger"} & set(seat), (who, i, seat)
