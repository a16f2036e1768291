"""For every eye and every hand: each table view and phone view of both games, running and at game
over, at phone (390x844) and TV (1920x1080) sizes, audited by axe-core (no violation of impact
serious or critical), measured on the rendered page (no sideways scroll on a phone; in large type
the picture keeps its height and no text in it renders below 22 CSS px at 1080p), and kept
usable by keyboard (a focused button keeps the focus across live updates).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.axe import serious_violations

if TYPE_CHECKING:
    from tests.browser.conftest import Helpers, Server, WorldTable

GAMES = ["arcanum", "angels-and-demons", "king-of-the-elves", "arcana"]
NAMES = ["Ann", "Bea", "Cid", "Dee"]
MIN_TEXT_PX = 22.0  # the smallest text the picture may show in large type at 1080p

# Each text node of the table picture (#board svg) with the size it renders at: its computed
# font-size (in the SVG's user units) times the scale from user units to CSS pixels.
_TEXT_SIZES = """() => {
  const out = [];
  for (const t of document.querySelectorAll('#board svg text')) {
    const s = t.textContent.trim();
    if (!s) continue;
    const r = t.getBoundingClientRect();
    if (!r.width || !r.height) continue;  // display:none or empty
    const m = t.getScreenCTM();
    const scale = Math.hypot(m.a, m.b);
    out.push({text: s, px: parseFloat(getComputedStyle(t).fontSize) * scale});
  }
  return out;
}"""

_PICTURE = """() => {
  const r = document.querySelector('#board svg').getBoundingClientRect();
  return {width: r.width, height: r.height, top: r.top, bottom: r.bottom};
}"""

# Elements of `sel` drawn outside the visible part of any scrolling/clipping ancestor or of the
# window: what a TV shows nobody can scroll to.
_CLIPPED = """(sel) => {
  const out = [];
  for (const e of document.querySelectorAll(sel)) {
    const r = e.getBoundingClientRect();
    if (!r.width && !r.height) { out.push(sel + ' (not shown)'); continue; }
    if (r.bottom > innerHeight + 1 || r.right > innerWidth + 1 || r.top < -1) {
      out.push((e.id || e.className || e.tagName) + ' outside the window');
      continue;
    }
    for (let a = e.parentElement; a; a = a.parentElement) {
      const st = getComputedStyle(a);
      if (st.overflowY === 'visible' && st.overflowX === 'visible') continue;
      const b = a.getBoundingClientRect();
      if (r.bottom > b.bottom + 1 || r.right > b.right + 1) {
        out.push((e.id || e.className || e.tagName) + ' clipped by ' + (a.id || a.className));
        break;
      }
    }
  }
  return out;
}"""


class Tables:
    """One running and one finished 4-seat table per game on the session server."""

    def __init__(self, world_table: Callable[..., WorldTable]) -> None:
        self.running: dict[str, WorldTable] = {}
        self.over: dict[str, WorldTable] = {}
        for game in GAMES:
            t = world_table(game, 4, seed=11, names=NAMES)
            t.until(lambda t=t: _under_way(t), what="a first point")
            t.run(12)
            self.running[game] = t
            done = world_table(game, 4, seed=4, names=NAMES)
            done.to_the_end()
            self.over[game] = done


def _under_way(t: WorldTable) -> bool:
    """A first point scored, or, where scores are private until the end (King of the Elves'
    purses), 60 inputs played."""
    scores = t.organiser()["scores"]
    return len(t.fed) >= 60 if scores is None else sum(scores) > 0


@pytest.fixture(scope="module")
def tables(world_table: Callable[..., WorldTable]) -> Tables:
    return Tables(world_table)


def _open(page: Page, table: str, big: bool) -> None:
    page.goto(f"/?big={1 if big else 0}#{table}")
    expect(page.locator("#board svg").first, "the table picture is not drawn").to_be_visible()
    expect(page.locator("#table-name")).not_to_have_text("scorekeeper")
    page.wait_for_timeout(250)  # let the layout settle (the picture is fitted after a render)


def _no_sideways_scroll(page: Page, where: str) -> None:
    wide = page.evaluate("() => [document.scrollingElement.scrollWidth, innerWidth]")
    assert wide[0] <= wide[1], f"{where}: the page scrolls sideways ({wide[0]} > {wide[1]} px)"
    # the tables strip never starts with a table cut in half (a name that reads "mo: Ang...")
    cut = page.evaluate("""() => {
        const strip = document.getElementById('tables').getBoundingClientRect();
        return [...document.querySelectorAll('#tables .table-link')].filter((a) => {
          const r = a.getBoundingClientRect();
          return r.left < strip.left - 1 && r.right > strip.left + 1;
        }).map((a) => a.textContent);
    }""")
    assert not cut, f"{where}: the tables strip starts with a table cut off: {cut}"


def _axe(page: Page, where: str) -> None:
    bad = serious_violations(page)
    assert not bad, f"{where}: axe-core finds serious violations:\n" + "\n".join(bad)
    assert page.locator("th:empty").count() == 0, f"{where}: an empty table header"


# Texts of the play area (Arcanum) that overlap one another or stick out of its background.
_PLAY_AREA_CLASHES = """() => {
  const area = document.querySelector('#board .play-area');
  if (!area) return ['no play area'];
  const box = area.querySelector('rect').getBoundingClientRect();
  const texts = [...area.querySelectorAll('text')].filter((t) => t.getBBox().width > 0)
    .map((t) => [t.textContent, t.getBoundingClientRect()]);
  const out = [];
  for (const [s, r] of texts) {
    if (r.left < box.left - 1 || r.right > box.right + 1 || r.bottom > box.bottom + 1) {
      out.push(s + ' sticks out');
    }
  }
  texts.forEach(([s, a], i) => texts.slice(i + 1).forEach(([u, b]) => {
    const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    if (x > 2 && y > 2) out.push(s + ' overlaps ' + u);
  }));
  return out;
}"""


def _picture_checks(page: Page, game: str, where: str) -> None:
    """What the picture says beyond colour: Arcanum's effect numbers in dark ink, its VP
    track's tokens read out, a play area whose words neither overlap nor clip; a red Angels &
    Demons card marked by a shape as well as its ink."""
    if game == "arcanum":
        inks = page.evaluate("""() => [...document.querySelectorAll(
            '#board .location text tspan:nth-child(2)')].map((t) => t.getAttribute('fill'))""")
        assert inks and set(inks) == {"#1f2937"}, f"{where}: effect numbers not in dark ink"
        tokens = page.locator('#board [data-vp-seat][role="img"][aria-label]')
        expect(tokens).to_have_count(len(NAMES))
        assert tokens.first.get_attribute("aria-label", timeout=1000).endswith(" VP")
        clashes = page.evaluate(_PLAY_AREA_CLASHES)
        assert not clashes, f"{where}: the play area's words clash: {clashes}"
    else:
        unmarked = page.evaluate(r"""() => [...document.querySelectorAll('#board .card')]
            .filter((c) => /\(red\)/.test(c.querySelector('title').textContent)
                           && !c.querySelector('.red-mark')).length""")
        assert unmarked == 0, f"{where}: {unmarked} red cards have no mark but their colour"


def _chart_checks(page: Page, where: str) -> None:
    """The score chart: a text alternative with every seat's score, and a legend naming each
    seat with its score (tied scores included) and a line pattern of its own."""
    chart = page.locator("#score-chart svg.chart")
    label = chart.get_attribute("aria-label") or ""
    assert chart.get_attribute("role") == "img" and all(n in label for n in NAMES), (
        f"{where}: the chart's text alternative is {label!r}"
    )
    items = page.locator("#score-chart .legend li")
    expect(items).to_have_count(len(NAMES))
    for name in NAMES:
        expect(items.filter(has_text=name), f"{where}: {name} not in the legend").to_be_visible()
    dashes = page.evaluate("""() => [...document.querySelectorAll('#score-chart path.line')]
        .map((p) => p.getAttribute('stroke-dasharray') || 'solid')""")
    assert len(set(dashes)) == len(NAMES), f"{where}: lines told apart by colour alone {dashes}"


def _tv_checks(page: Page, where: str, over: bool) -> dict[str, Any]:
    """Large type at 1920x1080: text sizes, the pairing box, the side column, the summary."""
    sizes = page.evaluate(_TEXT_SIZES)
    assert sizes, f"{where}: the picture has no text"
    small = sorted(
        {f"{s['text']!r} at {s['px']:.1f}px" for s in sizes if s["px"] < MIN_TEXT_PX - 0.05}
    )
    assert not small, f"{where}: text in the picture below {MIN_TEXT_PX} px: {small}"
    expect(
        page.locator("#pair-form"), f"{where}: the pairing box stays in large type"
    ).to_be_hidden()
    if over:
        expect(page.locator("#summary")).to_be_visible()
        clipped = page.evaluate(_CLIPPED, "#summary tbody tr")
        assert not clipped, f"{where}: the summary's players list is cut: {clipped}"
    else:
        clipped = page.evaluate(
            _CLIPPED,
            "#feed li:first-child .events > div:first-child, "
            "#score-chart svg, #score-chart .legend li",
        )
        assert not clipped, f"{where}: the side column is cut: {clipped}"
    return dict(page.evaluate(_PICTURE))


@pytest.mark.parametrize("game", GAMES)
def test_table_views_at_tv_and_phone_sizes(
    game: str, tables: Tables, server: Server, new_page: Callable[..., Page], h: type[Helpers]
) -> None:
    for state, t in (("running", tables.running[game]), ("over", tables.over[game])):
        where = f"{game} table view ({state})"
        tv = new_page("tv")
        _open(tv, t.id, big=False)
        normal = tv.evaluate(_PICTURE)
        _axe(tv, f"{where} at 1920x1080")
        _picture_checks(tv, game, f"{where} at 1920x1080")
        if t.organiser()["scores"] is None:  # private until the end: no chart of them either
            expect(tv.locator("#score-chart svg.chart")).to_have_count(0)
        else:
            _chart_checks(tv, f"{where} at 1920x1080")
        _open(tv, t.id, big=True)
        big = _tv_checks(tv, f"{where} in large type at 1920x1080", over=state == "over")
        _picture_checks(tv, game, f"{where} in large type at 1920x1080")
        # Large type never shrinks the picture; a picture taller than the window in normal type
        # (King of the Elves' table, which the page scrolls to) is fitted to the window instead:
        # it then reaches the window's bottom.
        fits = normal["bottom"] <= 1080 + 1
        assert big["height"] >= normal["height"] - 1 or (not fits and big["bottom"] >= 1060), (
            f"{where}: large type shrinks the picture from {normal} to {big}"
        )
        _axe(tv, f"{where} in large type at 1920x1080")
        tv.set_viewport_size({"width": 3840, "height": 2160})
        tv.wait_for_timeout(300)
        huge = tv.evaluate(_PICTURE)
        assert huge["height"] >= big["height"] * 1.8, (
            f"{where}: at 3840x2160 the picture does not take the height it is given: {huge}"
        )

        phone = new_page("phone")
        _open(phone, t.id, big=False)
        _no_sideways_scroll(phone, f"{where} at 390x844")
        _axe(phone, f"{where} at 390x844")


@pytest.mark.parametrize("game", GAMES)
def test_phone_views_at_phone_and_tv_sizes(
    game: str, tables: Tables, server: Server, new_page: Callable[..., Page], h: type[Helpers]
) -> None:
    for state, t in (("running", tables.running[game]), ("over", tables.over[game])):
        where = f"{game} phone of seat 0 ({state})"
        for size in ("phone", "tv"):
            page = new_page(size)
            page.goto(f"/?big=0&pair={server.pairing_code(t.id, 0)}")
            expect(page.locator("#mine"), f"{where}: no seat panel").to_be_visible()
            page.wait_for_timeout(250)
            if size == "phone":
                _no_sideways_scroll(page, f"{where} at 390x844")
            _axe(page, f"{where} at {size}")


def _contrast(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """WCAG contrast ratio of two sRGB colours (0-255 channels)."""

    def lum(c: tuple[float, ...]) -> float:
        ch = [v / 255 for v in c[:3]]
        lin = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in ch]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_the_focus_ring_on_the_dark_header_stands_out(
    tables: Tables, new_page: Callable[..., Page]
) -> None:
    """A keyboard user sees where the focus is on the header bar too (at least 3:1)."""
    page = new_page("laptop")
    _open(page, tables.running["arcanum"].id, big=False)
    page.keyboard.press("Tab")  # keyboard use: :focus-visible applies
    page.locator("#big-toggle").focus()
    ring, bar = page.evaluate("""() => [
        getComputedStyle(document.activeElement).outlineColor,
        getComputedStyle(document.querySelector('.bar')).backgroundColor]""")
    rgb = [tuple(float(v) for v in c[c.index("(") + 1 : -1].split(",")[:3]) for c in (ring, bar)]
    assert page.evaluate("() => document.activeElement.matches(':focus-visible')")
    ratio = _contrast(rgb[0], rgb[1])
    assert ratio >= 3, f"the focus ring {ring} on the header {bar} is {ratio:.2f}:1"
