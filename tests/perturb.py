"""The information-set check: privacy proven by perturbation (docs/design.md, invariant 5).

What one seat alone may know must change nothing that anyone else is shown. For each seat, a
second history is built that differs from a played one only in that seat's secrets, and both
are played through the real ``Hub``; every other audience must get the same bytes at every step:
the live public view (the TV), the spectators' delayed view and WebSocket frames, every other
seat's view and frames (prompts and feed included), the table list line, and the journal (the
hub's log lines at INFO). This is the check OpenSpiel-style frameworks make with information
states; the piece-id scans (tests/test_conformance.py, tests/games/arcanum/test_privacy.py) stay
as a second line.

How the second history is made. A piece's *private life* for seat ``s`` is a run of states in
which it is one of ``Game.secrets(state, s)``. A life can be perturbed when, just before it
starts, the piece was out of everyone's sight (no seat's secret and not shown to the public:
``Game.locate`` says "" where the game tracks pieces, else the public view does not name it at
all), and when ``Game.hidden_kind_for`` gives it a kind: the piece is then replaced, in every input
of its life (a decision's answer included), by a *partner* of the same kind that is out of
sight and named by no input all along (a card nobody has seen), or, when there is none, it
trades places with another of the seat's own hidden pieces of its kind, each out of sight
whenever it is not hidden. A life that ends with the piece out of
sight again (back in a hand the referee forgets) is swapped for its whole length and play goes
on; a life that ends in public (a fame phase reveals it) ends the comparison just before:
from there on the two histories differ in public, legitimately. Later lives are covered by
further runs that begin comparing where the previous one stopped, so that every state in which
a seat has a perturbable secret is compared once with all of them swapped.

The played history mixes in what happens at real tables: pinned undos (the console's preview),
corrections (the same card read again, and a hide misread as another card of its kind, then
corrected) and stray pieces laid on random zones (refused, or accepted and undone). The hub
runs on an in-memory SQLite store (the same code; no fsync to wait for) with a fake clock for
the spectator delay; its event loop is never run: it is bound on this thread, so each change
reaches the watchers' mailboxes at once.

A life that starts in sight (Angels & Demons: a card taken from the face-up talon) is no secret
of one seat in the information-set sense: the public saw it go into the hand. Such lives, and
those of pieces with no kind (Arcanum's Fool), are counted in ``Plan.skipped`` with the reason.

Private values that are no piece (a seat's gold: ``Game.private_values``) are not in any input;
tests/perturb_values.py changes them in the state instead, on the same played games, and
tests/test_privacy_perturbation.py runs both checks over every registered game.
"""

from __future__ import annotations

import asyncio
import bisect
import collections
import json
import logging
import random
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.core.game import PUBLIC, Audience, Game
from scorekeeper.core.inputs import Correct, Decision, Input, Seen, Undo
from scorekeeper.core.table import Table, TableConfig
from scorekeeper.games import find_game
from scorekeeper.service.hub import Hub, store_class
from scorekeeper.sim import find_world

DELAY = 2.0  # the spectator delay, in steps of the fake clock (one step per input)
UNDO = 0.04  # share of world inputs taken back by a pinned undo and played again
CONFIRM = 0.03  # share corrected by the same input read again (a confirmation)
MISREAD = 0.5  # share of hides first misread as another card of the kind, then corrected
GARBAGE = 0.03  # share of steps at which a stray piece lands on a random zone
CONTEXT = 70  # characters shown either side of the first differing byte

# Step indices: state k is the table after the first k operations; op k leads from state k to
# state k + 1. The outputs of state k are what each audience holds once op k - 1 is applied.


@dataclass(frozen=True, slots=True)
class Op:
    """One thing done to the table: an input, possibly an undo or correction pinned to the
    input it takes back (``Hub.submit(expect_seq=...)``, as the console's preview does)."""

    inp: Input
    pinned: bool = False

    def to_str(self) -> str:
        return self.inp.to_str() + (" (pinned)" if self.pinned else "")


@dataclass
class Played:
    """A seeded game as played: its operations and the referee's state after each."""

    game: Game
    seats: int
    seed: int
    options: dict[str, Any]
    ops: list[Op]
    states: list[Any]  # states[k]: after ops[:k]


def table_options(game: Game) -> dict[str, Any]:
    """The options a table is created with: the defaults, including those a person is asked
    for (an Arcanum board profile), which the hub does not fill in by itself."""
    return {o.name: o.default for o in game.options if o.ask}


