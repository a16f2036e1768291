"""Every view at phone, laptop and TV sizes, saved for people to look at (var/screenshots/,
ignored by git): the table view of both games, a finished game's summary, a paired phone's seat
view and the organiser console. Along the way: large type, the score chart and a refused line
in the feed."""

from __future__ import annotations

import re
import struct
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from playwright.sync_api import Page, expect

if TYPE_CHECKING:
    from tests.browser.conftest import Helpers, Server, WorldTable

NAMES = ["Ann", "Bea", "Cid"]
VIEWS = [
    "table-arcanum",
    "table-arcanum-big",
    "table-angels-and-demons",
    "table-angels-and-demons-big",
    "summary-arcanum",
    "summary-arcanum-big",
    "seat-arcanum",
    "pairing",
    "console",
]
PNG = b"\x89PNG\r\n\x1a\n"


def test_every_view_is_screenshotted_at_three_sizes(
    server: Server,
    world_table: Callable[..., WorldTable],
    new_page: Callable[..., Page],
    h: type[Helpers],
) -> None:
    started = time.time()
    for view in VIEWS:
        for size in h.SIZES:
            (h.SCREENSHOTS / f"{view}-{size}.png").unlink(missing_ok=True)

    # Arcanum mid-game: the board, the score chart, large type
    arcanum = world_table("arcanum", 3, seed=5, names=NAMES)
    arcanum.until(lambda: any(arcanum.organiser()["scores"]), what="a first VP")
    arcanum.run(10)
    page = new_page("laptop")
    h.open_table(page, arcanum.id)
    expect(page.locator("#board svg").first).to_be_visible()
    expect(
        page.locator("#score-chart svg").first, "no score chart (#score-chart svg)"
    ).to_be_visible()
    h.shoot(page, "table-arcanum")
    page.locator("#big-toggle").click()
    expect(page.locator("body"), "#big-toggle does not put class big on body").to_have_class(
        _word("big")
    )
    h.shoot(page, "table-arcanum-big")
    page.locator("#big-toggle").click()
    expect(page.locator("body")).not_to_have_class(_word("big"))

    # Angels & Demons mid-game, with a refused sighting in the feed
    angels = world_table("angels-and-demons", 3, seed=3, names=NAMES)
    angels.run(40)
    page = new_page("laptop")
    h.open_table(page, angels.id)
    expect(page.locator("#board svg").first).to_be_visible()
    verdict = server.feed(angels.id, "+flip H1b1", accepted=False)
    refused = page.locator("#feed li.refused")
    expect(refused.first, "a refused input is not in the feed as li.refused").to_be_visible()
    expect(refused.first).to_contain_text(verdict["rule"])
    h.shoot(page, "table-angels-and-demons")
    page.locator("#big-toggle").click()
    h.shoot(page, "table-angels-and-demons-big")

    # a finished game: the summary names the winner
    done = world_table("arcanum", 3, seed=2, names=NAMES)
    done.to_the_end()
    final = server.public_view(done.id)
    assert final["over"]
    page = new_page("laptop")
    h.open_table(page, done.id)
    summary = page.locator("#summary")
    expect(summary, "no end-of-game summary (#summary)").to_be_visible()
    best = max(range(3), key=lambda s: final["scores"][s])
    expect(summary).to_contain_text(NAMES[best])
    h.shoot(page, "summary-arcanum")
    page.locator("#big-toggle").click()
    h.shoot(page, "summary-arcanum-big")

    # the pairing dialog (this server listens on 127.0.0.1: the code and how to serve on the
    # network, no QR code)
    page = new_page("laptop", organiser=True)
    h.open_table(page, arcanum.id)
    page.locator('button[data-pair-seat="0"]').click()
    expect(page.locator("#pair-info [data-pair-hint]")).to_be_visible()
    h.shoot(page, "pairing")

    # a paired phone: its seat's view
    phone = new_page("phone")
    phone.goto(f"/?pair={server.pairing_code(arcanum.id, 0)}")
    expect(phone.locator("#my-cards [data-card]").first).to_be_visible()
    h.shoot(phone, "seat-arcanum")

    # the organiser console
    console = new_page("laptop")
    console.goto("/console")
    console.locator("#token").fill(server.token)
    console.locator("#token-save").click()
    expect(console.locator(f'[data-table="{arcanum.id}"]').first).to_be_visible()
    h.shoot(console, "console")

    for view in VIEWS:
        for size in h.SIZES:
            path = h.SCREENSHOTS / f"{view}-{size}.png"
            assert path.is_file(), f"{path} was not written"
            data = path.read_bytes()
            assert data.startswith(PNG) and len(data) > 1000, f"{path} is not a PNG picture"
            assert struct.unpack(">II", data[16:24]) == h.SIZES[size], f"{path}: wrong size"
            assert path.stat().st_mtime >= started - 1, f"{path} is a stale file"


def _word(word: str) -> re.Pattern[str]:
    return re.compile(rf"(^|\s){word}(\s|$)")
