"""Pawn moves and the ten location effects (rules §5, contract "Location effects").

Every effect is a generator that receives ``lead``, the action that brought the pawn to the
location (its arrival, sometimes with its departure): it applies what happens at once on arrival
(VP, draws), yields ``lead``, then yields the prompts and sightings that follow, in the
contract's order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from scorekeeper.games.arcanum.cards import FOOL, is_major, suit_of
from scorekeeper.sim.arcanum import bots
from scorekeeper.sim.arcanum.table import Action, Table

Effect = Callable[[int, Action], Iterator[Action]]


class Locations(Table):
    """Pawn moves and location effects on top of the table primitives."""

    def move_pawn(self, pawn: str, dest: int) -> Action:
        """Move a pawn and apply the destination's icons (R-MIN-5); the move's sightings."""
        self.pawns[pawn] = dest
        self.add_rep(suit_of(pawn), self.board.icon_gain(dest, pawn))
        return self.arrive(pawn, f"loc:{dest}")

    def fool_move(self, a: int) -> Iterator[Action]:
        """Move as the Fool (0, III, XIV): any pawn anywhere, then icons and effect (G-14)."""
        moves = self.pawn_moves(list(self.pawns), None)
        if not moves:
            self.events["fool_move_impossible"] += 1
            return
        pawn, dest = bots.choose_move(self.rng, self.temper, moves, lambda m: self.move_worth(a, m))
        lead = self.move_pawn(pawn, dest)
        yield from self.location_effect(a, dest, lead)

    def location_effect(self, a: int, loc: int, lead: Action) -> Iterator[Action]:
        """R-MIN-6: the effect of location ``loc`` for the AP ``a``."""
        effect = self.board.effect_at(loc)
        self.effects[effect] += 1
        handlers: dict[str, Effect] = {
            "wizard_tower": self._wizard_tower,
            "artists_quarter": self._artists_quarter,
            "harbor": self._harbor,
            "throne_room": self._throne_room,
            "market": self._market,
            "fields": self._fields,
            "treasury": self._treasury,
            "cathedral": self._cathedral,
            "ballroom": self._ballroom,
            "castle": self._castle,
        }
        yield from handlers[effect](a, lead)

    def _wizard_tower(self, a: int, lead: Action) -> Iterator[Action]:
        self.add_vp(a, 1)
        if self.majors_allowed():
            self.draw(a, "major", 1)
        yield lead
        yield from self.settle([a])

    def _artists_quarter(self, a: int, lead: Action) -> Iterator[Action]:
        if not self.majors_allowed():
            self.draw(a, "minor", 2)
            yield lead
            yield from self.settle([a])
            return
        yield lead
        choice = bots.choose_artists(self.rng)
        if choice == "major":
            self.draw(a, "major", 1)
        else:
            self.draw(a, "minor", 2)
        yield [self.ask(a, "artists", choice)]
        yield from self.settle([a])

    def _harbor(self, a: int, lead: Action) -> Iterator[Action]:
        self.draw(a, "minor", 1)
        yield lead
        yield from self.settle([a])
        others = self.clockwise(a, include_first=False)
        extra = 0

        def ap_draws() -> None:
            self.draw(a, "minor", extra)

        for k, seat in enumerate(others):
            last = k == len(others) - 1
            takes = bots.choose_harbour(self.rng, self.temper)
            if takes:
                self.draw(seat, "minor", 1)
                extra += 1
            owes = self.owes(seat)
            if last and not owes:
                ap_draws()
            yield [self.ask(seat, "harbour", "draw" if takes else "pass")]
            if owes:
                yield from self.settle([seat], then=ap_draws if last else None)
        yield from self.settle([a])

    def _throne_room(self, a: int, lead: Action) -> Iterator[Action]:
        self.draw(a, "minor", 2)
        yield lead
        yield from self.settle([a])

    def _market(self, a: int, lead: Action) -> Iterator[Action]:
        self.add_vp(a, 2)
        yield lead
        can_major = self.majors_allowed() and bool(self.majors[a])
        choice = bots.choose_market(self.rng, can_major, bool(self.minors[a]))
        yield [self.ask(a, "market", choice)]
        if choice == "none":
            return
        self.events[f"market_{choice}"] += 1
        if choice == "major":
            card = bots.choose_discard(self.rng, [], self.majors[a])
            seen = self.discard(a, card)
            self.draw(a, "major", 1)
        else:
            card = bots.choose_discard(self.rng, self.minors[a], [])
            seen = self.discard(a, card)
            self.draw(a, "minor", 2)
        yield seen
        yield from self.settle([a])

    def _fields(self, a: int, lead: Action) -> Iterator[Action]:
        self.add_vp(a, 1)
        yield lead
        adjustments = bots.choose_fields(self.rng, self.hidden[a], self.temper.fields_most)
        for family, step in adjustments:
            self.add_rep(family, step)
            yield [self.ask(a, "fields", f"{family}{step:+d}")]
        if len(adjustments) < 4:  # after the fourth family the prompt closes by itself
            yield [self.ask(a, "fields", "done")]

    def _treasury(self, a: int, lead: Action) -> Iterator[Action]:
        yield lead
        card = self.take("minor")
        if card is not None:
            self.hidden[a].append(card)
            yield self.arrive(card, f"hide:{a}")

    def _cathedral(self, a: int, lead: Action) -> Iterator[Action]:
        self.add_vp(a, self.board.cathedral_gain_vp or 0)
        yield lead
        can_hide = bool(self.minors[a]) or FOOL in self.majors[a]
        choice = bots.choose_cathedral(self.rng, can_hide)
        if choice == "draw":
            self.draw(a, "minor", 2)
            yield [self.ask(a, "cathedral", "draw")]
            yield from self.settle([a])
            return
        yield [self.ask(a, "cathedral", "hide")]
        card = bots.choose_hide(
            self.rng, self.temper, self.minors[a], FOOL in self.majors[a], forced=True
        )
        assert card is not None
        if is_major(card):
            self.events["fool_hidden"] += 1
        yield self.hide(a, card)

    def _ballroom(self, a: int, lead: Action) -> Iterator[Action]:
        yield lead
        yield from self.hides(a, 1)

    def _castle(self, a: int, lead: Action) -> Iterator[Action]:
        yield lead
        yield from self.each_discards(a)
