"""The table view (/) follows a game that bots play live on simulated readers
(``scorekeeper demo``): the waiting line, the table picture, the seats' scores and the feed; a
refusal links its rule, an undo says what to put back, pairing shows no QR code for an address
no phone can open, and a focused button keeps the focus across live updates."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from playwright.sync_api import Page, expect

if TYPE_CHECKING:
    from tests.browser.conftest import Helpers, Server, WorldTable


def _seat_scores(page: Page, seats: int) -> list[str | None]:
    return [
        page.locator(f'[data-seat="{n}"][data-score]').first.get_attribute("data-score")
        for n in range(seats)
    ]


def _follows_live(page: Page, demo: Server, seats: int, h: type[Helpers], changes: int) -> None:
    h.open_table(page, "t1")
    expect(
        page.locator("#board svg").first, "the table picture (#board svg) is not shown"
    ).to_be_visible()
    for n in range(seats):
        expect(
            page.locator(f'[data-seat="{n}"][data-score]'),
            f'seat {n} ([data-seat="{n}"] with data-score) is not shown',
        ).not_to_have_count(0)

    waiting = page.locator("#waiting")
    expect(waiting, "the waiting line (#waiting) is empty").not_to_be_empty()
    seen = {waiting.inner_text()}
    h.poll(
        lambda: seen.add(waiting.inner_text()) or len(seen) > changes,
        what=f"#waiting to change {changes} times while the bots play (saw {seen})",
    )

    scores, feed = _seat_scores(page, seats), page.locator("#feed li").all_inner_texts()
    h.poll(
        lambda: (
            _seat_scores(page, seats) != scores
            or page.locator("#feed li").all_inner_texts() != feed
        ),
        what="a seat's data-score or the feed (#feed li) to change while the bots play",
    )
    assert page.locator("#feed li").count() > 0, "the feed (#feed li) stays empty"

    # the seats show the table's real scores (read both until they agree: the game moves on)
    def agree() -> bool:
        api = [str(s) for s in demo.public_view("t1")["scores"]]
        return _seat_scores(page, seats) == api

    h.poll(agree, what="the seats' data-score to match GET /api/tables/t1 scores")


def test_table_view_follows_a_live_game(
    demos: Callable[..., list[Server]], new_page: Callable[..., Page], h: type[Helpers]
) -> None:
    arcanum, angels = demos(("arcanum", 4), ("angels-and-demons", 4))

    page = new_page("laptop", base=arcanum.base)
    _follows_live(page, arcanum, 4, h, changes=3)
    assert arcanum.public_view("t1")["game"] == "arcanum"
    assert "sample" in h.dom_text(page).lower(), "the sample board is not labelled as such"

    page = new_page("laptop", base=angels.base)
    _follows_live(page, angels, 4, h, changes=2)
    assert angels.public_view("t1")["game"] == "angels-and-demons"


def test_a_refusal_links_its_rule_and_an_undo_says_what_to_put_back(
    server: Server,
    world_table: Callable[..., WorldTable],
    new_page: Callable[..., Page],
    h: type[Helpers],
) -> None:
    """A refused play in the feed links its rule in the players' reference; after an undo the
    table view says, above everything else, what to do with the pieces, until the next play."""
    t = world_table("angels-and-demons", 3, seed=3)
    t.run(40)
    t.until(lambda: t.fed[-1].startswith("+"), what="a card put down")
    page = new_page("laptop")
    h.open_table(page, t.id)
    verdict = server.feed(t.id, "+flip H1b1", accepted=False)
    link = page.locator("#feed li.refused a.rule").first
    expect(link, "a refusal in the feed has no link to its rule").to_have_text(verdict["rule"])
    href = link.get_attribute("href")
    assert href == f"/rules/angels-and-demons#{verdict['rule']}", href
    rules = server.http.get(href.split("#")[0])
    assert rules.status_code == 200 and f'id="{verdict["rule"]}"' in rules.text, (
        f"{href} does not lead to the rule"
    )

    box = page.locator("#put-back")
    expect(box).to_be_hidden()
    preview = server.http.get(f"/api/tables/{t.id}/undo-preview").json()
    r = server.http.post(f"/api/tables/{t.id}/undo", json={"seq": preview["input_seq"]})
    assert r.status_code == 200 and r.json()["accepted"], r.text
    words = server.public_view(t.id)["put_back"]["text"]
    assert words
    expect(box, "no instruction after an undo (#put-back)").to_be_visible()
    expect(box).to_contain_text(words)
    server.feed(t.id, t.fed[-1])  # the play again: the pieces match the game once more
    expect(box, "the put-back instruction stays after the next play").to_be_hidden()


def test_the_pairing_dialog_shows_no_qr_code_for_an_address_no_phone_can_open(
    server: Server,
    world_table: Callable[..., WorldTable],
    new_page: Callable[..., Page],
    h: type[Helpers],
) -> None:
    """The session server listens on 127.0.0.1: the dialog shows the code and says how to
    serve on the network, never a QR code."""
    t = world_table("arcanum", 3, seed=1)
    page = new_page("laptop", organiser=True)
    h.open_table(page, t.id)
    page.locator('button[data-pair-seat="1"]').click()
    expect(page.locator("#pair-shown-code")).to_have_text(re.compile(r"^[A-Z0-9]{4,}$"))
    hint = page.locator("#pair-info [data-pair-hint]")
    expect(hint, "no hint on serving on the network").to_be_visible()
    assert "network" in hint.inner_text().lower()
    expect(page.locator("#pair-qr svg")).to_have_count(0)
    expect(page.locator("#pair-qr")).to_be_hidden()


def test_a_table_chosen_takes_the_table_left_off_the_page_before_its_view_comes(
    server: Server,
    world_table: Callable[..., WorldTable],
    new_page: Callable[..., Page],
    h: type[Helpers],
) -> None:
    """Choosing another table in the strip clears the table left at once, while the chosen
    table's first view is on its way (held back here): none of its seats, picture or "Pair a
    phone" buttons stay, since such a button would show a code for the table left (a phone
    paired with the wrong table; under load, test_phone's pairing test clicked one)."""
    left = world_table("arcanum", 3, seed=1)
    chosen = world_table("angels-and-demons", 3, seed=1)
    page = new_page("laptop", organiser=True)
    h.open_table(page, left.id)
    expect(page.locator("button[data-pair-seat]")).to_have_count(3)
    expect(page.locator("#board svg")).not_to_have_count(0)
    page.route_web_socket(re.compile(rf"/ws/tables/{chosen.id}$"), lambda ws: None)  # no view
    h.open_table(page, chosen.id)
    expect(
        page.locator("button[data-pair-seat]"), "the table left still offers to pair its seats"
    ).to_have_count(0)
    expect(
        page.locator("#seats [data-seat]"), "the table left's seats are still shown"
    ).to_have_count(0)
    expect(page.locator("#board svg"), "the table left's picture is still shown").to_have_count(0)
    expect(page.locator("#table-name")).to_have_text(server.public_view(chosen.id)["name"])


