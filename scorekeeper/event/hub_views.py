"""What the event's screens show, as JSON: the public view (projector, standings page), the
organiser's console and a player's phone.

Built from an ``EventHub`` on each request: the folded event, each game's replica and what the
tables last said. Private stays private: the public and console views give each game's public
view only (scores, whose turn), never a seat's hidden cards; a player's phone adds nothing the
table does not show them either (their private cards stay on the table's own pairing).

Hazard: "needs attention" reads the wall clock (a table silent for longer than ``SILENT``);
that is the only clock here, and it decides a label, never a result.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from scorekeeper.core.game import PUBLIC
from scorekeeper.errors import NotFound
from scorekeeper.event.exports import bgstats_link, bgstats_play
from scorekeeper.event.hub_service import EventHub
from scorekeeper.event.points import show
from scorekeeper.event.records import ResultOverride
from scorekeeper.event.standings import Standing, changes, standings
from scorekeeper.event.state import EventState, GameResult, final_places, table_label

SILENT = 20.0  # seconds without a word from a table before it "needs attention"
REFUSALS = 3  # refused inputs among a game's last ten that call for a person


def _standing(s: Standing) -> dict[str, Any]:
    return {
        "place": s.place,
        "player": s.player,
        "name": s.name,
        "points": show(s.points),
        "decided_by": s.decided_by,
        "tie_breaks": [
            {"name": name, "value": None if value is None else show(value)}
            for name, value in s.tie_breaks
        ],
        "dropped": s.dropped,
        "games": s.games,
        "byes": s.byes,
    }


def _game_status(
    state: EventState, game_id: str, results: Mapping[str, GameResult]
) -> tuple[str, str]:
    """(status, words): waiting (not created yet), playing, over (to confirm), final."""
    result = results.get(game_id)
    if final_places(state, game_id, results) is not None:
        return "final", "result final"
    if game_id in state.overrides:
        return "final", "result set by a judge"
    if result is None:
        return "waiting", "waiting for the table"
    if result.over:
        return "over", "game over: players to confirm"
    return "playing", "playing"


def _pods(hub: EventHub, state: EventState, results: Mapping[str, GameResult]) -> list[Any]:
    last = state.last_round
    if last is None:
        return []
    out = []
    for pod in last.pods:
        status, words = _game_status(state, pod.game_id, results)
        result = results.get(pod.game_id)
        scores = {seat: score for seat, _rank, score in result.places} if result else {}
        confirmed = state.confirmed.get(pod.game_id, frozenset())
        out.append(
            {
                "table": pod.table,
                "table_label": table_label(pod.table),
                "game": pod.game_id,
                "status": status,
                "status_words": words,
                "seats": [
                    {
                        "seat": n + 1,
                        "player": player,
                        "name": state.name(player),
                        "score": scores.get(n),
                        "confirmed": player in confirmed,
                    }
                    for n, player in enumerate(pod.players)
                ],
            }
        )
    return out


def _timer(state: EventState) -> dict[str, Any] | None:
    timer = state.timer
    if timer is None:
        return None
    return {
        "round": timer.round,
        "started_at": timer.started_at,
        "minutes": timer.minutes,
        "ends_at": timer.ends_at,
        "stopped_at": timer.stopped_at,
    }


def public_view(hub: EventHub) -> dict[str, Any]:
    """The projector's and the public standings page's view."""
    state = hub.state()
    results = hub.results()
    event = hub.db.event(hub.event_id)
    last = state.last_round
    return {
        "event": {"id": hub.event_id, "name": event["name"], "game": hub.game().name},
        "open": state.opened is not None,
        "round": last.number if last else 0,
        "round_closed": bool(last and last.closed),
        "timer": _timer(state),
        "pods": _pods(hub, state, results),
        "byes": [{"player": p, "name": state.name(p)} for p in (last.byes if last else ())],
        "standings": [_standing(s) for s in standings(state, results)],
        "waiting": hub.waiting(),
        "players": sum(1 for p in state.players.values() if p.active),
        "version": hub.version,
        # the hub's clock, so that a screen counts the timer down from the hub's time, not its own
        "now": datetime.now(UTC).isoformat(timespec="seconds"),
    }


def _attention(table: Mapping[str, Any], hub: EventHub, game_id: str | None) -> list[str]:
    """Why a person should look at this table, in words (empty: all is well). A table with no
    game this round needs nobody yet: the console shows it offline, without the alarm."""
    why: list[str] = []
    if game_id is None:
        return why
    seen = table.get("seen_at")
    silent = (
        seen is None or (datetime.now(UTC) - datetime.fromisoformat(seen)).total_seconds() > SILENT
    )
    if not table.get("online") or silent:
        why.append("offline: it keeps playing and catches up when it is back")
    readers = table.get("health", {}).get("readers", [])
    # each reader's ReaderHealth.to_dict() as the table agent sends it: "online" says it works
    bad = [r for r in readers if isinstance(r, Mapping) and r.get("online") is False]
    if bad:
        names = ", ".join(str(r.get("reader", "?")) for r in bad)
        why.append(f"{len(bad)} reader(s) not working: {names}")
    try:
        replica = hub.replicas.refresh(game_id)
    except NotFound:
        return why
    recent = list(replica.feed)[-10:]
    refused = sum(1 for entry in recent if not entry.accepted)
    if refused >= REFUSALS:
        why.append(f"{refused} of its last {len(recent)} plays were refused")
    if replica.game.pending(replica.state) and not replica.game.is_over(replica.state):
        why.append(f"waiting on a person: {replica.waiting_for()}")
    return why


def console_view(hub: EventHub) -> dict[str, Any]:
    """The organiser's (and judges') console: the public view, every table's state and
    health, what needs attention, the players, the audit of overrides and what the latest
    one changed."""
    view = public_view(hub)
    state = hub.state()
    results = hub.results()
    game_at = {pod["table"]: pod["game"] for pod in view["pods"]}
    tables = []
    for table in hub.db.tables(hub.event_id):
        game_id = game_at.get(table["name"])
        tables.append(
            {
                "name": table["name"],
                "label": table_label(table["name"]),
                "online": table["online"],
                "seen_at": table["seen_at"],
                "readers": table["health"].get("readers", []),
                "game": game_id,
                "held": hub.replicas.applied(game_id) if game_id else 0,
                "at_table": table["games"].get(game_id) if game_id else None,
                "attention": _attention(table, hub, game_id),
            }
        )
    view["tables"] = tables
    view["players_list"] = [
        {
            "id": p.id,
            "name": p.name,
            "checked_in": p.checked_in,
            "dropped": p.dropped,
        }
        for p in sorted(state.players.values(), key=lambda p: p.name.lower())
    ]
    view["audit"] = [
        {"kind": a.kind, "game": a.game_id, "reason": a.reason, "judge": a.judge}
        for a in state.audit
    ]
    view["changed"] = _latest_changes(state, results)
    view["can_seat"] = state.opened is not None and not view["waiting"]
    return view


def _latest_changes(state: EventState, results: Mapping[str, GameResult]) -> list[str]:
    """What the latest judge's override (or its clearing) changed in the standings: against
    the standings with the override that stood on that game before it (none, or an earlier
    one that it replaced or that its clearing brings back)."""
    if not state.audit:
        return []
    latest = state.audit[-1]
    before = {k: v for k, v in state.overrides.items() if k != latest.game_id}
    prior = next((a for a in reversed(state.audit[:-1]) if a.game_id == latest.game_id), None)
    if isinstance(prior, ResultOverride):
        before[latest.game_id] = prior
    was = standings(replace(state, overrides=before), results)
    return [c.words for c in changes(was, standings(state, results))]


def player_view(hub: EventHub, player: str) -> dict[str, Any]:
    """A player's phone: their seat this round, their table's game, whether they confirmed,
    their place in the standings, and once the result is final its BG Stats link."""
    state = hub.state()
    results = hub.results()
    found = state.players.get(player)
    if found is None:
        raise NotFound("you are not entered in this event: ask the organiser")
    mine: dict[str, Any] | None = None
    last = state.last_round
    if last is not None:
        for pod in last.pods:
            if player in pod.players:
                status, words = _game_status(state, pod.game_id, results)
                game: dict[str, Any] | None = None
                try:
                    replica = hub.replicas.refresh(pod.game_id)
                    game = {
                        "scores": list(replica.game.scores(replica.state)),
                        "over": replica.game.is_over(replica.state),
                        "waiting_for": replica.waiting_for(),
                        "view": replica.view(PUBLIC, feed=False),
                    }
                except NotFound:
                    pass
                mine = {
                    "round": last.number,
                    "table": pod.table,
                    "table_label": table_label(pod.table),
                    "seat": pod.players.index(player) + 1,
                    "game": pod.game_id,
                    "status": status,
                    "status_words": words,
                    "players": [state.name(p) for p in pod.players],
                    "confirmed": player in state.confirmed.get(pod.game_id, frozenset()),
                    "can_confirm": status == "over"
                    and player not in state.confirmed.get(pod.game_id, frozenset()),
                    "state": game,
                    # once final: the play as BG Stats imports it, opened from the phone
                    "bgstats": bgstats_link(bgstats_play(hub, pod.game_id))
                    if status == "final"
                    else None,
                }
    places = standings(state, results)
    own = next((s for s in places if s.player == player), None)
    return {
        "event": {"id": hub.event_id, "name": hub.db.event(hub.event_id)["name"]},
        "player": {
            "id": found.id,
            "name": found.name,
            "checked_in": found.checked_in,
            "dropped": found.dropped,
        },
        "round": mine,
        "bye": bool(last and player in last.byes),
        "standing": _standing(own) if own else None,
        "timer": _timer(state),
        "version": hub.version,
    }
