"""The 22 majors (rules §6, contract "Majors"): which are playable now and how each resolves.

Each major is a generator that receives ``lead`` (the card's arrival on ``play``): it applies
what happens at once when the card lands (VP, draws), yields ``lead``, then the prompts and
sightings of its effect in the contract's order. ``play_major`` then lays the card on the major
discard pile (the Tower on the city instead).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from scorekeeper.core.inputs import Decision
from scorekeeper.games.arcanum.cards import FOOL, TOWER
from scorekeeper.sim.arcanum import bots
from scorekeeper.sim.arcanum.locations import Locations
from scorekeeper.sim.arcanum.rules import HAND_LIMIT
from scorekeeper.sim.arcanum.table import Action

DEVIL, JUDGEMENT = "major_15", "major_20"
MAJOR_VP = {
    "major_02": 3,
    "major_06": 3,
    "major_08": 2,
    "major_16": 2,
    "major_17": 2,
    "major_19": 2,
}
"""Roughly what a major is worth in VP to the bot that plays it (for the greedy choice)."""


class Majors(Locations):
    """Major arcana on top of the location effects."""

    def removable_pawns(self) -> list[str]:
        """Pawns Judgement may take: on the board and not on a blocked location."""
        return [p for p, loc in self.pawns.items() if loc is not None and loc not in self.blocked]

    def playable_majors(self, a: int) -> list[str]:
        """The majors the bot of seat ``a`` may play now.

        Every major is legal; two are held back where the rules leave a case open: a second
        Devil in one round (does the first player stay doubled?) and a second Judgement while
        the first one's pawns are still off the board (who places them, on how many
        locations?). Both can only happen after the major deck was reshuffled.
        """
        out = []
        for major in self.majors[a]:
            if major == DEVIL and self.devil is not None:
                continue
            if major == JUDGEMENT and self.judgement is not None:
                continue
            out.append(major)
        return out

    def play_major(self, a: int, major: str) -> Iterator[Action]:
        """R-PLAY-4 / R-MAJ-1: the major lands on ``play``, resolves, then is discarded."""
        self.majors[a].remove(major)
        self.in_play.append(major)
        self.majors_played[major] += 1
        handler: Callable[[int, Action], Iterator[Action]] = getattr(self, f"_{major}")
        yield from handler(a, self.arrive(major, "play"))
        self.in_play.remove(major)
        if major == TOWER:
            self.tower_on_city = True
        else:
            self.major_discard.append(major)

    # -- the cards, in numeral order -----------------------------------------------------------

    def _major_00(self, a: int, lead: Action) -> Iterator[Action]:  # the Fool, played
        yield lead
        yield from self.fool_move(a)

    def _major_01(self, a: int, lead: Action) -> Iterator[Action]:  # Magician
        self.draw(a, "minor", 2)
        yield lead
        yield from self.settle([a])
        yield from self.hides(a, 1)

    def _major_02(self, a: int, lead: Action) -> Iterator[Action]:  # High Priestess
        self.add_vp(a, 3)
        yield lead

    def _major_03(self, a: int, lead: Action) -> Iterator[Action]:  # Empress
        yield lead
        yield from self.fool_move(a)
        up, down = bots.choose_empress(self.rng, self.hidden[a])
        self.add_rep(up, 1)
        self.add_rep(down, -1)
        yield [self.ask(a, "empress", f"{up}/{down}")]

    def _major_04(self, a: int, lead: Action) -> Iterator[Action]:  # Emperor
        yield lead
        yield from self.hides(a, 1)
        yield self._family(a, 3)

    def _major_05(self, a: int, lead: Action) -> Iterator[Action]:  # Hierophant
        self.draw(a, "minor", 1)
        self.draw(a, "major", 1)
        yield lead
        yield from self.settle([a])

    def _major_06(self, a: int, lead: Action) -> Iterator[Action]:  # Lovers (G-23)
        before = list(self.vp)
        if before[a] == min(before):
            self.add_vp(a, 4)
        else:
            self.add_vp(a, 2)
            for seat in self.clockwise(a, include_first=False):
                if before[seat] < before[a]:
                    self.add_vp(seat, 2)
        yield lead

    def _major_07(self, a: int, lead: Action) -> Iterator[Action]:  # Chariot
        yield lead
        yield self._family(a, 2)
        yield from self.each_discards(a)

    def _major_08(self, a: int, lead: Action) -> Iterator[Action]:  # Strength
        self.add_vp(a, 2)
        yield lead
        yield self._family(a, 3)

    def _major_09(self, a: int, lead: Action) -> Iterator[Action]:  # Hermit
        yield lead
        yield from self.hides(a, 2)
        yield from self.opponents_hide(a)

    def _major_10(self, a: int, lead: Action) -> Iterator[Action]:  # Wheel of Fortune
        yield lead
        seats = [s for s in range(self.seats) if self.hand_size(s)]
        self.rng.shuffle(seats)
        passes = {s: bots.choose_wheel(self.rng, self.minors[s], self.majors[s]) for s in seats}
        for k, seat in enumerate(seats):
            cards = passes[seat]
            kinds = sorted("major" if c.startswith("major_") else "minor" for c in cards)
            answer = "+".join(sorted(kinds, key=lambda x: x != "minor"))
            if k == len(seats) - 1:
                self._wheel_pass(passes)
            yield [Decision(seat, "wheel", answer)]

    def _wheel_pass(self, passes: dict[int, list[str]]) -> None:
        """All passes at once: each seat's cards go to its left neighbour."""
        for seat, cards in passes.items():
            for card in cards:
                (self.majors if card.startswith("major_") else self.minors)[seat].remove(card)
        for seat, cards in passes.items():
            left = (seat + 1) % self.seats
            for card in cards:
                (self.majors if card.startswith("major_") else self.minors)[left].append(card)
        self.events["wheel_cards"] += sum(len(c) for c in passes.values())

    def _major_11(self, a: int, lead: Action) -> Iterator[Action]:  # Justice (G-21)
        self.draw(a, "minor", max(0, 4 - self.hand_size(a)))
        yield lead

    def _major_12(self, a: int, lead: Action) -> Iterator[Action]:  # Hanged Man
        self.add_vp(a, -2)
        self.draw(a, "minor", 2)
        yield lead
        yield from self.settle([a])

    def _major_13(self, a: int, lead: Action) -> Iterator[Action]:  # Death
        yield lead
        if not self.minors[a]:  # no minor to discard: nothing happens
            self.events["death_without_minor"] += 1
            return
        gone = bots.choose_death(self.rng, self.minors[a])
        yield [self.ask(a, "death", str(len(gone)))]
        for k, card in enumerate(gone):
            seen = self.discard(a, card)
            if k == len(gone) - 1:
                self.draw(a, "major", len(gone))
            yield seen
        yield from self.settle([a])

    def _major_14(self, a: int, lead: Action) -> Iterator[Action]:  # Temperance
        yield lead
        yield from self.fool_move(a)
        hidden_minors = [c for c in self.hidden[a] if c != FOOL]
        back, forth = bots.choose_temperance(self.rng, hidden_minors, self.minors[a])
        if not back:
            yield [Decision(a, "temperance", "none")]
            return
        self.events["temperance_swap"] += 1
        for card in back:
            self.hidden[a].remove(card)
            self.revealed[a].discard(card)
            self.minors[a].append(card)
        yield [Decision(a, "temperance", "+".join(back))]
        for card, old in zip(forth, back, strict=True):
            action = self.depart(old) + self.hide(a, card)  # the old one leaves the strip
            self.rng.shuffle(action)
            yield action

    def _major_15(self, a: int, lead: Action) -> Iterator[Action]:  # Devil (G-13)
        self.devil = a
        yield lead

    def _major_16(self, a: int, lead: Action) -> Iterator[Action]:  # Tower (G-18)
        """Blocked locations by answer, or (one of them) by the card seen on a location."""
        self.add_vp(a, 2)
        yield lead
        seen_on_city = False
        for loc in bots.choose_tower(self.rng):
            self.blocked.add(loc)
            if seen_on_city or self.rng.random() < self.temper.by_decision:
                yield [self.ask(a, "tower", str(loc))]
            else:
                seen_on_city = True
                self.events["tower_seen"] += 1
                yield self.arrive(TOWER, f"loc:{loc}")
        yield [self.ask(a, "tower", "done")]

    def _major_17(self, a: int, lead: Action) -> Iterator[Action]:  # Star
        self.add_vp(a, 2)
        self.draw(a, "minor", 2)
        yield lead
        yield from self.settle([a])

    def _major_18(self, a: int, lead: Action) -> Iterator[Action]:  # Moon
        # Each seat draws, then discards down to 7, before the next seat draws (R-DRAW-3
        # "straight away"): a discard can then be reshuffled into the next seat's draw.
        yield lead
        for seat in self.clockwise(a):
            self.draw(seat, "minor", 1)
            yield from self.settle([seat])
        yield from self.hides(a, 2)
        yield from self.opponents_hide(a)

    def _major_19(self, a: int, lead: Action) -> Iterator[Action]:  # Sun (G-20)
        """Each opponent shows 3 of its face-down hidden cards (its pick), or all if 3 or fewer.

        Cards an earlier Sun showed are face up already: only face-down ones count.
        """
        self.add_vp(a, 2)
        choosers = []
        for seat in self.clockwise(a, include_first=False):
            face_down = [c for c in self.hidden[seat] if c not in self.revealed[seat]]
            if len(face_down) > 3:
                choosers.append((seat, face_down))
            else:
                self.revealed[seat].update(face_down)
        yield lead
        for seat, face_down in choosers:
            if self.revealed[seat]:
                self.events["sun_again"] += 1
            for card in bots.choose_sun(self.rng, face_down):
                self.revealed[seat].add(card)
                yield [Decision(seat, "sun", card)]

    def _major_20(self, a: int, lead: Action) -> Iterator[Action]:  # Judgement (G-19)
        yield lead
        yield from self.each_discards(a)
        taken = bots.choose_judgement(self.rng, self.removable_pawns())
        if len(taken) < 3:
            self.events["judgement_short"] += 1
        if taken:
            self.judgement = (a, taken)
        for pawn in taken:
            self.pawns[pawn] = None
            if self.rng.random() < self.temper.by_decision:
                # answered, and the pawn carried to the tray all the same
                yield [self.ask(a, "judgement", pawn), *self.arrive(pawn, "tray")]
            else:
                yield self.arrive(pawn, "tray")

    def _major_21(self, a: int, lead: Action) -> Iterator[Action]:  # World (R-FAME-11)
        yield lead
        yield from self.hides(a, 1)
        yield from self.fame_phase("world")

    def _family(self, a: int, amount: int) -> Action:
        """IV, VII, VIII: the ``family`` prompt, +``amount`` to the family the AP names."""
        family = bots.choose_family(self.rng, self.hidden[a])
        self.add_rep(family, amount)
        return [self.ask(a, "family", family)]

    def major_worth(self, a: int, major: str) -> float:
        """A bot's rough VP value of playing ``major`` now."""
        if major == "major_12":
            return -2.0
        if major == "major_21" and any(self.hidden[a]):
            return 3.0
        if major in ("major_03", "major_04", "major_07", "major_08"):
            return 1.0 + (len(self.hidden[a]) > 0)
        if major == "major_11":
            return max(0, 4 - self.hand_size(a)) * 0.3
        if major in ("major_01", "major_05", "major_17"):
            return 0.5 if self.hand_size(a) < HAND_LIMIT - 1 else 0.0
        return float(MAJOR_VP.get(major, 0))