def play(game_id: str, seats: int, seed: int) -> Played:
    """Play the seeded world's game on a table, with undos (pinned), confirmations, misread
    hides corrected, and stray pieces (refused, or taken back by an undo) mixed in."""
    game = find_game(game_id)
    options = table_options(game)
    names = tuple(f"P{i}" for i in range(seats))
    table = Table(
        TableConfig(game=game.id, seats=names, options=options, layout=game.default_layout(seats)),
        game,
    )
    world = find_world(game_id)(seats, options, seed)
    rng = random.Random(f"perturb {game_id} {seed}")
    ops: list[Op] = []
    states: list[Any] = [table.state]
    seen: set[str] = set()
    zones = game.zones(seats)
    pieces = game.pieces()

    def do(op: Op) -> bool:
        result = table.submit(op.inp)
        ops.append(op)
        states.append(table.state)
        return result.accepted

    for inp in world.inputs():
        if isinstance(inp, Seen):
            seen.add(inp.piece)
        kind = (
            game.hidden_kind_for(inp.piece, options)
            if isinstance(inp, Seen) and inp.present
            else None
        )
        if (
            isinstance(inp, Seen)
            and kind is not None
            and rng.random() < MISREAD
            and _hides(game, table, inp)
        ):
            others = [
                p for p in pieces if p not in seen and game.hidden_kind_for(p, options) == kind
            ]
            if others and do(Op(Seen(inp.zone, rng.choice(others), True))):
                assert do(Op(Correct(inp), pinned=True)), inp.to_str()
                continue
        assert do(Op(inp)), f"seed {seed}: {inp.to_str()} refused"
        if rng.random() < UNDO and not game.is_over(table.state):
            assert do(Op(Undo(), pinned=True))
            assert do(Op(inp))
        elif rng.random() < CONFIRM and not game.is_over(table.state):
            assert do(Op(Correct(inp), pinned=True))
        if rng.random() < GARBAGE and not game.is_over(table.state):
            stray = Seen(rng.choice(zones), rng.choice(pieces), True)
            if do(Op(stray)):
                assert do(Op(Undo(), pinned=True))
    assert game.is_over(table.state), f"seed {seed}: the game did not end"
    return Played(game, seats, seed, options, ops, states)


def _hides(game: Game, table: Table, inp: Seen) -> bool:
    """Whether ``inp`` would make its piece one seat's secret (a card laid face down)."""
    outcome = game.observe(table.state, inp)
    after = getattr(outcome, "state", None)
    return after is not None and any(
        inp.piece in game.secrets(after, s) for s in range(len(table.config.seats))
    )


# -- planning: the private lives of each seat, and the runs that swap them ---------------------


@dataclass(frozen=True, slots=True)
class Life:
    """``piece`` is one of ``seat``'s secrets in states ``start`` … ``end - 1``. ``public``:
    it is shown in public at state ``end`` (else it is out of sight again, or the game ended)."""

    seat: int
    piece: str
    start: int
    end: int
    public: bool


@dataclass
class Run:
    """One perturbed history: ``swaps`` (piece, partner, first op, last op + 1) applied to the
    played operations; outputs compared in states ``compare_from`` … ``stop - 1``."""

    seat: int
    swaps: list[tuple[str, str, int, int]]
    compare_from: int
    stop: int

    def mapping(self, op_index: int) -> dict[str, str]:
        return {p: u for p, u, a, b in self.swaps if a <= op_index < b}


@dataclass
class Plan:
    """Every seat's runs, and the secret lives left unswapped, counted by reason."""

    runs: list[Run] = field(default_factory=list)
    lives: int = 0
    swapped: int = 0  # lives swapped (a long life counts once per run it is swapped in)
    skipped: dict[str, int] = field(default_factory=dict)
    secret_states: int = 0  # (seat, state) pairs with at least one secret
    covered_states: int = 0  # ... compared with every secret of that seat swapped


def _mentions(op: Op) -> set[str]:
    """Every piece an operation names (a decision's answer may name hidden cards)."""
    inp = op.inp.replacement if isinstance(op.inp, Correct) else op.inp
    if isinstance(inp, Seen):
        return {inp.piece}
    if isinstance(inp, Decision):
        return set(re.split(r"[^\w]+", inp.answer))
    return set()


