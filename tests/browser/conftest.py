"""Fixtures for the browser tests: Playwright driving Debian's Chromium against real
``scorekeeper serve`` / ``scorekeeper demo`` subprocesses on simulated readers.

No browser is ever downloaded: the tests launch ``/usr/bin/chromium`` (``make test`` installs the
Debian package) and fail, with what to do, when it is missing. Screenshots go to
``var/screenshots/`` in the repository (ignored by git); see docs/dashboard-tests.md.
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, WebSocket, expect, sync_playwright

from scorekeeper.games import find_game
from scorekeeper.sim import find_world
from tests.api.procs import free_port, start_cli, stop, wait_http

CHROMIUM = Path("/usr/bin/chromium")
REPO = Path(__file__).resolve().parents[2]
SCREENSHOTS = REPO / "var" / "screenshots"
SIZES = {"phone": (390, 844), "laptop": (1366, 768), "tv": (1920, 1080)}
ORGANISER_KEY = "scorekeeper.organiser"  # localStorage: the organiser token on the table page
WAIT_MS = 10_000  # how long a hook may take to appear or change (a loaded CI machine)
expect.set_options(timeout=WAIT_MS)


# -- servers -------------------------------------------------------------------------------------


class Server:
    """A ``scorekeeper`` subprocess (``serve`` or ``demo``) and an organiser's HTTP client."""

    def __init__(
        self,
        proc: subprocess.Popen[str],
        cwd: Path,
        port: int,
        token_file: Path,
        stop_signal: int = signal.SIGTERM,
    ):
        self.proc = proc
        self.stop_signal = stop_signal
        self.cwd = cwd
        self.base = f"http://127.0.0.1:{port}"
        self.token = token_file.read_text().strip()
        self.org = {"Authorization": f"Bearer {self.token}"}
        self.http = httpx.Client(base_url=self.base, headers=self.org, timeout=5.0)

    @classmethod
    def start(
        cls,
        args: list[str],
        cwd: Path,
        db: str,
        stop_signal: int = signal.SIGTERM,
        module: str = "scorekeeper",
    ) -> Server:
        """Run ``scorekeeper ARGS --port P --db DB`` in ``cwd`` and wait until it answers
        (``module``: ``tests.toy_serve``, the same command with the toy games)."""
        return cls.launch(args, cwd, db, stop_signal, module)()

    @classmethod
    def launch(
        cls,
        args: list[str],
        cwd: Path,
        db: str,
        stop_signal: int = signal.SIGTERM,
        module: str = "scorekeeper",
    ) -> Callable[[], Server]:
        """Start the subprocess now; the returned call waits until it answers (so that several
        servers can start side by side)."""
        port = free_port()
        proc = start_cli([*args, "--port", str(port), "--db", db], cwd, module)

        def ready() -> Server:
            try:
                wait_http(f"http://127.0.0.1:{port}/healthz", proc, timeout=20.0)
            except AssertionError as e:
                proc.kill()
                proc.wait()
                raise AssertionError(f"{e}; stderr:\n{(cwd / 'stderr.txt').read_text()}") from None
            token_file = cwd / Path(db).parent / f"{Path(db).stem}.organiser-token"
            return cls(proc, cwd, port, token_file, stop_signal)

        return ready

    def close(self) -> None:
        self.http.close()
        if self.proc.poll() is None:
            code = stop(self.proc, self.stop_signal)
            assert code in (0, 130), f"{self.base} exited with {code}"

    # the organiser's API
    def create_table(
        self, game: str, seats: Any, options: dict[str, Any] | None = None, **extra: Any
    ) -> str:
        body = {"game": game, "seats": seats, "options": options or {}, "start": True, **extra}
        r = self.http.post("/api/tables", json=body)
        assert r.status_code == 201, r.text
        return str(r.json()["id"])

    def feed(self, table: str, text: str, accepted: bool | None = True) -> dict[str, Any]:
        r = self.http.post(f"/api/tables/{table}/inputs", json={"input": text})
        assert r.status_code == 200, r.text
        verdict: dict[str, Any] = r.json()
        if accepted is not None:
            assert verdict["accepted"] is accepted, (text, verdict)
        return verdict

    def organiser_view(self, table: str) -> dict[str, Any]:
        r = self.http.get(f"/api/tables/{table}/organiser")
        assert r.status_code == 200, r.text
        return dict(r.json())

    def public_view(self, table: str) -> dict[str, Any]:
        r = httpx.get(f"{self.base}/api/tables/{table}", timeout=5.0)
        assert r.status_code == 200, r.text
        return dict(r.json())

    def pairing_code(self, table: str, seat: int) -> str:
        r = self.http.post(f"/api/tables/{table}/seats/{seat}/pair")
        assert r.status_code == 200, r.text
        return str(r.json()["code"])


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One ``scorekeeper serve --readers sim`` for the session; each test makes its own tables."""
    cwd = tmp_path_factory.mktemp("serve")
    srv = Server.start(["serve", "--readers", "sim"], cwd, "var/browser.db")
    yield srv
    srv.close()


@pytest.fixture(scope="session")
def toy_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``scorekeeper serve --readers sim`` with the toy games of tests/ registered
    (tests/toy_serve.py), for the platform features no registered game uses yet."""
    cwd = tmp_path_factory.mktemp("toys")
    srv = Server.start(["serve", "--readers", "sim"], cwd, "var/toys.db", module="tests.toy_serve")
    yield srv
    srv.close()


