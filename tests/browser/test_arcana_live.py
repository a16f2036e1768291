"""Arcana's demo in a real browser: ``scorekeeper demo --game arcana`` (what ``make demo
GAME=arcana`` runs) plays by itself on simulated readers, and the table view follows it live:
the waiting line, the feed and the seats' points change, the districts are drawn with their
stakes, agents laid face down show as backs with no name anywhere on the table's screen, and the
card pack is labelled as the made-up sample."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from playwright.sync_api import Page, expect

from tests.browser.test_table_view import _follows_live

if TYPE_CHECKING:
    from tests.browser.conftest import Helpers, Server


def test_the_arcana_demo_plays_by_itself_in_the_browser(
    demos: Callable[..., list[Server]], new_page: Callable[..., Page], h: type[Helpers]
) -> None:
    (demo,) = demos(("arcana", 4))
    page = new_page("laptop", base=demo.base)
    _follows_live(page, demo, 4, h, changes=4)
    assert demo.public_view("t1")["game"] == "arcana"
    expect(page.locator("#board svg.arcana [data-district]")).to_have_count(5)
    text = h.dom_text(page).lower()
    assert "sample" in text and "made up" in text, "the sample card pack is not labelled"

    # A face-down agent is a back on the table's screen, and its card is named nowhere there:
    # wait for the bots to lay one (the organiser's view names it), then read the page.
    def face_down() -> list[str]:
        names = []
        for district in demo.organiser_view("t1")["state"]["districts"]:
            names += [a["name"] for a in district["agents"] if a["face"] == "down"]
        return names

    h.poll(lambda: bool(face_down()), what="a face-down agent at a district")
    expect(page.locator("#board [data-agent-back]").first).to_be_visible()
    # The districts as drawn name no card the organiser sees face down (a card is in one place
    # at a time, so a name there would be that card's; the feed may name it from earlier
    # rounds, when it was played face up).
    hidden = {n for n in face_down() if n}
    drawn = page.locator("#board svg.arcana [data-district] text").all_text_contents()
    stakes = {
        d["stake"]["name"] for d in demo.public_view("t1")["state"]["districts"] if d["stake"]
    }
    assert any(t.startswith(tuple(stakes)) for t in drawn), f"no stake's name drawn: {drawn}"
    named = [t for t in drawn if any(t == n or t.startswith(n + " ") for n in hidden)]
    assert not named, f"a face-down agent is named on the table's screen: {named}"
