"""A short-flow driver for Angels & Demons referee tests: whole turns in one call."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import replace
from itertools import combinations_with_replacement
from typing import Any

from scorekeeper.core.referee import Referee
from scorekeeper.games.angels_demons.cards import CARD_IDS, IDENT, INDEX
from scorekeeper.games.angels_demons.hands import ORDER, RUN_NEXT
from tests.games.angels_demons.helpers import new_ref, play, state


class Script:
    """Drives a referee turn by turn. Cards named in ``reserved`` are never used as filler."""

    def __init__(self, n: int = 4, reserved: Iterable[str] = (), **options: Any) -> None:
        self.ref: Referee = new_ref(n, **options)
        self.reserved = set(reserved)
        self.n = n

    def fresh(self, count: int, avoid: Iterable[str] = ()) -> list[str]:
        """``count`` cards the referee does not know about and the test does not plan to use."""
        st = state(self.ref)
        skip = self.reserved | set(avoid)
        out = [c for c in CARD_IDS if st.where[INDEX[c]] == "" and c not in skip]
        return out[:count]

    def deal(self, *talon: str) -> None:
        """Turn the talon: the cards given, topped up with filler cards."""
        cards = list(talon) + self.fresh(self.n + 1 - len(talon), talon)
        play(self.ref, *(f"+talon {c}" for c in cards))

    def refill(self, *cards: str) -> None:
        """Refill the empty talon with ``cards`` topped up with filler cards."""
        filler = self.fresh(self.n + 1 - len(cards), cards)
        play(self.ref, *(f"+talon {c}" for c in [*cards, *filler]))

    def take(self, card: str | None = None) -> str:
        """The active seat takes ``card`` (default: the first talon card that is not reserved),
        refilling an empty talon with filler first."""
        if not state(self.ref).talon:
            self.refill()
        talon = state(self.ref).talon
        card = card or next((c for c in talon if c not in self.reserved), talon[0])
        play(self.ref, f"-talon {card}")
        return card

    def complete_with(self, card: str) -> list[str]:
        """Seven cards that make a complete hand (a pair and two sets) with ``card``: every
        other card the table knows the active seat holds, then cards nobody has seen. A real
        hand holds its known cards; the referee refuses one that leaves them out."""
        st = state(self.ref)
        mine = f"hand:{st.active}"
        known = [c for c in CARD_IDS if st.where[INDEX[c]] == mine and c != card]
        free: dict[str, list[str]] = {}
        for c in CARD_IDS:
            if st.where[INDEX[c]] == "" and c not in self.reserved and c != card:
                free.setdefault(IDENT[c], []).append(c)
        sets = [(i, i, i) for i in ORDER] + [(i, *RUN_NEXT[i]) for i in RUN_NEXT]
        have = Counter(IDENT[c] for c in [card, *known])
        for pair in ORDER:
            for one, two in combinations_with_replacement(sets, 2):
                need = Counter([pair, pair, *one, *two])
                if have - need:  # a known card that does not fit this hand
                    continue
                extra = need - have
                if all(len(free.get(i, ())) >= n for i, n in extra.items()):
                    hand = known + [c for i, n in extra.items() for c in free[i][:n]]
                    self.reserved.update(hand)
                    return hand
        raise AssertionError(f"no complete hand holds {card} and {known}")

    def idle(self, discard: str | None = None, take: str | None = None) -> str:
        """The active seat takes a card and discards ``discard`` (default: the card taken)."""
        seat = state(self.ref).active
        taken = self.take(take)
        out = discard or taken
        play(self.ref, f"+discard:{seat} {out}")
        return out

    def idle_until(self, seat: int) -> None:
        """Idle turns until ``seat`` is the active seat (claim windows are passed by taking)."""
        while state(self.ref).active != seat:
            self.idle()

    def lay(self, trio: Iterable[str], draw: int | None = 2, take: str | None = None) -> None:
        """The active seat takes, lays ``trio`` and says it drew ``draw`` (None: no prompt)."""
        seat = state(self.ref).active
        self.take(take)
        play(self.ref, *(f"+meld:{seat} {c}" for c in trio))
        if draw is not None:
            play(self.ref, f"decide {seat} draw_count {draw}")

    def patch(self, **changes: Any) -> None:
        """Force state fields (setting up deck counts or scores); undo is not used afterwards."""
        self.ref.state = replace(state(self.ref), **changes)
