"""The Arcanum world: a full-information table played by bots, performed physically.

The world shuffles the real 78-card deck from its seed, places the 16 family pawns, and plays
every round by the rules (docs/rules/arcanum.md, with its rulings and the table
options) with the bots of ``bots.py``. Every move is *performed* as the sightings and
decisions of docs/games/arcanum.md (the contract), in the order a real table produces them. The
world keeps its own scores, computed from what it knows by its own rules code (``rules.py``, no
code shared with the referee), so that a referee fed only these inputs can be checked against it.

Physically, pieces move as hands move them: each is on one zone at a time (``Table.arrive``),
and a move reports its departure before or after its arrival, which the referee ignores. So a
played card is always carried from ``play`` to its discard pile after it resolved, revealed
cards from the hide strips after a fame phase, the Tower off the city: arrivals where the
referee already put the card, which it must take as no-ops; a reshuffled pile's cards leave its
reader. ``noise`` (a probability) adds a few more harmless events: a pawn first put down
elsewhere during setup, a hidden card lifted to be looked at and put back (R-DRAW-5).

Hazard: the flow is a generator. Every change that shows in ``scores()`` or ``is_over()`` is
made *before* the action that causes it is returned; hands may lag behind by the automatic draw
that starts a round.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator, Mapping
from typing import Any, ClassVar

from scorekeeper.core.inputs import Seen
from scorekeeper.games.arcanum.cards import FOOL, PAWNS, TOWER, suit_of
from scorekeeper.sim.arcanum import bots
from scorekeeper.sim.arcanum.majors import Majors
from scorekeeper.sim.arcanum.table import LOCATIONS, Action
from scorekeeper.sim.world import PlayedWorld, WorldInput

DEFAULT_NOISE = 0.3


class ArcanumWorld(Majors, PlayedWorld):
    """One simulated game of Arcanum for 3-5 bots; see the module docstring.

    ``history`` holds one entry per finished fame phase: ``round``, ``kind`` (regular/world),
    ``rows``, ``families`` (in scoring order: ``family``, ``row``, ``cards`` per seat,
    ``awards`` per seat and ``gained``, the VP it actually brought, the Devil's doubling
    included), ``totals`` (awards per seat) and ``gained`` (VP gained per seat).
    ``majors_played``, ``effects`` and ``events`` count what the game exercised.
    """

    game_id: ClassVar[str] = "arcanum"

    def checkpoint(self) -> dict[str, Any]:
        """After a fame phase: its rows, every family's awards and the totals, as the public
        view's ``state.history`` must show them (the VP actually gained, Devil included)."""
        if len(self.history) == getattr(self, "_checked_phases", 0):
            return {}
        self._checked_phases = len(self.history)
        phase = self.history[-1]
        out: dict[str, Any] = {
            "state.history.-1.round": phase["round"],
            "state.history.-1.kind": phase["kind"],
            "state.history.-1.rows": dict(phase["rows"]),
            "state.history.-1.totals": list(phase["gained"]),
        }
        for i, fam in enumerate(phase["families"]):
            out[f"state.history.-1.families.{i}.family"] = fam["family"]
            out[f"state.history.-1.families.{i}.awards"] = list(fam["gained"])
        return out

    def __init__(
        self,
        seats: int,
        options: Mapping[str, Any],
        seed: int,
        *,
        temper: bots.Temper | None = None,
        noise: float = DEFAULT_NOISE,
    ) -> None:
        self._init_table(seats, options, seed, temper or bots.Temper(), noise)
        self.open_turn: int | None = None
        """The seat whose turn is still open: its minor resolved, no major, no ``end_turn``."""
        self._start()

    # -- the World interface ------------------------------------------------------------------

    def next_inputs(self) -> list[WorldInput]:
        """The inputs of the next physical action; empty once the game is over."""
        action = super().next_inputs()
        return self.with_lifted(action) if action else []

    def scores(self) -> tuple[int, ...]:
        """Every seat's VP as the world computed it."""
        return tuple(self.vp)

    def is_over(self) -> bool:
        """True once the last fame phase has been scored (R-END-1)."""
        return self.over

    def winners(self) -> list[int]:
        """R-END-3 / G-11: the most VP, then the most cards in hand; still tied, all of them."""
        top = max(self.vp)
        tied = [s for s in range(self.seats) if self.vp[s] == top]
        most = max(self.hand_size(s) for s in tied)
        return [s for s in tied if self.hand_size(s) == most]

    def locations(self) -> dict[str, list[str]]:
        """Where every card is now (decks, piles, hands, hide strips, play, the city)."""
        where: dict[str, list[str]] = {
            "minor_deck": list(self.minor_deck),
            "major_deck": list(self.major_deck),
            "minor_discard": list(self.minor_discard),
            "major_discard": list(self.major_discard),
            "play": list(self.in_play),
            "city": [TOWER] if self.tower_on_city else [],
        }
        for s in range(self.seats):
            where[f"hand:{s}"] = self.hand(s)
            where[f"hide:{s}"] = list(self.hidden[s])
        return where

    # -- the flow of a game -------------------------------------------------------------------

    def _play(self) -> Iterator[Action]:
        yield from self._setup()
        first = self.start
        for rnd in range(1, self.rounds + 1):
            self.round = rnd
            self.start = (first + rnd - 1) % self.seats
            yield from self._round_start()
            yield from self._phase_a()
            yield from self._phase_b()
            if rnd in self.fame_rounds:
                yield from self.fame_phase("regular")
            self.devil = None  # R-ROUND-5: the round is over

    def _setup(self) -> Iterator[Action]:
        """R-SETUP-8: the 16 pawns arrive at random, at most 2 per location, colours apart."""
        placement = self._placement()
        order = list(placement)
        self.rng.shuffle(order)
        for k, pawn in enumerate(order):
            loc = placement[pawn]
            if k < len(order) - 1 and self.rng.random() < self.noise / 3:
                spots = [x for x in LOCATIONS if x != loc and self._fits(pawn, x)]
                if spots:  # first put down elsewhere, then moved: the referee simply moves it
                    spot = self.rng.choice(spots)
                    self.pawns[pawn] = spot
                    self.events["setup_moved"] += 1
                    yield self.arrive(pawn, f"loc:{spot}")
            self.pawns[pawn] = loc
            yield self.arrive(pawn, f"loc:{loc}")

    def _fits(self, pawn: str, loc: int) -> bool:
        """R-SETUP-8 for one more pawn at ``loc``, given the pawns placed so far."""
        there = [p for p, x in self.pawns.items() if x == loc and p != pawn]
        return len(there) < 2 and all(suit_of(p) != suit_of(pawn) for p in there)

    def _placement(self) -> dict[str, int]:
        """A random legal placement of all 16 pawns (retried until none gets stuck)."""
        while True:
            where: dict[str, int] = {}
            pawns = list(PAWNS)
            self.rng.shuffle(pawns)
            for pawn in pawns:
                spots = [
                    x
                    for x in LOCATIONS
                    if sum(1 for v in where.values() if v == x) < 2
                    and all(suit_of(p) != suit_of(pawn) for p, v in where.items() if v == x)
                ]
                if not spots:
                    break
                where[pawn] = self.rng.choice(spots)
            else:
                return where

    def _round_start(self) -> Iterator[Action]:
        """R-ROUND-4: the Tower leaves the city, then a pending Judgement's pawns come back."""
        if self.tower_on_city:  # the referee discards it; seen arriving there as it is done
            self.tower_on_city = False
            self.blocked.clear()
            self.major_discard.append(TOWER)
            yield self.arrive(TOWER, "major_discard")
        if self.judgement is not None:
            seat, pawns = self.judgement
            self.judgement = None
            spots = dict(zip(pawns, self.rng.sample(LOCATIONS, len(pawns)), strict=True))
            remaining = list(pawns)
            self.events["judgement_returned"] += 1
            while remaining:
                if self.rng.random() < self.temper.by_decision:
                    pawn = remaining[0]  # the question names the next pawn in removal order
                    self.pawns[pawn] = spots[pawn]
                    answer = self.ask(seat, "judgement", str(spots[pawn]))
                    yield [answer, *self.arrive(pawn, f"loc:{spots[pawn]}")]  # and put there
                else:
                    pawn = self.rng.choice(remaining)
                    self.pawns[pawn] = spots[pawn]
                    yield self.arrive(pawn, f"loc:{spots[pawn]}")
                remaining.remove(pawn)

    def _draw_choice(self) -> bool:
        """R-DRAW-1 with R-VAR-1/2: whether phase A asks ``draw`` this round."""
        if self.round == 1 or self.variant == "simplest":
            return False
        return self.variant == "full" or self.round >= 3

    def _phase_a(self) -> Iterator[Action]:
        """R-DRAW: the draws (hand limits after each), then one hide per seat."""
        order = self.clockwise(self.start)
        if self.round == 1:
            for seat in order:
                if self.majors_allowed():
                    self.draw(seat, "major", 1)
                self.draw(seat, "minor", 4)
        elif not self._draw_choice():  # 3 minors each, seat by seat, R-DRAW-3 straight away
            for seat in order:
                self.draw(seat, "minor", 3)
                yield from self.settle([seat])
        else:
            for seat in order:
                left = bool(self.major_deck or self.major_discard)
                choice = bots.choose_draw(self.rng, self.temper, left)
                if choice == "major":
                    self.draw(seat, "major", 1)
                else:
                    self.draw(seat, "minor", 3)
                yield [self.ask(seat, "draw", choice)]
                yield from self.settle([seat])
        seats = list(range(self.seats))
        self.rng.shuffle(seats)
        for seat in seats:
            if self.minors[seat]:
                card = bots.choose_hide(
                    self.rng, self.temper, self.minors[seat], FOOL in self.majors[seat], forced=True
                )
                assert card is not None
            elif FOOL in self.majors[seat]:
                card = FOOL
            else:  # G-16: no minor and no Fool: draw one and hide it
                drawn = self.take("minor")
                if drawn is None:
                    self.events["hide_impossible"] += 1
                    continue
                self.minors[seat].append(drawn)
                self.events["G-16"] += 1
                card = drawn
            if card == FOOL:
                self.events["fool_hidden"] += 1
            yield self.hide(seat, card)

    def _phase_b(self) -> Iterator[Action]:
        """R-PLAY-1: each seat is the AP once, clockwise from the start seat."""
        order = self.clockwise(self.start)
        self.open_turn = None
        for k, seat in enumerate(order):
            yield from self._turn(seat, last=k == len(order) - 1)
        self.active = None

    def _turn(self, a: int, last: bool) -> Iterator[Action]:
        """A turn: maybe a major, the minor, maybe a major; ``end_turn`` when none follows."""
        self.active = a
        yield from self._peek()
        first = bots.choose_major(
            self.rng, self.temper, self.playable_majors(a), True, lambda m: self.major_worth(a, m)
        )
        if first is not None:
            if self.open_turn is not None:  # the previous AP's turn would take this major
                yield [self.ask(self.open_turn, "end_turn", "done")]
            self.open_turn = None
            self.events["major_first"] += 1
            yield from self.play_major(a, first)
            yield from self._to_pile(first)
        self.open_turn = None
        minor = yield from self._play_minor(a)
        if first is not None:  # minor and major: the turn ends by itself (maybe the round)
            yield from self._to_pile(minor)
            return
        yield from self._to_pile(minor)
        after = bots.choose_major(
            self.rng, self.temper, self.playable_majors(a), False, lambda m: self.major_worth(a, m)
        )
        if after is not None:
            yield from self.play_major(a, after)
            yield from self._to_pile(after)  # no draw of a major ever follows a round at once
            return
        if last or self.rng.random() < self.temper.end_turn:
            self.events["end_turn"] += 1
            yield [self.ask(a, "end_turn", "done")]
        else:
            self.open_turn = a

    def _play_minor(self, a: int) -> Generator[Action, None, str]:
        """R-PLAY-2/3, R-MIN: the minor (with a legal move if one has, G-17), steps (a)-(e).

        Returns the card played (a generator's return value).
        """
        if not self.minors[a]:
            drawn = self.take("minor")
            if drawn is None:  # pragma: no cover - 56 minors cannot all be out of reach
                raise RuntimeError(f"seat {a} has no minor to play and none can be drawn")
            self.minors[a].append(drawn)
            self.events["R-PLAY-2"] += 1
        options = [(c, m) for c in self.minors[a] for m in self.minor_moves(c)]
        move = None
        if options:
            card, move = bots.choose_move(
                self.rng, self.temper, options, lambda cm: self.move_worth(a, cm[1])
            )
        else:
            card = bots.pick(self.rng, self.minors[a])
            self.events["G-17"] += 1
        self.minors[a].remove(card)
        self.in_play.append(card)
        self.add_rep(suit_of(card), 1)
        yield self.arrive(card, "play")
        if move is not None:
            pawn, dest = move
            lead = self.move_pawn(pawn, dest)
            yield from self.location_effect(a, dest, lead)
        self.in_play.remove(card)
        self.minor_discard.append(card)
        return card

    def _peek(self) -> Iterator[Action]:
        """R-DRAW-5: now and then a seat lifts a hidden card to look at it and puts it back."""
        seats = [s for s in range(self.seats) if self.hidden[s]]
        if not seats or self.rng.random() >= self.noise / 4:
            return
        seat = self.rng.choice(seats)
        card = self.rng.choice(self.hidden[seat])
        if self.seen_at.get(card) != f"hide:{seat}":  # pragma: no cover - every hide is seen
            return
        self.events["peek"] += 1
        yield [Seen(f"hide:{seat}", card, False), Seen(f"hide:{seat}", card, True)]

    def _to_pile(self, card: str) -> Iterator[Action]:
        """The played card, resolved, is carried from ``play`` to its discard pile, where the
        referee already put it (a confirmation). The Tower stays on the city."""
        if card == TOWER:
            return
        self.events["to_pile"] += 1
        yield self.arrive(card, "major_discard" if card.startswith("major_") else "minor_discard")
