"""The event demo's final check: the standings computed afresh from every table's own log.

Nothing of the hub's is trusted here but the event's own records (players, rounds, pods,
confirmations, overrides: they live only in the event database). Each game's result comes
from its table's SQLite log, replayed anew with the game's referee; the standings are then
computed from those and compared with what the hub serves. The hub's copy of each game's log
is compared with the table's too, record for record.

A table's database is read from a copy made with SQLite's online backup (``copy_database``),
so the table's server may keep running (``--keep``) and its own file is never opened by a
second program.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scorekeeper.core.script_run import winners
from scorekeeper.errors import NotFound
from scorekeeper.event.event_db import EventDb
from scorekeeper.event.points import show
from scorekeeper.event.records import record_from
from scorekeeper.event.replicas import places
from scorekeeper.event.standings import standings
from scorekeeper.event.state import EventState, GameResult, fold
from scorekeeper.games import find_game
from scorekeeper.store import Store

ALL = 10_000_000  # more records than any game has

Row = tuple[int, str, str]  # place, player, points (as the hub's standings.json shows them)


def copy_database(source: Path, target: Path) -> None:
    """A consistent copy of a SQLite database that another process may be writing."""
    target.parent.mkdir(parents=True, exist_ok=True)
    target.unlink(missing_ok=True)
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        dst = sqlite3.connect(target)
        try:
            src.backup(dst)
        finally:
            dst.close()
    finally:
        src.close()


@dataclass
class Check:
    """What the check found: the fresh standings, and how each game's logs compare."""

    fresh: list[Row]
    records: int  # records in the tables' logs of the event's games
    differing: list[str]  # games whose hub copy is not the table's log, in words

    def standings_equal(self, served: list[Row]) -> bool:
        return served == self.fresh


def event_state(url: str, event_id: str) -> EventState:
    """The event folded from its records in the event database."""
    db = EventDb(url)
    try:
        return fold(record_from(data) for _seq, data in db.records(event_id))
    finally:
        db.close()


def fresh_check(url: str, event_id: str, table_dbs: Mapping[str, Path], scratch: Path) -> Check:
    """Replay every game of the event from its table's database (``table_dbs``: table name ->
    its SQLite file, copied into ``scratch`` first) and compute the standings; compare each
    game's log with the hub's copy in the event database at ``url``."""
    state = event_state(url, event_id)
    assert state.opened is not None, "the event was never opened"
    game = find_game(state.opened.game)
    stores: dict[str, Store] = {}
    hub_store = Store(url)
    results: dict[str, GameResult] = {}
    differing: list[str] = []
    records = 0
    try:
        for game_id, (_round, pod) in sorted(state.games.items()):
            own = stores.get(pod.table)
            if own is None:
                copy = scratch / f"{pod.table}.db"
                copy_database(table_dbs[pod.table], copy)
                own = stores[pod.table] = Store(f"sqlite:///{copy}")
            table = own.load_table(game_id, game)
            scores = tuple(int(s) for s in table.game.scores(table.state))
            over = table.game.is_over(table.state)
            results[game_id] = GameResult(game_id, over, places(scores, winners(table)))
            mine = own.raw_records(game_id, 0, ALL)
            records += len(mine)
            theirs = _hub_copy(hub_store, game_id)
            if theirs != mine:
                differing.append(
                    f"{game_id}: the table logged {len(mine)} records, the hub holds "
                    f"{len(theirs)}" + (" (other contents)" if len(theirs) == len(mine) else "")
                )
    finally:
        hub_store.close()
        for each in stores.values():
            each.close()
    fresh = [(s.place, str(s.player), show(s.points)) for s in standings(state, results)]
    return Check(fresh, records, differing)


def _hub_copy(store: Store, game_id: str) -> list[Any]:
    try:
        return list(store.raw_records(game_id, 0, ALL))
    except NotFound:  # the hub never created it: it holds nothing of it
        return []


def served_rows(standings_json: Mapping[str, Any]) -> list[Row]:
    """The rows of the hub's ``/api/event/standings.json`` in the form ``Check`` uses."""
    return [
        (int(s["place"]), str(s["player"]), str(s["points"])) for s in standings_json["standings"]
    ]
