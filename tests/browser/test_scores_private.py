"""A game whose scores are private until the end (``Game.scores_private``), on the TV and on a
paired phone: during play the seat strip, the picture, the chart and the phone's own line say
"score at the end" in words, never a zero; once the game is over the scores show.

The game is Purse (tests/toy_gold.py) on ``toy_server``: the command with the toy games."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from playwright.sync_api import Page, expect

if TYPE_CHECKING:
    from tests.browser.conftest import Helpers, Server

ROUND = [
    "decide 0 take 3",
    "decide 0 buy buy",
    "+throne:1 crown",
    "decide 1 take 1",
    "decide 1 buy pass",
    "+throne:0 crown",
]


def test_the_tv_and_the_phone_say_scores_come_at_the_end(
    toy_server: Server, new_page: Callable[..., Page], h: type[Helpers]
) -> None:
    tid = toy_server.create_table("toy-purse", ["Ann", "Bea"], {"rounds": 1})
    for line in ROUND[:2]:
        toy_server.feed(tid, line)
    tv = new_page("tv", base=toy_server.base)
    h.open_table(tv, tid)
    scores = tv.locator("#seats .seat-score")
    expect(scores).to_have_text(["score at the end", "score at the end"])
    expect(tv.locator("#score-chart")).to_contain_text("Scores at the end")
    expect(tv.locator("#score-chart .legend")).to_have_count(0)
    expect(tv.locator("#board")).to_contain_text("score at the end")

    phone = new_page("phone", base=toy_server.base)
    phone.goto(f"/?pair={toy_server.pairing_code(tid, 0)}")
    expect(phone.locator(".my-score")).to_have_text("score at the end")

    for line in ROUND[2:]:
        toy_server.feed(tid, line)
    expect(scores).to_have_text(["1", "0"])
    expect(tv.locator("#score-chart .legend-score")).to_have_text(["1", "0"])
    expect(phone.locator(".my-score")).to_have_text("score 1")
