"""The event hub's five screens in Chromium, on a hub served by uvicorn over a real PostgreSQL
(no broker: the tables' games are played into the hub's store as the ingest writes them): the
console seats a round and starts the timer, the projector shows the countdown, pods and
standings at TV size, a player checks in on a phone and confirms, the public standings say
what decided each place; no serious axe-core violation on any page; screenshots at phone,
laptop and TV sizes (var/screenshots/event-*.png).
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import uvicorn
from playwright.sync_api import Browser, BrowserContext, Page, expect

from scorekeeper.event.api import create_event_app
from scorekeeper.event.hub_service import EventHub
from scorekeeper.event.servers import PrivatePostgres
from tests.api.procs import free_port
from tests.browser.axe import serious_violations
from tests.event.test_hub_service import play

GAME = "angels-and-demons"
NAMES = ["Ann", "Bea", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]
CONSOLE_KEY = "scorekeeper.event.console"
SIZES = {"phone": (390, 844), "laptop": (1366, 768), "tv": (1920, 1080)}  # as in conftest
SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"


class Site:
    """An event on a hub served over HTTP, and fresh browser pages onto it."""

    def __init__(self, url: str, browser: Browser) -> None:
        self.hub = EventHub(url, "club")
        self.hub.db.create_event("club", "Thursday club night", GAME)
        for n in range(1, 5):
            self.hub.db.add_table("club", str(n), f"sk-club-{n}", "-")
        self.hub.open(points="4-3-2-1")
        self.players = {name: self.hub.register(name, check_in=True) for name in NAMES}
        self.organiser = self.hub.db.new_token("club", "organiser")
        port = free_port()
        self.base = f"http://127.0.0.1:{port}"
        config = uvicorn.Config(
            create_event_app(self.hub), host="127.0.0.1", port=port, log_config=None
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        self.browser = browser
        self.contexts: list[BrowserContext] = []
        while not self.server.started:
            self.thread.join(0.02)
            assert self.thread.is_alive(), "the hub's web server did not start"

    def page(self, size: str, path: str, organiser: bool = False) -> Page:
        width, height = SIZES[size]
        ctx = self.browser.new_context(
            viewport={"width": width, "height": height}, base_url=self.base
        )
        self.contexts.append(ctx)
        if organiser:
            ctx.add_init_script(
                f"localStorage.setItem({json.dumps(CONSOLE_KEY)}, {json.dumps(self.organiser)})"
            )
        page = ctx.new_page()
        page.goto(path)
        return page

    def play_round(self) -> None:
        """Every game of the last round played to its end at its table and replicated."""
        last = self.hub.state().last_round
        assert last is not None
        for n, pod in enumerate(last.pods):
            play(self.hub, pod.game_id, seed=40 + n)
            self.hub._on_records(pod.game_id, 0)  # what the ingest says after each insert

    def close(self) -> None:
        for ctx in self.contexts:
            ctx.close()
        self.server.should_exit = True
        self.hub._bump()  # lets any long poll still waiting answer at once
        self.thread.join(10)
        self.hub.stop()


@pytest.fixture
def site(postgres_server: PrivatePostgres, browser: Browser) -> Iterator[Site]:
    url = postgres_server.create_database(f"screens_{free_port()}")
    s = Site(url, browser)
    yield s
    s.close()


def shoot(page: Page, view: str, *sizes: str) -> None:
    """Screenshots of ``page`` at ``sizes`` only (var/screenshots/<view>-<size>.png): each
    screen at the sizes it is made for, to keep the browser suite quick."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for size in sizes:
        width, height = SIZES[size]
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(100)  # let the layout settle (the projector fits its standings)
        page.screenshot(path=str(SCREENSHOTS / f"{view}-{size}.png"))


def no_serious_violation(page: Page, where: str) -> None:
    bad = serious_violations(page)
    assert not bad, f"{where}: axe-core finds serious violations:\n" + "\n".join(bad)


