"""King of the Elves' deck manifests in the console's generic data editor (issue 13, point 3):
the shipped manifest labelled "assumed" (not "sample"), a village's value changed in the form
generated from the schema, saved under a new name, and chosen for a new table that plays on
exactly that deck, no longer marked as a guess."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from playwright.sync_api import Page, expect

from tests.browser.axe import serious_violations
from tests.browser.test_console_live import open_console

if TYPE_CHECKING:
    from tests.browser.conftest import Helpers, Server

KIND = "king-of-the-elves/deck"


def test_a_deck_manifest_edited_in_the_form_makes_a_table(
    server: Server, new_page: Callable[..., Page], h: type[Helpers]
) -> None:
    page = open_console(new_page, server, "laptop")
    section = page.locator(f'section[data-kind="{KIND}"]')
    expect(section).to_be_visible()
    expect(section.locator("h2")).to_have_text("Deck manifests")
    assumed = section.locator('tr[data-entry="assumed"]')
    expect(assumed).to_contain_text("assumed")
    expect(assumed).not_to_contain_text("sample")
    editing = section.locator('[data-role="editing"]')
    expect(editing).to_have_attribute("data-load", re.compile(r"\d+"))  # the first load is in
    loaded = int(editing.get_attribute("data-load") or 0)
    assumed.locator('button[data-action="open"]').click()
    # typed in only once the entry asked for is drawn (a later draw would wipe it)
    expect(editing).to_have_attribute("data-load", str(loaded + 1))
    expect(section.locator('[data-role="editing"]')).to_contain_text(
        "A copy of assumed (shipped with scorekeeper, assumed: not read from your own copy)"
    )

    value = section.locator('[data-role="form"] [data-field="villages.village_05.value"]')
    expect(value).to_have_value("2")  # the river village of the rulebook's examples
    value.fill("3")
    section.locator('[data-role="form"] [data-field="description"]').fill("our copy's river")
    # read off a real deck now, not guessed: the manifest says so, and the table shows it
    guessed = section.locator('[data-role="form"] [data-field="assumed"]')
    expect(guessed).to_be_checked()
    guessed.uncheck()
    problems = section.locator('[data-role="problems"]')
    section.locator('button[data-action="check"]').click()
    expect(problems).to_contain_text("complete")
    found = serious_violations(page)
    assert found == [], "the deck manifest's form:\n" + "\n".join(found)
    h.shoot(page, "console-deck-manifest")
    section.locator('[data-role="name"]').fill("club-deck")
    section.locator('button[data-action="save"]').click()
    expect(section.locator('tr[data-entry="club-deck"]')).to_contain_text("stored")
    saved = server.http.get("/api/data/king-of-the-elves/deck/club-deck").json()
    assert saved["data"]["villages"]["village_05"] == {"terrain": "river", "value": 3}, saved
    assert not saved["sample"] and saved["complete"], saved

    form = page.locator("#create-form")
    form.locator("select#game").select_option("king-of-the-elves")
    form.locator('select[data-option="deck"]').select_option("club-deck")
    form.locator("#seats").fill("3")
    known = {t["id"] for t in server.http.get("/api/tables?archived=1").json()}
    form.locator("#create-button").click()
    made = h.poll(
        lambda: [t for t in server.http.get("/api/tables").json() if t["id"] not in known],
        what="the table to be created",
    )
    view = server.organiser_view(made[0]["id"])
    assert view["state"]["deck"]["name"] == "club-deck", view["state"]["deck"]
    assert not view["state"]["deck"]["assumed"], view["state"]["deck"]
