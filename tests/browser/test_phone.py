"""A phone paired with a seat: it shows that seat's own secrets and never another seat's (in
its DOM and in every WebSocket frame it receives), and it answers that seat's decisions.

Each table is on the session's ``scorekeeper serve --readers sim``, fed input by input
(POST /api/tables/{id}/inputs) by a seeded simulated world; the organiser view of the API says
what each seat's secrets are at each moment.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from playwright.sync_api import Page, expect

if TYPE_CHECKING:
    from tests.browser.conftest import Frames, Helpers, Server, WorldTable

SEED = 7
SEATS = 3
NAMES = ["Ann", "Bea", "Cid"]
FURTHER_INPUTS = 25


def _secrets(view: dict[str, Any], seat: int) -> set[str]:
    """What only ``seat`` may know, from the organiser view: in Arcanum its hidden cards (and
    cards known to be back in its hand) not shown to the table; in Angels & Demons the talon
    cards it took that are still in its hand."""
    if view["game"] == "angels-and-demons":  # the organiser's state.taken: seat -> cards
        return set(view["state"]["taken"][str(seat)])
    seats = view["state"]["seats"]
    shown = {c for s in seats for c in (s.get("revealed") or [])}
    mine = seats[seat]
    return (set(mine.get("hidden_cards") or []) | set(mine.get("known_hand") or [])) - shown


def _others(view: dict[str, Any], me: int) -> set[str]:
    return set().union(*(_secrets(view, s) for s in range(SEATS) if s != me))


def _my_cards(page: Page) -> list[str]:
    return sorted(
        page.locator("#my-cards [data-card]").evaluate_all(
            "els => els.map((e) => e.getAttribute('data-card'))"
        )
    )


def _everyone_hid(t: WorldTable) -> Callable[[], bool]:
    return lambda: all(s.get("hidden_cards") for s in t.organiser()["state"]["seats"])


class Watch:
    """Seat 0's phone: its page and every frame it got, checked against other seats' secrets.

    ``strict``: the whole DOM and every whole frame, every time. Otherwise the feed is judged
    line by line when a line first shows up (a line written while a card was public, such as
    the talon dealt in Angels & Demons, may name it after it went into a hand)."""

    def __init__(self, page: Page, h: type[Helpers], strict: bool) -> None:
        self.page, self.h, self.strict = page, h, strict
        self.frames: Frames = h.Frames()
        self.frames.attach(page)
        self.checked = 0
        self.seqs: set[Any] = set()
        self.lines: set[str] = set()

    def check(self, secret: set[str], where: str) -> None:
        h = self.h
        dom = h.dom_text(self.page, skip=None if self.strict else "#feed")
        if not self.strict:
            lines = set(h.dom_items(self.page, "#feed li"))
            dom += "\n".join(sorted(lines - self.lines))
            self.lines |= lines
        leaked = h.mentions(dom, secret)
        assert not leaked, f"{where}: the phone of seat 0 shows other seats' secrets {leaked} (DOM)"
        for url, text in self.frames.received[self.checked :]:
            leaked = h.mentions(self._judged(text), secret)
            assert not leaked, (
                f"{where}: a WebSocket frame from {url} to seat 0's phone "
                f"carries other seats' secrets {leaked}"
            )
        self.checked = len(self.frames.received)

    def _judged(self, text: str) -> str:
        if self.strict:
            return text
        try:
            data = json.loads(text)
        except ValueError:
            return text
        if not isinstance(data, dict) or not isinstance(data.get("feed"), list):
            return text
        new = [e for e in data.pop("feed") if e.get("seq") not in self.seqs]
        self.seqs.update(e.get("seq") for e in new)
        return json.dumps(data) + json.dumps(new)

    def step(self, table: WorldTable, view: dict[str, Any], n: int) -> dict[str, Any]:
        """Feed the world's next input, wait until the phone got its view, check; the new
        organiser view. A card counts as secret if it was secret before and after the input."""
        before = _others(view, 0)
        text = table.step()
        assert text is not None, "the game ended too early"
        view = table.organiser()
        accepted, start = view["accepted"], self.checked
        self.h.poll(
            lambda: any(v.get("accepted") == accepted for v in self.frames.views(start)),
            what=f"the phone to receive the view after input {n} ({accepted} accepted)",
            page=self.page,
            every=0.02,
        )
        self.check(before & _others(view, 0), f"after input {n} ({text})")
        return view

    def own_cards_shown(self, view: dict[str, Any]) -> None:
        mine = sorted(_secrets(view, 0))
        assert mine, "seat 0 has no secret yet"
        h = self.h
        h.poll(
            lambda: _my_cards(self.page) == mine,
            what=f"#my-cards [data-card] to be exactly seat 0's secret cards {mine}",
        )
        h.poll(
            lambda: any(h.mentions(text, mine) for _, text in self.frames.received),
            what="a WebSocket frame with seat 0's own view (its secrets)",
            page=self.page,
        )
        shown = h.mentions(h.dom_text(self.page), mine)
        assert shown == mine, f"the DOM check does not see seat 0's own cards: {shown} != {mine}"


def _pair(page: Page, code: str) -> None:
    page.goto("/")
    page.locator("#pair-code").fill(code)
    page.locator("#pair-button").click()
    expect(page.locator("#my-cards"), "#my-cards is not shown on a paired phone").to_be_visible()


def test_a_phone_pairs_and_sees_only_its_own_secrets(
    world_table: Callable[..., WorldTable],
    server: Server,
    new_page: Callable[..., Page],
    h: type[Helpers],
) -> None:
    """Arcanum: each seat's hidden cards are its secrets (pairing once every seat has hidden
    one; then the whole DOM and every whole frame are checked)."""
    table = world_table("arcanum", SEATS, SEED, names=NAMES)
    table.until(_everyone_hid(table), what="every seat has a hidden card")
    view = table.organiser()
    assert _others(view, 0)

    watch = Watch(new_page("phone"), h, strict=True)
    _pair(watch.page, server.pairing_code(table.id, 0))
    watch.own_cards_shown(view)
    watch.check(_others(view, 0), "after pairing")
    for n in range(1, FURTHER_INPUTS + 1):
        view = watch.step(table, view, n)
    watch.own_cards_shown(view)
    assert all("error" not in v for v in watch.frames.views()), "the seat's socket was refused"


def test_a_phone_never_sees_the_cards_another_seat_took(
    world_table: Callable[..., WorldTable],
    server: Server,
    new_page: Callable[..., Page],
    h: type[Helpers],
) -> None:
    """Angels & Demons: the talon cards a seat took and still holds are its secrets. The phone
    is paired before the deal and watched through every input."""
    table = world_table("angels-and-demons", SEATS, SEED, names=NAMES)
    watch = Watch(new_page("phone"), h, strict=False)
    _pair(watch.page, server.pairing_code(table.id, 0))
    view = table.organiser()
    watch.check(set(), "after pairing")
    n = 0
    while not (_secrets(view, 0) and _others(view, 0)):
        n += 1
        assert n < 300, "seat 0 and another seat never hold taken cards at once"
        view = watch.step(table, view, n)
    watch.own_cards_shown(view)
    for _ in range(20):
        n += 1
        view = watch.step(table, view, n)
    assert all("error" not in v for v in watch.frames.views()), "the seat's socket was refused"


def test_a_seat_answers_a_decision(
    world_table: Callable[..., WorldTable],
    server: Server,
    new_page: Callable[..., Page],
    h: type[Helpers],
) -> None:
    table = world_table("arcanum", SEATS, SEED, names=NAMES)
    page = new_page("phone")
    page.goto(f"/?pair={server.pairing_code(table.id, 0)}")
    expect(page.locator("#my-cards"), "/?pair=CODE did not pair the phone").to_be_visible()

    table.until(
        lambda: (table.peek() or "").startswith("decide 0 draw "),
        what="seat 0's draw prompt in phase A of round 2",
    )
    text = table.peek()
    assert text is not None
    answer = text.split()[-1]
    before = table.organiser()
    assert any(p["id"] == "draw" and p["seat"] == 0 for p in before["pending"]), before["pending"]

    prompt = page.locator('.prompt[data-prompt="draw"]')
    button = prompt.locator(f'button[data-answer="{answer}"]')
    expect(
        button,
        f'seat 0\'s phone shows no .prompt[data-prompt="draw"] button[data-answer="{answer}"]',
    ).to_be_visible()
    button.click()
    table.take()  # the phone did what the world would have done

    def answered() -> bool:
        view = table.organiser()
        pending = [p for p in view["pending"] if p["id"] == "draw" and p["seat"] == 0]
        last = [e for e in view["feed"] if e.get("input") == text and e["accepted"]]
        return not pending and bool(last) and view["accepted"] == before["accepted"] + 1

    h.poll(answered, what=f"the organiser view to show seat 0's draw answered ({text})")
    expect(
        prompt.locator("button[data-answer]"), "the answered prompt still offers its buttons"
    ).to_have_count(0)

    # another seat's prompt is not this phone's to answer
    view = table.organiser()
    if any(p["id"] == "draw" and p["seat"] != 0 for p in view["pending"]):
        expect(
            page.locator('.prompt[data-prompt="draw"] button[data-answer]'),
            "seat 0's phone offers to answer another seat's draw",
        ).to_have_count(0)
    table.run(5)  # the world is still in step with the table


def test_the_organiser_shows_a_pairing_code_that_pairs_a_phone(
    world_table: Callable[..., WorldTable], new_page: Callable[..., Page], h: type[Helpers]
) -> None:
    table = world_table("arcanum", SEATS, SEED, names=NAMES)
    table.until(_everyone_hid(table), what="every seat has a hidden card")
    tv = new_page("laptop", organiser=True)
    h.open_table(tv, table.id)
    tv.locator('button[data-pair-seat="1"]').click()
    expect(tv.locator("#pair-title")).to_have_text(f"Pair a phone with {NAMES[1]}")
    # the test server listens on 127.0.0.1: a code, and no QR code no phone could open
    expect(tv.locator("#pair-qr svg")).to_have_count(0)
    shown = tv.locator("#pair-shown-code")
    expect(shown, "no pairing code shown (#pair-shown-code)").to_have_text(
        re.compile(r"[A-Z0-9]{4,}")
    )
    code = re.search(r"[A-Z0-9]{4,}", shown.inner_text())
    assert code

    phone = new_page("phone")
    phone.goto(f"/?pair={code.group(0)}")
    expected = sorted(_secrets(table.organiser(), 1))
    h.poll(
        lambda: _my_cards(phone) == expected,
        what=f"the phone paired from the shown code to show seat 1's cards {expected}",
    )


def test_a_phone_keeps_its_focus_says_what_to_put_back_and_when_its_pairing_ended(
    world_table: Callable[..., WorldTable],
    server: Server,
    new_page: Callable[..., Page],
    h: type[Helpers],
) -> None:
    """Seat 0's phone: a focused button keeps the focus over live updates; after an undo the
    phone says what to do with the pieces; when the organiser withdraws the seat's pairing the
    phone says so and to ask for a new pairing code."""
    table = world_table("angels-and-demons", SEATS, SEED, names=NAMES)
    table.run(30)
    table.until(lambda: table.fed[-1].startswith("+"), what="a card put down")
    page = new_page("phone")
    page.goto(f"/?pair={server.pairing_code(table.id, 0)}")
    expect(page.locator("#mine")).to_be_visible()

    forget = page.locator("#mine button.link")
    forget.focus()
    seen = "() => window.scorekeeper.view().inputs"
    for _ in range(2):
        before = page.evaluate(seen)
        table.step()
        h.poll(lambda b=before: page.evaluate(seen) != b, what="a live update", page=page)
        page.wait_for_timeout(100)
    assert page.evaluate("() => document.activeElement.textContent") == "Forget this seat", (
        "the focused button lost the focus on a live update"
    )

    table.until(lambda: table.fed[-1].startswith("+"), what="a card put down")
    preview = server.http.get(f"/api/tables/{table.id}/undo-preview").json()
    r = server.http.post(f"/api/tables/{table.id}/undo", json={"seq": preview["input_seq"]})
    assert r.status_code == 200 and r.json()["accepted"], r.text
    box = page.locator("#put-back")
    expect(box, "the phone does not say what to put back after an undo").to_be_visible()
    words = h.poll(
        lambda: (page.evaluate("() => window.scorekeeper.view().put_back") or {}).get("text"),
        what="the phone's view to carry put_back",
        page=page,
    )
    expect(box).to_contain_text(words)

    url = page.url
    page.goto("about:blank")  # the phone is off when its pairing is withdrawn (an open one is
    r = server.http.delete(f"/api/tables/{table.id}/seats/0/tokens")  # told at once: below)
    assert r.status_code in (200, 204), r.text
    page.goto(url)  # the phone comes back with its withdrawn token
    notice = page.locator("#page-notice")
    expect(notice, "the phone does not say its pairing ended").to_contain_text("pairing has ended")
    expect(notice).to_contain_text("ask the organiser for a new pairing code", ignore_case=True)
    expect(page.locator("#mine")).to_be_hidden()


def test_a_withdrawn_phone_sees_nothing_more_and_a_locked_out_one_is_told_how_long(
    world_table: Callable[..., WorldTable],
    server: Server,
    new_page: Callable[..., Page],
    h: type[Helpers],
) -> None:
    """Seat 0's phone, left open: when the organiser withdraws its pairing the server closes its
    socket, the phone says so at once (no reload), hides the seat's corner and follows the
    public view; no frame with the seat's token arrives after the withdrawal. Then the pairing
    form shows a lockout (429) in words: the answer is the server's, given by the page's route
    here, because the session's one server serves every test from 127.0.0.1 and a real
    lockout would stop the other tests pairing for a minute (tests/api/test_limits.py and
    tests/service/test_pair_lockout.py test the server's lockout)."""
    table = world_table("arcanum", SEATS, SEED, names=NAMES)
    table.until(_everyone_hid(table), what="every seat has a hidden card")
    page = new_page("phone")
    frames = h.Frames()
    frames.attach(page)
    _pair(page, server.pairing_code(table.id, 0))
    mine = sorted(_secrets(table.organiser(), 0))
    h.poll(lambda: _my_cards(page) == mine, what=f"seat 0's phone to show its cards {mine}")

    r = server.http.delete(f"/api/tables/{table.id}/seats/0/tokens")
    assert r.status_code == 200 and r.json()["revoked"] == 1, r.text
    after = len(frames.received)
    notice = page.locator("#page-notice")
    expect(notice, "the open phone does not say its pairing ended").to_contain_text(
        "This phone's pairing has ended. Ask the organiser for a new pairing code.", timeout=3000
    )  # the server closes within 1 s (tests/api/test_revoke.py); a busy CI
    expect(page.locator("#mine")).to_be_hidden()
    expect(page.locator("#who")).to_have_text("table view")
    for _ in range(3):
        table.step()
    accepted = table.organiser()["accepted"]
    h.poll(
        lambda: any(v.get("accepted") == accepted for v in frames.views(after)),
        what="the phone to follow the public view",
        page=page,
    )
    seat_frames = [text for url, text in frames.received[after:] if "token=" in url]
    assert not seat_frames, f"the withdrawn seat's socket still got frames: {seat_frames[:1]}"
    assert all(v.get("audience") == "public" for v in frames.views(after))
    hidden = _secrets(table.organiser(), 0)  # what seat 0 still hides from the table
    shown = h.mentions(h.dom_text(page, skip="#feed"), hidden)
    assert not shown, f"the withdrawn phone still shows seat 0's hidden cards {shown}"

    def locked(route: Any) -> None:
        route.fulfill(
            status=429,
            headers={"Retry-After": "2"},
            content_type="application/json",
            body=json.dumps(
                {
                    "error": "Too many wrong codes from this phone: wait 2 "
                    "seconds, then type the code again",
                    "kind": "TooManyTries",
                    "retry_after": 2,
                    "everyone": False,
                }
            ),
        )

    page.route("**/api/pair", locked)
    page.locator("#pair-code").fill("K7QM3X")
    page.locator("#pair-button").click()
    status = page.locator("#pair-status")
    expect(status).to_have_text(
        "Too many wrong codes from this phone: wait 2 seconds, then type the code again."
    )
    expect(status, "the phone does not say when the wait is over").to_have_text(
        "You can type the code again now.", timeout=4000
    )
