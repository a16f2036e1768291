"""Hand shapes over identities: sets (D-2/3/4), complete hands (D-5), waiting hands (D-6).

Functions take identity strings (``H5``, ``IT2``; see ``cards.IDENT``). Use ``idents`` to turn
card ids into identities.
"""

from __future__ import annotations

from collections.abc import Iterable

from scorekeeper.games.angels_demons.cards import CARDS, IDENT

# Every identity in a fixed order: numbered kinds by number, then items. The lowest identity of a
# hand must start a run or be part of a group, which is what makes the split search correct.
ORDER: tuple[str, ...] = tuple(
    dict.fromkeys(sorted((c.ident for c in CARDS), key=lambda i: (i[0] == "I", i[0], i[1:])))
)
# identity -> the next two identities of a run starting there (numbered kinds, no wrap: A-3).
RUN_NEXT: dict[str, tuple[str, str]] = {
    f"{k}{n}": (f"{k}{n + 1}", f"{k}{n + 2}") for k in "HAD" for n in range(1, 6)
}


def idents(cards: Iterable[str]) -> list[str]:
    """The identities of some card ids."""
    return [IDENT[c] for c in cards]


def is_group(three: Iterable[str]) -> bool:
    """D-2: 3 cards of one identity."""
    items = list(three)
    return len(items) == 3 and len(set(items)) == 1


def is_run(three: Iterable[str]) -> bool:
    """D-3: 3 numbered cards of one kind with consecutive numbers (no wrap; items never run)."""
    items = sorted(three, key=lambda i: (i[0], int(i[1:]) if i[0] != "I" else 0))
    if len(items) != 3 or items[0] not in RUN_NEXT:
        return False
    return (items[1], items[2]) == RUN_NEXT[items[0]]


def is_set(three: Iterable[str]) -> bool:
    """D-4: a group or a run."""
    items = list(three)
    return is_group(items) or is_run(items)


def _counts(items: Iterable[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for i in items:
        counts[i] = counts.get(i, 0) + 1
    return counts


def _all_sets(counts: dict[str, int]) -> bool:
    """True when the cards counted split into sets only (counts is restored before returning)."""
    first = next((i for i in ORDER if counts.get(i)), None)
    if first is None:
        return True
    if counts[first] >= 3:
        counts[first] -= 3
        ok = _all_sets(counts)
        counts[first] += 3
        if ok:
            return True
    nxt = RUN_NEXT.get(first)
    if nxt and counts.get(nxt[0]) and counts.get(nxt[1]):
        for i in (first, *nxt):
            counts[i] -= 1
        ok = _all_sets(counts)
        for i in (first, *nxt):
            counts[i] += 1
        return ok
    return False


def is_complete(hand: Iterable[str]) -> bool:
    """D-5: exactly 8 identities that split into one pair and two sets."""
    items = list(hand)
    if len(items) != 8:
        return False
    counts = _counts(items)
    for ident, n in list(counts.items()):
        if n >= 2:
            counts[ident] -= 2
            ok = _all_sets(counts)
            counts[ident] += 2
            if ok:
                return True
    return False


def winning_identities(hand: Iterable[str]) -> tuple[str, ...]:
    """D-6: the identities that would complete these 7 (empty: not a waiting hand)."""
    items = list(hand)
    if len(items) != 7:
        return ()
    counts = _counts(items)
    return tuple(i for i in ORDER if counts.get(i, 0) < 4 and is_complete([*items, i]))


def item_groups(sets: Iterable[tuple[str, ...]]) -> int:
    """How many of these laid sets (card ids) are made only of item cards (R-ADV-6)."""
    return sum(1 for s in sets if all(IDENT[c][0] == "I" for c in s))
