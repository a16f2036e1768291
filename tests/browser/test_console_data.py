"""The console's game data editor (webui/console/data-editor.js, on /api/data) in a real
browser: a board profile entered field by field in the form generated from the kind's schema,
checked, saved and chosen for a new Arcanum table; the YAML text checked with line and field,
saved, downloaded and deleted; the console's modules all loading without an error; and the form
and YAML text of a made-up kind whose schema has what the boards do not (lists, decimals, yes/no,
enum keys).

The editor names no game: its section, titles and words come from the API. These tests use
Arcanum's board profiles, the one data kind there is.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml
from playwright.sync_api import Locator, Page, expect
from pydantic import BaseModel, Field

from scorekeeper.core import data
from scorekeeper.games.arcanum.boards import EFFECT_NAMES
from tests.browser.axe import serious_violations
from tests.browser.test_console_live import open_console

if TYPE_CHECKING:
    from tests.browser.conftest import Helpers, Server

WEBUI = Path(__file__).resolve().parents[2] / "webui"
KIND = "arcanum/board"


def _editor(page: Page) -> Locator:
    section = page.locator(f'section[data-kind="{KIND}"]')
    expect(
        section, f'no section for the data kind {KIND} (section[data-kind="{KIND}"])'
    ).to_be_visible()
    return section


def _field(section: Locator, path: str) -> Locator:
    return section.locator(f'[data-role="form"] [data-field="{path}"]')


def _start_from(section: Locator, name: str) -> None:
    """Open ``name`` and wait for the form drawn from that very load (the editor's data-load
    hook): the console's own first load may show the same entry, and its form, redrawn by the
    click's load while the test types, would take what was typed with it."""
    editing = section.locator('[data-role="editing"]')
    expect(editing).to_have_attribute("data-load", re.compile(r"\d+"))  # the first load is in
    loaded = int(editing.get_attribute("data-load") or 0)
    section.locator(f'tr[data-entry="{name}"] button[data-action="open"]').click()
    expect(editing).to_have_attribute("data-load", str(loaded + 1))
    expect(editing).to_contain_text(name)


def _sample_board() -> dict[str, Any]:
    return data.find_entry(data.find_kind("arcanum", "board"), "sample").data


def test_a_board_entered_in_the_form_makes_a_table(
    server: Server, new_page: Callable[..., Page], h: type[Helpers]
) -> None:
    """Every location typed into the generated form (effects chosen by their words, names,
    icon counts, the Cathedral's gain), checked, saved, then chosen in the New table form: the
    table plays on exactly that board."""
    board = _sample_board()
    page = open_console(new_page, server, "tv")
    section = _editor(page)
    expect(section.locator("h2")).to_have_text("Board profiles")
    expect(section.locator('[data-role="about"]')).to_contain_text("for Arcanum")
    sample_row = section.locator('tr[data-entry="sample"]')
    expect(sample_row).to_contain_text("sample")
    expect(sample_row.locator('button[data-action="delete"]')).to_have_count(0)

    # "known" is what the rulebook prints: location 10's icons only, the rest unknown.
    _start_from(section, "known")
    expect(_field(section, "locations.1:unknown")).to_be_checked()
    expect(_field(section, "locations.1.id")).to_be_disabled()
    for number, loc in board["locations"].items():
        at = f"locations.{number}"
        if _field(section, f"{at}:unknown").is_checked():
            _field(section, f"{at}:unknown").uncheck()
        _field(section, f"{at}.id").select_option(label=EFFECT_NAMES[loc["id"]])
        _field(section, f"{at}.name").fill(loc["name"])
        if _field(section, f"{at}.icons:unknown").is_checked():
            _field(section, f"{at}.icons:unknown").uncheck()
        for icon in ("swords", "coins", "wands", "cups", "page", "knight", "queen", "king"):
            _field(section, f"{at}.icons.{icon}").fill(str(loc["icons"].get(icon, "")))
    _field(section, "cathedral_gain:unknown").uncheck()
    _field(section, "cathedral_gain.vp").fill(str(board["cathedral_gain"]["vp"]))
    _field(section, "description").fill("typed in from the club's board")

    # An option chosen in the New table form stays chosen when the entry is saved.
    form = page.locator("#create-form")
    form.locator("select#game").select_option("arcanum")
    form.locator('fieldset[data-option="length"] input[value="long"]').check()

    problems = section.locator('[data-role="problems"]')
    section.locator('button[data-action="check"]').click()
    expect(problems, "the check does not say the entered board is complete").to_contain_text(
        "complete — nothing to fill in"
    )
    found = serious_violations(page)  # the form filled in, at a TV's width
    assert found == [], "the data editor's form:\n" + "\n".join(found)
    section.locator('[data-role="name"]').fill("club-board")
    section.locator('button[data-action="save"]').click()
    expect(problems).to_contain_text("Saved as club-board: it can be chosen for a new Arcanum")
    expect(section.locator('tr[data-entry="club-board"]')).to_contain_text("stored")

    saved = server.http.get("/api/data/arcanum/board/club-board").json()
    assert saved["stored"] and saved["complete"] and not saved["sample"], saved
    wanted = {str(number): loc for number, loc in board["locations"].items()}  # JSON keys
    assert saved["data"]["locations"] == wanted, saved["data"]
    assert saved["data"]["description"] == "typed in from the club's board"

    expect(form.locator('fieldset[data-option="length"] input[value="long"]')).to_be_checked()
    choice = form.locator('select[data-option="board"]')
    expect(choice.locator('option[value="known"]')).to_be_disabled()  # incomplete
    choice.select_option("club-board")
    form.locator("#seats").fill("3")
    known = {t["id"] for t in server.http.get("/api/tables?archived=1").json()}
    form.locator("#create-button").click()
    made = h.poll(
        lambda: [t for t in server.http.get("/api/tables").json() if t["id"] not in known],
        what="the table to be created",
    )
    view = server.organiser_view(made[0]["id"])
    assert view["state"]["board"] == {"name": "club-board", "sample": False}, view["state"]
    assert view["state"]["options"]["length"] == "long", view["state"]["options"]
    expect(page.locator('#detail-body [data-chosen-data="board"]')).to_have_text(
        "Board profile: club-board"
    )