class _Sight:
    """Which pieces are in anyone's sight in each state: a seat's secret, somewhere the game
    tracks it (``Game.locate``), or, for a piece the game does not locate, named anywhere in
    the public view (its records of past rounds included: cautious, as a swap with a piece in
    sight would make a history the public could tell apart, and a false alarm)."""

    def __init__(self, played: Played) -> None:
        game = played.game
        self.secrets: list[list[frozenset[str]]] = []
        self.named: list[collections.Counter[str]] = []  # strings of the whole public view
        self.visible: list[frozenset[str]] = []
        pieces = game.pieces()
        for state in played.states:
            secrets = [game.secrets(state, s) for s in range(played.seats)]
            named = collections.Counter(_strings(game.view(state, PUBLIC)))
            self.named.append(named)
            # A card a record of past rounds names may still lie where the referee knows it
            # (a revealed card not yet carried to its pile): in sight, to be safe.
            public = set(named)
            seen: set[str] = set().union(*secrets)
            for piece in pieces:
                where = game.locate(state, piece)
                if where or (where is None and piece in public):
                    seen.add(piece)
            self.secrets.append(secrets)
            self.visible.append(frozenset(seen))
        self.when: dict[str, list[int]] = {}
        for k, seen_now in enumerate(self.visible):
            for piece in seen_now:
                self.when.setdefault(piece, []).append(k)

    def out_of_sight(self, k: int, piece: str) -> bool:
        return piece not in self.visible[k]

    def shown(self, k: int, piece: str) -> bool:
        """Whether state ``k`` shows ``piece`` in public: somewhere in sight, or named once
        more than before anywhere in the public view (a fame phase's record of it)."""
        return not self.out_of_sight(k, piece) or (
            k > 0 and self.named[k][piece] > self.named[k - 1][piece]
        )

    def unseen_between(self, piece: str, first: int, last: int) -> bool:
        """Out of sight in every state from ``first`` to ``last``."""
        states = self.when.get(piece, [])
        i = bisect.bisect_left(states, first)
        return i == len(states) or states[i] > last


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for k, v in value.items():
            yield str(k)
            yield from _strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _strings(v)


def lives(played: Played, sight: _Sight) -> list[Life]:
    """Every private life of every seat's secrets in the played game."""
    out: list[Life] = []
    last = len(played.states)
    for seat in range(played.seats):
        open_: dict[str, int] = {}
        for k in range(last + 1):
            now = sight.secrets[k][seat] if k < last else frozenset()
            for piece in [p for p in open_ if p not in now]:
                start = open_.pop(piece)
                public = k < last and sight.shown(k, piece)
                out.append(Life(seat, piece, start, k, public))
            for piece in now:
                open_.setdefault(piece, k)
    return out


def plan(played: Played) -> Plan:
    """The runs that swap every perturbable secret life, seat by seat (module docstring)."""
    game, ops = played.game, played.ops
    sight = _Sight(played)
    everything = lives(played, sight)
    named: dict[str, list[int]] = {}
    for j, op in enumerate(ops):
        for piece in _mentions(op):
            named.setdefault(piece, []).append(j)  # in op order: bisect finds a range
    result = Plan(lives=len(everything))
    kinds = {p: game.hidden_kind_for(p, played.options) for p in game.pieces()}
    ok: list[Life] = []
    for life in everything:
        if life.start == 0 or not sight.out_of_sight(life.start - 1, life.piece):
            reason = "in sight before it was a secret"
        elif kinds.get(life.piece) is None:
            reason = "no piece of its kind (Game.hidden_kind_for)"
        else:
            ok.append(life)
            continue
        result.skipped[reason] = result.skipped.get(reason, 0) + 1
    rng = random.Random(f"partners {played.seed}")
    pool = [p for p, kind in kinds.items() if kind is not None]
    last = len(played.states)
    for seat in range(played.seats):
        mine = [life for life in ok if life.seat == seat]
        every = [life for life in everything if life.seat == seat]
        begin = 0
        while begin < last:
            # The lives still secret at ``begin`` or later; the run stops where the first of
            # them is shown in public (from there on the histories differ in public).
            live = [life for life in mine if life.end > begin]
            if not live:
                break
            stop = min((life.end for life in live if life.public), default=last)
            live = [life for life in live if life.start < stop]
            run = Run(seat, [], max(begin, min(life.start for life in live)), stop)
            taken: list[tuple[str, int, int]] = []
            done: set[Life] = set()
            order = sorted(live, key=lambda x: (x.start, x.piece))
            for life in order:
                if life in done:
                    continue
                first, end = life.start - 1, min(life.end, stop)  # ops first .. end - 1
                partner = _partner(kinds, life, first, end, pool, named, sight, taken, rng)
                if partner is not None:
                    taken.append((partner, first, end))
                    run.swaps.append((life.piece, partner, first, end))
                    done.add(life)
                    continue
                # No card out of sight all along: swap it with another of the seat's own
                # hidden cards of its kind ("with each other").
                other = next(
                    (
                        m
                        for m in order
                        if m not in done
                        and m is not life
                        and _pairs(kinds, life, m, stop, named, sight, taken)
                    ),
                    None,
                )
                if other is None:
                    key = "no partner out of sight all along"
                    result.skipped[key] = result.skipped.get(key, 0) + 1
                    continue
                first = min(life.start, other.start) - 1
                end = max(min(life.end, stop), min(other.end, stop))
                taken += [(life.piece, first, end), (other.piece, first, end)]
                run.swaps += [
                    (life.piece, other.piece, first, end),
                    (other.piece, life.piece, first, end),
                ]
                done |= {life, other}
            if run.swaps:
                result.runs.append(run)
                result.swapped += len(done)
                for k in range(run.compare_from, stop):
                    result.covered_states += all(
                        life in done for life in every if life.start <= k < life.end
                    )
            begin = stop
    result.secret_states = sum(1 for k in range(last) for secret in sight.secrets[k] if secret)
    return result


