"""Arcana's objectives at the end of the game (R-OPT-C-2 … 4, G-23): which of a seat's kept
objectives its stakes complete, each stake counting towards one objective only and an
all-domain stake towards any, assigned so as to score the most. Pure functions.

The search is over subsets of the objectives (a seat keeps 2), never over the stakes: stakes
are counted by domain, and a subset is possible when the all-domain stakes cover what each
domain lacks. So a few dozen stakes cost nothing.

Hazard: an objective is secret until the end (R-OPT-C-1); what these functions say about one
is shown only to its owner during play.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations

from scorekeeper.games.arcana.cards import ALL_DOMAINS, Card, Pack


def completed(pack: Pack, objectives: Sequence[str], stakes: Iterable[str]) -> tuple[str, ...]:
    """The objectives (in the order given) that an assignment of ``stakes`` completes, chosen to
    complete the most objective VP (G-23); among equal VP the most objectives, then the earlier
    ones. Ids the pack does not hold as objectives, and stakes it does not hold, count for
    nothing."""
    return tuple(best_assignment(pack, objectives, stakes))


def best_assignment(
    pack: Pack, objectives: Sequence[str], stakes: Iterable[str]
) -> dict[str, tuple[str, ...]]:
    """``completed``'s objectives, each with the stakes assigned to it (its own domain's first,
    then all-domain ones), for the end-of-game words. Each stake is used once."""
    cards = [c for c in (pack.card(o) for o in objectives) if c is not None and c.objective]
    held = [c for c in (pack.card(s) for s in stakes) if c is not None and c.domain]
    have = Counter(c.domain for c in held)
    best: tuple[Card, ...] = ()
    best_key = (0, 0)
    for size in range(len(cards), 0, -1):
        for chosen in combinations(cards, size):
            key = (sum(c.vp for c in chosen), size)
            if key > best_key and _possible(chosen, have):
                best, best_key = chosen, key
    return _assign(best, held)


def progress(pack: Pack, objective: str, stakes: Iterable[str]) -> tuple[int, int]:
    """How far one objective is met on its own: (the stakes that could count towards it, the
    count it asks), for its owner's view. Two objectives may lean on the same all-domain
    stakes: ``completed`` settles which one gets them."""
    card = pack.card(objective)
    if not _is_objective(card):
        return (0, 0)
    assert card is not None and card.objective is not None
    domain, count = card.objective
    fits = 0
    for piece in stakes:
        stake = pack.card(piece)
        if stake is not None and stake.domain and _counts_for(stake.domain, domain):
            fits += 1
    return (fits, count)


def _is_objective(card: Card | None) -> bool:
    """A card that is an objective with its domain and count."""
    return card is not None and card.objective is not None


def _counts_for(stake_domain: str, objective_domain: str) -> bool:
    """Whether a stake of ``stake_domain`` may count towards an objective of
    ``objective_domain`` (an all-domain stake towards any; an all-domain objective takes any)."""
    return ALL_DOMAINS in (stake_domain, objective_domain) or stake_domain == objective_domain


def _possible(chosen: Sequence[Card], have: Counter[str]) -> bool:
    """Whether the stakes counted in ``have`` (by domain) can complete every objective of
    ``chosen`` at once: each domain's shortfall is covered by all-domain stakes, and an
    all-domain objective takes whatever is left over."""
    need: Counter[str] = Counter()
    for card in chosen:
        assert card.objective is not None
        need[card.objective[0]] += card.objective[1]
    wild = have[ALL_DOMAINS]
    short = sum(max(0, n - have[d]) for d, n in need.items() if d != ALL_DOMAINS)
    if short > wild:
        return False
    used = sum(n for d, n in need.items() if d != ALL_DOMAINS)
    return need[ALL_DOMAINS] <= sum(have.values()) - used


def _assign(chosen: Sequence[Card], held: Sequence[Card]) -> dict[str, tuple[str, ...]]:
    """The stakes given to each objective of a possible ``chosen``: its own domain's first,
    then all-domain ones; all-domain objectives last, from what is left."""
    free = [c.id for c in held]
    domain_of = {c.id: c.domain for c in held}
    out: dict[str, tuple[str, ...]] = {}
    order = sorted(chosen, key=lambda c: c.objective is not None and c.objective[0] == ALL_DOMAINS)
    for card in order:
        assert card.objective is not None
        domain, count = card.objective
        mine = [s for s in free if domain_of[s] == domain and domain != ALL_DOMAINS]
        if domain == ALL_DOMAINS:
            mine = [s for s in free if domain_of[s] != ALL_DOMAINS]
        mine += [s for s in free if domain_of[s] == ALL_DOMAINS]
        picked = tuple(mine[:count])
        free = [s for s in free if s not in picked]
        out[card.id] = picked
    return {c.id: out[c.id] for c in chosen}
