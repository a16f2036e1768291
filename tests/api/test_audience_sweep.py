"""Every route and WebSocket of the app, swept for its audience.

``AUDIENCE`` declares once who may use each route. The sweep enumerates ``app.routes`` and
probes each one with no token, an unknown token, a withdrawn seat token, a seat token of
another table, a seat token of another seat at the same table, the right seat's token and the
organiser's token (as an ``Authorization: Bearer`` header and as ``?token=``), then checks the
answer against what the route's audience allows, down to the first words of each refusal. A
route missing from ``AUDIENCE`` fails the sweep: a new route cannot be added without deciding
who may use it.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi.routing import APIRoute, APIWebSocketRoute
from starlette.routing import Mount, Route

from scorekeeper.api import create_app
from scorekeeper.service import Hub
from tests.api.games import find_test_game

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

PUBLIC = "public"  # anyone; a token sent is never refused
CHECKED = "public, token checked"  # anyone without a token; a token sent must be known
SEAT = "seat"  # the token of the seat ``{seat}`` of that table, or the organiser's
ANY_SEAT = "any seat"  # a seat token of that table (for its own seat), or the organiser's
ORGANISER = "organiser"  # the organiser's token only
VIEWER = "viewer"  # WebSocket: anyone gets a view; a token sent picks it and must fit the table

#: (method, path) -> audience. Every route of the app must be here, and nothing else.
AUDIENCE: dict[tuple[str, str], str] = {
    ("GET", "/"): PUBLIC,
    ("GET", "/console"): PUBLIC,  # the page only: its API calls need the organiser token
    ("MOUNT", "/static"): PUBLIC,
    ("GET", "/healthz"): PUBLIC,
    ("GET", "/api/docs"): PUBLIC,
    ("HEAD", "/api/docs"): PUBLIC,
    ("GET", "/docs/oauth2-redirect"): PUBLIC,
    ("HEAD", "/docs/oauth2-redirect"): PUBLIC,
    ("GET", "/api/openapi.json"): PUBLIC,
    ("HEAD", "/api/openapi.json"): PUBLIC,
    ("GET", "/rules"): PUBLIC,
    ("GET", "/rules/{game_id}"): PUBLIC,
    ("GET", "/api/games"): PUBLIC,
    ("GET", "/api/data"): PUBLIC,
    ("GET", "/api/data/{game}/{kind}"): PUBLIC,
    ("GET", "/api/data/{game}/{kind}/schema"): PUBLIC,
    ("GET", "/api/data/{game}/{kind}/{name}"): PUBLIC,
    ("GET", "/api/data/{game}/{kind}/{name}/export"): PUBLIC,
    ("GET", "/api/tables"): PUBLIC,  # the organiser's token sees past the spectator delay
    ("GET", "/api/tables/{table_id}"): PUBLIC,
    ("POST", "/api/pair"): PUBLIC,  # the pairing code is the credential
    ("GET", "/api/tables/{table_id}/export"): CHECKED,  # the organiser's token: everything
    ("GET", "/api/tables/{table_id}/seat/{seat}"): SEAT,
    ("POST", "/api/tables/{table_id}/decisions"): ANY_SEAT,
    ("GET", "/api/backup"): ORGANISER,
    ("POST", "/api/tables"): ORGANISER,
    ("GET", "/api/tables/{table_id}/organiser"): ORGANISER,
    ("POST", "/api/tables/{table_id}/start"): ORGANISER,
    ("POST", "/api/tables/{table_id}/pause"): ORGANISER,
    ("POST", "/api/tables/{table_id}/end"): ORGANISER,
    ("POST", "/api/tables/{table_id}/archive"): ORGANISER,
    ("DELETE", "/api/tables/{table_id}"): ORGANISER,
    ("POST", "/api/tables/{table_id}/spectator-delay"): ORGANISER,
    ("POST", "/api/tables/{table_id}/undo"): ORGANISER,
    ("POST", "/api/tables/{table_id}/correct"): ORGANISER,
    ("POST", "/api/tables/{table_id}/inputs"): ORGANISER,
    ("POST", "/api/tables/{table_id}/seats/{seat}/pair"): ORGANISER,
    ("DELETE", "/api/tables/{table_id}/seats/{seat}/tokens"): ORGANISER,
    ("GET", "/api/kits"): ORGANISER,
    ("POST", "/api/enroll"): ORGANISER,
    ("GET", "/api/enroll/{sid}"): ORGANISER,
    ("POST", "/api/enroll/{sid}/tag"): ORGANISER,
    ("POST", "/api/enroll/{sid}/simulate"): ORGANISER,
    ("POST", "/api/enroll/{sid}/skip"): ORGANISER,
    ("POST", "/api/enroll/{sid}/answer"): ORGANISER,
    ("POST", "/api/enroll/{sid}/stop"): ORGANISER,
    ("POST", "/api/data/{game}/{kind}/check"): ORGANISER,
    ("PUT", "/api/data/{game}/{kind}/{name}"): ORGANISER,
    ("DELETE", "/api/data/{game}/{kind}/{name}"): ORGANISER,
    ("GET", "/api/tables/{table_id}/undo-preview"): ORGANISER,
    ("POST", "/api/tables/{table_id}/correct-preview"): ORGANISER,
    ("GET", "/api/tables/{table_id}/scores.csv"): ORGANISER,
    ("GET", "/api/tables/{table_id}/readers"): ORGANISER,
    ("WS", "/ws/tables/{table_id}"): VIEWER,
}

#: The credentials each route is probed with.
CREDENTIALS = ("none", "unknown", "revoked", "other_table", "other_seat", "seat", "organiser")

OK = "ok"
#: audience -> credential -> OK, or (status, the refusal's first words).
EXPECTED: dict[str, dict[str, Any]] = {
    PUBLIC: dict.fromkeys(CREDENTIALS, OK),
    CHECKED: {
        **dict.fromkeys(CREDENTIALS, OK),
        "unknown": (401, "this token is not known here: check you copied it whole"),
        "revoked": (401, "this seat token was withdrawn by the organiser"),
    },
    SEAT: {
        "none": (401, "this needs a token: send 'Authorization: Bearer <token>'"),
        "unknown": (401, "this token is not known here: check you copied it whole"),
        "revoked": (401, "this seat token was withdrawn by the organiser"),
        "other_table": (403, "this token belongs to seat 0 at table"),
        "other_seat": (403, "this token belongs to seat 1 at table"),
        "seat": OK,
        "organiser": OK,
    },
    ANY_SEAT: {
        "none": (401, "this needs a token: send 'Authorization: Bearer <token>'"),
        "unknown": (401, "this token is not known here: check you copied it whole"),
        "revoked": (401, "this seat token was withdrawn by the organiser"),
        "other_table": (403, "this token belongs to seat 0 at table"),
        "other_seat": OK,
        "seat": OK,
        "organiser": OK,
    },
    ORGANISER: {
        "none": (401, "this is for the organiser: send the organiser token"),
        "unknown": (401, "this token is not known here as the organiser token"),
        "revoked": (401, "this token is not known here as the organiser token"),
        "other_table": (403, "this is a seat token (seat 0 at table"),
        "other_seat": (403, "this is a seat token (seat 1 at table"),
        "seat": (403, "this is a seat token (seat 0 at table"),
        "organiser": OK,
    },
    # A WebSocket is always accepted; a refusal is an error message, then this close code.
    VIEWER: {
        "none": "public",
        "unknown": (4401, "this token is not known here"),
        "revoked": (4401, "this seat token was withdrawn by the organiser"),
        "other_table": (4403, "this token belongs to seat 0 at table"),
        "other_seat": "seat 1",
        "seat": "seat 0",
        "organiser": "organiser",
    },
}


def _body(method: str, path: str, ctx: Ctx) -> Any:
    """A valid body for the route, so that only the credential decides the answer."""
    bodies: dict[tuple[str, str], Any] = {
        ("POST", "/api/tables"): {"game": "fake", "seats": 2},
        ("POST", "/api/tables/{table_id}/spectator-delay"): {"seconds": 0},
        ("POST", "/api/tables/{table_id}/decisions"): {"prompt": "pick", "answer": "red"},
        ("POST", "/api/tables/{table_id}/correct"): {"input": "+play C1", "seq": 1},
        ("POST", "/api/tables/{table_id}/inputs"): {"input": "+play C1"},
        ("POST", "/api/tables/{table_id}/undo"): {"seq": 1},
        ("POST", "/api/tables/{table_id}/correct-preview"): {"input": "+play C1"},
        ("POST", "/api/enroll"): {"kit": "sweep", "game": "fake", "readers": "none"},
        ("POST", "/api/enroll/{sid}/tag"): {"uid": "04A1B2C3"},
        ("POST", "/api/enroll/{sid}/answer"): {"answers": {}},
        ("POST", "/api/data/{game}/{kind}/check"): {"yaml": "name: sweep\n"},
        ("PUT", "/api/data/{game}/{kind}/{name}"): {"yaml": "name: sweep\n"},
    }
    if (method, path) == ("POST", "/api/pair"):
        return {"code": ctx.fresh_code()}  # a code is single use: a new one for each probe
    return bodies.get((method, path))


@dataclass
class Ctx:
    """The app's client and the tokens a probe sends."""

    client: TestClient
    hub: Hub
    org: str
    other_table_token: str
    fresh_code: Callable[[], str]