def _partner(
    kinds: Mapping[str, str | None],
    life: Life,
    first: int,
    end: int,
    pool: list[str],
    named: dict[str, list[int]],
    sight: _Sight,
    taken: list[tuple[str, int, int]],
    rng: random.Random,
) -> str | None:
    """A piece of ``life``'s kind that no op ``first`` … ``end - 1`` names, out of sight in
    every state ``first`` … ``end``, and not standing in for another life then; preferably one
    no op of the game names at all."""
    kind = kinds.get(life.piece)
    fits: list[str] = []
    never: list[str] = []
    for piece in pool:
        if piece == life.piece or kinds.get(piece) != kind:
            continue
        if any(p == piece and a < end and first < b for p, a, b in taken):
            continue
        ops = named.get(piece, [])
        i = bisect.bisect_left(ops, first)
        if i < len(ops) and ops[i] < end:
            continue
        if not sight.unseen_between(piece, first, end):
            continue
        (fits if ops else never).append(piece)
    choice = never or fits
    return rng.choice(choice) if choice else None


def _pairs(
    kinds: Mapping[str, str | None],
    one: Life,
    other: Life,
    stop: int,
    named: dict[str, list[int]],
    sight: _Sight,
    taken: list[tuple[str, int, int]],
) -> bool:
    """Whether two of a seat's hidden pieces can trade places over both their lives: of one
    kind, used for nothing else then, and each out of sight whenever it is not hidden: named
    by no op outside its own life, in nobody's sight outside it."""
    if one.piece == other.piece or kinds.get(one.piece) != kinds.get(other.piece):
        return False
    first = min(one.start, other.start) - 1
    end = max(min(one.end, stop), min(other.end, stop))
    for life in (one, other):
        if any(p == life.piece and a < end and first < b for p, a, b in taken):
            return False
        mine = range(life.start - 1, min(life.end, stop))
        if any(first <= j < end and j not in mine for j in named.get(life.piece, ())):
            return False
        if not all(
            sight.out_of_sight(k, life.piece)
            for k in range(first, end + 1)
            if not life.start <= k < life.end
        ):
            return False
    return True


def perturbed(op: Op, mapping: Mapping[str, str]) -> Op:
    """``op`` with every piece of ``mapping`` replaced by its partner."""
    if not mapping:
        return op
    inp = op.inp
    inner = inp.replacement if isinstance(inp, Correct) else inp
    if isinstance(inner, Seen):
        inner = Seen(inner.zone, mapping.get(inner.piece, inner.piece), inner.present)
    elif isinstance(inner, Decision):
        pattern = re.compile(r"(?<!\w)(" + "|".join(map(re.escape, mapping)) + r")(?!\w)")
        inner = Decision(
            inner.seat, inner.prompt, pattern.sub(lambda m: mapping[m[1]], inner.answer)
        )
    else:
        return op
    return Op(Correct(inner) if isinstance(inp, Correct) else inner, op.pinned)


# -- playing through the hub and comparing ---------------------------------------------------


