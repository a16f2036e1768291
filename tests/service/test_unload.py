"""Ended and archived tables leave memory and come back on demand, with the same views.

A long event must not keep every finished game in memory: an ended table nobody watches is
unloaded (the hub keeps its list line), replayed from its log again for a view, an export, a
watcher or an undo, and a start lists finished tables from their stored summaries.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from scorekeeper.core.game import ORGANISER, PUBLIC
from scorekeeper.core.inputs import Decision, Seen, Undo
from scorekeeper.service import Hub
from scorekeeper.service.hub import KEEP_LOADED, TableStateError
from scorekeeper.sim import find_world

GAME = "angels-and-demons"
SEATS = ["Ann", "Bea", "Cid"]


def _play(hub: Hub, seed: int, count: int | None = None) -> str:
    """A started table that took a simulated game's inputs (all, or the first ``count``)."""
    table_id = hub.create_table(GAME, SEATS)
    hub.start(table_id)
    inputs: list[Seen | Decision] = list(find_world(GAME)(len(SEATS), {}, seed).inputs())
    for inp in inputs if count is None else inputs[:count]:
        hub.submit(table_id, inp)
    return table_id


def _views(hub: Hub, table_id: str) -> dict[Any, str]:
    """Every audience's view as JSON text, and the table's list line."""
    out: dict[Any, str] = {
        aud: hub.view_json(table_id, aud) for aud in (PUBLIC, ORGANISER, *range(len(SEATS)))
    }
    out["summary"] = repr(hub.summary(table_id))
    return out


def test_an_ended_table_is_unloaded_and_a_view_reloads_it_unchanged(tmp_path: Path) -> None:
    hub = Hub.open(tmp_path / "sk.db")
    try:
        done, live = _play(hub, 1), _play(hub, 2, 40)
        assert hub.summary(done)["over"] and hub.summary(done)["scores"]
        config = hub.config(done)
        hub.end(live)  # an ended table nobody watches leaves memory at once
        assert hub.loaded() == [done]
        watcher = hub.subscribe(done, PUBLIC)  # a TV keeps it loaded through its end
        hub.end(done)
        assert done in hub.loaded()
        before = _views(hub, done)
        hub.unsubscribe(watcher)
        assert done not in hub.loaded()
        listed = hub.summary(done)  # from the kept summary: no replay
        assert hub.config(done) == config and config.layout  # the full one, from the store
        assert done not in hub.loaded()
        assert repr(listed) == before["summary"]
        assert listed["status"] == "ended" and listed["over"]
        # a finished game's line is its result, ended or not (the page shows it as "Result")
        result = hub.view(done, PUBLIC)["waiting_for"]
        assert result and listed["waiting_for"] == result
        assert _views(hub, done) == before  # a view replays it: the very same text
        assert done in hub.loaded()
    finally:
        hub.close()


def test_export_watcher_and_undo_of_an_unloaded_table(tmp_path: Path) -> None:
    hub = Hub.open(tmp_path / "sk.db")
    try:
        done = _play(hub, 3)
        hub.end(done)
        views = _views(hub, done)
        exports = (hub.export(done), hub.export(done, ORGANISER))
        hub._maybe_unload(hub._get(done))
        assert done not in hub.loaded()
        assert (hub.export(done), hub.export(done, ORGANISER)) == exports

        sub = hub.subscribe(done, 1)
        assert done in hub.loaded() and sub.latest == views[1]
        hub.end(done)  # still watched: it stays loaded
        assert done in hub.loaded()
        hub.unsubscribe(sub)
        assert done not in hub.loaded()  # the last watcher left

        # The organiser takes back the last play after the end: the table comes back for it.
        taken = hub.submit(done, Undo())
        assert taken.accepted and done in hub.loaded()
        undone = _views(hub, done)
        assert undone != views
        hub._maybe_unload(hub._get(done))
        assert done not in hub.loaded()
        assert _views(hub, done) == undone
    finally:
        hub.close()