def test_the_yaml_text_is_checked_saved_downloaded_and_deleted(
    server: Server, new_page: Callable[..., Page], tmp_path: Path
) -> None:
    page = open_console(new_page, server)
    section = _editor(page)
    problems = section.locator('[data-role="problems"]')
    text = section.locator('[data-role="yaml"]')
    _start_from(section, "sample")
    section.locator('button[data-mode="yaml"]').click()
    expect(text).to_be_visible()
    expect(text).to_have_value(re.compile(r"^locations:\n  1: \{id: wizard_tower", re.M))

    text.fill("name: half-done\nlocations:\n  1: {id: market, name: Market}\n")
    section.locator('button[data-action="check"]').click()
    expect(problems, "the check does not name the entry").to_contain_text("half-done")
    expect(problems, "the check does not say what an incomplete profile misses").to_contain_text(
        re.compile(r"location 2\b.*unknown|missing", re.I)
    )

    # The editor in text mode, with problems shown, passes axe-core at a phone's width.
    page.set_viewport_size({"width": 390, "height": 844})
    found = serious_violations(page)
    assert found == [], "the data editor at 390x844:\n" + "\n".join(found)
    page.set_viewport_size({"width": 1366, "height": 768})

    text.fill("name: bad\nlocations:\n  1: {id: moon}\n")
    section.locator('button[data-action="check"]').click()
    expect(problems.locator(".error-text"), "a bad value is not named by line").to_contain_text(
        re.compile(r"line 3\b.*moon", re.I)
    )
    # Back to the form: the text is refused, so it stays, with what is wrong.
    section.locator('button[data-mode="form"]').click()
    expect(text).to_be_visible()
    expect(problems).to_contain_text("line 3")

    complete = data.to_yaml(data.find_kind("arcanum", "board"), _sample_board())
    text.fill(complete.replace("name: sample", "name: yaml-copy", 1))
    section.locator('button[data-action="check"]').click()
    expect(problems).to_contain_text("yaml-copy: complete")
    section.locator('button[data-action="save"]').click()
    expect(problems).to_contain_text("Saved as yaml-copy")
    row = section.locator('tr[data-entry="yaml-copy"]')
    expect(row).to_contain_text("stored")
    # saved from text, a copy of the sample is no sample any more
    assert server.http.get("/api/data/arcanum/board/yaml-copy").json()["sample"] is False

    with page.expect_download() as got:
        row.locator('button[data-action="export-yaml"]').click()
    path = tmp_path / "yaml-copy.yaml"
    got.value.save_as(path)
    assert (
        path.read_text()
        == server.http.get("/api/data/arcanum/board/yaml-copy/export?format=yaml").text
    )
    assert "name: yaml-copy" in path.read_text()

    row.locator('button[data-action="delete"]').click()
    expect(page.locator("#confirm")).to_be_visible()
    page.locator("#confirm-yes").click()
    expect(row).to_have_count(0)
    assert server.http.get("/api/data/arcanum/board/yaml-copy").status_code == 404

    # An empty entry: it needs a name before it is saved, and may be saved half-way.
    section.locator('button[data-action="start-empty"]').click()
    expect(section.locator('[data-role="editing"]')).to_contain_text("A new, empty entry")
    section.locator('button[data-mode="form"]').click()
    expect(_field(section, "locations.1:unknown")).to_be_checked()
    section.locator('button[data-action="save"]').click()
    expect(problems).to_contain_text("Give it a name first")
    section.locator('[data-role="name"]').fill("half-way")
    _field(section, "locations.1:unknown").uncheck()
    _field(section, "locations.1.name").fill("Our corner")
    section.locator('button[data-action="save"]').click()
    expect(problems).to_contain_text("Saved as half-way (incomplete: it can be finished later)")
    entry = server.http.get("/api/data/arcanum/board/half-way").json()
    assert not entry["complete"] and entry["data"]["locations"]["1"]["name"] == "Our corner"


