"""The physical King of the Elves table the world plays on: piles, hands, purses and their
ledger, principalities with their special cards and tokens, and what the readers see.

``Table`` holds the full-information state and the primitives the planning and travel flows
share. The flows are generators of *actions* (lists of inputs); they change the state first and
then yield the action that performs the change, so the state always describes the table once
every input yielded so far has been performed.

Physically a piece lies on one reader at a time (``seen_at``): a village and an obstacle on a
village pad, gold and thief cards on an attachment pad, each token on its card's pad. Cards on
their way to a pile are *tapped* (``tap``): laid on the road or discard pad, read, lifted again.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.core.inputs import Decision, Seen
from scorekeeper.sim.king_of_the_elves import bots
from scorekeeper.sim.king_of_the_elves.deck import (
    CRESTS,
    deck_cards,
    kind_of,
    resolve_options,
    tokens_of,
)
from scorekeeper.sim.world import WorldInput

Action = list[WorldInput]
BANK = "bank"
CATEGORY = {"gold": "gold", "thief": "thief", "fallen_tree": "obstacle", "sea_monster": "obstacle"}
"""R-PLAN-9: the category of each planning special card (one of each per village)."""


@dataclass(slots=True)
class Special:
    """A gold, thief or obstacle card on a village, with its owner and the owner's token."""

    card: str
    owner: int
    token: str


@dataclass(slots=True)
class Village:
    """A village in a principality, with its special cards by category."""

    card: str
    specials: dict[str, Special] = field(default_factory=dict)
    """``gold``, ``thief``, ``obstacle`` -> the card there (R-PLAN-9: one of each)."""


def village_zone(seat: int, slot: int) -> str:
    """The village pad of ``seat``'s ``slot`` (1-based): ``village_1:2``."""
    return f"village_{slot}:{seat}"


def attach_zone(seat: int, slot: int) -> str:
    """The attachment pad beside ``seat``'s ``slot``: ``attach_1:2``."""
    return f"attach_{slot}:{seat}"