class _Journal(logging.Handler):
    """The hub's log lines at INFO and above, with their extra fields, as text."""

    _PLAIN = frozenset(logging.LogRecord("", 0, "", 0, "", (), None).__dict__) | {"message"}

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        extra = {k: v for k, v in record.__dict__.items() if k not in self._PLAIN}
        self.lines.append(
            f"{record.levelname} {record.name} {record.getMessage()} "
            + json.dumps(extra, sort_keys=True, default=str)
        )

    def take(self) -> str:
        out, self.lines = "\n".join(self.lines), []
        return out


class Watched:
    """One hub with one table of the played game, and what each audience has received."""

    def __init__(self, played: Played, loop: asyncio.AbstractEventLoop, journal: _Journal) -> None:
        self.now = 0.0
        self.hub = Hub(store_class()("sqlite://"), clock=lambda: self.now)
        self.hub.bind_loop(loop)
        self.journal = journal
        self.table = self.hub.create_table(
            played.game.id, [f"P{i}" for i in range(played.seats)], options=played.options
        )
        self.hub.start(self.table)
        self.frames: dict[Audience, list[str]] = {}
        self.log = journal.take()
        self.watching: tuple[Audience, ...] = ()

    def watch(self, audiences: tuple[Audience, ...]) -> None:
        """Start watching: the spectator delay goes on, a WebSocket watcher per audience."""
        self.hub.set_spectator_delay(self.table, DELAY)
        self.journal.take()  # its log line is the organiser's doing, not the game's
        self.watching = audiences
        for audience in audiences:
            sub = self.hub.subscribe(self.table, audience)
            got = self.frames.setdefault(audience, [])
            offer = sub.offer

            def record(
                version: int, payload: str, sub: Any = sub, offer: Any = offer, got: list[str] = got
            ) -> None:
                before = sub.version
                offer(version, payload)
                if sub.version != before:
                    got.append(payload)

            sub.offer = record  # type: ignore[method-assign]

    def apply(self, op: Op, step: int) -> bool:
        """Apply ``op`` (leading to state ``step``); whether it was accepted."""
        self.now = float(step)
        expect = None
        if op.pinned:
            expect = self.hub.table(self.table).last_accepted_seq or 0
        done = self.hub.submit(self.table, op.inp, expect_seq=expect)
        self.log = self.journal.take()
        return done.accepted

    def outputs(self) -> dict[str, str]:
        """What each watched audience holds now (frames: those received since last asked)."""
        hub, table = self.hub, self.table
        out = {
            "public view, live (the TV)": json.dumps(hub.view(table, PUBLIC)),
            "public view, delayed (spectators, GET /api/tables)": hub.view_json(table, PUBLIC),
            "table list line (spectators)": json.dumps(hub.summary(table)),
            "table list line (live)": json.dumps(hub.summary(table, delayed=False)),
            "journal (log lines at INFO)": self.log,
        }
        for audience in self.watching:
            who = "spectators" if audience == PUBLIC else f"seat {audience}"
            out[f"WebSocket frames to {who}"] = "\n".join(self.frames[audience])
            self.frames[audience].clear()
            if audience != PUBLIC:
                out[f"view of seat {audience}"] = hub.view_json(table, audience)
        return out

    def close(self) -> None:
        self.hub.close()


@dataclass
class Difference:
    """The first thing an audience got differently in a perturbed history."""

    run: Run
    step: int
    audience: str
    original: str
    changed: str
    op: Op | None
    op_changed: Op | None

    @property
    def at(self) -> int:
        """The index of the first differing character."""
        return next(
            (
                n
                for n, (a, b) in enumerate(zip(self.original, self.changed, strict=False))
                if a != b
            ),
            min(len(self.original), len(self.changed)),
        )

    def before(self, width: int = 200) -> str:
        """The original text just before the first difference (what part of a view it is)."""
        return self.original[max(0, self.at - width) : self.at]

    def __str__(self) -> str:
        i = self.at
        lo = max(0, i - CONTEXT)
        swaps = (
            ", ".join(
                f"{p}->{u}" for p, u, a, b in self.run.swaps if a < self.step and self.step - 1 <= b
            )
            or "none in force"
        )
        op = (
            ""
            if self.op is None
            else (
                f" after op {self.step - 1} {self.op.to_str()!r}"
                + (
                    ""
                    if self.op_changed == self.op or self.op_changed is None
                    else f" (perturbed: {self.op_changed.to_str()!r})"
                )
            )
        )
        return (
            f"seat {self.run.seat}'s secrets swapped ({swaps}) changed what the "
            f"{self.audience} got at step {self.step}{op}; first differing byte {i}:\n"
            f"  original : {self.original[lo : i + CONTEXT]!r}\n"
            f"  perturbed: {self.changed[lo : i + CONTEXT]!r}"
        )


