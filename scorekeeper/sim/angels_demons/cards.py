"""The simulated world's own Angels & Demons card knowledge: ids, identities, hand shapes, scoring.

Deliberately independent of the referee's code (``scorekeeper.games.angels_demons``): the
cross-check compares two implementations of the rules, so they must not share one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any


def _all_cards() -> tuple[str, ...]:
    cards: list[str] = []
    for kind in "HAD":
        for n in range(1, 8):
            cards += [f"{kind}{n}b1", f"{kind}{n}b2", f"{kind}{n}b3", f"{kind}{n}r"]
    for icon in range(1, 5):
        cards += [f"IT{icon}c", f"IT{icon}p1", f"IT{icon}p2", f"IT{icon}p3"]
    return tuple(cards)


ALL_CARDS: tuple[str, ...] = _all_cards()
"""The 100 card ids of rules §1, in catalogue order."""

IDENTITIES: tuple[str, ...] = tuple(
    dict.fromkeys(c[:3] if c[0] == "I" else c[:2] for c in ALL_CARDS)
)
"""The 25 identities: ``H1`` … ``D7`` and ``IT1`` … ``IT4``."""


def identity(card: str) -> str:
    """The identity of a card id (``H5r`` -> ``H5``, ``IT2c`` -> ``IT2``); colour is dropped."""
    return card[:3] if card[0] == "I" else card[:2]


def is_item(card_or_ident: str) -> bool:
    """True for an item card or item identity."""
    return card_or_ident[0] == "I"


def number(card_or_ident: str) -> int:
    """The printed number of a human/angel/demon card or identity; 0 for items."""
    return 0 if card_or_ident[0] == "I" else int(card_or_ident[1])


def is_red(card: str) -> bool:
    """True for one of the 21 red numbered cards."""
    return card[0] != "I" and card.endswith("r")


def is_plain_item(card: str) -> bool:
    """True for a plain (one-point) item."""
    return card[0] == "I" and card[3] == "p"


def is_conditional_item(card: str) -> bool:
    """True for one of the four conditional items."""
    return card[0] == "I" and card[3] == "c"


# Hand shapes are computed on small integer codes: kind * 10 + number for numbered identities
# (so n, n+1, n+2 of one kind are consecutive codes and never cross kinds), 100 + icon for items.
_KIND_CODE = {"H": 10, "A": 20, "D": 30}
IDENT_CODE: dict[str, int] = {
    i: 100 + int(i[2]) if i[0] == "I" else _KIND_CODE[i[0]] + int(i[1]) for i in IDENTITIES
}
CODE_IDENT: dict[int, str] = {v: k for k, v in IDENT_CODE.items()}
CODE: dict[str, int] = {c: IDENT_CODE[identity(c)] for c in ALL_CARDS}
_NEAR: dict[int, tuple[int, ...]] = {
    k: () if k >= 100 else tuple(k + d for d in (-2, -1, 1, 2) if 1 <= k % 10 + d <= 7)
    for k in CODE_IDENT
}


def _set_codes(a: int, b: int, c: int) -> bool:
    a, b, c = sorted((a, b, c))
    return a == b == c or (a < 100 and b == a + 1 and c == a + 2)


def is_set(cards: Sequence[str]) -> bool:
    """D-4: three cards forming a group (same identity) or a run (same kind, n, n+1, n+2)."""
    if len(cards) != 3:
        return False
    return _set_codes(CODE[cards[0]], CODE[cards[1]], CODE[cards[2]])


def _sets_only(counts: Counter[int]) -> bool:
    """True when the identity codes in ``counts`` split exactly into groups and runs."""
    live = [i for i, c in counts.items() if c > 0]
    if not live:
        return True
    first = min(live)
    if counts[first] >= 3:
        counts[first] -= 3
        ok = _sets_only(counts)
        counts[first] += 3
        if ok:
            return True
    if first < 100 and first % 10 <= 5 and counts[first + 1] > 0 and counts[first + 2] > 0:
        for i in (first, first + 1, first + 2):
            counts[i] -= 1
        ok = _sets_only(counts)
        for i in (first, first + 1, first + 2):
            counts[i] += 1
        if ok:
            return True
    return False


@lru_cache(maxsize=200_000)
def _complete_codes(codes: tuple[int, ...]) -> bool:
    counts = Counter(codes)
    if any(c == 1 and not any(counts[j] for j in _NEAR[i]) for i, c in counts.items()):
        return False
    for code in list(counts):
        if counts[code] >= 2:
            counts[code] -= 2
            ok = _sets_only(counts)
            counts[code] += 2
            if ok:
                return True
    return False


def is_complete(cards: Sequence[str]) -> bool:
    """D-5: exactly 8 cards that split into one pair and two sets."""
    if len(cards) != 8:
        return False
    return _complete_codes(tuple(sorted(CODE[c] for c in cards)))


def waits(cards: Sequence[str]) -> list[str]:
    """D-6: the identities that would make this 7-card hand complete (empty: not waiting)."""
    if len(cards) != 7:
        return []
    return [CODE_IDENT[k] for k in _waits(tuple(sorted(CODE[c] for c in cards)))]


@lru_cache(maxsize=200_000)
def _waits(codes: tuple[int, ...]) -> tuple[int, ...]:
    counts = Counter(codes)
    alone = sum(1 for i, c in counts.items() if c == 1 and not any(counts[j] for j in _NEAR[i]))
    if alone > 1:
        return ()
    candidates: set[int] = set(codes)
    for i in codes:
        candidates.update(_NEAR[i])
    return tuple(k for k in sorted(candidates) if _complete_codes(tuple(sorted([*codes, k]))))


def sets_in(cards: Sequence[str]) -> list[tuple[str, str, str]]:
    """Every distinct set (by identities) that can be taken from ``cards``, as card ids."""
    found: list[tuple[str, str, str]] = []
    seen: set[tuple[int, ...]] = set()
    cs = list(cards)
    codes = [CODE[c] for c in cs]
    for i in range(len(cs)):
        for j in range(i + 1, len(cs)):
            for k in range(j + 1, len(cs)):
                if not _set_codes(codes[i], codes[j], codes[k]):
                    continue
                key = tuple(sorted((codes[i], codes[j], codes[k])))
                if key not in seen:
                    seen.add(key)
                    found.append((cs[i], cs[j], cs[k]))
    return found


def partners_for(card: str, hand: Sequence[str]) -> list[tuple[str, str]]:
    """Pairs of cards from ``hand`` that make a set with ``card`` (for "mine!")."""
    out = []
    for i in range(len(hand)):
        for j in range(i + 1, len(hand)):
            if is_set((card, hand[i], hand[j])):
                out.append((hand[i], hand[j]))
    return out


def item_groups(melds: Iterable[Sequence[str]]) -> int:
    """How many laid sets are made only of item cards (R-ADV-6)."""
    return sum(1 for m in melds if all(is_item(c) for c in m))


def red_bonus_advanced(red: str, cards: Sequence[str], laid_sets: int, counts_itself: bool) -> int:
    """R-ADV-1: what one red card earns by its printed condition over laid cards + hand."""
    n = number(red)
    if n in (1, 7):
        others = list(cards)
        if not counts_itself:
            others.remove(red)
        return 2 if any(is_item(c) or number(c) in (1, 7) for c in others) else 0
    if n in (2, 6):
        return 2 if not any(is_item(c) or number(c) in (1, 7) for c in cards) else 0
    if n in (3, 5):
        return 2 if laid_sets >= 3 else 0
    kinds = {c[0] for c in cards if not is_item(c)}
    return 5 if len(kinds) == 1 else 0


def round_gain(
    hand: Sequence[str],
    melds: Sequence[Sequence[str]],
    flips: Sequence[str],
    options: Mapping[str, Any],
    advanced: bool,
) -> int:
    """R-SCORE-1..3 and R-ADV-1..3: what a goer-out gains (base + cards + flips)."""
    laid = [c for m in melds for c in m]
    cards = [*laid, *hand]
    gain = int(options.get("go_out_base", 1))
    items = sum(1 for c in cards if is_plain_item(c))
    gain += items * int(options.get("plain_item_points", 1))
    reds = [c for c in cards if is_red(c)]
    if advanced:
        itself = bool(options.get("red17_counts_itself", True))
        gain += sum(red_bonus_advanced(r, cards, len(melds), itself) for r in reds)
    else:
        gain += len(reds) * int(options.get("basic_red_bonus", 1))
    gain += flip_points(cards, flips)
    return gain


def flip_points(cards: Sequence[str], flips: Sequence[str]) -> int:
    """R-SCORE-3: one point per card of the flipped identity, for every flip."""
    idents = Counter(identity(c) for c in cards)
    return sum(idents[identity(f)] for f in flips)


def flips_to_make(cards: Sequence[str], deck: list[str]) -> list[str]:
    """Pop scoring flips off the top (end) of ``deck``: stop after a 0 or when it is empty."""
    idents = Counter(identity(c) for c in cards)
    flips: list[str] = []
    while deck:
        card = deck.pop()
        flips.append(card)
        if idents[identity(card)] == 0:
            break
    return flips
