"""The organiser console while tables keep playing (issue 9, points 2, 6, 9 and 13): the undo
dialog pinned to what it previewed, options as choices, archive and delete, nothing without the
organiser token, focus that survives live updates, rows chosen by keyboard, rule links, and
axe-core at phone and TV sizes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

import httpx
from playwright.sync_api import Page, Route, expect

from tests.browser.axe import serious_violations

if TYPE_CHECKING:
    from tests.browser.conftest import Helpers, Server, WorldTable


def open_console(new_page: Callable[..., Page], server: Server, size: str = "laptop") -> Page:
    """The console with the organiser token typed into its token box."""
    page = new_page(size)
    page.goto("/console")
    page.locator("#token").fill(server.token)
    page.locator("#token-save").click()
    expect(page.locator("#token-state")).to_have_text("organiser")
    return page


def _last_accepted_seq(t: WorldTable) -> int:
    return int([e for e in t.organiser()["feed"] if e["accepted"]][-1]["seq"])


def _choose(page: Page, table: str) -> None:
    page.locator(f'[data-choose="{table}"]').click()
    expect(page.locator(f'tr[data-table="{table}"]')).to_have_attribute("aria-current", "true")


# -- point 2: the undo dialog is pinned to its preview -------------------------------------------


def test_the_undo_dialog_follows_a_table_that_moves_on(
    server: Server,
    world_table: Callable[..., WorldTable],
    new_page: Callable[..., Page],
    h: type[Helpers],
) -> None:
    t = world_table("angels-and-demons", 3, seed=6)
    t.run(15)
    page = open_console(new_page, server)
    page.locator(f'tr[data-table="{t.id}"] button[data-action="undo"]').click()
    text = page.locator("#confirm-text")
    expect(text).to_have_attribute("data-seq", str(_last_accepted_seq(t)))
    expect(page.locator("#confirm-note")).to_be_hidden()

    # The table moves on under the open dialog: before anyone confirms it says so and shows
    # what the undo would take back now.
    t.step()
    moved_to = _last_accepted_seq(t)
    state_then = t.organiser()["state"]
    expect(page.locator("#confirm-note")).to_contain_text("The table moved on")
    expect(text).to_have_attribute("data-seq", str(moved_to))
    preview = server.http.get(f"/api/tables/{t.id}/undo-preview").json()
    expect(text).to_contain_text(preview["words"])

    # A stale confirm: the dialog cannot see the table (its look at the table list is cut off),
    # the table moves on again, and the confirm carries the old seq: nothing is taken back, the
    # dialog says so in words and shows the fresh preview.
    def blind(route: Route) -> None:
        route.abort()

    page.route(re.compile(r".*/api/tables\?archived=1$"), blind)
    page.wait_for_timeout(1200)  # any look already under way has landed
    accepted = t.organiser()["accepted"]
    t.step()
    newest = _last_accepted_seq(t)
    assert newest != moved_to
    page.locator("#confirm-yes").click()
    expect(page.locator("#confirm-note")).to_contain_text("Nothing was changed")
    expect(page.locator("#confirm")).to_be_visible()
    expect(text).to_have_attribute("data-seq", str(newest))
    assert t.organiser()["accepted"] == accepted + 1, "a stale undo took something back"

    # Confirming the fresh preview takes back exactly what it showed.
    page.unroute(re.compile(r".*/api/tables\?archived=1$"))
    page.locator("#confirm-yes").click()
    expect(page.locator("#confirm")).to_be_hidden()
    h.poll(lambda: t.organiser()["accepted"] == accepted, what="the undo to take back one play")
    assert t.organiser()["state"] == state_then, "the undo took back another play than it showed"


def test_a_confirm_while_the_dialog_looks_at_the_table_is_not_dropped(
    server: Server,
    world_table: Callable[..., WorldTable],
    new_page: Callable[..., Page],
    h: type[Helpers],
) -> None:
    """The dialog looks at the table every second; a click on Undo while a look was under way
    used to be dropped (the organiser clicked and nothing happened; on a loaded machine the test
    above met it). Now the click waits for the look and then sends the undo it showed."""
    t = world_table("angels-and-demons", 3, seed=8)
    t.run(12)
    page = open_console(new_page, server)
    before = t.organiser()["accepted"]
    held: list[Route] = []
    looks = re.compile(r".*/api/tables\?archived=1$")

    def hold(route: Route) -> None:  # every look at the table waits until released
        held.append(route)

    page.route(looks, hold)
    page.locator(f'tr[data-table="{t.id}"] button[data-action="undo"]').click()
    expect(page.locator("#confirm-text")).to_have_attribute("data-seq", str(_last_accepted_seq(t)))
    page.wait_for_timeout(1500)  # the dialog's next look is now under way, held
    assert held, "the dialog made no look at the table"
    page.locator("#confirm-yes").click()
    page.wait_for_timeout(300)
    assert t.organiser()["accepted"] == before, "the undo went before the look had landed"
    released = 0
    while released < len(held):  # one at a time: the dialog may look again meanwhile
        held[released].continue_()
        released += 1
    page.unroute(looks)
    expect(page.locator("#confirm")).to_be_hidden()
    h.poll(lambda: t.organiser()["accepted"] == before - 1, what="the undo to take back one play")


# -- point 6: options are choices ----------------------------------------------------------------


def test_options_are_choices_with_the_default_marked(
    server: Server, new_page: Callable[..., Page], h: type[Helpers]
) -> None:
    games = {g["id"]: g for g in httpx.get(f"{server.base}/api/games").json()}
    page = open_console(new_page, server)
    for game in ("angels-and-demons", "arcanum"):
        page.locator("select#game").select_option(game)
        choices = [o for o in games[game]["options"] if o["choices"]]
        assert choices, f"{game} has no option with choices"
        for o in choices:
            box = page.locator(f'fieldset[data-option="{o["name"]}"]')
            expect(box, f"option {o['name']} is not a group of choices").to_be_visible()
            radios = box.locator('input[type="radio"]')
            expect(radios).to_have_count(len(o["choices"]))
            checked = box.locator('input[type="radio"]:checked')
            expect(checked).to_have_count(1)
            label = box.locator(f'label[for="{checked.get_attribute("id")}"]')
            expect(label).to_contain_text("(default)")
            labels = box.locator("label").all_inner_texts()
            for c in o["choices"]:
                value = c["value"] if isinstance(c, dict) else c
                shown = c.get("label") if isinstance(c, dict) else None
                if shown and isinstance(value, str) and shown != value:
                    assert not any(
                        lab.replace(" (default)", "").strip() == value for lab in labels
                    ), (o["name"], labels)
            assert sum("(default)" in lab for lab in labels) == 1, labels
        words = page.locator("#options").inner_text()
        for raw in ("on_lay", "by_length", "always_8", "first_game", "own_place"):
            assert raw not in words, f"the options show the raw value {raw!r}: {words!r}"

    # A choice made in the form reaches the table.
    page.locator("select#game").select_option("arcanum")
    page.locator("#seats").fill("3")
    page.locator('select[data-option="board"]').select_option("sample")
    long = page.locator('fieldset[data-option="length"] input[value="long"]')
    page.locator(f'label[for="{long.get_attribute("id")}"]').click()
    known = {t["id"] for t in server.http.get("/api/tables?archived=1").json()}
    page.locator("#create-button").click()
    made = h.poll(
        lambda: [t for t in server.http.get("/api/tables").json() if t["id"] not in known],
        what="the table to be created",
    )
    assert server.organiser_view(made[0]["id"])["state"]["options"]["length"] == "long"


# -- point 9: tables that are over; the token ----------------------------------------------------


def test_archive_hides_a_table_and_delete_asks_first(
    server: Server,
    world_table: Callable[..., WorldTable],
    new_page: Callable[..., Page],
    h: type[Helpers],
) -> None:
    t = world_table("angels-and-demons", 3, seed=8, names=["Ann", "Bea", "Cid"])
    t.run(4)
    name = server.organiser_view(t.id)["name"]
    page = open_console(new_page, server)
    row = page.locator(f'tr[data-table="{t.id}"]')
    expect(row).to_be_visible()
    # A running table is not archived (the button says to pause or end it first).
    expect(row.locator('button[data-action="archive"]')).to_be_disabled()
    row.locator('button[data-action="end"]').click()
    page.locator("#confirm-yes").click()
    row.locator('button[data-action="archive"]').click()
    expect(row, "an archived table is still listed").to_have_count(0)
    assert t.id not in {x["id"] for x in server.http.get("/api/tables").json()}

    page.locator("#show-archived").check()
    expect(row).to_be_visible()
    expect(row).to_contain_text("archived")
    # The log stays exportable while archived.
    assert server.http.get(f"/api/tables/{t.id}/export").status_code == 200

    row.locator('button[data-action="delete"]').click()
    expect(page.locator("#confirm")).to_be_visible()
    expect(page.locator("#confirm-title")).to_contain_text(name)
    page.locator("#confirm-no").click()
    assert t.id in {x["id"] for x in server.http.get("/api/tables?archived=1").json()}
    row.locator('button[data-action="delete"]').click()
    page.locator("#confirm-yes").click()
    expect(row).to_have_count(0)
    h.poll(
        lambda: t.id not in {x["id"] for x in server.http.get("/api/tables?archived=1").json()},
        what="the table to be deleted",
    )


def test_an_ended_table_waits_for_nobody(
    server: Server, world_table: Callable[..., WorldTable], new_page: Callable[..., Page]
) -> None:
    t = world_table("angels-and-demons", 3, seed=6)
    t.run(15)
    assert t.organiser()["pending"], "the table should wait for answers before it ends"
    page = open_console(new_page, server)
    _choose(page, t.id)
    expect(page.locator("#detail-body [data-answer]").first).to_be_visible()
    page.locator(f'tr[data-table="{t.id}"] button[data-action="end"]').click()
    page.locator("#confirm-yes").click()
    expect(page.locator("#detail-body [data-answer]")).to_have_count(0)
    expect(page.locator("#detail-waiting")).not_to_contain_text(re.compile(r"waiting|:", re.I))
    waiting = t.organiser()["waiting_for"]
    if waiting:
        expect(page.locator(f'tr[data-table="{t.id}"]')).not_to_contain_text(waiting)


def test_without_the_token_the_console_shows_no_table(
    server: Server, world_table: Callable[..., WorldTable], new_page: Callable[..., Page]
) -> None:
    world_table("angels-and-demons", 2, seed=3)
    page = new_page("laptop")
    page.goto("/console")
    expect(page.locator("#token")).to_be_visible()
    page.wait_for_timeout(2500)  # a live update or two
    for hook in ("[data-table]", "[data-action]", "[data-pair-seat]", "[data-unpair-seat]"):
        expect(page.locator(hook), f"{hook} shown without the organiser token").to_have_count(0)
    expect(page.locator("#create-form")).to_be_hidden()

    page.locator("#token").fill("not-the-token")
    page.locator("#token-save").click()
    error = page.locator("#token-error")
    expect(error).to_contain_text("not the organiser token")
    expect(error).to_contain_text("organiser-token")
    expect(error).not_to_contain_text("pairing code")
    expect(page.locator("[data-action]")).to_have_count(0)


def test_a_stored_wrong_token_shows_only_the_token_box(
    server: Server, world_table: Callable[..., WorldTable], new_page: Callable[..., Page]
) -> None:
    world_table("angels-and-demons", 2, seed=3)
    page = new_page("laptop", organiser=True, token="an-old-token")
    page.goto("/console")
    expect(page.locator("#token-error")).to_contain_text("not the organiser token")
    expect(page.locator("[data-table]")).to_have_count(0)
    expect(page.locator("[data-action]")).to_have_count(0)


# -- point 13: keyboard, focus, rule links, axe-core ---------------------------------------------


def test_focus_survives_live_updates(
    server: Server,
    world_table: Callable[..., WorldTable],
    new_page: Callable[..., Page],
    h: type[Helpers],
) -> None:
    t = world_table("angels-and-demons", 3, seed=5)
    t.run(3)
    page = open_console(new_page, server)
    _choose(page, t.id)
    shown = page.locator("#detail-body .muted.small").first

    def two_updates() -> None:
        for _ in range(2):
            before = shown.inner_text()
            t.step()
            expect(shown).not_to_have_text(before)

    for hook in (
        f'tr[data-table="{t.id}"] button[data-action="pause"]',
        f'tr[data-table="{t.id}"] button[data-pair-seat="1"]',
        "#fix-input",
    ):
        page.locator(hook).focus()
        page.evaluate("() => { window.__focused = document.activeElement; }")
        two_updates()
        assert page.evaluate(
            "() => document.activeElement === window.__focused && window.__focused.isConnected"
        ), f"{hook} lost the focus"

    # Pause by keyboard: the focus moves on to Resume (Pause can no longer be pressed), and back.
    row = page.locator(f'tr[data-table="{t.id}"]')
    row.locator('button[data-action="pause"]').focus()
    page.keyboard.press("Enter")
    expect(row.locator('button[data-action="start"]')).to_be_focused()
    h.poll(lambda: t.organiser()["status"] == "paused", what="the table to pause")
    page.keyboard.press("Enter")
    expect(row.locator('button[data-action="pause"]')).to_be_focused()
    h.poll(lambda: t.organiser()["status"] == "running", what="the table to run again")


def test_rows_are_chosen_by_keyboard(
    server: Server, world_table: Callable[..., WorldTable], new_page: Callable[..., Page]
) -> None:
    a = world_table("angels-and-demons", 2, seed=1, names=["Ann", "Bo"])
    b = world_table("angels-and-demons", 2, seed=2, names=["Cy", "Di"])
    page = open_console(new_page, server)
    for t in (a, b):
        page.locator(f'[data-choose="{t.id}"]').focus()
        page.keyboard.press("Enter")
        expect(page.locator(f'tr[data-table="{t.id}"]')).to_have_attribute("aria-current", "true")
        expect(page.locator("#detail-body")).to_contain_text(f"table {t.id}")

    # "New table" is two key presses from the top, however many tables there are.
    page.reload()
    expect(page.locator(f'tr[data-table="{b.id}"]')).to_be_visible()
    page.keyboard.press("Tab")
    expect(page.locator("#skip-new")).to_be_focused()
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    expect(page.locator("select#game")).to_be_focused()


def test_plays_and_answers_in_words(
    server: Server,
    world_table: Callable[..., WorldTable],
    new_page: Callable[..., Page],
    h: type[Helpers],
) -> None:
    """The console shows plays and answers in words: no card id and no answer syntax outside
    the organiser's "feed an input" box."""
    t = world_table("arcanum", 3, seed=6)

    def raw_answers() -> bool:
        return any(
            "/" in str(o) or "_" in str(o) for p in t.organiser()["pending"] for o in p["options"]
        )

    t.until(raw_answers, what="a prompt whose answers are values such as swords/coins")
    page = open_console(new_page, server)
    _choose(page, t.id)
    buttons = page.locator("#detail-body [data-answer]")
    expect(buttons.first).to_be_visible()
    for i in range(buttons.count()):
        value = buttons.nth(i).get_attribute("data-answer") or ""
        assert buttons.nth(i).inner_text().strip() != value, f"an answer shown as {value!r}"
    ids = {text.split()[-1] for text in t.fed if text.startswith(("+", "-"))}
    shown = page.locator("#detail-body").inner_text() + page.locator("#tables").inner_text()
    assert h.mentions(shown, ids) == [], "the console shows card ids"