@pytest.fixture
def demos(tmp_path: Path) -> Iterator[Callable[..., list[Server]]]:
    """``demos(("arcanum", 4), ...)``: ``scorekeeper demo`` subprocesses (bots on sim readers),
    one per game and seat count, started side by side."""
    started: list[Server] = []

    def run(*games: tuple[str, int], pace: float = 0.05) -> list[Server]:
        waits = []
        for game, seats in games:
            cwd = tmp_path / f"demo-{game}"
            cwd.mkdir()
            waits.append(
                Server.launch(
                    ["demo", "--game", game, "--seats", str(seats), "--pace", str(pace)],
                    cwd,
                    "var/demo.db",
                    stop_signal=signal.SIGINT,
                )
            )
        for ready in waits:
            started.append(ready())
        return started[-len(games) :]

    yield run
    for srv in started:
        srv.close()


class WorldTable:
    """A table on the server fed, one input at a time, by a seeded simulated world."""

    def __init__(
        self,
        server: Server,
        game: str,
        seats: int,
        seed: int,
        options: dict[str, Any] | None = None,
        names: Iterable[str] | None = None,
    ):
        self.server = server
        self.game = game
        table_options = dict(options or {})
        for option in find_game(game).options:
            if option.ask:  # a real table must choose (a board, a deck): the shipped entry here
                table_options.setdefault(option.name, option.default)
        self.id = server.create_table(game, list(names) if names else seats, table_options)
        self.inputs = find_world(game)(seats, options or {}, seed).inputs()
        self.fed: list[str] = []
        self._held: str | None = None

    def peek(self) -> str | None:
        """The world's next input (one-line form), without feeding it."""
        if self._held is None:
            nxt = next(self.inputs, None)
            self._held = None if nxt is None else nxt.to_str()
        return self._held

    def take(self) -> str | None:
        """The next input, marked as done (somebody else performs it, e.g. a phone's button)."""
        text = self.peek()
        self._held = None
        if text is not None:
            self.fed.append(text)
        return text

    def step(self) -> str | None:
        """Feed the next input (it must be accepted); None once the game is over."""
        text = self.take()
        if text is not None:
            self.server.feed(self.id, text)
        return text

    def run(self, count: int) -> None:
        for _ in range(count):
            if self.step() is None:
                return

    def until(self, done: Callable[[], bool], limit: int = 2000, what: str = "") -> None:
        """Feed inputs until ``done()`` holds (checked before each input)."""
        for _ in range(limit):
            if done():
                return
            assert self.step() is not None, f"the game ended before {what or done}"
        raise AssertionError(f"not reached within {limit} inputs: {what or done}")

    def to_the_end(self) -> None:
        while self.step() is not None:
            pass

    def organiser(self) -> dict[str, Any]:
        return self.server.organiser_view(self.id)


@pytest.fixture(scope="session")
def world_table(server: Server) -> Callable[..., WorldTable]:
    """``world_table(game, seats, seed)``: a started table on the session server."""

    def make(game: str, seats: int = 3, seed: int = 1, **kw: Any) -> WorldTable:
        return WorldTable(server, game, seats, seed, **kw)

    return make


# -- the browser ---------------------------------------------------------------------------------


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run the browser tests last. Playwright's sync API keeps an event loop running in the main
    thread until the session ends, and tests that call ``asyncio.run`` cannot run after it."""
    here = Path(__file__).resolve().parent
    items.sort(key=lambda item: here in Path(str(item.path)).resolve().parents)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail(
            f"{CHROMIUM} is missing: the browser tests drive Debian's Chromium "
            "(never a downloaded one); make test installs the Debian package chromium",
            pytrace=False,
        )
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        yield b
        b.close()


class Frames:
    """Every WebSocket frame a page received, in order, with the socket's URL."""

    def __init__(self) -> None:
        self.received: list[tuple[str, str]] = []

    def attach(self, page: Page) -> None:
        def on_socket(ws: WebSocket) -> None:
            def on_frame(payload: Any) -> None:
                if isinstance(payload, dict):  # older Playwright versions
                    payload = payload.get("payload", "")
                if isinstance(payload, bytes):
                    payload = payload.decode("utf-8", "replace")
                self.received.append((ws.url, str(payload)))

            ws.on("framereceived", on_frame)

        page.on("websocket", on_socket)

    def views(self, start: int = 0) -> list[dict[str, Any]]:
        out = []
        for _url, text in self.received[start:]:
            try:
                data = json.loads(text)
            except ValueError:
                continue
            if isinstance(data, dict):
                out.append(data)
        return out


