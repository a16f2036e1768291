"""Scoring of a going-out hand: base, red-card bonuses, items and flips (R-SCORE, R-ADV-1..3).

Pure functions over card ids; ``laid`` is the goer-out's laid sets, ``hand`` its 8 hand cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from scorekeeper.games.angels_demons.cards import BY_ID, IDENT
from scorekeeper.games.angels_demons.state import Opts


def _flat(laid: Iterable[Sequence[str]], hand: Iterable[str]) -> list[str]:
    return [c for s in laid for c in s] + list(hand)


def red_bonuses(
    opts: Opts, laid: Sequence[Sequence[str]], hand: Sequence[str]
) -> tuple[tuple[str, int], ...]:
    """Points of each red card among laid cards and hand: basic R-SCORE-2 or advanced R-ADV-1."""
    cards = _flat(laid, hand)
    reds = [c for c in cards if BY_ID[c].red]
    if not opts.advanced:
        return tuple((c, opts.basic_red_bonus) for c in reds)

    def low_high_or_item(c: str) -> bool:
        return BY_ID[c].number in (1, 7) or BY_ID[c].kind == "item"

    kinds = {BY_ID[c].kind for c in cards if BY_ID[c].number is not None}
    out: list[tuple[str, int]] = []
    for red in reds:
        number = BY_ID[red].number
        if number in (1, 7):
            others = [c for c in cards if c != red]
            ok = opts.red17_counts_itself or any(low_high_or_item(c) for c in others)
            out.append((red, 2 if ok else 0))
        elif number in (2, 6):
            out.append((red, 0 if any(low_high_or_item(c) for c in cards) else 2))
        elif number in (3, 5):
            out.append((red, 2 if len(laid) >= 3 else 0))
        else:
            out.append((red, 5 if len(kinds) == 1 else 0))
    return tuple(out)


def item_points(opts: Opts, laid: Sequence[Sequence[str]], hand: Sequence[str]) -> int:
    """Plain items score ``plain_item_points`` each; conditional items score 0 (R-ADV-2)."""
    return sum(opts.plain_item_points for c in _flat(laid, hand) if BY_ID[c].plain_item)


def flip_matches(flipped: str, laid: Sequence[Sequence[str]], hand: Sequence[str]) -> int:
    """R-SCORE-3: cards among laid cards and hand with the flipped card's identity."""
    ident = IDENT[flipped]
    return sum(1 for c in _flat(laid, hand) if IDENT[c] == ident)


def gain(
    opts: Opts, laid: Sequence[Sequence[str]], hand: Sequence[str], flips: Iterable[str] = ()
) -> int:
    """The whole gain of a go-out: base + red bonuses + items + flip matches (R-ADV-3)."""
    reds = sum(p for _, p in red_bonuses(opts, laid, hand))
    flipped = sum(flip_matches(f, laid, hand) for f in flips)
    return opts.go_out_base + reds + item_points(opts, laid, hand) + flipped


def has_item_win(laid: Sequence[Sequence[str]], hand: Iterable[str]) -> bool:
    """R-ADV-6: three laid sets of items and a conditional item among laid cards or ``hand``."""
    groups = sum(1 for s in laid if all(BY_ID[c].kind == "item" for c in s))
    return groups >= 3 and any(BY_ID[c].conditional_item for c in _flat(laid, hand))
