"""The console on features no registered game uses yet, on ``toy_server`` (the command with the
toy games of tests/): Toy deck (tests/toy_deck.py) records what is printed on each card while
its kit is tagged (a small form after each card's tag, its choices in the kind's words) and
labels its shipped deck "assumed", not "sample"."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from playwright.sync_api import Page, expect

if TYPE_CHECKING:
    from tests.browser.conftest import Server


def _console(new_page: Callable[..., Page], server: Server) -> Page:
    page = new_page("laptop", base=server.base)
    page.goto("/console")
    page.locator("#token").fill(server.token)
    page.locator("#token-save").click()
    expect(page.locator("#token-state")).to_have_text("organiser")
    return page


def _tag(page: Page, uid: str, done: int) -> None:
    """Type ``uid`` for the piece asked for, and wait until it is the ``done``-th tagged (the
    page clears the box when its answer comes: typing the next uid earlier would be lost)."""
    page.locator("#enroll-uid").fill(uid)
    page.locator("#enroll-type").click()
    expect(page.locator("#enroll-progress")).to_have_text(f"{done}/5 tagged")


def test_the_console_asks_each_card_s_face_after_its_tag(
    toy_server: Server, new_page: Callable[..., Page]
) -> None:
    page = _console(new_page, toy_server)
    page.locator("#enroll-kit").fill("club-deck")
    page.locator("#enroll-game").select_option("toy-deck")
    page.locator("#enroll-readers").fill("none")
    page.locator("#enroll-start").click()
    expect(page.locator("#enroll-next")).to_contain_text("Place the card 1 (card_1)")
    expect(page.locator("#enroll-ask")).to_have_count(0)

    for done, colour, value in ((1, "Blue", "4"), (2, "Red", "2")):
        _tag(page, f"0400000{done}", done)
        form = page.locator("#enroll-ask")
        expect(form).to_contain_text("What is printed on the card")
        expect(page.locator("#enroll-type")).to_be_disabled()  # the next tag waits
        colours = form.locator('select[data-field="colour"] option')
        expect(colours).to_have_text(["— choose the colour —", "Red", "Blue"])
        expect(form.get_by_label("Colour")).to_be_focused()
        form.get_by_label("Colour").select_option(label=colour)
        form.get_by_label("Value").select_option(label=value)
        page.locator("#enroll-answer").click()
        expect(page.locator("#enroll-ask")).to_have_count(0)
    for done in (3, 4, 5):
        _tag(page, f"0400000{done}", done)
    expect(page.locator("#enroll-last")).to_have_text("saved the toy deck 'club-deck' (complete)")
    saved = toy_server.http.get("/api/data/toy-deck/deck/club-deck").json()["data"]
    assert saved["cards"] == {
        "card_1": {"colour": "blue", "value": 4},
        "card_2": {"colour": "red", "value": 2},
    }
    assert saved["coins"] == 3


def test_the_shipped_deck_is_labelled_assumed(
    toy_server: Server, new_page: Callable[..., Page]
) -> None:
    page = _console(new_page, toy_server)
    row = page.locator('section[data-kind="toy-deck/deck"] tr[data-entry="guess"]')
    expect(row.locator(".badge").first).to_have_text("assumed")
    page.locator("#game").select_option("toy-deck")
    choice = page.locator('#data-choices select[data-option="deck"] option[value="guess"]')
    expect(choice).to_have_text(
        "guess — assumed, shipped with scorekeeper, not read from your own copy"
    )


def test_a_copy_with_other_cards_is_chosen_for_enrollment(
    toy_server: Server, new_page: Callable[..., Page]
) -> None:
    big = {"name": "big", "cards": {"card_1": {"colour": "red", "value": 4}}, "coins": 5}
    r = toy_server.http.put("/api/data/toy-deck/deck/big", json={"data": big})
    assert r.status_code == 200, r.text
    page = _console(new_page, toy_server)
    page.locator("#enroll-game").select_option("toy-deck")
    copy = page.locator("#enroll-copy")
    # the usual copy first, then the complete entries (others' tests may have saved more)
    expect(copy.locator("option").first).to_have_text("the usual copy's pieces")
    expect(copy.locator('option[value="guess"]')).to_have_text("guess — assumed")
    expect(copy.locator('option[value="big"]')).to_have_text("big")
    copy.select_option("big")
    page.locator("#enroll-kit").fill("big-copy")
    page.locator("#enroll-readers").fill("none")
    page.locator("#enroll-start").click()
    expect(page.locator("#enroll-progress")).to_have_text("0/6 tagged")
    expect(page.locator("#enroll-next")).to_contain_text("Place the red card (4) (card_1)")