def _pair(client: TestClient, org: str, tid: str, seat: int) -> str:
    r = client.post(
        f"/api/tables/{tid}/seats/{seat}/pair", headers={"Authorization": f"Bearer {org}"}
    )
    assert r.status_code == 200, r.text
    r = client.post("/api/pair", json={"code": r.json()["code"]})
    assert r.status_code == 200, r.text
    return str(r.json()["token"])


def _table(ctx: Ctx) -> tuple[str, dict[str, str]]:
    """A fresh running table and every credential a probe of it may send."""
    client, org = ctx.client, ctx.org
    r = client.post(
        "/api/tables",
        json={"game": "fake", "seats": 2, "start": True},
        headers={"Authorization": f"Bearer {org}"},
    )
    assert r.status_code == 201, r.text
    tid = str(r.json()["id"])
    revoked = _pair(client, org, tid, 0)
    r = client.delete(
        f"/api/tables/{tid}/seats/0/tokens", headers={"Authorization": f"Bearer {org}"}
    )
    assert r.status_code == 200 and r.json()["revoked"] == 1, r.text
    tokens = {
        "unknown": "not-a-token-of-this-server",
        "revoked": revoked,
        "other_table": ctx.other_table_token,
        "other_seat": _pair(client, org, tid, 1),
        "seat": _pair(client, org, tid, 0),
        "organiser": org,
    }
    return tid, tokens


