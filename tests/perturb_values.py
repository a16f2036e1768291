"""The information-set check for private values that are not pieces (a seat's gold).

tests/perturb.py swaps a seat's hidden pieces in the inputs and replays both histories through
the hub. A private number is not in any input a reader sees, so it is changed in the state
instead, through the game's own contract (``Game.private_values``, ``private_range``,
``perturb_private``): at every state of a played game, for every seat and every value it
declares, each other value the others could believe is set, and the table is played on from
there with the same inputs for up to ``HORIZON`` of them. Every audience but that seat and the
organiser (the public, every other seat) must get the same bytes from ``Table.view`` (the
game's view, prompts, scores, waiting line and feed) at every step as in the played history.

Where the two histories may part legitimately, the comparison stops, counted in
``Report.cut``: an input accepted in one and refused in the other (a purchase the changed gold
could not pay: a refusal is news to everyone, and the rules say who may hear it), and an undo
reaching back before the change (the perturbed table starts at the changed state with no
history: ``Referee.restart_from``). It also stops where the changed value stops being private
(``private_values`` no longer declares it: King of the Elves shows every purse at the end),
counted in ``Report.released``.

Compared at the table, not the hub: the hub's journal and delayed views are fed by the same
inputs in both histories, and the table's view is what every hub output is built from.
"""

from __future__ import annotations

import collections
import copy
import json
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.core.game import PUBLIC, Audience, Game
from scorekeeper.core.inputs import Correct, Undo
from scorekeeper.core.table import Table, TableConfig
from scorekeeper.core.walker import walk
from tests.perturb import Op, Played, table_options

HORIZON = 12  # inputs played on after each change
CONTEXT = 70  # characters shown either side of the first differing byte


def played_by_walk(
    game: Game[Any], seats: int, seed: int, max_steps: int = 400, mixed: float = 0.1
) -> Played:
    """A seeded random walk (core/walker.py) as a played game, for a game with no simulated
    world: a share ``mixed`` of its steps are undos, as many corrections."""
    done = walk(
        game,
        seats,
        seed,
        options=table_options(game),
        max_steps=max_steps,
        undo=mixed,
        correct=mixed,
    )
    ops = [Op(s.inp, pinned=isinstance(s.inp, Undo | Correct)) for s in done.steps]
    return Played(game, seats, seed, done.options, ops, list(done.states))


@dataclass
class Report:
    """How much was compared: private values met, other values tried, steps compared, and
    comparisons cut short where the histories may part (module docstring)."""

    keys: set[str] = field(default_factory=set)
    values: int = 0
    tried: int = 0
    steps: int = 0
    cut: int = 0
    released: int = 0

    def __str__(self) -> str:
        return (
            f"private values {sorted(self.keys) or 'none declared'}: {self.values} met, "
            f"{self.tried} other values tried, {self.steps} steps compared, {self.cut} cut short, "
            f"{self.released} ended where the value became public"
        )


@dataclass
class ValueDifference:
    """The first thing an audience got differently with a seat's private value changed."""

    seat: int
    key: str
    value: Any
    other: Any
    start: int
    step: int
    audience: str
    original: str
    changed: str
    op: Op | None

    def __str__(self) -> str:
        i = next(
            (
                n
                for n, (a, b) in enumerate(zip(self.original, self.changed, strict=False))
                if a != b
            ),
            min(len(self.original), len(self.changed)),
        )
        lo = max(0, i - CONTEXT)
        after = f" after {self.op.to_str()!r}" if self.op is not None else ""
        return (
            f"seat {self.seat}'s private {self.key} set from {self.value!r} to {self.other!r} at "
            f"state {self.start} changed what {self.audience} got at state {self.step}{after}; "
            f"first differing byte {i}:\n"
            f"  original : {self.original[lo : i + CONTEXT]!r}\n"
            f"  perturbed: {self.changed[lo : i + CONTEXT]!r}"
        )


