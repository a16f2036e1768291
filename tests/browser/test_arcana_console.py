"""Arcana's card packs in the console's generic data editor (issue 14, point 4): the shipped
pack labelled "sample", a card's value changed in the form generated from the schema, saved
under a new name, and chosen for a new table that plays on exactly that pack; the create form
preselects no pack (the sample is never a real table's by default)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from playwright.sync_api import Page, expect

from tests.browser.axe import serious_violations
from tests.browser.test_console_live import open_console

if TYPE_CHECKING:
    from tests.browser.conftest import Helpers, Server

KIND = "arcana/pack"


def test_a_card_pack_edited_in_the_form_makes_a_table(
    server: Server, new_page: Callable[..., Page], h: type[Helpers]
) -> None:
    page = open_console(new_page, server, "laptop")
    form = page.locator("#create-form")
    form.locator("select#game").select_option("arcana")
    chosen = form.locator('select[data-option="pack"]')
    expect(chosen).to_have_value("")  # nothing preselected: the organiser must choose
    expect(chosen.locator('option[value="sample"]')).to_contain_text("sample")

    section = page.locator(f'section[data-kind="{KIND}"]')
    expect(section.locator("h2")).to_have_text("Card packs")
    sample = section.locator('tr[data-entry="sample"]')
    expect(sample).to_contain_text("sample")
    editing = section.locator('[data-role="editing"]')
    expect(editing).to_have_attribute("data-load", re.compile(r"\d+"))
    loaded = int(editing.get_attribute("data-load") or 0)
    sample.locator('button[data-action="open"]').click()
    expect(editing).to_have_attribute("data-load", str(loaded + 1))

    # 304 cards: each is a line with its name until it is opened
    card = section.locator('[data-role="form"] details[data-entry-field="cards.ferrymen_03"]')
    expect(card.locator("summary")).to_have_text("ferrymen_03: Crossbowman")
    card.locator("summary").click()
    sword = card.locator('[data-field="cards.ferrymen_03.values.sword"]')
    expect(sword).to_have_value("3")  # the Crossbowman of the rulebook's examples
    sword.fill("4")
    section.locator('button[data-action="check"]').click()
    expect(section.locator('[data-role="problems"]')).to_contain_text("complete")
    found = serious_violations(page)
    assert found == [], "the card pack's form:\n" + "\n".join(found)
    h.shoot(page, "console-card-pack")
    section.locator('[data-role="name"]').fill("club-pack")
    section.locator('button[data-action="save"]').click()
    expect(section.locator('tr[data-entry="club-pack"]')).to_contain_text("stored")
    saved = server.http.get("/api/data/arcana/pack/club-pack").json()
    assert saved["data"]["cards"]["ferrymen_03"]["values"]["sword"] == 4, saved["data"]["cards"]
    assert not saved["sample"] and saved["complete"], saved

    chosen.select_option("club-pack")
    form.locator("#seats").fill("2")
    known = {t["id"] for t in server.http.get("/api/tables?archived=1").json()}
    form.locator("#create-button").click()
    made = h.poll(
        lambda: [t for t in server.http.get("/api/tables").json() if t["id"] not in known],
        what="the table to be created",
    )
    view = server.organiser_view(made[0]["id"])
    assert view["state"]["pack"] == {"name": "club-pack", "sample": False}, view["state"]["pack"]
