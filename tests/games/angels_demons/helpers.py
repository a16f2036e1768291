"""Helpers for Angels & Demons tests: a referee with short flows, and a seeded random world."""

from __future__ import annotations

import random
from typing import Any

from scorekeeper.core.inputs import Decision, Seen, parse_input
from scorekeeper.core.referee import Referee, Result
from scorekeeper.games.angels_demons import AngelsAndDemons
from scorekeeper.games.angels_demons.cards import CARD_IDS, IDENT
from scorekeeper.games.angels_demons.hands import idents, is_complete, is_set, winning_identities
from scorekeeper.games.angels_demons.state import ACT, FLIP, OUT, TAKE, State
from tests.driving import play as play  # re-exported for the tests of this game
from tests.driving import refuse as refuse

GAME = AngelsAndDemons()


def new_ref(n: int = 4, **options: Any) -> Referee:
    """A fresh referee for ``n`` seats with these options."""
    return Referee(GAME, options, n)


def deal(ref: Referee, *talon: str) -> None:
    """Turn the talon of a fresh round."""
    play(ref, *(f"+talon {c}" for c in talon))


def state(ref: Referee) -> State:
    """The referee's current Angels & Demons state."""
    st = ref.state
    assert isinstance(st, State)
    return st


class World:
    """A full-information table from a seed: real shuffled deck and hands, simple random bots.

    It performs every move as the sightings and decisions a real table would produce and feeds
    them to a referee; ``run`` plays a whole game and checks the referee's counts on the way.
    """

    def __init__(self, n: int, seed: int, **options: Any) -> None:
        self.n = n
        self.rng = random.Random(seed)
        self.ref = new_ref(n, **options)
        self.inputs = 0
        self.lines: list[str] = []  # every input sent, in order
        self.before: list[State] = []  # the referee's state before each input
        self.events: list[tuple[str, ...]] = []  # the feed lines of each input
        self.hands: list[list[str]] = []
        self.deck: list[str] = []

    def send(self, line: str) -> Result:
        inp = parse_input(line)
        assert isinstance(inp, Seen | Decision)
        self.lines.append(line)
        self.before.append(state(self.ref))
        result = self.ref.apply(inp)
        self.events.append(result.events)
        self.inputs += 1
        assert result.accepted, f"{line!r} rejected: {result.rejection} in {state(self.ref)}"
        return result

    def new_round(self) -> None:
        cards = list(CARD_IDS)
        self.rng.shuffle(cards)
        self.hands = [[cards.pop() for _ in range(7)] for _ in range(self.n)]
        self.deck = cards
        for _ in range(self.n + 1):
            self.send(f"+talon {self.deck.pop()}")

    def _set_in(self, hand: list[str]) -> list[str] | None:
        for i in range(len(hand)):
            for j in range(i + 1, len(hand)):
                for k in range(j + 1, len(hand)):
                    trio = [hand[i], hand[j], hand[k]]
                    if is_set(idents(trio)):
                        return trio
        return None

    def _claims(self, st: State) -> bool:
        """Resolve an open claim window; True when the round went on with a claim."""
        assert st.claim is not None
        card, d = st.claim.card, st.claim.discarder
        before = {s for s, at in st.declared if at < st.claim.at}
        for k in range(1, self.n):
            s = (d + k) % self.n
            blocked = st.opts.mode == "advanced" and any(
                IDENT[c] == IDENT[card] for c in st.discards[s]
            )
            if s in before and not blocked and is_complete(idents(self.hands[s] + [card])):
                self.send(f"+out {card}")
                if state(self.ref).going is not None and state(self.ref).going.seat is None:
                    self.send(f"decide organiser claimant {s}")
                for c in self.hands[s]:
                    self.send(f"+out {c}")
                self.hands[s] = []
                self.flips()
                return True
        for k in range(1, self.n):
            s = (d + k) % self.n
            if s in st.waiting or self.rng.random() < 0.5:
                continue
            pair = [c for c in self.hands[s] if IDENT[c] == IDENT[card]][:2]
            if len(pair) == 2:
                self.send(f"+meld:{s} {card}")
                for c in pair:
                    self.hands[s].remove(c)
                    self.send(f"+meld:{s} {c}")
                if state(self.ref).phase == TAKE:
                    self.hands[s] += [self.deck.pop(), self.deck.pop()]
                return True
        if not st.talon or self.rng.random() < 0.3:
            self.send("decide organiser claim pass")
        return False

    def flips(self) -> None:
        while state(self.ref).phase == FLIP:
            self.send(f"+flip {self.deck.pop()}")

    def turn(self) -> None:
        st = state(self.ref)
        if st.claim is not None and self._claims(st):
            return
        st = state(self.ref)
        if st.phase != TAKE:
            return
        a = st.active
        if not st.talon:
            for _ in range(self.n + 1):
                self.send(f"+talon {self.deck.pop()}")
            st = state(self.ref)
        card = self.rng.choice(st.talon)
        self.send(f"-talon {card}")
        hand = self.hands[a]
        hand.append(card)
        assert state(self.ref).phase == ACT
        if len(hand) == 8 and is_complete(idents(hand)):
            for c in hand:
                self.send(f"+out {c}")
            self.hands[a] = []
            self.flips()
            return
        if a in st.waiting:
            hand.remove(card)
            self.send(f"+discard:{a} {card}")
            return
        trio = self._set_in(hand)
        if trio is not None and self.rng.random() < 0.4:
            for c in trio:
                hand.remove(c)
                self.send(f"+meld:{a} {c}")
            count = self.rng.choice([1, 2, 2, 2])
            if st.opts.post_set_draw == "always2":
                count = 2
            else:
                self.send(f"decide {a} draw_count {count}")
            if len(self.deck) >= count:
                hand += [self.deck.pop() for _ in range(count)]
            return
        out = self.rng.choice(hand)
        hand.remove(out)
        self.send(f"+discard:{a} {out}")
        if len(hand) == 7 and winning_identities(idents(hand)) and self.rng.random() < 0.7:
            self.send(f"decide {a} waiting yes")

    def check(self) -> None:
        st = state(self.ref)
        if st.phase in (OUT, FLIP) or st.phase == "round_over" or st.over:
            return
        assert st.deck == len(self.deck), (st.deck, len(self.deck))
        assert list(st.hands) == [len(h) for h in self.hands]

    def run(self, max_inputs: int = 20000) -> State:
        """Play a whole game; returns the final state."""
        self.new_round()
        while not state(self.ref).over and self.inputs < max_inputs:
            if state(self.ref).phase == "round_over":
                self.new_round()
                continue
            self.turn()
            self.check()
        return state(self.ref)