def test_keyboard_focus_stays_on_its_button_across_live_updates(
    server: Server,
    world_table: Callable[..., WorldTable],
    new_page: Callable[..., Page],
    h: type[Helpers],
) -> None:
    """A focused "Pair a phone" button is still the focused element after two live updates."""
    t = world_table("arcanum", 3, seed=2)
    t.run(5)
    page = new_page("laptop", organiser=True)
    h.open_table(page, t.id)
    button = page.locator('button[data-pair-seat="2"]')
    button.focus()
    seen = "() => window.scorekeeper.view().inputs"
    for _ in range(2):
        before = page.evaluate(seen)
        t.step()
        h.poll(lambda b=before: page.evaluate(seen) != b, what="a live update", page=page)
        page.wait_for_timeout(100)  # the page draws the update
    assert page.evaluate("() => document.activeElement.dataset.pairSeat") == "2", (
        "the focused button lost the focus on a live update"
    )


def test_the_tables_strip_leaves_out_archived_tables(
    server: Server,
    world_table: Callable[..., WorldTable],
    new_page: Callable[..., Page],
    h: type[Helpers],
) -> None:
    done = world_table("angels-and-demons", 3, seed=5)
    done.to_the_end()
    other = world_table("arcanum", 3, seed=1)
    page = new_page("laptop")
    h.open_table(page, other.id)
    expect(page.locator(f'#tables a[data-table="{done.id}"]')).to_have_count(1)
    assert server.http.post(f"/api/tables/{done.id}/end").status_code == 200
    r = server.http.post(f"/api/tables/{done.id}/archive")
    assert r.status_code == 200, r.text
    expect(
        page.locator(f'#tables a[data-table="{done.id}"]'),
        "an archived table stays in the tables strip",
    ).to_have_count(0, timeout=12_000)
    expect(page.locator(f'#tables a[data-table="{other.id}"]')).to_have_count(1)