def test_only_a_few_reloaded_tables_stay_in_memory(tmp_path: Path) -> None:
    hub = Hub.open(tmp_path / "sk.db")
    try:
        ended = [_play(hub, seed, 20) for seed in range(7)]
        for table_id in ended:
            hub.end(table_id)
        assert hub.loaded() == []
        for table_id in ended:
            hub.view(table_id, PUBLIC)
        assert hub.loaded() == ended[-KEEP_LOADED:]  # the least recently used went first
    finally:
        hub.close()


def test_a_start_loads_no_ended_table_but_lists_its_final_scores(tmp_path: Path) -> None:
    hub = Hub.open(tmp_path / "sk.db")
    try:
        done, archived, running = _play(hub, 4), _play(hub, 5, 30), _play(hub, 6, 30)
        hub.end(done)
        hub.pause(archived)
        hub.archive(archived)
        assert archived not in hub.loaded()
        listed = {t: repr(hub.summary(t)) for t in (done, archived, running)}
        views = _views(hub, done)
    finally:
        hub.close()
    hub = Hub.open(tmp_path / "sk.db")
    try:
        assert hub.loaded() == [running]
        assert {t: repr(hub.summary(t)) for t in (done, archived, running)} == listed
        assert [s["id"] for s in hub.summaries()] == [done, running]
        assert hub.loaded() == [running]  # listing replayed nothing
        assert _views(hub, done) == views
        hub.archive(archived, False)  # paused: it may be played again, so it is loaded
        assert archived in hub.loaded()
    finally:
        hub.close()


def test_a_store_without_summaries_still_opens_and_lists_its_tables(tmp_path: Path) -> None:
    hub = Hub.open(tmp_path / "sk.db")
    try:
        done, stale = _play(hub, 7), _play(hub, 8, 25)
        hub.end(done)
        hub.end(stale)
        listed = {t: repr(hub.summary(t)) for t in (done, stale)}
        # The organiser took back a play, then the power went before the summary was stored.
        hub.submit(stale, Undo())
        listed[stale] = repr(hub.summary(stale))
        hub.store.set_summary(done, None)  # as if written before summaries
        assert hub.store.summary(done) is None
    finally:
        hub.close()
    hub = Hub.open(tmp_path / "sk.db")
    try:
        assert hub.loaded() == []
        assert {t: repr(hub.summary(t)) for t in (done, stale)} == listed
        assert hub.store.summary(done) is not None  # computed once, stored
    finally:
        hub.close()


def test_a_damaged_log_is_told_when_the_table_is_opened_again(tmp_path: Path) -> None:
    hub = Hub.open(tmp_path / "sk.db")
    try:
        done, other = _play(hub, 9, 30), _play(hub, 10, 30)
        hub.end(done)
        listed = hub.summary(done)
        with hub.store._db("damage") as conn:
            conn.exec_driver_sql(
                "UPDATE log SET record = 'not json' WHERE table_id = ? AND seq = 5", (done,)
            )
            conn.commit()
        with pytest.raises(TableStateError, match=f"table {done} cannot be loaded.*record 5"):
            hub.view(done, PUBLIC)
        assert hub.summary(done) == listed and done not in hub.loaded()  # still listed
        assert hub.submit(other, Undo()).accepted  # the others are not affected
    finally:
        hub.close()


def test_unloading_hands_the_memory_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """glibc keeps a dropped table's heap unless told: each unload collects and trims."""
    from scorekeeper.service import memory

    assert memory.release() is True  # this machine's C library has malloc_trim
    calls: list[bool] = []
    real = memory.release
    monkeypatch.setattr(memory, "release", lambda: calls.append(real()) or True)
    hub = Hub.open(tmp_path / "sk.db")
    try:
        table_id = _play(hub, 2, 40)
        assert not calls
        hub.end(table_id)
        assert table_id not in hub.loaded() and calls == [True]
    finally:
        hub.close()
