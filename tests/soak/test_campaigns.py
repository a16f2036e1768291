"""Each make soak campaign once with a tiny count (the real counts run only in make soak), and
the checks that make a campaign fail when something is lost, leaked or crashes."""

from __future__ import annotations

import json
import logging
import random
import tomllib
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.core.game import ORGANISER, PUBLIC
from scorekeeper.core.inputs import Seen, Undo
from scorekeeper.core.table import Table, TableConfig
from scorekeeper.games import find_game
from soak import api_cases, frames, kills, leaks, memory, unplugs
from soak.report import Row


def _quiet(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.CRITICAL, logger="scorekeeper")


def _passed(row: Row) -> None:
    assert row.ok and row.ran, (row.lost, row.problems)


# -- tiny runs of the real campaigns ---------------------------------------------------------


@pytest.mark.slow
def test_kills_one_kill_and_restart_loses_nothing(tmp_path: Path) -> None:
    row = kills.run(1, seed=3, workdir=tmp_path, progress=print)
    _passed(row)
    assert row.done.startswith("1 kill, ")
    assert row.lost == "0 lost, 0 altered, 0 views differ"


def test_fuzzed_frames_a_few_hundred(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    _quiet(caplog)
    row = frames.run(400, seed=3, workdir=tmp_path, progress=print)
    _passed(row)
    assert row.done.startswith("400 frames in process + ")


def test_unplugs_two(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    _quiet(caplog)
    row = unplugs.run(2, seed=3, workdir=tmp_path, progress=print)
    _passed(row)
    assert row.done.startswith("2 unplugs, ")


@pytest.mark.slow
def test_leaks_two_short_games_through_a_served_hub(tmp_path: Path) -> None:
    row = leaks.run(2, seed=3, workdir=tmp_path, progress=print, inputs_per_game=30)
    _passed(row)
    assert " in 2 games " in row.done


@pytest.mark.slow
def test_api_cases_on_one_operation_with_and_without_the_token(tmp_path: Path) -> None:
    row = api_cases.run(
        1, seed=3, workdir=tmp_path, progress=print, paths=r"^/api/tables/\{table_id\}/undo$"
    )
    _passed(row)
    assert row.lost == "0 server errors"
    cases = int(row.done.split()[0])
    assert cases > 2  # both runs made cases
    for label in ("without", "with"):
        report = json.loads((tmp_path / f"report-{label}.json").read_text())
        assert report["operations"]["selected"] == 1


@pytest.mark.slow
def test_oversized_requests_are_refused_within_the_budget(tmp_path: Path) -> None:
    out = memory.oversized(6, tmp_path, print)
    assert out["sent"] == 6 and out["wrong"] == 0, out["problems"]
    assert out["peak_mb"] <= memory.BUDGET_MB


# -- the checks fail when they should ----------------------------------------------------------


def test_frames_counts_a_crash_and_a_broken_check(monkeypatch: pytest.MonkeyPatch) -> None:
    import fuzz.targets

    def crash(data: bytes) -> None:
        raise IndexError("out of range")

    def broken(data: bytes) -> None:
        raise AssertionError("a tag the bridge announced never arrived")

    monkeypatch.setattr(fuzz.targets, "fuzz_codec", crash)
    monkeypatch.setattr(fuzz.targets, "fuzz_serial", broken)
    tally = frames.in_process(20, random.Random(1), print)
    assert tally["frames"] == 20
    assert tally["crashes"] == tally["lost"] == tally["cases"] > 0
    said = "\n".join(tally["problems"])
    assert "the codec raised IndexError" in said and "the serial backend broke its check" in said


def test_frames_junk_never_holds_a_good_frame() -> None:
    from firmware_bridge import protocol as p
    from fuzz.targets import reference_frames

    rng = random.Random(7)
    for _ in range(300):
        data, n = frames.junk(rng)
        assert n >= 1 and data.endswith(bytes((p.FLAG,)))
        assert reference_frames(bytes((p.FLAG,)) + data) == []
    assert sum(n for _, n in frames.cases(rng, 50)) == 50


def test_kills_an_acknowledged_input_missing_or_changed_is_counted() -> None:
    tally = kills.Tally()
    player = kills.Player(random.Random(1), tally)
    game = kills.Game(
        "t1", [], acked={1: Seen("play", "C1", True), 2: Undo(), 3: Seen("play", "C2", True)}
    )
    player._compare_records(
        game,
        {
            1: {"type": "seen", "zone": "play", "piece": "C1", "present": True, "typed": True},
            2: {"type": "undo"},
            3: {"type": "seen", "zone": "play", "piece": "C9", "present": True, "typed": True},
        },
    )
    assert (tally.lost, tally.altered) == (0, 1)
    player._compare_records(
        game, {1: {"type": "seen", "zone": "play", "piece": "C1", "present": False}}
    )
    assert (tally.lost, tally.altered) == (2, 3)  # 2 and 3 gone; 1 altered and changed


def _a_state_with_secrets() -> tuple[Table, dict[int, leaks.Secrets], int]:
    """An Angels & Demons table played until a seat holds a card the referee knows of."""
    game = find_game("angels-and-demons")
    inputs = leaks._world("angels-and-demons", 3, {}, 5)
    table = Table(
        TableConfig(game="angels-and-demons", seats=("A", "B", "C"), layout=game.default_layout(3)),
        game,
    )
    states = {}
    for inp, deck in inputs:
        assert table.submit(inp).accepted
        secrets = [frozenset(game.secrets(table.state, s)) for s in range(3)]
        states[table.inputs_seen] = leaks.Secrets(secrets, deck)
        holder = next((s for s in range(3) if secrets[s]), None)
        if holder is not None:
            return table, states, holder
    raise AssertionError("no seat ever held a known card")


def test_leaks_a_seat_secret_or_a_deck_card_in_a_view_is_found() -> None:
    table, states, holder = _a_state_with_secrets()
    other = (holder + 1) % 3

    def text(audience: Any) -> str:
        return json.dumps(table.view(audience))

    assert leaks.leaks_in(text(PUBLIC), "public", states) == []
    assert leaks.leaks_in(text(holder), f"seat {holder}", states) == []
    assert leaks.leaks_in(text(other), f"seat {other}", states) == []
    # the organiser's view holds the seat's card: shown to the public or another seat, a leak
    secret = sorted(states[table.inputs_seen].seats[holder])[0]
    assert f"seat {holder}'s {secret}" in leaks.leaks_in(text(ORGANISER), "public", states)
    assert leaks.leaks_in(text(ORGANISER), f"seat {other}", states)
    # a face-down deck card anywhere in a seat's view is a leak too
    view = table.view(other)
    card = sorted(states[table.inputs_seen].deck)[0]
    view["state"]["note"] = f"next: {card}"
    assert leaks.leaks_in(json.dumps(view), f"seat {other}", states) == [f"deck card {card}"]
    # a view of a state that was never played cannot be checked: said so
    view["inputs"] = 10_000
    assert "never played" in leaks.leaks_in(json.dumps(view), "public", states)[0]


def test_leaks_old_history_and_earlier_feed_lines_are_left_out() -> None:
    table, states, holder = _a_state_with_secrets()
    secret = sorted(states[table.inputs_seen].seats[holder])[0]
    view = table.view(PUBLIC)
    view["state"]["history"] = [{"shown": [secret]}]
    view["feed"] = [{"seq": 1, "events": [f"played {secret}"]}]
    assert leaks.leaks_in(json.dumps(view), "public", states) == []
    view["feed"] = [{"seq": table.inputs_seen, "events": [f"played {secret}"]}]
    assert leaks.leaks_in(json.dumps(view), "public", states) == [f"seat {holder}'s {secret}"]


def test_api_cases_a_5xx_or_an_unanswered_request_is_a_server_error() -> None:
    report = {
        "test_cases": {"generated": 120, "with_failures": 2, "errored": 1},
        "failures": [{"operation": "POST /api/pair", "status_code": 500}],
        "errors": [],
    }
    cases, errors, problems = api_cases.tally(report, "without a token")
    assert (cases, errors) == (120, 3)
    assert "POST /api/pair" in problems[0]
    clean = {"test_cases": {"generated": 40, "with_failures": 0, "errored": 0}}
    assert api_cases.tally(clean, "x") == (40, 0, [])


def test_api_cases_draw_table_ids_from_the_real_ones() -> None:
    config = tomllib.loads(api_cases.config(["t1", "t3"]))
    assert config["dictionaries"]["tables"]["values"] == ["t1", "t3"]
    assert config["parameters"]["path.table_id"]["dictionary"] == "tables"
