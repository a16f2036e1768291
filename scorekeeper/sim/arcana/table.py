"""The physical Arcana table the world plays on: stake piles, decks, hands, discard piles,
districts with their agents, the watch and event decks, and what the readers see.

``Table`` holds the full-information state and the primitives the setup, intrigue and results
flows share. The flows are generators of *actions* (lists of inputs); they change the state
first and then yield the action that performs it, so the state always describes the table once
every input yielded so far has been performed.

Readers (docs/games/arcana.md, "Zones"): a card is read as it *arrives* on a pad. The world
keeps which tags lie on each reader (``on``) and never lets a reader hold more than its limit
(``LIMIT``): before a card is laid on a full pad the oldest one there is slid off (a
departure, which the referee takes and ignores). Piles, decks and hands are never read.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.core.inputs import Decision, Seen
from scorekeeper.games.arcana.cards import (
    AGENT,
    CITIZEN,
    GUILDS,
    PIECES,
    PRINCES_GAMES_CARD,
    Card,
    Pack,
)
from scorekeeper.sim.arcana import bots
from scorekeeper.sim.arcana.deck import load_pack, resolve_options
from scorekeeper.sim.world import WorldInput

Action = list[WorldInput]
NEUTRAL = "n"
HAND = 4
"""R-ROUND-2: cards drawn at the start of a round."""
LIMIT = {"stake": 2, "agents": 4, "discard": 2, "badge": 4, "event": 2}
"""Tags a reader may hold at once, by zone kind (contract, "Zones")."""
_DISTRICTS: dict[int, tuple[tuple[str, tuple[int, ...]], ...]] = {
    2: (("a", (0,)), ("b", (0,)), ("c", (1,)), ("d", (1,)), (NEUTRAL, ())),
    3: (("a", (0, 1)), ("b", (1, 2)), ("c", (2, 0)), (NEUTRAL, ())),
    4: (("a", (0, 1)), ("b", (1, 2)), ("c", (2, 3)), ("d", (3, 0)), (NEUTRAL, ())),
}
"""G-1 … G-3: each district and the seats it is friendly to (the world's own copy)."""


@dataclass(slots=True)
class Agent:
    """A card at a district: its owner, its face, the relics on it, whether a watch card."""

    card: str
    owner: int
    face_up: bool
    relics: list[str] = field(default_factory=list)
    watch: bool = False


@dataclass(slots=True)
class Place:
    """A district: its stake (None when none shows; the Prince's Games card's id while it lies
    on the neutral one), its face-down pile (top last), its agents in the order laid."""

    id: str
    friends: tuple[int, ...]
    stake: str | None
    pile: list[str]
    agents: list[Agent] = field(default_factory=list)
    resolved: bool = False

    def open(self) -> bool:
        """A stake shows that cards may be laid at (G-5, G-6)."""
        return self.stake is not None and self.stake != PRINCES_GAMES_CARD


@dataclass(slots=True)
class Player:
    """A seat: its guild, deck (top last), hand, discard pile (top last), set-aside stakes,
    everything it owns, its master, its kept objectives, and (G-36) the guild cards the table
    has seen it play."""

    guild: str
    deck: list[str] = field(default_factory=list)
    hand: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    set_aside: list[str] = field(default_factory=list)
    owned: set[str] = field(default_factory=set)
    master: str = ""
    master_used: bool = False
    objectives: list[str] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)
    returned: list[str] = field(default_factory=list)


