"""Event faults on real servers: hub processes SIGKILLed at random, PostgreSQL killed and
restarted and a table offline while the tables of an event play; then the hub holds every
table's log byte for byte, once each, and replays it to the tables' states.

The run is the ``make soak`` row's (soak/event_faults.py, soak/event_field.py) with smaller
counts: 10 kills instead of 100, a 5 s outage instead of 60 s. Two ``scorekeeper hub serve``
processes (forked from a warm parent: soak/event_zygote.py) share four tables over MQTT 5
shared subscriptions; the servers are the test's own (it kills them), not the session's.
Duplicate delivery, lost records, a broker restart, an offline table with a judge's correction
and another table's topic are in test_replication.py and test_broker_files.py.
"""

from __future__ import annotations

from pathlib import Path

from soak.event_faults import Plan, Tally, campaign, row
from soak.event_field import Comparison


def test_hub_kills_a_database_crash_and_an_offline_table_lose_nothing(tmp_path: Path) -> None:
    plan = Plan(kills=10, outage=5.0, pg_restarts=1, tables=4, gap=(0.05, 0.4), catch_up=60.0)
    tally = campaign(plan, seed=15, workdir=tmp_path, progress=lambda _line: None)
    found = tally.comparison
    assert tally.problems == [] and found.problems == []
    assert (tally.kills, tally.pg_restarts) == (10, 1)
    assert tally.offline_s >= 5.0
    assert found.games == 4 and found.records >= 4 * 20  # every table played through it all
    assert found.hub_rows == found.records  # one row per (game, seq), none beyond the tables'
    counts = (found.lost, found.duplicated, found.differ)
    assert counts == (0, 0, 0)
    assert (found.replays_differ, found.views_differ) == (0, 0)
    assert row(plan, tally).ok


def test_the_soak_row_fails_on_anything_lost_doubled_or_left_undone() -> None:
    plan = Plan(kills=3, outage=5.0)
    good = Tally(kills=3, offline_s=5.0, comparison=Comparison(games=1, records=10, hub_rows=10))
    assert row(plan, good).ok
    for bad in (
        Tally(kills=3, offline_s=5.0, comparison=Comparison(games=1, records=10, lost=1)),
        Tally(kills=3, offline_s=5.0, comparison=Comparison(games=1, records=10, duplicated=1)),
        Tally(kills=3, offline_s=5.0, comparison=Comparison(games=1, records=10, differ=1)),
        Tally(kills=3, offline_s=5.0, comparison=Comparison(games=1, records=10, views_differ=1)),
        Tally(kills=3, offline_s=5.0, comparison=Comparison()),  # nothing compared
        Tally(kills=2, offline_s=5.0, comparison=good.comparison),  # a kill not made
        Tally(kills=3, offline_s=1.0, comparison=good.comparison),  # the outage cut short
        Tally(kills=3, offline_s=5.0, comparison=good.comparison, problems=["hub 1 ended"]),
    ):
        assert not row(plan, bad).ok, bad
    assert "1 lost" in row(plan, Tally(comparison=Comparison(lost=1))).lost
