"""The organiser console's endpoints (kits, enrollment, previews, CSV) and its page (the data
routes: tests/api/test_data_routes.py)."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import webui
from scorekeeper.games import find_game
from scorekeeper.service import Hub
from tests.api.pinned import undo

AD = "angels-and-demons"


# -- the page and the token ---------------------------------------------------------------------


def test_console_page_is_served_with_its_hooks(client: Any) -> None:
    r = client.get("/console")
    assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    page = r.text
    for hook in (
        'id="token"',
        'id="token-save"',
        'id="create-form"',
        'id="confirm"',
        'id="readers"',
        'id="enroll-form"',
        'id="data-sections"',
        'id="data-choices"',
        '<script type="module" src="/static/console.js">',
    ):
        assert hook in page, hook
    assert "http://" not in page and "https://" not in page  # no CDN
    assert client.get("/static/console.css").status_code == 200
    # The console's script is an ES module importing its views from /static/console/: each is
    # served, as JavaScript (a browser refuses to run a module of another type).
    views = sorted(p.name for p in (Path(webui.__file__).parent / "console").glob("*.js"))
    assert "data-editor.js" in views and "tables.js" in views, views
    for path in ["console.js", *(f"console/{name}" for name in views)]:
        r = client.get(f"/static/{path}")
        assert r.status_code == 200, path
        assert "javascript" in r.headers["content-type"], (path, r.headers["content-type"])


def test_console_endpoints_need_the_organiser_token(
    client: Any, org: Any, new_table: Callable[..., str]
) -> None:
    tid = new_table()
    sid = client.post("/api/enroll", headers=org, json={"kit": "k", "game": AD}).json()["sid"]
    calls = [
        ("get", "/api/kits", None),
        ("post", "/api/enroll", {"kit": "k2", "game": AD}),
        ("get", f"/api/enroll/{sid}", None),
        ("post", f"/api/enroll/{sid}/tag", {"uid": "04A1B2C3"}),
        ("post", f"/api/enroll/{sid}/simulate", None),
        ("post", f"/api/enroll/{sid}/skip", None),
        ("post", f"/api/enroll/{sid}/stop", None),
        ("post", "/api/data/arcanum/board/check", {"data": {"name": "x"}}),
        ("put", "/api/data/arcanum/board/mine", {"data": {"name": "mine"}}),
        ("delete", "/api/data/arcanum/board/mine", None),
        ("get", f"/api/tables/{tid}/undo-preview", None),
        ("post", f"/api/tables/{tid}/correct-preview", {"input": "+play C2"}),
        ("get", f"/api/tables/{tid}/scores.csv", None),
        ("get", f"/api/tables/{tid}/readers", None),
    ]
    for method, path, body in calls:
        for headers in ({}, {"Authorization": "Bearer nonsense"}):
            r = getattr(client, method)(
                path, headers=headers, **({"json": body} if body is not None else {})
            )
            assert r.status_code == 401, (method, path, r.text)
            assert "error" in r.json()
    # nothing happened: the session is untouched, no board stored, no second session
    assert client.get(f"/api/enroll/{sid}", headers=org).json()["tagged"] == 0
    assert "mine" not in {b["name"] for b in client.get("/api/data/arcanum/board").json()}
    # a seat token is not the organiser's
    code = client.post(f"/api/tables/{tid}/seats/0/pair", headers=org).json()["code"]
    seat = {
        "Authorization": "Bearer " + client.post("/api/pair", json={"code": code}).json()["token"]
    }
    assert client.get(f"/api/tables/{tid}/undo-preview", headers=seat).status_code == 403
    assert client.get("/api/kits", headers=seat).status_code == 403


# -- kits and enrollment ------------------------------------------------------------------------


def test_kits_are_listed_with_their_game_and_progress(client: Any, org: Any, hub: Hub) -> None:
    assert client.get("/api/kits", headers=org).json() == []
    game = find_game(AD)
    hub.store.save_kit("club", AD, {"04A1B2C3": game.pieces()[0], "04A1B2C4": game.pieces()[1]})
    kits = client.get("/api/kits", headers=org).json()
    assert kits == [
        {
            "name": "club",
            "game": AD,
            "game_name": game.name,
            "tags": 2,
            "tagged": 2,
            "total": len(game.pieces()),
        }
    ]


def test_enrollment_with_the_sim_reader_through_to_a_saved_kit(
    client: Any, org: Any, hub: Hub
) -> None:
    game = find_game(AD)
    pieces = game.pieces()
    r = client.post(
        "/api/enroll",
        headers=org,
        json={"kit": "club", "game": AD, "readers": "sim", "reader": "r1"},
    )
    assert r.status_code == 201, r.text
    state = r.json()
    sid = state["sid"]
    assert state["sim"] is True and state["tagged"] == 0 and state["total"] == len(pieces)
    assert state["next"]["piece"] == pieces[0]
    assert state["next"]["name"] == game.describe_piece(pieces[0])
    assert game.describe_piece(pieces[0]) in state["next"]["text"]

    state = client.post(f"/api/enroll/{sid}/simulate", headers=org).json()
    assert state["tagged"] == 1 and state["last"]["ok"] is True
    assert state["next"]["piece"] == pieces[1]
    first_uid = state["last"]["uid"]
    assert hub.store.kit("club").entries == {first_uid: pieces[0]}  # saved at once

    # the same tag again (the previous card placed again) is refused: same piece asked again
    state = client.post(f"/api/enroll/{sid}/simulate", headers=org, json={"uid": first_uid}).json()
    assert state["last"]["ok"] is False and "already registered" in state["last"]["text"]
    assert pieces[0] in state["last"]["text"]
    assert state["tagged"] == 1 and state["next"]["piece"] == pieces[1]

    # a typed uid: malformed refused, a good one accepted (keyboard-wedge readers)
    state = client.post(f"/api/enroll/{sid}/tag", headers=org, json={"uid": "xyz"}).json()
    assert state["last"]["ok"] is False and "not a tag uid" in state["last"]["text"]
    state = client.post(f"/api/enroll/{sid}/tag", headers=org, json={"uid": "04:a1:b2:c3"}).json()
    assert state["last"]["ok"] is True and state["last"]["uid"] == "04A1B2C3"
    assert state["next"]["piece"] == pieces[2]

    # skip one, then stop: everything so far is stored
    state = client.post(f"/api/enroll/{sid}/skip", headers=org).json()
    assert state["skipped"] == [pieces[2]] and state["next"]["piece"] == pieces[3]
    state = client.post(f"/api/enroll/{sid}/stop", headers=org).json()
    assert state["active"] is False and state["tagged"] == 2
    assert client.get(f"/api/enroll/{sid}", headers=org).status_code == 404

    # starting again resumes the stored kit, skipped piece first, and goes to the end
    state = client.post(
        "/api/enroll", headers=org, json={"kit": "club", "game": AD, "readers": "sim"}
    ).json()
    sid = state["sid"]
    assert state["tagged"] == 2 and state["next"]["piece"] == pieces[2]
    for _ in range(len(pieces) - 2):
        state = client.post(f"/api/enroll/{sid}/simulate", headers=org).json()
        assert state["last"]["ok"] is True, state["last"]
    assert state["complete"] is True and state["next"] is None
    assert state["progress"] == f"{len(pieces)}/{len(pieces)} tagged"
    # a tag once every piece is tagged is not used
    state = client.post(f"/api/enroll/{sid}/simulate", headers=org).json()
    assert state["last"]["ok"] is False and state["tagged"] == len(pieces)
    client.post(f"/api/enroll/{sid}/stop", headers=org)
    kit = hub.store.kit("club")
    assert sorted(kit.entries.values()) == sorted(pieces)
    assert {
        "name": "club",
        "game": AD,
        "game_name": game.name,
        "tags": len(pieces),
        "tagged": len(pieces),
        "total": len(pieces),
    } in client.get("/api/kits", headers=org).json()
    # the kit is usable at once by a table
    r = client.post("/api/tables", headers=org, json={"game": AD, "seats": 3, "kit": "club"})
    assert r.status_code == 201, r.text


def test_enrollment_listens_to_the_chosen_reader_only(client: Any, org: Any, hub: Hub) -> None:
    state = client.post(
        "/api/enroll",
        headers=org,
        json={"kit": "club", "game": AD, "readers": "sim", "reader": "r1"},
    ).json()
    session = client.app.state.console_enrollments.get(state["sid"])
    session.backend.put("r2", "04000000000001")  # another reader: ignored
    assert client.get(f"/api/enroll/{state['sid']}", headers=org).json()["tagged"] == 0
    session.backend.put("r1", "04000000000001")
    assert client.get(f"/api/enroll/{state['sid']}", headers=org).json()["tagged"] == 1


def test_enrollment_refusals(client: Any, org: Any, hub: Hub) -> None:
    hub.store.save_kit("ad-copy", AD, {})
    r = client.post("/api/enroll", headers=org, json={"kit": "ad-copy", "game": "arcanum"})
    assert r.status_code == 422 and "is for" in r.json()["error"]
    r = client.post("/api/enroll", headers=org, json={"kit": "bad name!", "game": AD})
    assert r.status_code == 422 and "kit name" in r.json()["error"]
    r = client.post("/api/enroll", headers=org, json={"kit": "k", "game": "chess"})
    assert r.status_code == 422 and "chess" in r.json()["error"]
    r = client.post(
        "/api/enroll", headers=org, json={"kit": "k", "game": AD, "readers": "bluetooth:x"}
    )
    assert r.status_code == 422 and "reader" in r.json()["error"]
    # typed mode (no readers): no simulate button, typed uids work
    state = client.post("/api/enroll", headers=org, json={"kit": "k", "game": AD}).json()
    assert state["sim"] is False
    r = client.post(f"/api/enroll/{state['sid']}/simulate", headers=org)
    assert r.status_code == 422 and "sim" in r.json()["error"]
    assert client.get("/api/enroll/nope", headers=org).status_code == 404
    # a second session on the same kit replaces the first
    again = client.post("/api/enroll", headers=org, json={"kit": "k", "game": AD}).json()
    assert client.get(f"/api/enroll/{state['sid']}", headers=org).status_code == 404
    assert client.get(f"/api/enroll/{again['sid']}", headers=org).status_code == 200


# -- undo and correction previews ---------------------------------------------------------------


def _organiser_view(client: Any, org: Any, tid: str) -> dict[str, Any]:
    return dict(client.get(f"/api/tables/{tid}/organiser", headers=org).json())


def test_undo_preview_is_what_undo_then_does(client: Any, org: Any) -> None:
    r = client.post(
        "/api/tables", headers=org, json={"game": AD, "seats": ["Ann", "Bea", "Cid"], "start": True}
    )
    tid = r.json()["id"]
    for line in ("+talon H1b1", "+talon H2b1"):
        assert client.post(f"/api/tables/{tid}/inputs", headers=org, json={"input": line}).json()[
            "accepted"
        ]
    before = _organiser_view(client, org, tid)
    preview = client.get(f"/api/tables/{tid}/undo-preview", headers=org).json()
    assert _organiser_view(client, org, tid)["inputs"] == before["inputs"]  # nothing changed
    assert preview["input"] == "+talon H2b1" and preview["as_read"] == "+talon H2b1"
    assert "talon" in preview["words"]
    assert preview["scores_before"] == before["scores"]
    assert preview["waiting_for_before"] == before["waiting_for"]
    assert preview["accepted"] is True and preview["seats"] == ["Ann", "Bea", "Cid"]
    done = undo(client, org, tid).json()
    after = _organiser_view(client, org, tid)
    assert preview["events"] == done["events"]
    assert preview["scores_after"] == after["scores"]
    assert preview["waiting_for_after"] == after["waiting_for"]
    assert preview["waiting_for_after"] != preview["waiting_for_before"]
    # after the undo, the next undo takes back the first input
    assert (
        client.get(f"/api/tables/{tid}/undo-preview", headers=org).json()["input"] == "+talon H1b1"
    )


def test_undo_preview_shows_score_changes_and_raw_sightings(
    client: Any, org: Any, new_table: Callable[..., str]
) -> None:
    tid = new_table(seats=["Ann", "Bob"], kit={"04A1B2C3": "C1"})
    client.post(f"/api/tables/{tid}/inputs", headers=org, json={"input": "tag +r2 04A1B2C3"})
    preview = client.get(f"/api/tables/{tid}/undo-preview", headers=org).json()
    assert preview["input"] == "tag +r2 04A1B2C3" and preview["as_read"] == "+play C1"
    assert preview["scores_before"] == [1, 0] and preview["scores_after"] == [0, 0]
    done = undo(client, org, tid).json()
    assert done["accepted"] and preview["events"] == done["events"]
    assert client.get(f"/api/tables/{tid}").json()["scores"] == preview["scores_after"]
    # nothing left to undo: the preview says so, as the undo would
    empty = client.get(f"/api/tables/{tid}/undo-preview", headers=org).json()
    assert empty["accepted"] is False and empty["input"] is None
    assert empty["rejection"]["rule"] == "TABLE-UNDO-EMPTY"
    assert client.get("/api/tables/t99/undo-preview", headers=org).status_code == 404


def test_correct_preview_is_what_correct_then_does(
    client: Any, org: Any, new_table: Callable[..., str]
) -> None:
    tid = new_table(seats=["Ann", "Bob"])
    client.post(f"/api/tables/{tid}/inputs", headers=org, json={"input": "+play C1"})
    client.post(f"/api/tables/{tid}/inputs", headers=org, json={"input": "+play C2"})
    preview = client.post(
        f"/api/tables/{tid}/correct-preview", headers=org, json={"input": "+hand C3"}
    ).json()
    assert preview["action"] == "correct" and preview["accepted"] is True
    assert preview["input"] == "+play C2" and preview["replacement"] == "+hand C3"
    assert preview["scores_before"] == [2, 0] and preview["scores_after"] == [1, 0]
    assert client.get(f"/api/tables/{tid}").json()["scores"] == [2, 0]  # unchanged
    done = client.post(
        f"/api/tables/{tid}/correct",
        headers=org,
        json={"input": "+hand C3", "seq": preview["input_seq"]},
    ).json()
    assert done["accepted"] and done["events"] == preview["events"]
    assert client.get(f"/api/tables/{tid}").json()["scores"] == preview["scores_after"]
    # the corrected input is the one an undo would now take back
    assert client.get(f"/api/tables/{tid}/undo-preview", headers=org).json()["input"] == "+hand C3"
    r = client.post(f"/api/tables/{tid}/correct-preview", headers=org, json={"input": "undo"})
    assert r.status_code == 422


# -- exports and readers ------------------------------------------------------------------------


def test_scores_csv_has_a_row_per_change_and_the_final_scores(
    client: Any, org: Any, new_table: Callable[..., str]
) -> None:
    tid = new_table(seats=["Ann", "=cmd"])
    for line in ("+play C1", "+hand C2", "+play C2"):
        client.post(f"/api/tables/{tid}/inputs", headers=org, json={"input": line})
    undo(client, org, tid)
    r = client.get(f"/api/tables/{tid}/scores.csv", headers=org)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    assert r.headers["content-disposition"] == f'attachment; filename="{tid}-scores.csv"'
    rows = list(csv.reader(io.StringIO(r.text)))
    assert rows == [
        ["seq", "Ann", "'=cmd"],
        ["0", "0", "0"],
        ["1", "1", "0"],
        ["3", "2", "0"],
        ["4", "1", "0"],
        ["final", "1", "0"],
    ]
    history = client.get(f"/api/tables/{tid}").json()["score_history"]
    assert [[str(h["seq"]), *map(str, h["scores"])] for h in history] == rows[1:-1]


def test_reader_health_with_the_age_of_the_last_sighting(
    client: Any, org: Any, hub: Hub, new_table: Callable[..., str]
) -> None:
    tid = new_table(readers="sim", kit={"04A1B2C3": "C1"})
    body = client.get(f"/api/tables/{tid}/readers", headers=org).json()
    assert body["backend"] == "sim" and body["status"] == "running"
    rows = {r["reader"]: r for r in body["readers"]}
    assert set(rows) == {"r1", "r2"}
    assert rows["r1"]["online"] is True and rows["r1"]["age_s"] is None
    hub.readers(tid).put("r2", "04A1B2C3")
    hub.readers(tid).set_online("r1", False)
    rows = {
        r["reader"]: r
        for r in client.get(f"/api/tables/{tid}/readers", headers=org).json()["readers"]
    }
    assert rows["r2"]["age_s"] is not None and 0 <= rows["r2"]["age_s"] < 5
    assert rows["r2"]["reads"] == 1
    assert rows["r1"]["online"] is False and rows["r1"]["detail"]
    assert client.get(f"/api/tables/{tid}").json()["scores"][0] == 1
    # a table without readers has none to show
    other = new_table()
    assert client.get(f"/api/tables/{other}/readers", headers=org).json()["readers"] == []


@pytest.mark.parametrize("path", ["/api/tables/t9/scores.csv", "/api/tables/t9/readers"])
def test_unknown_tables_are_404(client: Any, org: Any, path: str) -> None:
    assert client.get(path, headers=org).status_code == 404