def test_every_console_module_loads_without_an_error(
    server: Server, new_page: Callable[..., Page]
) -> None:
    page = new_page("laptop")
    problems: list[str] = []
    loaded: set[str] = set()
    page.on("console", lambda m: m.type == "error" and problems.append(m.text))
    page.on("pageerror", lambda e: problems.append(f"uncaught: {e}"))

    def answered(response: Any) -> None:
        if response.status >= 400:
            problems.append(f"{response.status} for {response.url}")
        elif "/static/" in response.url:
            loaded.add(response.url.split("/static/", 1)[1])

    page.on("response", answered)
    page.goto("/console")
    page.locator("#token").fill(server.token)
    page.locator("#token-save").click()
    _editor(page)
    modules = {"console.js", "kit.js"} | {
        p.relative_to(WEBUI).as_posix() for p in (WEBUI / "console").glob("*.js")
    }
    missing = sorted(modules - loaded)
    assert not missing, f"the console never loaded these modules of webui/: {missing}"
    assert not problems, "\n".join(problems)


# -- the form and the YAML text for any schema ---------------------------------------------------


class _Colour(StrEnum):
    red = "red"
    deep_blue = "deep_blue"


class _Card(BaseModel):
    title: str = Field(title="title", description="printed at the top")
    colour: _Colour = Field(
        title="colour", json_schema_extra={"x-labels": {"red": "Red", "deep_blue": "Deep blue"}}
    )
    cost: int | None = None
    weight: float = 1.5
    tags: list[str] = []


class _Pack(BaseModel):
    """A made-up kind of data (a card pack), with what Arcanum's boards do not have: lists, a
    number with decimals, an enum without labels as map keys, a yes/no."""

    name: str
    sample: bool = False
    description: str = ""
    cards: list[_Card] = []
    counts: dict[_Colour, int] | None = None
    foil: bool = False


_PACK = {
    "name": "pack",
    "sample": False,
    "description": "two: cards # and yes",
    "cards": [
        {"title": "Ace", "colour": "deep_blue", "cost": 3, "weight": 1.5, "tags": ["a", "b c"]},
        {"title": "yes", "colour": "red", "weight": 2.25, "tags": []},
    ],
    "counts": {"red": 2},
    "foil": True,
}

_BUILD = """async ([schema, value]) => {
  const m = await import("/static/console/schema-form.js");
  window.__form = m.buildForm(schema, value, "t");
  document.body.replaceChildren(window.__form.node);
  return {read: window.__form.read(), yaml: m.toYaml(value)};
}"""


def _same(a: Any, b: Any) -> bool:
    """Equal as the kind's model reads them (an empty optional number read as null is fine)."""
    return _Pack.model_validate(a).model_dump() == _Pack.model_validate(b).model_dump()


def test_the_form_and_the_yaml_text_follow_any_schema(
    server: Server, new_page: Callable[..., Page]
) -> None:
    page = new_page("laptop")
    page.goto("/console")
    got = page.evaluate(_BUILD, [_Pack.model_json_schema(), _PACK])
    assert _same(got["read"], _PACK), got["read"]
    assert yaml.safe_load(got["yaml"]) == _PACK, got["yaml"]  # quoted where YAML would misread

    colour = page.locator('[data-field="cards.0.colour"]')
    assert colour.locator("option").all_inner_texts() == ["Red", "Deep blue"]  # its words
    colour.select_option(label="Red")
    page.locator('[data-add="cards"]').click()
    page.locator('[data-field="cards.2.title"]').fill("New")
    page.locator('[data-field="cards.2.colour"]').select_option(label="Deep blue")
    page.locator('[data-field="cards"] > .df-items > .df-item > [data-remove="1"]').click()
    expect(page.locator('[data-field="cards.2.title"]')).to_have_count(0)  # numbered anew
    expect(page.locator('[data-field="cards.1.title"]')).to_have_value("New")
    page.locator('[data-field="cards.0.weight"]').fill("0.75")
    page.locator('[data-field="counts:unknown"]').check()
    expect(page.locator('[data-field="counts.red"]')).to_be_disabled()
    page.locator('[data-field="foil"]').uncheck()
    read = page.evaluate("() => window.__form.read()")
    wanted = {
        **_PACK,
        "cards": [
            {**_PACK["cards"][0], "colour": "red", "weight": 0.75},
            {"title": "New", "colour": "deep_blue"},
        ],
        "counts": None,
        "foil": False,
    }
    assert _same(read, wanted), read