def check(
    played: Played, the_plan: Plan, limit: int = 5, compared: dict[str, int] | None = None
) -> list[Difference]:
    """Play the original and every run of ``the_plan`` through hubs in lockstep and return the
    differences found (at most one per run, at most ``limit`` in all). ``compared``, when
    given, counts per audience the steps at which something it got was compared (so a test
    can tell that no audience went unheard)."""
    if not the_plan.runs:  # nothing one seat alone knows: nothing to compare
        return []
    loop = asyncio.new_event_loop()
    journal = _Journal()
    logger = logging.getLogger("scorekeeper")
    level, propagate = logger.level, logger.propagate
    logger.addHandler(journal)
    logger.setLevel(logging.INFO)
    logger.propagate = False  # thousands of lines: kept out of pytest's report
    found: list[Difference] = []
    hubs: list[Watched] = []
    try:
        everyone: tuple[Audience, ...] = (PUBLIC, *range(played.seats))
        original = Watched(played, loop, journal)
        hubs.append(original)
        original.watch(everyone)
        runs: list[tuple[Run, Watched]] = []
        for run in the_plan.runs:
            watched = Watched(played, loop, journal)
            hubs.append(watched)
            runs.append((run, watched))
        active = list(runs)
        last = len(played.states)
        for step in range(last):
            if step:
                op = played.ops[step - 1]
                accepted = original.apply(op, step)
            base = original.outputs()
            still: list[tuple[Run, Watched]] = []
            for run, watched in active:
                if step >= run.stop:
                    continue
                if step:
                    changed = perturbed(op, run.mapping(step - 1))
                    if watched.apply(changed, step) != accepted:
                        found.append(
                            Difference(
                                run,
                                step,
                                "referee (accepted or refused)",
                                str(accepted),
                                str(not accepted),
                                op,
                                changed,
                            )
                        )
                        continue
                if step < run.compare_from:
                    still.append((run, watched))
                    continue
                if step == run.compare_from:
                    watched.watch(tuple(a for a in everyone if a != run.seat))
                got = watched.outputs()
                warm = step < run.compare_from + DELAY + 1
                diff = next(
                    (
                        a
                        for a, text in got.items()
                        if text != base[a]
                        and not (warm and ("delayed" in a or "spectators" in a))
                        and not (step == run.compare_from and a.startswith("WebSocket"))
                    ),
                    None,
                )
                if compared is not None:
                    for a, text in got.items():
                        compared[a] = compared.get(a, 0) + bool(text)
                if diff is not None:
                    found.append(
                        Difference(
                            run,
                            step,
                            diff,
                            base[diff],
                            got[diff],
                            op if step else None,
                            perturbed(op, run.mapping(step - 1)) if step else None,
                        )
                    )
                    continue
                still.append((run, watched))
            active = still
            if len(found) >= limit:
                break
    finally:
        for watched in hubs:
            watched.close()
        logger.removeHandler(journal)
        logger.setLevel(level)
        logger.propagate = propagate
        loop.close()
    return found


def played_until(
    game_id: str,
    seats: int,
    seed: int,
    instead: Callable[[Any, Seen | Decision], list[Input] | None],
) -> Played:
    """The seeded world's game played on a table (no extras) up to the first input for which
    ``instead(state before it, input)`` gives a list: those inputs are played in its place
    (accepted or refused), and the game stops there."""
    game = find_game(game_id)
    options = table_options(game)
    table = Table(
        TableConfig(
            game=game.id,
            seats=tuple(f"P{i}" for i in range(seats)),
            options=options,
            layout=game.default_layout(seats),
        ),
        game,
    )
    ops: list[Op] = []
    states: list[Any] = [table.state]
    for inp in find_world(game_id)(seats, options, seed).inputs():
        chosen = instead(table.state, inp)
        for one in chosen if chosen is not None else [inp]:
            assert table.submit(one).accepted or chosen is not None, one.to_str()
            ops.append(Op(one, pinned=isinstance(one, Undo | Correct)))
            states.append(table.state)
        if chosen is not None:
            return Played(game, seats, seed, options, ops, states)
    raise AssertionError(f"seed {seed}: no input met the condition")
