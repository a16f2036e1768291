"""The table view (/) follows a game that bots play live on simulated readers
(``scorekeeper demo``): the waiting line, the table picture, the seats' scores and the feed."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from playwright.sync_api import Page, expect

if TYPE_CHECKING:
    from tests.browser.conftest import Helpers, Server


def _seat_scores(page: Page, seats: int) -> list[str | None]:
    return [page.locator(f'[data-seat="{n}"][data-score]').first.get_attribute("data-score")
            for n in range(seats)]


def _follows_live(page: Page, demo: Server, seats: int, h: type[Helpers],
                  changes: int) -> None:
    h.open_table(page, "t1")
    expect(page.locator("#board svg").first,
           "the table picture (#board svg) is not shown").to_be_visible()
    for n in range(seats):
        expect(page.locator(f'[data-seat="{n}"][data-score]'),
               f'seat {n} ([data-seat="{n}"] with data-score) is not shown').not_to_have_count(0)

    waiting = page.locator("#waiting")
    expect(waiting, "the waiting line (#waiting) is empty").not_to_be_empty()
    seen = {waiting.inner_text()}
    h.poll(lambda: seen.add(waiting.inner_text()) or len(seen) > changes,
           what=f"#waiting to change {changes} times while the bots play (saw {seen})")

    scores, feed = _seat_scores(page, seats), page.locator("#feed li").all_inner_texts()
    h.poll(lambda: _seat_scores(page, seats) != scores
           or page.locator("#feed li").all_inner_texts() != feed,
           what="a seat's data-score or the feed (#feed li) to change while the bots play")
    assert page.locator("#feed li").count() > 0, "the feed (#feed li) stays empty"

    # the seats show the table's real scores (read both until they agree: the game moves on)
    def agree() -> bool:
        api = [str(s) for s in demo.public_view("t1")["scores"]]
        return _seat_scores(page, seats) == api

    h.poll(agree, what="the seats' data-score to match GET /api/tables/t1 scores")


def test_table_view_follows_a_live_game(demos: Callable[..., list[Server]],
                                        new_page: Callable[..., Page], h: type[Helpers]) -> None:
    arcanum, angels = demos(("arcanum", 4), ("angels-and-demons", 4))

    page = new_page("laptop", base=arcanum.base)
    _follows_live(page, arcanum, 4, h, changes=3)
    assert arcanum.public_view("t1")["game"] == "arcanum"
    assert "sample" in h.dom_text(page).lower(), "the sample board is not labelled as such"

    page = new_page("laptop", base=angels.base)
    _follows_live(page, angels, 4, h, changes=2)
    assert angels.public_view("t1")["game"] == "angels-and-demons"
