"""The event hub's HTTP API (create_event_app) on a real PostgreSQL, without a broker: who may
do what (public, seat, judge, organiser), check-in with a badge's code, confirming a result
only at one's own table once its game is over, the exports (standings and results as CSV and
JSON, a game as a BG Stats play) and refusals in words."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from urllib.parse import unquote

import pytest
from fastapi.testclient import TestClient

from scorekeeper.event.api import create_event_app
from scorekeeper.event.exports import BGSTATS_IMPORT
from scorekeeper.event.hub_service import EventHub
from tests.event.test_hub_service import play

GAME = "angels-and-demons"


class Event:
    """One open event with round 1 seated (nobody has played yet) and its HTTP clients."""

    def __init__(self, url: str) -> None:
        self.hub = EventHub(url, "cup")
        self.hub.db.create_event("cup", "Club cup", GAME)
        for n in (1, 2):
            self.hub.db.add_table("cup", str(n), f"sk-cup-{n}", "-")
        self.hub.open(points="4-3-2-1")
        self.players = [self.hub.register(f"Player {n}", check_in=n < 5) for n in range(6)]
        self.api = TestClient(create_event_app(self.hub))
        org = self.hub.db.new_token("cup", "organiser")
        self.organiser = {"Authorization": f"Bearer {org}"}
        judge = self.api.post("/api/event/judges", json={"name": "Jo"}, headers=self.organiser)
        assert judge.status_code == 200, judge.text
        self.judge = {"Authorization": f"Bearer {judge.json()['token']}"}

    def seat(self, code: str) -> dict[str, str]:
        """Check in with the badge's code as a phone does; the phone's auth header."""
        r = self.api.post("/api/event/check-in", json={"player": f"  {code.upper()} "})
        assert r.status_code == 200, r.text
        assert r.json()["player"] == code
        return {"Authorization": f"Bearer {r.json()['token']}"}


@pytest.fixture
def event(pg_url: str) -> Iterator[Event]:
    ev = Event(pg_url)
    yield ev
    ev.api.close()
    ev.hub.stop()


def refused(r: object, status: int, words: str) -> None:
    assert getattr(r, "status_code", None) == status, getattr(r, "text", r)
    body = r.json()  # type: ignore[attr-defined]
    assert words in body["error"], body


def test_scopes_check_in_and_confirmations(event: Event) -> None:
    api, org, judge = event.api, event.organiser, event.judge
    # public: the views, but none of the organiser's or judges' routes
    assert api.get("/api/event").json()["players"] == 5
    refused(api.post("/api/event/rounds"), 401, "sign in first")
    refused(api.get("/api/event/console"), 401, "sign in first")
    refused(api.post("/api/event/players", json={"name": "Eve"}), 401, "sign in first")
    refused(api.get("/api/event/me"), 401, "sign in first")
    refused(api.post("/api/event/rounds", headers={"Authorization": "Bearer nope"}), 401, "sign")
    # a judge sees the console and may override, but seats no round and adds nobody
    seen = api.get("/api/event/console", headers=judge)
    assert seen.status_code == 200 and seen.json()["you"] == {"scope": "judge", "name": "Jo"}
    refused(api.post("/api/event/rounds", headers=judge), 403, "does not allow this")
    refused(api.post("/api/event/timer", json={"minutes": 50}, headers=judge), 403, "organiser")
    # check-in with the badge's code; an unknown code and a dropped player are refused
    refused(api.post("/api/event/check-in", json={"player": "zzzzz"}), 404, "check your badge")
    late = event.players[5]
    drop = api.post(f"/api/event/players/{late}/drop", json={"reason": "ill"}, headers=org)
    assert drop.status_code == 200
    refused(api.post("/api/event/check-in", json={"player": late}), 403, "ask at the desk")
    refused(api.post("/api/event/check-in", json={}), 422, "player: Field required")
    phones = {p: event.seat(p) for p in event.players[:5]}
    assert api.get("/api/event").json()["players"] == 5
    # a seat token is a player's own phone: no console, no seating
    refused(api.post("/api/event/rounds", headers=phones[event.players[0]]), 403, "organiser")
    refused(api.get("/api/event/console", headers=phones[event.players[0]]), 403, "organiser")

    seated = api.post("/api/event/rounds", headers=org)
    assert seated.status_code == 200, seated.text
    pods = seated.json()["pods"]
    assert [p["table_label"] for p in pods] == ["Table 1", "Table 2"]
    mine, other = pods
    me = mine["seats"][0]["player"]
    view = api.get("/api/event/me", headers=phones[me]).json()
    assert view["round"]["table_label"] == "Table 1" and view["round"]["seat"] == 1
    assert view["round"]["players"] == [s["name"] for s in mine["seats"]]
    assert view["round"]["can_confirm"] is False and view["round"]["bgstats"] is None
    # confirming before the game is over, or another table's game, or twice: refused in words
    confirm = f"/api/event/games/{mine['game']}/confirm"
    refused(api.post(confirm, headers=phones[me]), 422, "still being played")
    refused(api.post("/api/event/rounds", headers=org), 409, "still playing")
    play(event.hub, mine["game"], seed=5)
    assert api.get("/api/event/me", headers=phones[me]).json()["round"]["can_confirm"] is True
    refused(api.post(confirm, headers=judge), 403, "does not allow this")
    stranger = other["seats"][0]["player"]
    refused(api.post(confirm, headers=phones[stranger]), 409, "does not play at Table 1")
    done = api.post(confirm, headers=phones[me])
    assert done.status_code == 200, done.text
    assert done.json()["round"]["confirmed"] is True
    assert done.json()["round"]["can_confirm"] is False
    refused(api.post(confirm, headers=phones[me]), 409, "has already confirmed")
    # a lost phone: the organiser signs the player's phones out; the player checks in again
    lost = other["seats"][-1]["player"]  # not at table 1, whose phones confirm below
    refused(api.post(f"/api/event/players/{lost}/forget-phones", headers=judge), 403, "")
    out = api.post(f"/api/event/players/{lost}/forget-phones", headers=org)
    assert out.json() == {"player": lost, "signed_out": 1}
    refused(api.get("/api/event/me", headers=phones[lost]), 401, "sign in first")
    again = api.post("/api/event/check-in", json={"player": lost}).json()["token"]
    assert api.get("/api/event/me", headers={"Authorization": f"Bearer {again}"}).is_success
    refused(api.post("/api/event/players/zzzzz/forget-phones", headers=org), 404, "no player")
    waits = api.get("/api/event/console", headers=org).json()["waiting"]
    assert {w["table"] for w in waits} == {"1", "2"}
    for seat in mine["seats"][1:]:
        assert api.post(confirm, headers=phones[seat["player"]]).status_code == 200
    view = api.get("/api/event/me", headers=phones[me]).json()
    assert view["round"]["status"] == "final"
    assert view["round"]["bgstats"].startswith(BGSTATS_IMPORT)
    assert [w["table"] for w in api.get("/api/event").json()["waiting"]] == ["2"]
    # a judge's override of table 1, with a reason: audited, under the judge's name
    over = f"/api/event/games/{mine['game']}/override"
    ranked = [[s["player"], n + 1, 10 - n] for n, s in enumerate(reversed(mine["seats"]))]
    refused(api.post(over, json={"places": ranked, "reason": ""}, headers=judge), 422, "reason")
    refused(api.post(over, json={"places": ranked, "reason": "x"}, headers=phones[me]), 403, "")
    done = api.post(over, json={"places": ranked, "reason": "sheet swapped"}, headers=judge)
    assert done.status_code == 200, done.text
    assert done.json()["audit"] == [
        {"kind": "result_override", "game": mine["game"], "reason": "sheet swapped", "judge": "Jo"}
    ]
    assert done.json()["standings"][0]["player"] == mine["seats"][-1]["player"]
    # what needs attention: a table never heard from; a reader that stopped working
    event.hub.db.table_said("cup", "1", online=True, games={mine["game"]: 5})
    readers = [{"reader": "r1", "online": True}, {"reader": "r2", "online": False}]
    event.hub.db.table_said("cup", "1", health={"readers": readers})
    tables = {t["name"]: t for t in api.get("/api/event/console", headers=org).json()["tables"]}
    assert tables["1"]["attention"] == ["1 reader(s) not working: r2"]
    assert tables["1"]["at_table"] == 5 and tables["1"]["online"] is True
    assert tables["2"]["attention"][0].startswith("offline")
    # the long poll answers at once when the event has moved on
    assert api.get("/api/event/changes?since=0").json()["version"] >= 1


def test_exports_and_a_bgstats_play(event: Event) -> None:
    api, org = event.api, event.organiser
    pods = api.post("/api/event/rounds", headers=org).json()["pods"]
    pod = pods[1]
    game = pod["game"]
    refused(api.get(f"/api/event/games/{game}/bgstats.json"), 404, "no final result yet")
    refused(api.get("/api/event/games/nope/bgstats.json"), 404, "no game")
    play(event.hub, game, seed=7)
    for seat in pod["seats"]:
        event.hub.confirm(game, seat["player"])
    scores = {s["player"]: s["score"] for s in api.get("/api/event").json()["pods"][1]["seats"]}
    leaver = pods[0]["seats"][0]["player"]
    assert event.hub.state().players[leaver].checked_in
    r = api.post(f"/api/event/players/{leaver}/drop", json={"reason": "a train"}, headers=org)
    assert r.status_code == 200, r.text

    r = api.get(f"/api/event/games/{game}/bgstats.json")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    bg = r.json()
    assert bg["game"]["name"] == "Angels & Demons" and bg["sourcePlayId"] == game
    assert [p["sourcePlayerId"] for p in bg["players"]] == [s["player"] for s in pod["seats"]]
    assert [p["startPlayer"] for p in bg["players"]] == [True] + [False] * (len(pod["seats"]) - 1)
    assert {p["sourcePlayerId"]: p["score"] for p in bg["players"]} == scores
    best = max(scores.values())
    for p in bg["players"]:
        assert p["winner"] is (p["rank"] == 1)
        assert (p["rank"] == 1) is (p["score"] == best)
    # the phone's link opens the same play in BG Stats
    phone = event.seat(pod["seats"][0]["player"])
    link = api.get("/api/event/me", headers=phone).json()["round"]["bgstats"]
    assert json.loads(unquote(link.removeprefix(BGSTATS_IMPORT))) == bg

    results = list(csv.reader(io.StringIO(api.get("/api/event/results.csv").text)))
    assert results[0] == [
        "round", "table", "game", "seat", "player", "name", "rank", "score", "final",
        "set by a judge",
    ]  # fmt: skip
    rows = {r[4]: r for r in results[1:]}
    assert len(results) == 1 + sum(len(p["seats"]) for p in pods)
    for seat in pod["seats"]:
        row = rows[seat["player"]]
        assert row[1] == "2" and row[3] == str(seat["seat"]) and row[8] == "yes"
        assert int(row[7]) == scores[seat["player"]]
    for seat in pods[0]["seats"]:  # table 1 is still being played: no rank, no score
        assert rows[seat["player"]][6:9] == ["", "", ""]
    games = api.get("/api/event/results.json").json()["games"]
    assert [g["final"] for g in games] == [False, True]

    standings = list(csv.reader(io.StringIO(api.get("/api/event/standings.csv").text)))
    data = api.get("/api/event/standings.json").json()
    assert standings[0] == [
        "place", "player", "name", "points", *data["tie_breaks"], "decided by", "games",
        "byes", "dropped",
    ]  # fmt: skip
    assert data["tie_breaks"] and len(standings) == 1 + len(data["standings"]) == 6
    by_player = {row[1]: row for row in standings[1:]}
    assert event.players[5] not in by_player  # never checked in, never seated
    assert by_player[leaver][-1] == "yes" and sum(row[-1] == "yes" for row in standings) == 1
    winner = next(p["sourcePlayerId"] for p in bg["players"] if p["rank"] == 1)
    assert by_player[winner][3] == "4" and by_player[winner][0] == "1"
    assert [s["player"] for s in data["standings"]] == [row[1] for row in standings[1:]]

    qr = api.get("/api/event/check-in.svg")
    assert qr.status_code == 200 and qr.headers["content-type"].startswith("image/svg+xml")
    assert "http://www.w3.org/2000/svg" in qr.text and "viewBox" in qr.text