class Table:
    """The state of one simulated game and its shared primitives (see the module docstring)."""

    def _init_table(
        self, seats: int, options: Mapping[str, Any], seed: int, temper: bots.Temper, noise: float
    ) -> None:
        self.seats = seats
        self.options = resolve_options(options, seats)
        self.rng = random.Random(seed)
        self.temper = temper
        self.noise = noise
        deck = self.options["deck"]
        self.terrain: dict[str, str] = {c: v["terrain"] for c, v in deck["villages"].items()}
        self.value: dict[str, int] = {c: int(v["value"]) for c, v in deck["villages"].items()}
        self.cards: tuple[str, ...] = tuple(deck_cards(deck))
        self.draw_pile: list[str] = list(self.cards)
        self.rng.shuffle(self.draw_pile)
        self.discard_pile: list[str] = []
        self.front: list[str] = []
        """The escort in play, face up before the traveller, off the pads (R-TRAVEL-10)."""
        self.hands: list[list[str]] = [[] for _ in range(seats)]
        self.crest: str = self.options["crests"]
        self.supply: list[list[str]] = [tokens_of(self.crest[s]) for s in range(seats)]
        """Each seat's tokens in front of it (not on the table)."""
        self.princ: list[list[Village]] = [[] for _ in range(seats)]
        self.capacity = 3 if seats == 2 and self.options["two_player_villages"] == 3 else 2
        self.purse: list[int] = [0] * seats
        self.escrow: list[int] = [0] * seats
        self.ledger: list[dict[str, Any]] = []
        self.placed: list[int] = [0] * seats
        self.bought: list[int] = [0] * seats
        self.rounds = min(seats, 5)
        self.round = 1
        self.start: int = self.options["start_seat"]
        self.phones = self.options["money"] == "phones"
        self.seen_at: dict[str, str] = {}
        """The readers' view: the zone each piece lies on now."""
        self.history: list[dict[str, Any]] = []
        self.over = False
        self.events: Counter[str] = Counter()
        for s in range(seats):
            self.pay(BANK, s, self.options["starting_gold"], "start", "R-SETUP-5", "the start")

    # -- gold ------------------------------------------------------------------------------------

    def pay(
        self, src: int | str, dst: int | str, amount: int, reason: str, rule: str, about: str
    ) -> None:
        """One ledger entry: ``amount`` from ``src`` to ``dst`` (a seat's purse, ``escrow:s``
        or the bank). Hazard: the flows check a payment can be made before choosing it; a
        purse going negative here is a world bug and raises."""
        for end, sign in ((src, -1), (dst, 1)):
            if isinstance(end, int):
                self.purse[end] += sign * amount
            elif end.startswith("escrow:"):
                self.escrow[int(end[7:])] += sign * amount
        if min(self.purse) < 0 or min(self.escrow) < 0:
            raise RuntimeError(f"{reason}: {src} cannot pay {amount}")
        self.ledger.append(
            {
                "n": len(self.ledger) + 1,
                "round": self.round,
                "reason": reason,
                "rule": rule,
                "from": src if isinstance(src, str) else f"purse:{src}",
                "to": dst if isinstance(dst, str) else f"purse:{dst}",
                "amount": amount,
                "about": about,
            }
        )

    # -- piles and hands -------------------------------------------------------------------------

    def take(self) -> str | None:
        """The top card of the draw pile, the discard pile shuffled in when it is empty
        (G-14); None when both are empty."""
        if not self.draw_pile:
            if not self.discard_pile:
                return None
            self.draw_pile, self.discard_pile = self.discard_pile, []
            self.rng.shuffle(self.draw_pile)
            self.events["reshuffle"] += 1
        return self.draw_pile.pop()

    def draw(self, seat: int, count: int) -> int:
        """``seat`` draws up to ``count`` cards (G-14: what there is); how many it got."""
        got = 0
        for _ in range(count):
            card = self.take()
            if card is None:
                break
            self.hands[seat].append(card)
            got += 1
        return got

    def deal(self, count: int) -> None:
        """R-SETUP-10, G-26: one card at a time clockwise from the start player, so a short
        deal gives the first seats one card more (unseen: no input)."""
        for _ in range(count):
            for seat in self.clockwise(self.start):
                if self.draw(seat, 1) == 0:
                    self.events["short_deal"] += 1
                    return

    def available(self) -> int:
        """Cards left to draw: the draw pile and the discard pile (G-14)."""
        return len(self.draw_pile) + len(self.discard_pile)

    def in_hand(self, seat: int, kind: str) -> list[str]:
        """``seat``'s cards of one type (``village``, ``raft``, ``escort``, ...)."""
        return [c for c in self.hands[seat] if kind_of(c) == kind]

    def clockwise(self, first: int) -> list[int]:
        return [(first + i) % self.seats for i in range(self.seats)]

    # -- the table -------------------------------------------------------------------------------

    def name(self, card: str) -> str:
        """A village in words: "the forest village (4)"."""
        return f"the {self.terrain[card]} village ({self.value[card]})"

    def tokens_out(self, seat: int) -> int:
        """``seat``'s tokens on the table now."""
        return 4 - len(self.supply[seat])

    def can_place(self, seat: int) -> bool:
        """R-PLAN-11 / G-11: one more gold, thief or obstacle card for ``seat`` this round."""
        if self.options["token_limit"] == "on_table":
            return self.tokens_out(seat) < 4
        return self.placed[seat] < 4

    def all_villages(self) -> list[str]:
        return [v.card for row in self.princ for v in row]

    def specials_on_table(self) -> list[Special]:
        return [sp for row in self.princ for v in row for sp in v.specials.values()]

    # -- what the readers see --------------------------------------------------------------------

    def arrive(self, piece: str, zone: str) -> Action:
        """``piece`` is laid on ``zone``: its arrival, with its departure from the reader it
        lay on (if any) just before or after it, as a hand moves it."""
        here = self.seen_at.get(piece)
        self.seen_at[piece] = zone
        arrival = Seen(zone, piece, True)
        if here is None:
            return [arrival]
        departure = Seen(here, piece, False)
        return [departure, arrival] if self.rng.random() < 0.5 else [arrival, departure]

    def lift(self, piece: str) -> Action:
        """``piece`` is taken off the reader it lies on (into a hand, a pile, the box)."""
        here = self.seen_at.pop(piece, None)
        return [] if here is None else [Seen(here, piece, False)]

    def tap(self, card: str, pad: str) -> Action:
        """``card`` is laid on the tap pad ``pad`` (``road``, ``discard``), read, and moved on
        to the discard pile; now and then lifted and laid again first (``noise``: the same card
        counted once, contract "Inputs")."""
        out = [*self.arrive(card, pad), *self.lift(card)]
        if self.rng.random() < self.noise / 5:
            self.events["retap"] += 1
            out += [Seen(pad, card, True), Seen(pad, card, False)]
        return out

    def tap_all(self, cards: list[str], pad: str) -> Action:
        """Several cards tapped on ``pad`` one after another; now and then one is lifted only
        after the next is laid (the pad holds 2 while one card replaces another)."""
        out: Action = []
        held: Action = []
        for card in cards:
            taps = self.tap(card, pad)
            laid = taps.index(Seen(pad, card, True)) + 1
            out += taps[:laid] + held
            rest = taps[laid:]
            held = []
            if len(rest) == 1 and self.rng.random() < self.noise / 2:
                held = rest  # its departure waits for the next card's arrival
                self.events["overlap"] += 1
            else:
                out += rest
        return out + held

    def fidget(self) -> Action:
        """Now and then (``noise``) a piece on a village or attachment pad is lifted and laid
        back where it lay: seen again where the referee has it, which changes nothing."""
        if not self.seen_at or self.rng.random() >= self.noise / 4:
            return []
        piece = self.rng.choice(sorted(self.seen_at))
        zone = self.seen_at[piece]
        self.events["fidget"] += 1
        return [Seen(zone, piece, False), Seen(zone, piece, True)]

    def ask(self, seat: int, prompt: str, answer: str) -> Decision:
        """A seat's answer; now and then the organiser answers for it (contract: every prompt
        a seat answers may be answered by the organiser as that seat)."""
        if self.rng.random() < self.temper.organiser:
            return Decision(None, prompt, answer)
        return Decision(seat, prompt, answer)

    # -- checks (tests) --------------------------------------------------------------------------

    def locations(self) -> dict[str, list[str]]:
        """Where every card and token is: piles, hands, villages, specials, token supplies, and
        the box (the crests nobody plays, R-SETUP-3): the 144 pieces."""
        unused = [c for c in CRESTS if c not in self.crest]
        where: dict[str, list[str]] = {
            "draw": list(self.draw_pile),
            "discard": list(self.discard_pile),
            "front": list(self.front),
            "table": [],
            "tokens": [],
            "box": [t for c in unused for t in tokens_of(c)],
        }
        for s in range(self.seats):
            where[f"hand:{s}"] = list(self.hands[s])
            where["tokens"] += self.supply[s]
            for v in self.princ[s]:
                where["table"].append(v.card)
                for sp in v.specials.values():
                    where["table"].append(sp.card)
                    where["tokens"].append(sp.token)
        return where