def test_console_seats_a_round_and_the_projector_shows_it(site: Site) -> None:
    console = site.page("laptop", "/", organiser=True)
    seat = console.locator("#seat-next")
    expect(seat).to_have_text("Seat round 1")
    expect(seat).to_be_enabled()
    seat.click()
    expect(console.locator("#status")).to_have_text(re.compile("The round is seated"))
    expect(console.locator("#round-title")).to_have_text("Round 1")
    last = site.hub.state().last_round
    assert last is not None and len(last.pods) >= 3
    rows = console.locator("#tables tr[data-table]")
    expect(rows).to_have_count(4)
    for pod in last.pods:
        row = console.locator(f'#tables tr[data-table="{pod.table}"]')
        names = [site.hub.state().name(p) for p in pod.players]
        expect(row.locator("ol.seats li")).to_have_text([re.compile(n) for n in names])
        expect(row).to_contain_text("offline")  # no table has said a word: it needs attention
    # while the tables play, the next round waits for them, and the console says so
    expect(seat).to_be_disabled()
    expect(console.locator("#seat-why")).to_contain_text("waits for Table 1")
    console.locator("#minutes").fill("25")
    console.locator("#timer-start").click()
    expect(console.locator("#clock")).to_have_text(re.compile(r"^2[45]:\d\d$"))
    no_serious_violation(console, "console")
    shoot(console, "event-console", "laptop", "phone")

    projector = site.page("tv", "/projector")
    expect(projector.locator("#countdown")).to_have_text(re.compile(r"^2[45]:\d\d$"))
    expect(projector.locator("#round")).to_have_text("Round 1")
    cards = projector.locator("#pods .pod")
    expect(cards).to_have_count(len(last.pods))
    first = projector.locator(f'#pods .pod[data-table="{last.pods[0].table}"]')
    expect(first.locator("li .who").first).to_have_text(
        f"{site.hub.state().name(last.pods[0].players[0])} starts"
    )
    expect(projector.locator("#standings tr")).to_have_count(len(NAMES))
    projector.locator("#qr img").evaluate("img => img.decode()")  # the QR code is drawn
    # a TV cannot scroll: everything it shows fits the screen
    assert projector.evaluate("() => document.scrollingElement.scrollHeight <= innerHeight")
    no_serious_violation(projector, "projector")
    shoot(projector, "event-projector", "tv", "phone")
    # the round's time runs out: the projector says so (the hub's clock, as the console's)
    started = datetime.now(UTC) - timedelta(minutes=26)
    site.hub.start_timer(25, at=started.isoformat(timespec="seconds"))
    expect(projector.locator("#countdown")).to_have_text("Time is up")
    expect(projector.locator("#announce")).to_contain_text("round 1 has ended")
    site.hub.stop_timer()
    expect(projector.locator("#countdown")).to_have_text("")
    expect(projector.locator("#announce")).to_be_hidden()


def test_a_player_checks_in_and_confirms_and_the_standings_say_why(site: Site) -> None:
    site.hub.seat_next(seed=3)
    site.play_round()
    last = site.hub.state().last_round
    assert last is not None
    mine = last.pods[0]
    me = mine.players[1]
    for pod in last.pods:  # everybody else confirms: only this phone's player is missing
        for player in pod.players:
            if player != me:
                site.hub.confirm(pod.game_id, player)

    phone = site.page("phone", "/check-in")
    no_serious_violation(phone, "check-in")
    shoot(phone, "event-check-in", "phone")
    phone.locator("#code").fill(me.upper())
    phone.locator("#checkin-button").click()
    phone.wait_for_url("**/me")
    expect(phone.locator("#seat-title")).to_have_text("Table 1, seat 2")
    expect(phone.locator("ol.players li.me")).to_contain_text("(you)")
    confirm = phone.locator("#confirm")
    expect(confirm).to_have_text("Confirm the result")
    no_serious_violation(phone, "a player's phone, to confirm")
    shoot(phone, "event-me-confirm", "phone")
    confirm.click()
    expect(phone.locator("#final")).to_have_text("The result is final.")
    link = phone.locator("#bgstats")
    expect(link).to_have_attribute("href", re.compile(r"^https://app\.bgstatsapp\.com/"))
    assert site.hub.waiting() == []
    no_serious_violation(phone, "a player's phone, final")
    shoot(phone, "event-me-final", "phone", "laptop")

    standings = site.page("laptop", "/standings")
    rows = standings.locator("#standings tr[data-player]")
    expect(rows).to_have_count(len(NAMES))
    decided = standings.locator("#standings td.decided", has_text="decided by: ")
    expect(decided.first).to_be_visible()
    # the tie-break that decided a place is marked in its own column, on the same row
    texts = standings.locator("#standings tr[data-player]").evaluate_all(
        """rows => rows.map(r => [r.querySelector('td.decided').textContent,
                                   r.querySelectorAll('td.decider').length])"""
    )
    assert all((n == 1) == t.startswith("decided by") for t, n in texts), texts
    no_serious_violation(standings, "standings")
    shoot(standings, "event-standings", "laptop", "phone")