@pytest.fixture
def new_page(browser: Browser, server: Server) -> Iterator[Callable[..., Page]]:
    """``new_page(size, organiser=False, base=server.base)``: a fresh browser context's page
    (its own localStorage) at one of SIZES; ``organiser=True`` puts the organiser token in
    localStorage first, as the console's token box does."""
    contexts = []

    def make(
        size: str = "laptop",
        organiser: bool = False,
        base: str | None = None,
        token: str | None = None,
    ) -> Page:
        width, height = SIZES[size]
        ctx = browser.new_context(
            viewport={"width": width, "height": height}, base_url=base or server.base
        )
        contexts.append(ctx)
        if organiser:
            value = json.dumps(token or server.token)
            ctx.add_init_script(
                f"window.localStorage.setItem({json.dumps(ORGANISER_KEY)}, {value});"
            )
        page = ctx.new_page()
        page.set_default_timeout(WAIT_MS)
        return page

    yield make
    for ctx in contexts:
        ctx.close()


# -- helpers shared by the tests (given as fixtures so that no test imports this file) -----------


def shoot(page: Page, view: str) -> list[Path]:
    """Screenshot ``page`` at every size in SIZES as var/screenshots/<view>-<size>.png."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    first = page.viewport_size
    paths = []
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(150)  # let the layout settle (media queries, SVG resizing)
        path = SCREENSHOTS / f"{view}-{size}.png"
        page.screenshot(path=str(path))
        paths.append(path)
    if first:
        page.set_viewport_size(first)
    return paths


_DOM_TEXT = """(root, skip) => {
    const out = [];
    const walk = (node) => {
      if (node.nodeType === Node.TEXT_NODE) { out.push(node.textContent); return; }
      if (node.nodeType !== Node.ELEMENT_NODE && node.nodeType !== Node.DOCUMENT_FRAGMENT_NODE) {
        return;
      }
      if (node.nodeType === Node.ELEMENT_NODE) {
        const tag = node.tagName.toLowerCase();
        if (tag === "script" || tag === "style") return;
        if (skip && node.matches(skip)) return;
        for (const a of node.attributes) out.push(a.name + "=" + a.value);
        if (typeof node.value === "string") out.push(node.value);
      }
      for (const c of node.childNodes) walk(c);
      if (node.shadowRoot) walk(node.shadowRoot);
    };
    walk(root || document.documentElement);
    return out.join("\\n");
}"""


def dom_text(page: Page, skip: str | None = None) -> str:
    """Everything the page's DOM shows or carries: text nodes and every attribute's value
    (scripts and styles left out: code is not content; ``skip``: a selector left out too)."""
    return str(page.evaluate(f"({_DOM_TEXT})(null, {json.dumps(skip)})"))


def dom_items(page: Page, selector: str) -> list[str]:
    """``dom_text`` of each element matching ``selector``."""
    return [
        str(t)
        for t in page.locator(selector).evaluate_all(
            f"(els) => els.map((e) => ({_DOM_TEXT})(e, null))"
        )
    ]


def mentions(text: str, ids: Iterable[str]) -> list[str]:
    """The ids (card ids such as ``swords_1``) that occur in ``text`` as whole words."""
    wanted = sorted(set(ids))
    if not wanted:
        return []
    pattern = re.compile(
        r"(?<![A-Za-z0-9_])(" + "|".join(map(re.escape, wanted)) + r")(?![A-Za-z0-9_])"
    )
    return sorted(set(pattern.findall(text)))


def open_table(page: Page, table: str) -> None:
    """Load the live page and choose ``table`` through its link (a[data-table]); returns once
    the page has chosen it (its link is the current one). Hazard: the page first shows a table
    of its own choosing (a running one); only from then on is what it shows ``table``'s."""
    page.goto("/")
    link = page.locator(f'a[data-table="{table}"]').first
    link.wait_for(state="attached")
    if link.is_visible():
        link.click()
    else:
        # a phone layout may fold the list of tables away: choose on a wider screen, then back
        size = page.viewport_size
        page.set_viewport_size({"width": SIZES["laptop"][0], "height": SIZES["laptop"][1]})
        link.click()
        if size:
            page.set_viewport_size(size)
    expect(link, f"the page did not choose table {table}").to_have_attribute("aria-current", "page")


def poll(
    check: Callable[[], Any],
    timeout: float = WAIT_MS / 1000,
    every: float = 0.1,
    what: str = "",
    page: Page | None = None,
) -> Any:
    """Call ``check`` until it returns something true (returned) or fail after ``timeout``.

    Give ``page`` when ``check`` looks at what a page's events recorded (WebSocket frames):
    the sync API delivers events only while it is called, so the wait goes through the page."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what or check}")
        if page is not None:
            page.wait_for_timeout(every * 1000)
        else:
            time.sleep(every)


class Helpers:
    """The helpers above, as one fixture (tests take ``h`` and call ``h.shoot(...)``)."""

    shoot = staticmethod(shoot)
    dom_text = staticmethod(dom_text)
    dom_items = staticmethod(dom_items)
    mentions = staticmethod(mentions)
    open_table = staticmethod(open_table)
    poll = staticmethod(poll)
    Frames = Frames
    SCREENSHOTS = SCREENSHOTS
    SIZES = SIZES


@pytest.fixture
def h() -> type[Helpers]:
    return Helpers
