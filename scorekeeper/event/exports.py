"""The event's exports: standings and results as CSV and JSON, and each game as a BG Stats play.

Only what the public may see: names, places, points and game scores once a result is final
(a game still being played is listed without scores). A BG Stats play follows the JSON that
the BG Stats app imports from other apps (its "push plays" format: game, players with score,
rank, winner and start player, play date, source ids); ``bgstats_link`` wraps it in the app's
import address, which a player opens from their phone.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any
from urllib.parse import quote

from scorekeeper.errors import NotFound
from scorekeeper.event.hub_service import EventHub
from scorekeeper.event.points import show
from scorekeeper.event.standings import standings
from scorekeeper.event.state import final_places, table_label

BGSTATS_IMPORT = "https://app.bgstatsapp.com/addPlay.html?data="


def standings_json(hub: EventHub) -> dict[str, Any]:
    state = hub.state()
    rows = standings(state, hub.results())
    names = [name for name, _value in rows[0].tie_breaks] if rows else []
    return {
        "event": hub.event_id,
        "name": hub.db.event(hub.event_id)["name"],
        "rounds": len(state.rounds),
        "tie_breaks": names,
        "standings": [
            {
                "place": s.place,
                "player": s.player,
                "name": s.name,
                "points": show(s.points),
                "tie_breaks": {n: (None if v is None else show(v)) for n, v in s.tie_breaks},
                "decided_by": s.decided_by,
                "games": s.games,
                "byes": s.byes,
                "dropped": s.dropped,
            }
            for s in rows
        ],
    }


def standings_csv(hub: EventHub) -> str:
    data = standings_json(hub)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        [
            "place",
            "player",
            "name",
            "points",
            *data["tie_breaks"],
            "decided by",
            "games",
            "byes",
            "dropped",
        ]
    )
    for row in data["standings"]:
        writer.writerow(
            [
                row["place"],
                row["player"],
                row["name"],
                row["points"],
                *(row["tie_breaks"].get(n) for n in data["tie_breaks"]),
                row["decided_by"],
                row["games"],
                row["byes"],
                "yes" if row["dropped"] else "",
            ]
        )
    return out.getvalue()


def results_json(hub: EventHub) -> dict[str, Any]:
    """Every seated game: its round, table, players in seat order and, once final, places."""
    state = hub.state()
    results = hub.results()
    games = []
    for game_id, (number, pod) in state.games.items():
        final = final_places(state, game_id, results)
        by_player = {p: (rank, score) for p, rank, score in final} if final else {}
        games.append(
            {
                "round": number,
                "table": pod.table,
                "game": game_id,
                "final": final is not None,
                "judge": game_id in state.overrides,
                "players": [
                    {
                        "seat": n + 1,
                        "player": p,
                        "name": state.name(p),
                        "rank": by_player[p][0] if p in by_player else None,
                        "score": by_player[p][1] if p in by_player else None,
                    }
                    for n, p in enumerate(pod.players)
                ],
            }
        )
    games.sort(key=lambda g: (g["round"], g["table"]))
    return {"event": hub.event_id, "games": games}


def results_csv(hub: EventHub) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        [
            "round",
            "table",
            "game",
            "seat",
            "player",
            "name",
            "rank",
            "score",
            "final",
            "set by a judge",
        ]
    )
    for game in results_json(hub)["games"]:
        for p in game["players"]:
            writer.writerow(
                [
                    game["round"],
                    game["table"],
                    game["game"],
                    p["seat"],
                    p["player"],
                    p["name"],
                    p["rank"] if p["rank"] is not None else "",
                    p["score"] if p["score"] is not None else "",
                    "yes" if game["final"] else "",
                    "yes" if game["judge"] else "",
                ]
            )
    return out.getvalue()


def bgstats_play(hub: EventHub, game_id: str) -> dict[str, Any]:
    """One game as a BG Stats play (its import format); NotFound until its result is final."""
    state = hub.state()
    found = state.games.get(game_id)
    if found is None:
        raise NotFound(f"no game {game_id!r} in this event")
    final = final_places(state, game_id, hub.results())
    if final is None:
        raise NotFound("this game has no final result yet: try again once it is confirmed")
    number, pod = found
    by_player = {p: (rank, score) for p, rank, score in final}
    config = hub.store.config(game_id)
    event = hub.db.event(hub.event_id)
    return {
        "sourceName": "scorekeeper",
        "sourcePlayId": game_id,
        # the event's day (BG Stats matches plays by date; the hour is the event's start)
        "playDate": event["created_at"].strftime("%Y-%m-%d %H:%M:%S"),
        "location": event["name"],
        "board": "",
        "comments": f"{event['name']}, round {number}, {table_label(pod.table)}",
        "game": {
            "name": hub.game().name,
            "sourceGameId": config.game,
            "highestWins": True,
            "noPoints": False,
        },
        "players": [
            {
                "name": state.name(p),
                "sourcePlayerId": p,
                "startPlayer": n == 0,
                "rank": by_player[p][0],
                "score": by_player[p][1],
                "winner": by_player[p][0] == 1,
                "role": "",
            }
            for n, p in enumerate(pod.players)
        ],
    }


def bgstats_link(play: dict[str, Any]) -> str:
    """The address that opens ``play`` in the BG Stats app's import dialog."""
    return BGSTATS_IMPORT + quote(json.dumps(play, separators=(",", ":")), safe="")
