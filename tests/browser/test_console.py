"""The organiser console (/console) in a real browser: enrolling a kit with the sim reader, an
undo behind a confirmation, creating a table, withdrawing a phone's pairing, the spectator delay
(the game data editor: test_console_data.py).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
from playwright.sync_api import Locator, Page, expect

from scorekeeper.service.hub import store_class

if TYPE_CHECKING:
    from tests.browser.conftest import Helpers, Server, WorldTable


def open_console(new_page: Callable[..., Page], server: Server, size: str = "laptop") -> Page:
    """The console with the organiser token typed into its token box."""
    page = new_page(size)
    page.goto("/console")
    page.locator("#token").fill(server.token)
    page.locator("#token-save").click()
    return page


def _row(page: Page, table: str) -> Locator:
    row = page.locator(f'[data-table="{table}"]').first
    expect(row, f'the console lists no row [data-table="{table}"]').to_be_visible()
    return row


def _count(n: int) -> re.Pattern[str]:
    return re.compile(rf"(^|\D){n}(\D|$)")


def _stored_tags(server: Server, kit: str) -> dict[str, str]:
    store = store_class()(f"sqlite:///{server.cwd / 'var' / 'browser.db'}")
    try:
        return dict(store.kit(kit).entries)
    finally:
        store.close()


def test_enrollment_through_the_console(server: Server, new_page: Callable[..., Page]) -> None:
    page = open_console(new_page, server)
    kit = "browser-arcanum"
    page.locator("#enroll-kit").fill(kit)
    page.locator("select#enroll-game").select_option("arcanum")
    page.locator("#enroll-start").click()
    progress = page.locator("#enroll-progress")
    expect(progress, "no #enroll-progress once enrollment starts").to_be_visible()
    for n in range(1, 4):
        expect(
            page.locator("#enroll-next"), "#enroll-next does not name the next piece"
        ).to_contain_text(f"major_0{n - 1}")
        page.locator("#enroll-simulate").click()
        expect(
            progress, f"#enroll-progress does not show {n} after {n} simulated tags"
        ).to_have_text(_count(n))

    r = server.http.get("/api/kits")
    assert r.status_code == 200, f"GET /api/kits: {r.status_code} {r.text}"
    assert kit in r.text, f"GET /api/kits does not list {kit}: {r.text}"
    expect(page.locator("#enroll-next")).to_contain_text("major_03")
    tags = _stored_tags(server, kit)
    assert len(tags) == 3 and len(set(tags)) == 3, tags
    assert sorted(tags.values()) == ["major_00", "major_01", "major_02"], tags  # enrollment order


def test_undo_from_the_console(
    server: Server,
    world_table: Callable[..., WorldTable],
    new_page: Callable[..., Page],
    h: type[Helpers],
) -> None:
    t = world_table("arcanum", 3, seed=11)
    before = t.organiser()
    for _ in range(500):  # play until an input changes the scores
        assert t.step() is not None
        after = t.organiser()
        if after["scores"] != before["scores"]:
            break
        before = after
    assert after["scores"] != before["scores"]
    last = after["feed"][-1]
    assert last["accepted"] and last["input"] == t.fed[-1]
    words = server.http.get(f"/api/tables/{t.id}/undo-preview").json()["words"]

    page = open_console(new_page, server)
    undo = _row(page, t.id).locator('button[data-action="undo"]')
    undo.click()
    expect(page.locator("#confirm"), "undo asks for no confirmation (#confirm)").to_be_visible()
    page.locator("#confirm-no").click()
    expect(page.locator("#confirm")).to_be_hidden()
    assert t.organiser()["accepted"] == after["accepted"], "#confirm-no still undid"

    undo.click()
    text = page.locator("#confirm-text")
    expect(text).to_be_visible()
    shown = text.inner_text()
    assert words and words in shown, (
        f"#confirm-text does not say what the undo takes back ({words!r}): {shown!r}"
    )
    assert last["input"] not in shown, f"#confirm-text shows input syntax: {shown!r}"
    page.locator("#confirm-yes").click()

    def went_back() -> dict[str, Any] | None:
        view = t.organiser()
        return view if view["accepted"] == before["accepted"] else None

    view = h.poll(went_back, what="the undo to take back the last accepted input")
    assert view["scores"] == before["scores"]
    assert view["state"] == before["state"]


def test_table_actions_from_the_console(
    server: Server,
    world_table: Callable[..., WorldTable],
    new_page: Callable[..., Page],
    h: type[Helpers],
    tmp_path: Path,
) -> None:
    t = world_table("angels-and-demons", 3, seed=6)
    t.run(12)
    page = open_console(new_page, server)
    row = _row(page, t.id)

    def status(wanted: str) -> None:
        h.poll(lambda: t.organiser()["status"] == wanted, what=f"{t.id} to be {wanted}")

    row.locator('button[data-action="pause"]').click()
    status("paused")
    row.locator('button[data-action="start"]').click()
    status("running")

    with page.expect_download() as got:
        row.locator('button[data-action="export-json"]').click()
    path = tmp_path / "export.json"
    got.value.save_as(path)
    exported = json.loads(path.read_text())
    assert exported["table"] == t.id and len(exported["inputs"]) == 12, exported
    assert exported["audience"] == "organiser", "the console's JSON export is not the full one"
    with page.expect_download() as got:
        row.locator('button[data-action="export-csv"]').click()
    got.value.save_as(tmp_path / "scores.csv")
    lines = (tmp_path / "scores.csv").read_text().splitlines()
    assert lines[0].startswith("seq,") and len(lines) >= 2, lines

    row.locator('button[data-action="end"]').click()
    expect(page.locator("#confirm"), "ending a table asks for no confirmation").to_be_visible()
    expect(page.locator("#confirm-text")).not_to_be_empty()
    page.locator("#confirm-yes").click()
    status("ended")


def test_create_a_table_from_the_console(
    server: Server, new_page: Callable[..., Page], h: type[Helpers]
) -> None:
    known = {t["id"] for t in httpx.get(f"{server.base}/api/tables").json()}
    page = open_console(new_page, server)
    form = page.locator("#create-form")
    form.locator("select#game").select_option("arcanum")
    form.locator("#seats").fill("3")
    form.locator('select[data-option="board"]').select_option("sample")
    form.locator('fieldset[data-option="length"] input[value="long"]').check()
    form.locator("#create-button").click()

    def created() -> list[dict[str, Any]]:
        tables = httpx.get(f"{server.base}/api/tables").json()
        return [t for t in tables if t["id"] not in known]

    new = h.poll(created, what="the console's #create-button to create a table")
    assert len(new) == 1 and new[0]["game"] == "arcanum" and len(new[0]["seats"]) == 3, new
    state = server.organiser_view(new[0]["id"])["state"]
    assert state["board"]["name"] == "sample" and state["options"]["length"] == "long", state
    _row(page, new[0]["id"])
    # the new table is shown, its board labelled a sample (made-up data is labelled so)
    expect(page.locator('#detail-body [data-chosen-data="board"]')).to_have_text(
        "Board profile: sample — a made-up SAMPLE, not taken from your own copy"
    )
    expect(
        page.locator("#readers [data-reader]").first,
        "no reader listed (#readers [data-reader]) with sim tables running",
    ).to_be_attached()


def test_unpair_a_seat_from_the_console(
    server: Server,
    world_table: Callable[..., WorldTable],
    new_page: Callable[..., Page],
    h: type[Helpers],
) -> None:
    t = world_table("angels-and-demons", 3, seed=4)
    code = server.pairing_code(t.id, 1)
    token = httpx.post(f"{server.base}/api/pair", json={"code": code}).json()["token"]
    seat_view = f"{server.base}/api/tables/{t.id}/seat/1"
    auth = {"Authorization": f"Bearer {token}"}
    assert httpx.get(seat_view, headers=auth).status_code == 200

    page = open_console(new_page, server)
    _row(page, t.id).locator('button[data-unpair-seat="1"]').click()
    confirm = page.locator("#confirm")
    if confirm.is_visible() or _shows_soon(confirm):
        page.locator("#confirm-yes").click()
    h.poll(
        lambda: httpx.get(seat_view, headers=auth).status_code == 401,
        what="the phone's seat token to be withdrawn (401)",
    )


def _shows_soon(loc: Locator) -> bool:
    try:
        loc.wait_for(state="visible", timeout=1000)
    except Exception:  # noqa: BLE001 - no confirmation is fine for an unpair
        return False
    return True


def test_the_spectator_delay_from_the_console(
    server: Server,
    world_table: Callable[..., WorldTable],
    new_page: Callable[..., Page],
    h: type[Helpers],
) -> None:
    """The organiser sets a delay for streams in the table's detail; the public view says so,
    and 0 makes it live again."""
    t = world_table("arcanum", 3, seed=4)
    t.run(5)
    page = open_console(new_page, server)
    _row(page, t.id).locator("td").first.click()
    expect(page.locator("#detail-body")).to_contain_text(f"table {t.id}")
    box = page.locator("#delay-seconds")
    expect(box).to_be_visible()
    box.fill("30")
    page.locator("#delay-set").click()
    h.poll(
        lambda: httpx.get(f"{server.base}/api/tables/{t.id}").json().get("spectator_delay") == 30,
        what="the public view to be 30 s behind",
    )
    expect(page.locator("#delay-seconds")).to_have_value("30")
    box = page.locator("#delay-seconds")
    box.fill("0")
    page.locator("#delay-set").click()
    h.poll(
        lambda: not httpx.get(f"{server.base}/api/tables/{t.id}").json().get("spectator_delay"),
        what="the public view to be live again",
    )


def test_the_new_table_forms_choices_survive_a_redraw(
    server: Server, new_page: Callable[..., Page]
) -> None:
    """The console's start-up loads may end after the organiser began to fill in the form;
    their redraw of the same game's options keeps what was chosen (it reset them once, and
    the table was made with the defaults)."""
    page = open_console(new_page, server)
    form = page.locator("#create-form")
    form.locator("select#game").select_option("arcanum")
    form.locator('fieldset[data-option="length"] input[value="long"]').check()
    page.evaluate("import('/static/console/create.js').then((m) => m.renderOptions())")
    expect(form.locator('fieldset[data-option="length"] input[value="long"]')).to_be_checked()
    form.locator("select#game").select_option("angels-and-demons")  # another game: its defaults
    form.locator("select#game").select_option("arcanum")
    expect(form.locator('fieldset[data-option="length"] input[value="normal"]')).to_be_checked()