def _routes(app: Any, routes: Any = None, prefix: str = "") -> Iterator[tuple[str, str]]:
    """(method, path) for every route of ``app``: HTTP methods, "WS" and "MOUNT"."""
    for route in app.routes if routes is None else routes:
        if hasattr(route, "original_router"):  # an included router (FastAPI >= 0.165)
            yield from _routes(
                app, route.original_router.routes, prefix + route.include_context.prefix
            )
        elif isinstance(route, APIWebSocketRoute):
            yield "WS", prefix + route.path
        elif isinstance(route, Mount):
            yield "MOUNT", prefix + route.path
        elif isinstance(route, APIRoute | Route):
            for method in sorted(route.methods or ()):
                yield method, prefix + route.path
        else:
            raise AssertionError(f"a route of a kind the sweep does not know: {route!r}")


def _url(path: str, tid: str) -> str:
    return (
        path.replace("{table_id}", tid)
        .replace("{seat}", "0")
        .replace("{sid}", "no-such-session")
        .replace("{name}", "sweep-board")
        .replace("{game_id}", "fake")
        .replace("{game}", "arcanum")
        .replace("{kind}", "board")
    )


@pytest.fixture
def ctx(tmp_path: Path) -> Iterator[Ctx]:
    hub = Hub.open(tmp_path / "sweep.db", find_game=find_test_game)
    org = hub.tokens.ensure_organiser_token(hub.token_file)
    assert org is not None
    try:
        with TestClient(create_app(hub)) as client:
            r = client.post(
                "/api/tables",
                json={"game": "fake", "seats": 2, "start": True},
                headers={"Authorization": f"Bearer {org}"},
            )
            other = str(r.json()["id"])

            def fresh_code() -> str:
                r = client.post(
                    f"/api/tables/{other}/seats/1/pair", headers={"Authorization": f"Bearer {org}"}
                )
                return str(r.json()["code"])

            yield Ctx(client, hub, org, _pair(client, org, other, 0), fresh_code)
    finally:
        hub.close()


def _check_http(ctx: Ctx, method: str, path: str, audience: str) -> list[str]:
    """Probe one HTTP route with every credential, both ways of sending it; the mismatches."""
    wrong: list[str] = []
    tid, tokens = _table(ctx)  # a table of its own: a probe may end or delete it
    url = _url(path, tid)
    for cred in CREDENTIALS:
        token = tokens.get(cred)
        for way in ("header", "query") if token else ("none",):
            headers = {"Authorization": f"Bearer {token}"} if way == "header" else {}
            full = f"{url}?token={token}" if way == "query" else url
            if method == "MOUNT":
                r = ctx.client.get(url + "/app.js", headers=headers)
            else:
                r = ctx.client.request(method, full, headers=headers, json=_body(method, path, ctx))
            want = EXPECTED[audience][cred]
            label = f"{method} {path} [{cred} by {way}]"
            if want == OK:
                if r.status_code in (401, 403):
                    wrong.append(
                        f"{label}: {audience} route refused it: {r.status_code} {r.text[:160]}"
                    )
                continue
            status, words = want
            error = (
                r.json().get("error", "")
                if r.headers.get("content-type", "").startswith("application/json")
                else r.text
            )
            if r.status_code != status or not str(error).startswith(words):
                wrong.append(
                    f"{label}: wanted {status} '{words}...', got {r.status_code} {r.text[:160]}"
                )
    return wrong


