"""The travel phase of the simulated table (R-TRAVEL): journeys by bots, performed physically.

Each seat travels once a round, clockwise from the start player (R-TRAVEL-1). The path is fixed
(R-TRAVEL-3 … 5, G-8, G-9): the traveller's own villages in slot order, then the left
neighbour's, round the table, and with ``ring_closed`` back to the own first village. The world
keeps its own copy of the journey (``Trip``) and decides each step as a bot: an escort before a
principality whose thieves or obstacles would cost something (R-TRAVEL-10, G-6), a move with
the cards the cost table asks (R-TRAVEL-6, R-TRAVEL-9, G-1), paid in the order thief, income,
gold card, bonus (R-TRAVEL-7, -8, -13, G-2 … G-4, G-18); a turnaround or a teleport when the
way on is closed (R-TRAVEL-11, R-TRAVEL-15 … 18, G-20, G-24); ``journey stop`` at the end.
Every card a journey lays is tapped on the ``road`` pad.

Hazard: like planning, each action's changes are made before it is yielded; a journey's
history entry is appended before its ``stop`` is returned.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from scorekeeper.sim.king_of_the_elves import bots
from scorekeeper.sim.king_of_the_elves.deck import COST, TRAVEL, kind_of
from scorekeeper.sim.king_of_the_elves.table import BANK, Action, Table, Village

Stop = tuple[int, int]
"""A village's place: (seat, slot), slot 1-based."""


@dataclass(slots=True)
class Trip:
    """The world's own record of a journey in progress."""

    seat: int
    ring: list[Stop]
    """Every village on the path, clockwise from the traveller's own first one."""
    at: int | None = None
    """The index in ``ring`` of the village the traveller stands at; None at the castle."""
    direction: int = 1
    escort: int | None = None
    """The seat whose principality the traveller's escort protects."""
    home: bool = False
    """The traveller has visited a village of their own (turnarounds, teleports)."""
    visited: set[str] = field(default_factory=set)
    visits: int = 0
    cards: int = 0
    """Every card laid on the road: moves, escorts, turnarounds, teleports."""
    collected: int = 0
    paid: int = 0
    bonus: bool = False