class Table:
    """The state of one simulated game and its shared primitives (see the module docstring)."""

    def _init_table(
        self,
        seats: int,
        options: Mapping[str, Any],
        seed: int,
        temper: bots.Temper,
        noise: float,
        pack: Pack | None,
        guilds: tuple[str, ...] | None,
    ) -> None:
        self.seats = seats
        self.options = resolve_options(options, seats)
        self.pack = pack if pack is not None else load_pack(self.options["pack"])
        self.rng = random.Random(seed)
        self.temper = temper
        self.noise = noise
        chosen = guilds or tuple(self.rng.sample(GUILDS, seats))
        self.players = [Player(g) for g in chosen]
        self.places: dict[str, Place] = {
            did: Place(did, friends, None, []) for did, friends in _DISTRICTS[seats]
        }
        self.watch_deck: list[str] = []
        self.watch_owner: dict[str, int] = {}
        self.event_deck: list[str] = []
        """The events still face down, the next to turn up last."""
        self.event_now = ""
        self.event_next = ""
        self.first = self.options["start_seat"]
        self.round = 0
        self.last_round = False
        self.one_more = False
        """The Prince's Games card came up mid-round (G-7 ``next_round``): one more round."""
        self.over = False
        self.history: list[dict[str, Any]] = []
        self.master_uses: list[int] = [0] * seats
        """Master uses of each seat this round (the bots' own cap)."""
        self.turns = 0
        """Turns taken this intrigue phase."""
        self.awaiting: set[str] = set()
        """Districts won at once whose next stake is still to be turned up (G-35)."""
        self.bribe_arcanum: dict[tuple[str, int], str] = {}
        self.on: dict[str, list[str]] = {}
        """The tags lying on each reader now, oldest first."""
        self.where: dict[str, str] = {}
        """The reader each tag lies on now."""
        self.events: Counter[str] = Counter()

    # -- the pack ----------------------------------------------------------------------------

    def card(self, piece: str) -> Card:
        """The pack's card (KeyError-like failure is a world bug: the pack is complete)."""
        got = self.pack.card(piece)
        if got is None:
            raise KeyError(piece)
        return got

    def kind(self, piece: str) -> str:
        return self.card(piece).type

    def is_stake(self, piece: str) -> bool:
        return piece.startswith("stake_")

    def is_agent_card(self, piece: str) -> bool:
        """R-INT-3: a guild agent or a won citizen (watch cards are never in a hand)."""
        return self.kind(piece) in (AGENT, CITIZEN)

    def relation(self, seat: int, did: str) -> str:
        if did == NEUTRAL:
            return "neutral"
        return "friendly" if seat in self.places[did].friends else "enemy"

    # -- decks and hands ---------------------------------------------------------------------

    def draw(self, seat: int, count: int) -> int:
        """``seat`` draws up to ``count`` cards, its discard pile shuffled in as a new deck
        when the deck runs out (R-ROUND-2, G-21); how many it got."""
        p = self.players[seat]
        got = 0
        for _ in range(count):
            if not p.deck:
                if not p.discard:
                    self.events["short_draw"] += 1
                    break
                p.deck, p.discard = p.discard, []
                self.rng.shuffle(p.deck)
                self.events["reshuffle"] += 1
            p.hand.append(p.deck.pop())
            got += 1
        return got

    def clockwise(self, first: int) -> list[int]:
        return [(first + i) % self.seats for i in range(self.seats)]

    # -- what the readers see ----------------------------------------------------------------

    def _zone_kind(self, zone: str) -> str:
        return zone.split(":")[0].split("_")[0]

    def arrive(self, piece: str, zone: str) -> Action:
        """``piece`` is laid on ``zone``: its arrival, the departure from the reader it lay on
        (before or after, as a hand moves it), and if the pad is full the oldest tag there
        slid off first."""
        out: Action = []
        here = self.where.pop(piece, None)
        moved: Action = []
        if here is not None:
            self.on[here].remove(piece)
            moved = [Seen(here, piece, False)]
        row = self.on.setdefault(zone, [])
        while len(row) >= LIMIT[self._zone_kind(zone)]:
            old = row.pop(0)
            del self.where[old]
            out.append(Seen(zone, old, False))
        row.append(piece)
        self.where[piece] = zone
        arrival = [Seen(zone, piece, True)]
        if self.rng.random() < 0.5:
            return out + moved + arrival
        return out + arrival + moved

    def lift(self, piece: str) -> Action:
        """``piece`` is taken off the reader it lies on (into a hand, a pile, the box)."""
        here = self.where.pop(piece, None)
        if here is None:
            return []
        self.on[here].remove(piece)
        return [Seen(here, piece, False)]

    def tap(self, piece: str, seat: int) -> Action:
        """``piece`` is laid on ``seat``'s discard pad, read, and moved on to its pile; now
        and then laid again before it is lifted (read twice, counted once)."""
        pad = f"discard:{seat}"
        out = [*self.arrive(piece, pad), *self.lift(piece)]
        if self.rng.random() < self.noise / 6:
            self.events["retap"] += 1
            out = out[:-1] + [Seen(pad, piece, False), Seen(pad, piece, True), out[-1]]
        return out

    def fidget(self) -> Action:
        """Now and then (``noise``) a card lying on an agent pad is lifted and laid back: seen
        again where the referee has it, which changes nothing."""
        if self.rng.random() >= self.noise / 5:
            return []
        lying = sorted(p for p, z in self.where.items() if z.startswith("agents_"))
        if not lying:
            return []
        piece = self.rng.choice(lying)
        zone = self.where[piece]
        self.events["fidget"] += 1
        return [Seen(zone, piece, False), Seen(zone, piece, True)]

    def ask(self, seat: int, prompt: str, answer: str) -> Decision:
        """A seat's answer; now and then the organiser answers for it (contract: every prompt
        a seat answers may be answered by the organiser as that seat). ``relic_on`` is the
        seat's alone (private)."""
        if prompt != "relic_on" and self.rng.random() < self.temper.organiser:
            return Decision(None, prompt, answer)
        return Decision(seat, prompt, answer)

    # -- checks (tests) ----------------------------------------------------------------------

    def locations(self) -> dict[str, list[str]]:
        """Where every one of the 304 cards is: decks, hands, discard piles, set-aside stakes,
        districts (stakes, piles, agents and relics), the watch and event decks, badges,
        masters and kept objectives, the events shown, and the box."""
        where: dict[str, list[str]] = {
            "watch_deck": list(self.watch_deck),
            "event_deck": list(self.event_deck),
            "events_shown": [e for e in (self.event_now, self.event_next) if e],
        }
        for s, p in enumerate(self.players):
            where[f"deck:{s}"] = list(p.deck)
            where[f"hand:{s}"] = list(p.hand)
            where[f"discard:{s}"] = list(p.discard)
            where[f"badge:{s}"] = [f"badge_{p.guild}", *p.set_aside, *p.objectives]
            if p.master:
                where[f"badge:{s}"].append(p.master)
        for did, place in self.places.items():
            cards = [*place.pile, *([place.stake] if place.stake else [])]
            for a in place.agents:
                cards += [a.card, *a.relics]
            where[f"district:{did}"] = cards
        placed = {c for cards in where.values() for c in cards}
        where["box"] = [p for p in PIECES if p not in placed]
        return where