def _check_ws(ctx: Ctx, path: str, audience: str) -> list[str]:
    wrong: list[str] = []
    tid, tokens = _table(ctx)
    for cred in CREDENTIALS:
        token = tokens.get(cred)
        url = _url(path, tid) + (f"?token={token}" if token else "")
        want = EXPECTED[audience][cred]
        with ctx.client.websocket_connect(url) as ws:
            first = ws.receive_json()
            if isinstance(want, str):
                if first.get("audience") != want:
                    wrong.append(
                        f"WS {path} [{cred}]: wanted the {want} view, got {str(first)[:160]}"
                    )
                continue
            code, words = want
            try:
                ws.receive_json()
                got: int | None = None
            except WebSocketDisconnect as closed:
                got = closed.code
            if got != code or not str(first.get("error", "")).startswith(words):
                wrong.append(
                    f"WS {path} [{cred}]: wanted close {code} '{words}...', got "
                    f"{got} {str(first)[:160]}"
                )
    return wrong


def test_every_route_is_declared_with_its_audience(ctx: Ctx) -> None:
    routes = set(_routes(ctx.client.app))
    missing = sorted(routes - set(AUDIENCE))
    assert not missing, (
        f"routes with no declared audience (add each to AUDIENCE in {__file__}): {missing}"
    )
    stale = sorted(set(AUDIENCE) - routes)
    assert not stale, f"AUDIENCE names routes the app no longer has: {stale}"


def test_every_route_and_websocket_answers_only_its_audience(ctx: Ctx) -> None:
    wrong: list[str] = []
    for method, path in sorted(set(_routes(ctx.client.app)) & set(AUDIENCE)):
        audience = AUDIENCE[(method, path)]
        if method == "WS":
            wrong += _check_ws(ctx, path, audience)
        else:
            wrong += _check_http(ctx, method, path, audience)
    assert not wrong, "\n".join(wrong)


def test_a_seat_answers_only_for_itself(ctx: Ctx) -> None:
    """``decisions`` naming another seat is refused to a seat token (the sweep's probes let
    each seat answer for itself)."""
    tid, tokens = _table(ctx)
    r = ctx.client.post(
        f"/api/tables/{tid}/decisions",
        json={"prompt": "pick", "answer": "red", "seat": 0},
        headers={"Authorization": f"Bearer {tokens['other_seat']}"},
    )
    assert r.status_code == 403, r.text
    assert r.json()["error"].startswith("this token belongs to seat 1 at table")
    r = ctx.client.post(
        f"/api/tables/{tid}/decisions",
        json={"prompt": "pick", "answer": "red", "seat": 1},
        headers={"Authorization": f"Bearer {tokens['organiser']}"},
    )
    assert r.status_code == 200 and r.json()["accepted"] is False, r.text


def test_the_limits_middleware_asks_for_the_credential_each_write_route_declares(
    ctx: Ctx,
) -> None:
    """``RequestLimits`` refuses before a body is read; what it asks for must match the
    route's audience (organiser: the organiser's token; a seat: a known token; public:
    nothing), or a body would be read for a request its route refuses."""
    from scorekeeper.api.limits import WRITES, credential_needed

    wanted = {ORGANISER: "organiser", ANY_SEAT: "token", SEAT: "token", PUBLIC: None}
    wrong = []
    for method, path in sorted(set(_routes(ctx.client.app))):
        if method in WRITES:
            needed = credential_needed(method, _url(path, "t1"))
            if needed != wanted[AUDIENCE[(method, path)]]:
                wrong.append(f"{method} {path}: the middleware asks for {needed}")
    assert not wrong, "\n".join(wrong)


def test_a_seat_token_naming_its_seat_as_text_is_held_to_that_seat(ctx: Ctx) -> None:
    """The body's model reads ``"seat": "0"`` as seat 0: the check must read it so too."""
    tid, tokens = _table(ctx)
    r = ctx.client.post(
        f"/api/tables/{tid}/decisions",
        json={"prompt": "pick", "answer": "red", "seat": "0"},
        headers={"Authorization": f"Bearer {tokens['other_seat']}"},
    )
    assert r.status_code == 403, r.text
    assert r.json()["error"].startswith("this token belongs to seat 1 at table")


def test_routes_and_the_middleware_read_the_first_token_of_a_query(ctx: Ctx) -> None:
    """``?token=A&token=B`` is A for a read as for a write (the routes used to read B)."""
    _tid, tokens = _table(ctx)
    seat, org = tokens["seat"], tokens["organiser"]
    assert ctx.client.get(f"/api/backup?token={seat}&token={org}").status_code == 403
    assert ctx.client.get(f"/api/backup?token={org}&token={seat}").status_code == 200
    body = {"game": "fake", "seats": 2}
    assert ctx.client.post(f"/api/tables?token={seat}&token={org}", json=body).status_code == 403
    assert ctx.client.post(f"/api/tables?token={org}&token={seat}", json=body).status_code == 201
