"""Arcana's points: the final score of each seat and the winners (R-END-2 … 4, R-OPT-T-2,
R-OPT-C-4, G-8, G-23, G-26, G-27), and the points shown during play (G-36). Pure functions.

Where a seat's cards are at the end: what it owns (``Seat.owned``: its kept guild cards and the
stakes it won) lies in its deck, hand or discard pile, unless it lies at a district (an agent or
a relic left at an unresolved one) or under its badge (``Seat.set_aside``, whether or not the
state also keeps those in ``owned``). Cards it returned to the box (``Seat.returned``) never
count. Watch cards are nobody's (G-22). A district's own stake has no owner: with
``leftovers: returned`` only the cards the seats own there go back to them (G-8).

The stake count of the tie-break (R-END-4) and the objectives (G-23) count stakes in exactly
the places the points count (G-27).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from scorekeeper.games.arcana.cards import STAKES
from scorekeeper.games.arcana.objectives import completed
from scorekeeper.games.arcana.state import State

SOURCE_KEYS: tuple[str, ...] = ("guild_cards", "stakes", "set_aside", "objectives", "leftovers")
"""The keys of ``SeatScore.vp_sources``, always all present, in this order."""

_STAKES = frozenset(STAKES)


@dataclass(frozen=True, slots=True)
class SeatScore:
    """One seat's final score: ``vp`` in all, ``stakes`` the stake cards counted (R-END-4,
    G-27), ``vp_sources`` the VP by source (SOURCE_KEYS, adding up to ``vp``) and
    ``objectives`` the objectives it completed, in the order it kept them."""

    seat: int
    vp: int
    stakes: int
    vp_sources: dict[str, int] = field(hash=False)
    objectives: tuple[str, ...] = ()


def is_stake(piece: str) -> bool:
    """Whether ``piece`` is one of the 116 stake cards (won stakes stay stakes, R-END-4)."""
    return piece in _STAKES


def at_districts(state: State) -> frozenset[str]:
    """Every agent and relic lying at a district (watch cards included)."""
    out: set[str] = set()
    for district in state.districts:
        for placed in district.agents:
            out.add(placed.card)
            out.update(placed.relics)
    return frozenset(out)


def final(state: State) -> tuple[SeatScore, ...]:
    """Every seat's final score, seat by seat (R-END-2): the VP of every card it owns in its
    deck, hand and discard pile (``guild_cards`` and ``stakes``), its stakes under the badge
    (``set_aside``), its completed objectives (``objectives``, G-23) and, with ``leftovers:
    returned``, the cards it owns still lying at districts (``leftovers``, G-8)."""
    there = at_districts(state)
    returned = state.options.leftovers == "returned"
    out: list[SeatScore] = []
    for seat, one in enumerate(state.seats):
        aside = set(one.set_aside)
        owned = set(one.owned) - set(one.returned) - aside
        left = owned & there
        home = owned - left
        counted = [p for p in home if is_stake(p)] + sorted(aside)
        if returned:
            counted += [p for p in left if is_stake(p)]
        done = completed(state.pack, one.objectives, sorted(counted))
        sources = {
            "guild_cards": _vp(state, (p for p in home if not is_stake(p))),
            "stakes": _vp(state, (p for p in home if is_stake(p))),
            "set_aside": _vp(state, aside),
            "objectives": _vp(state, done),
            "leftovers": _vp(state, left) if returned else 0,
        }
        out.append(
            SeatScore(
                seat=seat,
                vp=sum(sources.values()),
                stakes=len(counted),
                vp_sources=sources,
                objectives=done,
            )
        )
    return tuple(out)


def winners(scores: Sequence[SeatScore]) -> tuple[int, ...]:
    """The winning seats: the most VP (R-END-3), then the most stake cards among them; seats
    equal in both share the victory (R-END-4)."""
    if not scores:
        return ()
    best = max((s.vp, s.stakes) for s in scores)
    return tuple(s.seat for s in scores if (s.vp, s.stakes) == best)


def public_vp(state: State, seat: int) -> int:
    """The VP everyone has seen ``seat`` own (G-36): its won stakes (wherever they lie, and
    under its badge) and, without ``custom_guild``, its guild's 11 starting cards; with
    ``custom_guild`` its guild cards ``seen_guild_cards``. Reads no secret piece, so every
    audience other than the seat gets the same figure whatever its hidden cards are."""
    one = state.seats[seat]
    stakes = {p for p in one.owned if is_stake(p)} | set(one.set_aside)
    if not state.options.custom_guild:
        guild = {c.id for c in state.pack.guild_cards(one.guild, "A")} if one.guild else set()
    else:
        guild = set(seen_guild_cards(state, seat))
    return _vp(state, stakes | guild)


def seen_guild_cards(state: State, seat: int) -> frozenset[str]:
    """With ``custom_guild``: the guild cards of ``seat`` now in sight of everyone: on its
    discard pile (each reached it by a pad and was named, G-28), face up at a district, or laid
    there as a relic. Hazard: the state keeps no record of cards seen earlier, so a card
    reshuffled into the deck leaves this set until it is seen again; privacy.py must treat the
    same set as public for the public VP to stay free of secret pieces."""
    one = state.seats[seat]
    mine = set(one.owned) - set(one.returned)
    seen = set(one.discard)
    for district in state.districts:
        for placed in district.agents:
            if placed.owner == seat and placed.face_up:
                seen.add(placed.card)
            seen.update(placed.relics)
    return frozenset(p for p in seen & mine if not is_stake(p))


def vp_now(state: State, seat: int) -> int:
    """``seat``'s exact VP if its cards all went home now, for its own view (G-36): every card
    it owns, wherever it lies, its stakes under the badge, and the objectives those stakes
    complete. Hazard: it reads secret pieces; show it to the seat (and the organiser) only."""
    one = state.seats[seat]
    cards = (set(one.owned) - set(one.returned)) | set(one.set_aside)
    done = completed(state.pack, one.objectives, sorted(p for p in cards if is_stake(p)))
    return _vp(state, cards) + _vp(state, done)


def stakes_owned(state: State, seat: int) -> int:
    """The stake cards ``seat`` owns now, under its badge included (public: each was won in
    sight of everyone)."""
    one = state.seats[seat]
    return len({p for p in one.owned if is_stake(p)} | set(one.set_aside))


def _vp(state: State, pieces: Iterable[str]) -> int:
    """The VP of ``pieces`` from the pack (a card the pack does not hold counts 0)."""
    total = 0
    for piece in pieces:
        card = state.card(piece)
        total += card.vp if card is not None else 0
    return total