class Travel(Table):
    """The travel phase (a mixin of the world; see the module docstring)."""

    def travel(self, skip: set[int]) -> Iterator[Action]:
        """R-TRAVEL-1: a journey for each seat clockwise from the start player (``skip``: the
        seats that make none this round, G-16's house rule)."""
        order = [s for s in self.clockwise(self.start) if s not in skip and self.princ[s]]
        for k, seat in enumerate(order):
            yield from self._journey(seat, last=k == len(order) - 1)

    def end_round(self) -> Action:
        """R-END-2 … 6: tokens back, every card on the table to the discard pile, the piles
        shuffled together, the next round's deal; after the last round the game is over
        (R-END-7). Returns the players' sweep of the pads (R-END-4: departures, which change
        nothing), none after the last round (the game is over: the table takes nothing
        more). Made before the round's last ``stop`` is returned."""
        for seat, row in enumerate(self.princ):
            for village in row:
                self.discard_pile.append(village.card)
                for sp in village.specials.values():
                    self.discard_pile.append(sp.card)
                    self.supply[sp.owner].append(sp.token)
            self.princ[seat] = []
        self.draw_pile += self.discard_pile
        self.discard_pile = []
        self.rng.shuffle(self.draw_pile)
        self.placed = [0] * self.seats  # R-PLAN-11's count and R-PLAN-6's prices start again
        self.bought = [0] * self.seats
        if self.round == self.rounds:
            self.over = True
            return []
        self.round += 1  # R-END-3: the marker moves left; R-SETUP-10: the next deal
        self.start = (self.options["start_seat"] + self.round - 1) % self.seats
        self.deal(8)
        pieces = sorted(self.seen_at)
        self.rng.shuffle(pieces)
        out: Action = []
        for piece in pieces:
            out += self.lift(piece)
        return out

    # -- the path --------------------------------------------------------------------------------

    def ring_of(self, seat: int) -> list[Stop]:
        """R-TRAVEL-3/4, G-9: every village in path order, from ``seat``'s own first one."""
        return [(s, k) for s in self.clockwise(seat) for k in range(1, len(self.princ[s]) + 1)]

    def _next(self, trip: Trip, direction: int | None = None) -> int | None:
        """The index of the next village (G-24 for ``direction`` after a turnaround); None past
        the castle with ``ring_closed: false`` (G-8)."""
        way = trip.direction if direction is None else direction
        if trip.at is None:
            return 0 if way == 1 else None
        nxt = trip.at + way
        if 0 <= nxt < len(trip.ring):
            return nxt
        return nxt % len(trip.ring) if self.options["ring_closed"] else None

    def _village(self, stop: Stop) -> Village:
        return self.princ[stop[0]][stop[1] - 1]

    def _charges(self, trip: Trip, stop: Stop) -> tuple[int, int | None]:
        """What the village at ``stop`` adds for the traveller: the obstacle's extra card
        (R-TRAVEL-9) and the thief's owner to pay (R-TRAVEL-7), both none under one's own card
        or an escort here (R-TRAVEL-10)."""
        if trip.escort == stop[0]:
            return 0, None
        specials = self._village(stop).specials
        obstacle, thief = specials.get("obstacle"), specials.get("thief")
        extra = 1 if obstacle is not None and obstacle.owner != trip.seat else 0
        owner = thief.owner if thief is not None and thief.owner != trip.seat else None
        return extra, owner

    def _moves(self, trip: Trip, index: int | None) -> list[tuple[str, int]]:
        """The moves the hand affords into ring village ``index``: (type, cards), with the
        thief's 2 gold in the purse (G-4); empty when none or no village is next."""
        if index is None:
            return []
        stop = trip.ring[index]
        extra, thief = self._charges(trip, stop)
        if thief is not None and self.purse[trip.seat] < 2:
            return []
        terrain = self.terrain[self._village(stop).card]
        held = self._held(trip.seat)
        return [
            (kind, COST[kind, terrain] + extra)
            for kind in TRAVEL
            if (kind, terrain) in COST and held.get(kind, 0) >= COST[kind, terrain] + extra
        ]

    def _held(self, seat: int) -> dict[str, int]:
        held: dict[str, int] = {}
        for card in self.hands[seat]:
            held[kind_of(card)] = held.get(kind_of(card), 0) + 1
        return held

    def _escort_allowed(self, trip: Trip, index: int | None) -> bool:
        """G-6 / R-TRAVEL-10: on entering the next village's principality (at the castle only
        with ``own_principality_is_entered``), none already protecting."""
        if index is None or trip.escort is not None:
            return False
        if trip.at is None:
            return bool(self.options["own_principality_is_entered"])
        entering = trip.ring[index][0] != trip.ring[trip.at][0]
        return entering or bool(self.options["escort_mid_principality"])

    # -- a journey -------------------------------------------------------------------------------

    def _journey(self, seat: int, last: bool) -> Iterator[Action]:
        """One seat's journey, step by step, until it stops (``last``: the round's last)."""
        trip = Trip(seat, self.ring_of(seat))
        t = self.temper
        taken_back: Action = []
        while True:
            index = self._next(trip)
            if index is not None and self.rng.random() < t.early_stop:
                break
            if self._wants_escort(trip, index):
                yield self._escort(trip, index)
            moves = self._moves(trip, index)
            if index is not None and moves:
                if self.rng.random() < t.unfinished and max(n for _, n in moves) > 1:
                    taken_back = self._unfinished(trip, moves)  # performed with the stop
                    break
                yield self.fidget() + self._move(trip, index, moves)
                continue
            back = self._next(trip, -trip.direction)
            if (
                trip.home
                and self.in_hand(seat, "turnaround")
                and self._moves(trip, back)
                and self.rng.random() < t.turnaround
            ):
                yield self._turnaround(trip)
                continue
            target = self._teleport_target(trip)
            if target is not None and self.rng.random() < t.teleport:
                yield from self._teleport(trip, target)
                continue
            break
        if trip.escort is not None:
            self.events["escort_to_the_end"] += 1
            self._end_escort(trip)  # G-7: discarded with the journey
        self.history.append(
            {
                "round": self.round,
                "seat": seat,
                "visits": trip.visits,
                "cards": trip.cards,
                "collected": trip.collected,
                "paid": trip.paid,
                "bonus": trip.bonus,
            }
        )
        self.events["journey"] += 1
        sweep = self.end_round() if last else []
        yield [*taken_back, self.ask(seat, "journey", "stop"), *sweep]

    def _end_escort(self, trip: Trip) -> None:
        """The escort goes from before the traveller to the discard pile."""
        self.discard_pile += self.front
        self.front.clear()
        trip.escort = None

    def _wants_escort(self, trip: Trip, index: int | None) -> bool:
        """An escort when it may be played, the hand holds one, and the principality ahead has
        a thief or an obstacle of someone else's on a village."""
        if not self._escort_allowed(trip, index) or not self.in_hand(trip.seat, "escort"):
            return False
        assert index is not None
        seat = trip.ring[index][0]
        foreign = any(
            sp.owner != trip.seat and category != "gold"
            for v in self.princ[seat]
            for category, sp in v.specials.items()
        )
        if not foreign or self.rng.random() >= self.temper.escort:
            return False
        trip.escort = seat  # only when the move ahead is affordable under it
        usable = bool(self._moves(trip, index))
        trip.escort = None
        return usable

    def _escort(self, trip: Trip, index: int | None) -> Action:
        """R-TRAVEL-10: the escort tapped on the road; it protects the principality ahead."""
        assert index is not None
        card = self.in_hand(trip.seat, "escort")[0]
        self.hands[trip.seat].remove(card)
        self.front.append(card)  # face up before the traveller until it ends
        trip.escort = trip.ring[index][0]
        trip.cards += 1
        self.events["escort"] += 1
        if trip.at is None:
            self.events["escort_at_castle"] += 1
        elif trip.ring[trip.at][0] == trip.escort:
            self.events["escort_mid_principality"] += 1
        return self.tap(card, "road")

    def _move(self, trip: Trip, index: int, moves: list[tuple[str, int]]) -> Action:
        """R-TRAVEL-6: the move's cards tapped on the road, then the visit."""
        held = self._held(trip.seat)
        kind, count = bots.choose_move(self.rng, moves, lambda k: held.get(k, 0))
        stop = trip.ring[index]
        extra, _ = self._charges(trip, stop)
        if extra:
            self.events["obstacle_paid"] += 1
        cards = self.in_hand(trip.seat, kind)[:count]
        for card in cards:
            self.hands[trip.seat].remove(card)
            self.discard_pile.append(card)
        out = self.tap_all(cards, "road")
        trip.cards += count
        if trip.escort is not None and trip.escort != stop[0]:
            self._end_escort(trip)  # R-TRAVEL-10: left the principality it protected
        if trip.at is not None and abs(index - trip.at) > 1:
            self.events["ring_wrapped"] += 1  # G-8: round the castle to the other end
        if self._village(stop).card in trip.visited:
            self.events["revisit"] += 1
        trip.at = index
        return out + self._visit(trip, stop, teleport=False)

    def _unfinished(self, trip: Trip, moves: list[tuple[str, int]]) -> Action:
        """G-25: the first card of a move of two or more laid, then the journey stopped (the
        caller sends the stop in the same action): the card goes back into the hand."""
        kind = next(k for k, n in moves if n > 1)
        card = self.in_hand(trip.seat, kind)[0]
        self.events["unfinished_move"] += 1
        return self.tap(card, "road")

    def _visit(self, trip: Trip, stop: Stop, teleport: bool) -> Action:
        """The visit, in order (contract, "Travel"): the thief, the income, the own gold card,
        the bonus. Returns the ``pay`` confirmation a thief needs with phones."""
        seat = trip.seat
        village = self._village(stop)
        _, thief = self._charges(trip, stop)
        out: Action = []
        words = f"{self.name(village.card)}"
        if thief is not None:
            if teleport:
                self.events["teleport_thief"] += 1
            self.pay(seat, thief, 2, "thief", "R-TRAVEL-7", words)
            trip.paid += 2
            self.events["thief_paid"] += 1
            if self.phones:
                out.append(self.ask(seat, "pay", "pay"))
        value = self.value[village.card]
        self.pay(BANK, seat, value, "village", "R-TRAVEL-8", words)
        trip.collected += value
        gold = village.specials.get("gold")
        if gold is not None and gold.owner == seat:
            self.pay(BANK, seat, value, "gold_card", "R-TRAVEL-8", words)
            trip.collected += value
            self.events["gold_card_paid"] += 1
        trip.visits += 1
        trip.visited.add(village.card)
        if stop[0] == seat:
            trip.home = True
        if not trip.bonus and trip.visited >= set(self.all_villages()):
            trip.bonus = True
            self.pay(BANK, seat, 10, "bonus", "R-TRAVEL-13", "every village")
            trip.collected += 10
            self.events["bonus"] += 1
        if teleport:
            self.events["teleport"] += 1
        return out

    def _turnaround(self, trip: Trip) -> Action:
        """R-TRAVEL-11, G-24: the turnaround tapped on the road; the direction reverses."""
        card = self.in_hand(trip.seat, "turnaround")[0]
        self.hands[trip.seat].remove(card)
        self.discard_pile.append(card)
        trip.direction = -trip.direction
        trip.cards += 1
        self.events["turnaround"] += 1
        return self.tap(card, "road")

    def _teleport_target(self, trip: Trip) -> int | None:
        """R-TRAVEL-15/16, G-20: a village to teleport to (an unvisited one if any), when the
        variant is on, the own first village was visited, no escort is in play, 4 travel cards
        are in hand and the purse pays 3 (and a thief there); else None."""
        seat = trip.seat
        if not self.options["teleport"] or not trip.home or trip.escort is not None:
            return None
        if sum(1 for c in self.hands[seat] if kind_of(c) in TRAVEL) < 4:
            return None
        affordable = [
            i
            for i, stop in enumerate(trip.ring)
            if self.purse[seat] >= 3 + (2 if self._charges(trip, stop)[1] is not None else 0)
        ]
        fresh = [i for i in affordable if self._village(trip.ring[i]).card not in trip.visited]
        choice = fresh or affordable
        return bots.pick(self.rng, choice) if choice else None

    def _teleport(self, trip: Trip, index: int) -> Iterator[Action]:
        """R-TRAVEL-16 … 18: ``teleport``, ``teleport_to``, then any 4 travel cards on the road;
        3 gold to the bank, the visit with its obstacle ignored, the direction kept."""
        seat = trip.seat
        stop = trip.ring[index]
        yield [self.ask(seat, "journey", "teleport")]
        yield [self.ask(seat, "teleport_to", f"{stop[0]}.{stop[1]}")]
        thief = self._charges(trip, stop)[1] is not None
        if thief and self.in_hand(seat, "escort") and self.rng.random() < self.temper.escort:
            self.events["escort_teleport"] += 1  # G-6: arriving by teleport is entering
            yield self._escort(trip, index)
        travel = [c for c in self.hands[seat] if kind_of(c) in TRAVEL]
        held = self._held(seat)
        spent = bots.least_useful(self.rng, travel, 4, lambda c: held[kind_of(c)] * -0.3)
        for card in spent:
            self.hands[seat].remove(card)
            self.discard_pile.append(card)
        out = self.tap_all(spent, "road")
        trip.cards += 4
        self.pay(seat, BANK, 3, "teleport", "R-TRAVEL-16", self.name(self._village(stop).card))
        trip.paid += 3
        trip.at = index
        yield out + self._visit(trip, stop, teleport=True)