def _table(played: Played) -> Table:
    game = played.game
    names = tuple(f"P{i}" for i in range(played.seats))
    config = TableConfig(game.id, names, played.options, game.default_layout(played.seats))
    return Table(config, game)


def _fork(table: Table) -> Table:
    """A table to play on apart from ``table``: its own referee, feed, score history and
    every other list, dict, set or deque it holds (their items are frozen values, shared).
    A deep copy would do and costs ten times as much."""
    twin = copy.copy(table)
    for name, value in vars(table).items():
        if isinstance(value, list | dict | set | collections.deque):
            setattr(twin, name, copy.copy(value))
    twin.referee = copy.copy(table.referee)
    twin.listeners = []
    return twin


def _shown(table: Table, audiences: tuple[Audience, ...]) -> dict[Audience, str]:
    return {a: json.dumps(table.view(a)) for a in audiences}


def _who(audience: Audience) -> str:
    return "the public" if audience == PUBLIC else f"seat {audience}"


def check_private(
    played: Played, horizon: int = HORIZON, limit: int = 5
) -> tuple[list[ValueDifference], Report]:
    """Change every private value of every seat in every state of ``played`` to each other
    value of its range, play on, and return the differences others got (at most one per
    change, ``limit`` in all) with what was compared. A game declaring none costs a scan."""
    game, seats = played.game, played.seats
    report = Report()
    found: list[ValueDifference] = []
    if not any(game.private_values(s, t) for s in played.states for t in range(seats)):
        return found, report
    everyone: tuple[Audience, ...] = (PUBLIC, *range(seats))
    table = _table(played)
    shown = [_shown(table, everyone)]
    accepted: list[bool] = []
    for op in played.ops:
        accepted.append(table.submit(op.inp).accepted)
        shown.append(_shown(table, everyone))
    assert table.state == played.states[-1], "the table did not replay the played game"
    table = _table(played)
    for k, state in enumerate(played.states):
        if k:
            table.submit(played.ops[k - 1].inp)
        for seat in range(seats):
            others = tuple(a for a in everyone if a != seat)
            for key, value in game.private_values(state, seat).items():
                report.keys.add(key)
                report.values += 1
                for other in game.private_range(state, seat, key):
                    if other == value:
                        continue
                    report.tried += 1
                    changed = game.perturb_private(state, seat, key, other)
                    assert game.private_values(changed, seat).get(key) == other, (
                        f"{game.id}: perturb_private did not set {key} to {other!r}"
                    )
                    twin = _fork(table)
                    twin.referee.restart_from(changed)
                    diff = _follow(
                        played, twin, k, (seat, key), others, shown, accepted, horizon, report
                    )
                    if diff is not None:
                        found.append(ValueDifference(seat, key, value, other, k, *diff))
                        if len(found) >= limit:
                            return found, report
    return found, report


def _follow(
    played: Played,
    twin: Table,
    start: int,
    changed: tuple[int, str],
    others: tuple[Audience, ...],
    shown: list[dict[Audience, str]],
    accepted: list[bool],
    horizon: int,
    report: Report,
) -> tuple[int, str, str, str, Op | None] | None:
    """Play ``twin`` on from state ``start`` and compare what ``others`` get with the played
    history; the first difference as (state, audience, original, changed, op), or None.
    ``changed`` is the (seat, key) changed: once the game no longer declares it private, the
    comparison ends (the value is everyone's now)."""
    seat, key = changed
    for step in range(start, min(start + horizon, len(played.states) - 1) + 1):
        op = played.ops[step - 1] if step > start else None
        if op is not None and twin.submit(op.inp).accepted != accepted[step - 1]:
            report.cut += 1
            return None
        if key not in played.game.private_values(twin.state, seat):
            report.released += 1
            return None
        report.steps += 1
        got = _shown(twin, others)
        for audience in others:
            if got[audience] != shown[step][audience]:
                return step, _who(audience), shown[step][audience], got[audience], op
    return None
