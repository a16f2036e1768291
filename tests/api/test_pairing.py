"""Issue 9, point 4: a QR code only for an address a phone can open, codes that die with an
unpair and redeem once, and refusals that tell an organiser what an organiser needs."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from scorekeeper.api.phone import phone_address
from scorekeeper.service import Hub


def test_phone_address_follows_where_the_server_listens() -> None:
    base = "http://127.0.0.1:8201/"
    url, hint = phone_address(("127.0.0.1", 8201), base, lan="192.168.1.20")
    assert url is None and hint is not None
    assert "--host 0.0.0.0" in hint and "make demo" in hint and "scorekeeper serve" in hint
    assert phone_address(("::1", 8201), base, lan="192.168.1.20")[0] is None
    assert phone_address(("0.0.0.0", 8201), base, lan="192.168.1.20") == (
        "http://192.168.1.20:8201",
        None,
    )
    assert phone_address(("::", 8201), "http://10.0.0.9:8201/", lan="192.168.1.20") == (
        "http://10.0.0.9:8201",
        None,
    )
    assert phone_address(("10.1.2.3", 9000), base, lan="192.168.1.20") == (
        "http://10.1.2.3:9000",
        None,
    )
    assert phone_address(None, base, lan="192.168.1.20") == ("http://192.168.1.20:8201", None)


def test_no_qr_code_for_a_server_on_loopback(
    client: Any, org: Any, hub: Hub, new_table: Callable[..., str]
) -> None:
    tid = new_table()
    hub.listen = ("127.0.0.1", 8201)
    r = client.post(f"/api/tables/{tid}/seats/0/pair", headers=org).json()
    assert r["url"] is None and r["qr_svg"] is None
    assert "--host 0.0.0.0" in r["hint"] and len(r["code"]) == 6
    hub.listen = ("192.168.77.5", 8201)
    r = client.post(f"/api/tables/{tid}/seats/0/pair", headers=org).json()
    assert r["url"] == f"http://192.168.77.5:8201/?pair={r['code']}" and r["hint"] is None
    assert r["qr_svg"].startswith("<svg")


def test_unpair_kills_unused_codes_and_a_code_pairs_once(
    client: Any, org: Any, new_table: Callable[..., str]
) -> None:
    tid = new_table()
    shown = client.post(f"/api/tables/{tid}/seats/1/pair", headers=org).json()["code"]
    r = client.delete(f"/api/tables/{tid}/seats/1/tokens", headers=org)
    assert r.status_code == 200 and r.json() == {"revoked": 0, "codes_revoked": 1}
    r = client.post("/api/pair", json={"code": shown})
    assert r.status_code == 401 and "ask the organiser to show a new one" in r.json()["error"]
    # a code of another seat survives the unpair of this one
    other = client.post(f"/api/tables/{tid}/seats/0/pair", headers=org).json()["code"]
    again = client.post(f"/api/tables/{tid}/seats/1/pair", headers=org).json()["code"]
    client.delete(f"/api/tables/{tid}/seats/1/tokens", headers=org)
    assert client.post("/api/pair", json={"code": again}).status_code == 401
    first = client.post("/api/pair", json={"code": other})
    assert first.status_code == 200 and first.json()["seat"] == 0
    assert client.post("/api/pair", json={"code": other}).status_code == 401  # once only
    # a paired phone and its seat's unused code both go with the next unpair
    client.post(f"/api/tables/{tid}/seats/0/pair", headers=org)
    assert client.delete(f"/api/tables/{tid}/seats/0/tokens", headers=org).json() == {
        "revoked": 1,
        "codes_revoked": 1,
    }
    assert client.delete(f"/api/tables/{tid}/seats/0/tokens", headers=org).status_code == 404


def test_organiser_routes_say_what_an_organiser_needs(
    client: Any, org: Any, db: Path, new_table: Callable[..., str]
) -> None:
    tid = new_table()
    for headers in ({}, {"Authorization": "Bearer wrong"}):
        for method, path in (
            ("post", f"/api/tables/{tid}/pause"),
            ("get", f"/api/tables/{tid}/organiser"),
            ("get", f"/api/tables/{tid}/undo-preview"),
            ("get", "/api/kits"),
        ):
            r = getattr(client, method)(path, headers=headers)
            assert r.status_code == 401, path
            error = r.json()["error"]
            assert "organiser token" in error and "the file organiser-token" in error
            assert "pairing code" not in error, error
            assert str(db.parent) not in error  # no server path over HTTP
    # a seat route keeps the phone's words
    r = client.get(f"/api/tables/{tid}/seat/0", headers={"Authorization": "Bearer wrong"})
    assert r.status_code == 401 and "ask the organiser for a new pairing code" in r.json()["error"]
