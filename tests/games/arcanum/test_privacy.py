"""Issue 3: no hidden card, hand content or hidden Fool reaches the public or another seat, in
any view of a real table during play, undo included.

Seeded world games are played through a ``Table`` (the views people get: state, prompts with
their questions, waiting-for line and feed). After every input, each seat's secrets (its hidden
cards not yet revealed, and any card the referee knows to be in its hand) must appear nowhere in
what the public and the other seats are shown, except in the history of earlier fame phases (a
card revealed there may be reshuffled, drawn and hidden again later). Now and then the input is
undone and re-applied, and the views after the undo are checked the same way.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from scorekeeper.core.game import PUBLIC, Audience
from scorekeeper.core.inputs import Undo
from scorekeeper.core.table import Table, TableConfig
from scorekeeper.games import find_game
from scorekeeper.sim import find_world

GAME = find_game("arcanum")


def _shown(table: Table, audience: Audience) -> str:
    view = table.view(audience)
    view["state"] = {k: v for k, v in view["state"].items() if k != "history"}
    view["feed"] = [e for e in view["feed"] if e["seq"] == table.inputs_seen]
    return json.dumps(view)


def _check(table: Table, seats: int, where: str) -> None:
    state = table.state
    shown = {a: _shown(table, a) for a in (PUBLIC, *range(seats))}
    fool_hidden = any("major_00" in GAME.secrets(state, s) for s in range(seats))
    for seat in range(seats):
        secrets = GAME.secrets(state, seat)
        for audience, text in shown.items():
            if audience == seat:
                continue
            leaked = sorted(c for c in secrets if f'"{c}"' in text or f" {c}" in text)
            assert not leaked, f"{where}: {audience} sees seat {seat}'s {leaked}"
    public = json.loads(shown[PUBLIC])
    assert all(p["id"] != "fool" for p in public["pending"]), where
    if fool_hidden and public["state"]["phase"] == "fame":
        assert "fool" not in public["waiting_for"].lower(), where


@pytest.mark.parametrize("seed", range(9))
def test_nothing_secret_reaches_another_screen(seed: int) -> None:
    seats = 3 + seed % 3
    options: dict[str, Any] = {"length": "long"} if seed % 2 else {}
    table = Table(
        TableConfig(
            game="arcanum",
            seats=tuple(f"P{i}" for i in range(seats)),
            options=options,
            layout=GAME.default_layout(seats),
        ),
        GAME,
    )
    world = find_world("arcanum")(seats, options, seed)
    rng = random.Random(seed)
    for n, inp in enumerate(world.inputs(), start=1):
        assert table.submit(inp).accepted, f"seed {seed}: {inp.to_str()}"
        _check(table, seats, f"seed {seed}, input {n} {inp.to_str()}")
        if rng.random() < 0.05 and not GAME.is_over(table.state):
            assert table.submit(Undo()).accepted
            _check(table, seats, f"seed {seed}, undo of input {n}")
            assert table.submit(inp).accepted
    assert GAME.is_over(table.state)
