"""The dashboard's ES modules all load: the page (webui/app.js and every module of webui/app/)
and each registered game's view (webui/games/<game-id>.js, and the modules it keeps in
webui/games/<game-id>/) are fetched, run and draw, with no error in the browser's console, no
uncaught exception and no failed request, for a table in play and for a finished one (whose
summary draws the game's breakdown and history: a name a module forgot to import fails only when
the code that uses it runs).

A broken module shows up only there: the page imports its modules with no build step, so a
missing file or a syntax error leaves a blank or half-drawn page and a console error, and a game
view that fails to load is silently replaced by the generic picture. The last test serves one
module missing, then broken, and checks that this watch sees it."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from playwright.sync_api import ConsoleMessage, Page, Request, Response, Route, expect

from scorekeeper.games import game_ids

if TYPE_CHECKING:
    from tests.browser.conftest import Helpers, WorldTable

WEBUI = Path(__file__).resolve().parents[2] / "webui"


class Watch:
    """What went wrong on a page while it loaded: console errors, uncaught exceptions, failed
    requests and error answers, each as one line; and the static files it fetched fine."""

    def __init__(self, page: Page) -> None:
        self.problems: list[str] = []
        self.loaded: set[str] = set()
        page.on("console", self._logged)
        page.on("pageerror", lambda e: self.problems.append(f"uncaught: {e}"))
        page.on("requestfailed", self._failed)
        page.on("response", self._answered)

    def found(self) -> bool:
        """True once anything went wrong."""
        return bool(self.problems)

    def _logged(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.problems.append(f"console error: {message.text}")

    def _failed(self, request: Request) -> None:
        if "/ws/" not in request.url:  # a WebSocket closed on leaving a table is no fault
            self.problems.append(f"request failed: {request.url} ({request.failure})")

    def _answered(self, response: Response) -> None:
        path = response.url.split("/static/", 1)[-1] if "/static/" in response.url else None
        if response.status >= 400:
            self.problems.append(f"{response.status} for {response.url}")
        elif path is not None:
            self.loaded.add(path)


def test_every_dashboard_module_loads_without_an_error(
    world_table: Callable[..., WorldTable],
    new_page: Callable[..., Page],
    h: type[Helpers],
) -> None:
    tables = {game: world_table(game, 3, seed=1) for game in game_ids()}
    finished = {game: world_table(game, 3, seed=2) for game in game_ids()}
    for table in finished.values():
        table.to_the_end()
    page = new_page("laptop")
    watch = Watch(page)
    for game, table in [*tables.items(), *finished.items()]:
        h.open_table(page, table.id)
        picture = page.locator("#board svg").first
        expect(picture, f"no picture of the {game} table (#board svg)").to_be_visible()
        # the game's own view drew it, not the generic one the page falls back on
        expect(picture, f"webui/games/{game}.js did not draw the table").to_have_class(
            re.compile(rf"(^|\s){re.escape(game)}(\s|$)")
        )
        assert f"games/{game}.js" in watch.loaded, f"webui/games/{game}.js was not fetched"
        if table in finished.values():
            expect(
                page.locator("#summary"), f"no summary of the finished {game} table"
            ).to_be_visible()
    # a round trip after the last render, so that an error it raised reaches the watch first
    page.evaluate("() => new Promise((done) => setTimeout(done, 0))")
    modules = {"app.js", "kit.js"} | {
        p.relative_to(WEBUI).as_posix() for p in (WEBUI / "app").glob("*.js")
    }
    modules |= {
        p.relative_to(WEBUI).as_posix()
        for game in game_ids()
        for p in (WEBUI / "games" / game).rglob("*.js")
    }
    missing = sorted(modules - watch.loaded)
    assert not missing, f"the page never loaded these modules of webui/: {missing}"
    assert not watch.problems, "\n".join(watch.problems)


def test_a_missing_or_broken_module_is_seen(
    world_table: Callable[..., WorldTable],
    new_page: Callable[..., Page],
    h: type[Helpers],
) -> None:
    table = world_table(game_ids()[0], 3, seed=1)
    for fault, answer, seen in (
        ("missing", {"status": 404, "body": "not found"}, "404 for"),
        (
            "broken",
            {"status": 200, "content_type": "text/javascript", "body": "export {"},
            "uncaught",
        ),
    ):
        page = new_page("laptop")

        def serve(route: Route, _request: Request, answer: dict[str, Any] = answer) -> None:
            route.fulfill(**answer)

        page.route("**/static/app/feed.js", serve)
        watch = Watch(page)
        page.goto(f"/#{table.id}")
        h.poll(watch.found, what=f"an error for the {fault} module", page=page)
        assert any(p.startswith(seen) for p in watch.problems), (fault, watch.problems)
        expect(page.locator("#board svg"), f"the page drew with a {fault} module").to_have_count(0)
