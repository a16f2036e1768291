"""Who may do what: the organiser token, seat tokens, pairing codes, and what stays secret."""

from __future__ import annotations

import json
import stat
from collections.abc import Callable
from typing import Any

from scorekeeper.service import Hub


def test_organiser_token_is_created_once_hashed_and_saved_0600(
    hub: Hub, organiser_token: str
) -> None:
    assert hub.tokens.ensure_organiser_token(hub.token_file) is None  # not twice
    assert hub.token_file is not None
    assert hub.token_file.read_text().strip() == organiser_token
    assert stat.S_IMODE(hub.token_file.stat().st_mode) == 0o600
    stored = hub.store.get_meta("organiser-token-sha256")
    assert stored and organiser_token not in stored


def test_create_needs_the_organiser_and_changes_nothing_without(client: Any, org: Any) -> None:
    body = {"game": "fake", "seats": 2}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 401
    assert "organiser token" in r.json()["error"]
    r = client.post("/api/tables", json=body, headers={"Authorization": "Bearer nonsense"})
    assert r.status_code == 401 and "not known" in r.json()["error"]
    assert client.get("/api/tables").json() == []
    r = client.post("/api/tables", json=body, headers=org)
    assert r.status_code == 201
    assert r.json()["status"] == "created"


def test_organiser_actions_refused_without_token_leave_table_alone(
    client: Any, org: Any, new_table: Callable[..., str]
) -> None:
    tid = new_table(start=False)
    for action in ("start", "pause", "end", "undo"):
        r = client.post(f"/api/tables/{tid}/{action}")
        assert r.status_code == 401, action
        assert "error" in r.json()
    for path, body in (
        (f"/api/tables/{tid}/inputs", {"input": "+play C1"}),
        (f"/api/tables/{tid}/correct", {"input": "+play C1"}),
    ):
        assert client.post(path, json=body).status_code == 401
    assert client.get(f"/api/tables/{tid}/organiser").status_code == 401
    assert client.post(f"/api/tables/{tid}/seats/0/pair").status_code == 401
    view = client.get(f"/api/tables/{tid}").json()
    assert view["status"] == "created" and view["inputs"] == 0


def _pair(client: Any, org: Any, tid: str, seat: int) -> str:
    r = client.post(f"/api/tables/{tid}/seats/{seat}/pair", headers=org)
    assert r.status_code == 200, r.text
    code = r.json()["code"]
    assert len(code) == 6 and r.json()["expires_in"] > 0
    r = client.post("/api/pair", json={"code": code})
    assert r.status_code == 200, r.text
    assert r.json()["seat"] == seat and r.json()["table"] == tid
    # single use
    again = client.post("/api/pair", json={"code": code})
    assert again.status_code == 401 and "new one" in again.json()["error"]
    return str(r.json()["token"])


def test_pairing_flow_and_seat_views(client: Any, org: Any, new_table: Callable[..., str]) -> None:
    tid = new_table()
    client.post(f"/api/tables/{tid}/inputs", json={"input": "+hand C7"}, headers=org)
    token0 = _pair(client, org, tid, 0)
    token1 = _pair(client, org, tid, 1)
    mine = client.get(f"/api/tables/{tid}/seat/0", headers={"Authorization": f"Bearer {token0}"})
    assert mine.status_code == 200 and mine.json()["state"]["hand"] == ["C7"]
    via_query = client.get(f"/api/tables/{tid}/seat/0", params={"token": token0})
    assert via_query.json() == mine.json()
    other = client.get(f"/api/tables/{tid}/seat/0", params={"token": token1})
    assert other.status_code == 403
    assert "seat 1" in other.json()["error"] and "only its own seat" in other.json()["error"]
    assert client.get(f"/api/tables/{tid}/seat/0").status_code == 401
    # a seat token is not an organiser token
    r = client.post(f"/api/tables/{tid}/undo", headers={"Authorization": f"Bearer {token0}"})
    assert r.status_code == 403 and "only the organiser" in r.json()["error"]
    # the organiser may look at any seat
    assert client.get(f"/api/tables/{tid}/seat/1", headers=org).status_code == 200
    # withdrawn tokens stop working
    assert client.delete(f"/api/tables/{tid}/seats/0/tokens", headers=org).json() == {
        "revoked": 1,
        "codes_revoked": 0,
    }
    assert client.get(f"/api/tables/{tid}/seat/0", params={"token": token0}).status_code == 401


def test_wrong_pairing_codes(client: Any, org: Any, new_table: Callable[..., str]) -> None:
    tid = new_table()
    assert client.post("/api/pair", json={"code": "ZZZZZZ"}).status_code == 401
    assert client.post(f"/api/tables/{tid}/seats/9/pair", headers=org).status_code == 404


def test_public_view_list_and_export_carry_no_secrets(
    client: Any, org: Any, new_table: Callable[..., str]
) -> None:
    tid = new_table()
    for line in ("+hand C3", "+hand C5", "+play C1"):
        assert client.post(f"/api/tables/{tid}/inputs", json={"input": line}, headers=org).json()[
            "accepted"
        ]
    public = client.get(f"/api/tables/{tid}").json()
    assert public["state"]["hand_count"] == 2
    text = json.dumps(public) + json.dumps(client.get("/api/tables").json())
    assert "C3" not in text and "C5" not in text
    assert all("input" not in e for e in public["feed"])  # raw inputs name cards
    organiser = client.get(f"/api/tables/{tid}/organiser", headers=org).json()
    assert organiser["state"]["hand"] == ["C3", "C5"]
    assert any(e.get("input") == "+hand C3" for e in organiser["feed"])


def test_a_pairing_code_comes_with_the_address_and_a_qr_code_of_it(
    client: Any, org: Any, new_table: Callable[..., str]
) -> None:
    """The table view shows the QR code; a phone that scans it opens the page at the address the
    organiser's screen used, with the code."""
    import xml.etree.ElementTree as ET

    import segno

    tid = new_table()
    body = client.post(f"/api/tables/{tid}/seats/1/pair", headers=org).json()
    assert body["url"] == f"http://testserver/?pair={body['code']}"
    root = ET.fromstring(body["qr_svg"])
    assert root.tag.endswith("svg")
    # The same text encodes to the same symbol: the drawing is of the URL, nothing else.
    assert body["qr_svg"] == segno.make(body["url"], error="m").svg_inline(
        scale=6, border=2, dark="#000", light="#fff"
    )


def test_the_view_carries_the_score_history(
    client: Any, org: Any, new_table: Callable[..., str]
) -> None:
    tid = new_table()
    before = client.get(f"/api/tables/{tid}").json()["score_history"]
    assert before == [{"seq": 0, "scores": [0, 0]}]
    for piece in ("C1", "C2"):
        client.post(f"/api/tables/{tid}/inputs", json={"input": f"+play {piece}"}, headers=org)
    history = client.get(f"/api/tables/{tid}").json()["score_history"]
    scores = client.get(f"/api/tables/{tid}").json()["scores"]
    assert history[0] == before[0] and history[-1]["scores"] == scores and len(history) >= 2


def test_a_screen_on_localhost_gives_phones_the_lan_address() -> None:
    from scorekeeper.api.phone import phone_base

    assert phone_base("http://127.0.0.1:8000/", lan="192.168.1.20") == "http://192.168.1.20:8000"
    assert phone_base("http://localhost:8000/", lan="10.0.0.5") == "http://10.0.0.5:8000"
    assert phone_base("http://192.168.1.9:8000/", lan="10.0.0.5") == "http://192.168.1.9:8000"
    assert phone_base("http://pi.local/", lan="10.0.0.5") == "http://pi.local"
