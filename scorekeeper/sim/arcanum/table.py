"""The physical Arcanum table the world plays on: decks, hands, hide strips, pawns, tracks.

``Table`` holds the full-information state and the primitives every part of the flow shares:
drawing with R-DECK-1 reshuffles, VP with the Devil's doubling and the floor at 0, reputation,
legal pawn moves, the hand limit (R-DRAW-3), hide prompts and the fame phase (R-FAME). The flow
methods are generators of *actions* (lists of inputs); they change the state first and then
yield the action that performs the change, so the state always describes the table once every
input yielded so far has been performed.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from scorekeeper.core.inputs import Decision, Seen
from scorekeeper.games.arcanum.boards import BoardProfile, resolve_board
from scorekeeper.games.arcanum.cards import (
    FOOL,
    MAJORS,
    MINORS,
    SUITS,
    figure_of,
    is_major,
    number_of,
    pawn_for,
    suit_of,
    value_of,
)
from scorekeeper.sim.arcanum import bots
from scorekeeper.sim.arcanum.rules import (
    HAND_LIMIT,
    REP_MAX,
    award_table,
    fame_order,
    fame_rows,
    gain_reputation,
    resolve_options,
    schedule,
    score_family,
)
from scorekeeper.sim.world import WorldInput

Action = list[WorldInput]
Move = tuple[str, int]
"""A pawn move: (pawn id, destination location)."""
LOCATIONS = tuple(range(1, 11))
VP_EFFECTS = {"wizard_tower": 1, "market": 2, "fields": 1}


class Table:
    """The state of one simulated game and its shared primitives (see the module docstring)."""

    def _init_table(
        self, seats: int, options: Mapping[str, Any], seed: int, temper: bots.Temper, noise: float
    ) -> None:
        self.seats = seats
        self.options = resolve_options(options, seats)
        self.board: BoardProfile = resolve_board(self.options["board"])
        self.rng = random.Random(seed)
        self.temper = temper
        self.noise = noise
        self.variant: str = self.options["variant"]
        self.rounds, self.fame_rounds = schedule(
            seats, self.options["length"], self.options["three_player_length"]
        )
        self.minor_deck: list[str] = list(MINORS)
        self.major_deck: list[str] = [] if self.variant == "simplest" else list(MAJORS)
        self.rng.shuffle(self.minor_deck)
        self.rng.shuffle(self.major_deck)
        self.minor_discard: list[str] = []
        self.major_discard: list[str] = []
        self.minors: list[list[str]] = [[] for _ in range(seats)]
        self.majors: list[list[str]] = [[] for _ in range(seats)]
        self.hidden: list[list[str]] = [[] for _ in range(seats)]
        self.revealed: list[set[str]] = [set() for _ in range(seats)]
        self.pawns: dict[str, int | None] = {}
        """Pawn -> location, or None while in the tray (Judgement)."""
        self.rep: dict[str, int] = dict.fromkeys(SUITS, 0)
        self.vp: list[int] = [0] * seats
        self.round = 0
        self.start: int = self.options["start_seat"]
        self.active: int | None = None
        self.devil: int | None = None
        self.blocked: set[int] = set()
        self.tower_on_city = False
        self.judgement: tuple[int, list[str]] | None = None
        self.in_play: list[str] = []
        self.seen_at: dict[str, str] = {}
        """The readers' view: the zone each piece was last seen arriving at (see ``arrive``)."""
        self.lifted: list[Seen] = []
        """Departures of a reshuffled discard pile, sent with the action being made."""
        self.journal: list[Seen] = []
        """Every sighting made for the action being made, in the order it happened."""
        self.over = False
        self.history: list[dict[str, Any]] = []
        self.majors_played: Counter[str] = Counter()
        self.effects: Counter[str] = Counter()
        self.events: Counter[str] = Counter()

    # -- hands, decks, tracks ------------------------------------------------------------------

    def hand(self, seat: int) -> list[str]:
        return [*self.minors[seat], *self.majors[seat]]

    def hand_size(self, seat: int) -> int:
        return len(self.minors[seat]) + len(self.majors[seat])

    def clockwise(self, first: int, include_first: bool = True) -> list[int]:
        order = [(first + i) % self.seats for i in range(self.seats)]
        return order if include_first else order[1:]

    def majors_allowed(self) -> bool:
        """R-VAR-1/2: majors are drawn from round 3 in the first game, never in the simplest."""
        return self.variant == "full" or (self.variant == "first_game" and self.round >= 3)

    def take(self, kind: str) -> str | None:
        """The top card of a deck, reshuffling its discard pile when empty (R-DECK-1)."""
        deck, pile = (
            (self.minor_deck, self.minor_discard)
            if kind == "minor"
            else (self.major_deck, self.major_discard)
        )
        if not deck:
            if not pile:
                self.events[f"{kind}_draw_skipped"] += 1
                return None
            for card in pile:  # the pile's cards leave its reader
                self.lifted += [d for d in self.depart(card) if isinstance(d, Seen)]
            deck.extend(pile)
            pile.clear()
            self.rng.shuffle(deck)
            self.events[f"{kind}_reshuffle"] += 1
        return deck.pop()

    def draw(self, seat: int, kind: str, count: int) -> int:
        """``seat`` draws up to ``count`` cards of ``kind``; returns how many it got."""
        got = 0
        for _ in range(count):
            card = self.take(kind)
            if card is None:
                break
            (self.minors if kind == "minor" else self.majors)[seat].append(card)
            got += 1
        return got

    def discard(self, seat: int, card: str) -> Action:
        """Move ``card`` from ``seat``'s hand to its deck's discard pile; the sighting of it."""
        if is_major(card):
            self.majors[seat].remove(card)
            self.major_discard.append(card)
            return self.arrive(card, "major_discard")
        self.minors[seat].remove(card)
        self.minor_discard.append(card)
        return self.arrive(card, "minor_discard")

    def hide(self, seat: int, card: str) -> Action:
        """Move ``card`` from ``seat``'s hand to its hide strip; the sighting of it."""
        (self.majors if card == FOOL else self.minors)[seat].remove(card)
        self.hidden[seat].append(card)
        return self.arrive(card, f"hide:{seat}")

    def add_vp(self, seat: int, amount: int, regular_fame: bool = False) -> None:
        """A VP gain or loss: doubled for the Devil's player (G-12/G-13), never below 0."""
        if self.devil == seat and (not regular_fame or self.options["devil_fame"] == "doubled"):
            amount *= 2
        self.vp[seat] = max(0, self.vp[seat] + amount)

    def add_rep(self, family: str, amount: int) -> None:
        if amount > 0 and self.rep[family] + amount > REP_MAX:
            self.events["overflow"] += 1
        gain_reputation(self.rep, family, amount)

    # -- pawns ---------------------------------------------------------------------------------

    def pawn_moves(self, pawns: Sequence[str], target: int | None) -> list[Move]:
        """Legal moves of ``pawns`` (to ``target`` or anywhere): R-MIN-2/3/4."""
        moves: list[Move] = []
        for pawn in pawns:
            here = self.pawns[pawn]
            if here is None or here in self.blocked:
                continue
            for dest in LOCATIONS if target is None else (target,):
                if dest != here and dest not in self.blocked:
                    moves.append((pawn, dest))
        return moves

    def minor_moves(self, card: str) -> list[Move]:
        """The moves a minor allows: a pawn of its suit to its number, or its figure's pawn."""
        if figure_of(card) is not None:
            return self.pawn_moves([pawn_for(card)], None)
        suit = suit_of(card)
        return self.pawn_moves([p for p in self.pawns if suit_of(p) == suit], number_of(card))

    def move_worth(self, seat: int, move: Move) -> float:
        """How much a bot at ``seat`` likes a move: the destination's VP, then its icons."""
        pawn, dest = move
        effect = self.board.effect_at(dest)
        vp = VP_EFFECTS.get(effect, 0)
        if effect == "cathedral":
            vp = self.board.cathedral_gain_vp or 0
        care = bots.family_interest(self.hidden[seat])[suit_of(pawn)]
        return vp + 0.2 * care * self.board.icon_gain(dest, pawn)

    # -- what the readers see ------------------------------------------------------------------

    def arrive(self, piece: str, zone: str) -> Action:
        """``piece`` lands on ``zone``: its arrival, with its departure from the zone it was
        seen on (if any) before or after it: a piece is on one reader at a time, as a hand
        moves it (the referee ignores departures)."""
        here = self.seen_at.get(piece)
        self.seen_at[piece] = zone
        arrival = Seen(zone, piece, True)
        if here is None:
            self.journal.append(arrival)
            return [arrival]
        departure = Seen(here, piece, False)
        self.journal += [departure, arrival]  # the same moment: either order below
        return [departure, arrival] if self.rng.random() < 0.5 else [arrival, departure]

    def depart(self, piece: str) -> Action:
        """``piece`` is taken off the reader it lies on (into a hand or a deck)."""
        here = self.seen_at.pop(piece, None)
        if here is None:
            return []
        departure = Seen(here, piece, False)
        self.journal.append(departure)
        return [departure]

    def with_lifted(self, action: Action) -> Action:
        """``action`` with the departures of any pile reshuffled while it was made, each put
        among the action's sightings in the order things happened (a card discarded and then
        shuffled away leaves after it landed; one shuffled away, drawn and discarded again
        leaves before it lands)."""
        if self.lifted:
            when = {id(x): k for k, x in enumerate(self.journal)}
            out = list(action)
            for departure in self.lifted:
                at = when[id(departure)]
                later = next(
                    (
                        i
                        for i, x in enumerate(out)
                        if isinstance(x, Seen) and when.get(id(x), -1) > at
                    ),
                    len(out),
                )
                out.insert(later, departure)
            action = out
        self.lifted, self.journal = [], []
        return action

    def anyone(self) -> int | None:
        """Who answers a table prompt: any seat or the organiser."""
        answerers: list[int | None] = [None, *range(self.seats)]
        return self.rng.choice(answerers)

    def ask(self, seat: int, prompt: str, answer: str) -> Decision:
        """``seat``'s answer to a public prompt, now and then given by the organiser for it."""
        by = None if self.rng.random() < self.temper.organiser else seat
        return Decision(by, prompt, answer)

    # -- shared flows --------------------------------------------------------------------------

    def settle(
        self, order: Sequence[int], then: Callable[[], None] | None = None
    ) -> Iterator[Action]:
        """R-DRAW-3: every seat over the limit discards down to 7, one seat at a time.

        ``then`` (a state change that follows the discards) runs just before the last discard
        is yielded; the caller runs it itself when nothing is owed (see ``owes``).
        """
        owed = [s for s in order for _ in range(max(0, self.hand_size(s) - HAND_LIMIT))]
        for k, seat in enumerate(owed):
            card = bots.choose_discard(self.rng, self.minors[seat], self.majors[seat])
            self.events["hand_limit"] += 1
            seen = self.discard(seat, card)
            if then is not None and k == len(owed) - 1:
                then()
            yield seen

    def owes(self, *seats: int) -> bool:
        """True when one of ``seats`` holds more cards than the hand limit."""
        return any(self.hand_size(s) > HAND_LIMIT for s in seats)

    def each_discards(self, a: int) -> Iterator[Action]:
        """Castle, Chariot, Judgement: each other seat with cards discards 1, clockwise."""
        for seat in self.clockwise(a, include_first=False):
            if self.hand_size(seat):
                card = bots.choose_discard(self.rng, self.minors[seat], self.majors[seat])
                yield self.discard(seat, card)

    def hide_prompt_open(self, seat: int) -> bool:
        """Whether the table asks ``seat`` an optional ``hide`` (it holds any card)."""
        return self.hand_size(seat) > 0

    def hides(self, seat: int, most: int, alone: bool = True) -> Iterator[Action]:
        """The optional ``hide`` prompt: up to ``most`` hides of a minor or the Fool, or pass.

        The table asks only while the seat holds a card: a seat whose hand is (or becomes)
        empty is not asked (any more).
        """
        for _ in range(most):
            if not self.hide_prompt_open(seat):
                return
            card = bots.choose_hide(
                self.rng, self.temper, self.minors[seat], FOOL in self.majors[seat], forced=False
            )
            if card is None:
                pas = self.ask(seat, "hide", "pass") if alone else Decision(seat, "hide", "pass")
                yield [pas]
                return
            self.events["optional_hide"] += 1
            if card == FOOL:
                self.events["fool_hidden"] += 1
            yield self.hide(seat, card)

    def opponents_hide(self, a: int) -> Iterator[Action]:
        """IX, XVIII: each opponent may hide 1, all at once, in any order."""
        order = self.clockwise(a, include_first=False)
        self.rng.shuffle(order)
        for seat in order:  # several seats are asked at once: each answers for itself
            yield from self.hides(seat, 1, alone=False)

    # -- the fame phase ------------------------------------------------------------------------

    def fame_phase(self, kind: str) -> Iterator[Action]:
        """R-FAME: a regular phase (end of a fame round) or the World's (R-FAME-11)."""
        world = kind == "world"
        if world and self.devil is not None:
            self.events["world_after_devil"] += 1
        rows = fame_rows(self.rep)
        order = fame_order(self.rep)
        holder = next((s for s in range(self.seats) if FOOL in self.hidden[s]), None)
        plan = None
        if holder is not None:
            plan = bots.choose_fool_turn(self.rng, self.temper, self.hidden[holder], order)
        fool_family: str | None = None
        entry: dict[str, Any] = {
            "round": self.round,
            "kind": kind,
            "rows": dict(rows),
            "families": [],
            "totals": [0] * self.seats,
            "gained": [0] * self.seats,
        }
        final = not world and self.round == self.rounds
        cleared: list[tuple[int, str]] = []
        for i, family in enumerate(order):
            action: Action = []
            if holder is not None and fool_family is None and (plan == i or i == 3):
                fool_family = family
                if plan == i:
                    action.append(Decision(holder, "fool", family))
                self.events["fool_assigned" if plan == i else "fool_by_default"] += 1
            cards = [
                [c for c in self.hidden[s] if c != FOOL and suit_of(c) == family]
                + ([FOOL] if s == holder and fool_family == family else [])
                for s in range(self.seats)
            ]
            awards = score_family(
                [[value_of(c) for c in cs] for cs in cards],
                award_table(rows[family], world),
                self.options["tied_split"],
            )
            gained = [0] * self.seats
            for s, award in enumerate(awards):
                before = self.vp[s]
                self.add_vp(s, award, regular_fame=not world)
                gained[s] = self.vp[s] - before
                entry["totals"][s] += award
                entry["gained"][s] += gained[s]
            entry["families"].append(
                {
                    "family": family,
                    "row": rows[family],
                    "cards": {s: cs for s, cs in enumerate(cards) if cs},
                    "awards": awards,
                    "gained": gained,
                }
            )
            if i == 3:
                self.history.append(entry)
                cleared = self._after_fame(world)
                self.over = final
            action.append(Decision(self.anyone(), "fame", "reveal"))
            yield action
        if not world and not final and cleared:  # R-FAME-10: the revealed cards go away
            yield self._clear_strips(cleared)

    def _clear_strips(self, cleared: list[tuple[int, str]]) -> Action:
        """The revealed cards leave the hide strips for their discard piles, where the referee
        put them already (a confirmation, even after the next round's draws reshuffled them)."""
        action: Action = []
        for _, card in cleared:
            action += self.arrive(card, "major_discard" if card == FOOL else "minor_discard")
        self.rng.shuffle(action)  # departures and arrivals of different cards, in any order
        return action

    def _after_fame(self, world: bool) -> list[tuple[int, str]]:
        """R-FAME-10 cleanup (or R-FAME-11's): returns the (seat, card) pairs discarded."""
        for seen in self.revealed:
            seen.clear()
        if world:
            return []
        cleared = [(s, c) for s in range(self.seats) for c in self.hidden[s]]
        for _, card in cleared:
            (self.major_discard if card == FOOL else self.minor_discard).append(card)
        self.hidden = [[] for _ in range(self.seats)]
        self.rep = dict.fromkeys(SUITS, 0)
        return cleared