def test_refusals_link_their_rule(
    server: Server, world_table: Callable[..., WorldTable], new_page: Callable[..., Page]
) -> None:
    t = world_table("angels-and-demons", 3, seed=6)
    t.run(3)
    refused = server.feed(t.id, "+discard:0 XX", accepted=False)
    page = open_console(new_page, server)
    _choose(page, t.id)
    link = page.locator(f'#detail-feed a[href="/rules/angels-and-demons#{refused["rule"]}"]')
    expect(link).to_be_visible()


def test_the_console_passes_axe_at_phone_and_tv_sizes(
    server: Server,
    world_table: Callable[..., WorldTable],
    new_page: Callable[..., Page],
    h: type[Helpers],
) -> None:
    t = world_table("angels-and-demons", 3, seed=6)
    t.run(15)
    server.feed(t.id, "+discard:0 XX", accepted=False)
    over = world_table("arcanum", 3, seed=2)
    over.run(5)
    server.http.post(f"/api/tables/{over.id}/end")
    for size in ("phone", "tv"):
        locked = new_page(size)
        locked.goto("/console")
        expect(locked.locator("#token")).to_be_visible()
        assert serious_violations(locked) == [], f"the token box at {size}"
        page = open_console(new_page, server, size)
        _choose(page, t.id)
        expect(page.locator("#detail-feed li").first).to_be_visible()
        problems = serious_violations(page)
        assert problems == [], f"the console at {size}:\n" + "\n".join(problems)
        if size == "phone":
            h.shoot(page, "console-live")
        page.locator(f'tr[data-table="{t.id}"] button[data-action="undo"]').click()
        expect(page.locator("#confirm")).to_be_visible()
        problems = serious_violations(page)
        assert problems == [], f"the undo dialog at {size}:\n" + "\n".join(problems)
        page.locator("#confirm-no").click()
