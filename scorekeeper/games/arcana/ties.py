"""Arcana's winner of a district: who qualifies, the highest sum, and ties settled by the
tie-breakers that apply (R-RES-3, R-TIE-1, R-TIE-2, R-MULTI-2, G-10, G-11). Pure functions.

A tie-breaker is a ``tie_win`` effect (docs/games/arcana.md, "Abilities"): it applies when the
arcanum a seat counts, or the stake's type, is listed in it. It never lifts a seat over its
threshold (R-TIE-1): it only decides among seats that qualify.

The reasons are plain words with ``seat_ref`` markers ("{seat:1} wins with 5 against 3"). They
are public (the history, the feed): every agent at a resolved district is face up (G-9), so
naming its sums reveals nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from scorekeeper.core.text import seat_ref
from scorekeeper.games.arcana.cards import BADGE, LOCATION, MASTER, RELIC, Ability, Card
from scorekeeper.games.arcana.names import guild_words, possessive, the_card
from scorekeeper.games.arcana.state import State
from scorekeeper.games.arcana.sums import (
    NONE,
    applying,
    counted_arcana,
    district_sums,
    seats_at,
    stake_card,
    thresholds,
)

TIED_ONLY = "tied_only"
ANY_AT_DISTRICT = "any_at_district"

_AGENT_WHENS = ("agent", "results", "always")


def tie_breakers(
    state: State, did: str, arcanum: str, *, arcana: Mapping[int, str] | None = None
) -> frozenset[int]:
    """The seats with agents at ``did`` whose tie-breaker applies there: ``arcanum`` is the
    arcanum being counted (``arcana``, when given, gives each seat its own: the one it declared,
    G-11; a seat counting NONE is matched on the stake's type only).

    Sources: the seat's badge (``when: always``), its guild master when its ability is a
    ``tie_win`` that acts ``always`` (a master's ``use`` is carried out by the intrigue phase),
    and its agents there with a ``tie_win`` ability (relics add nothing, G-16). An event's
    ``tie_win`` applies to no seat: an event is everyone's, so it could only ever cancel
    itself."""
    return frozenset(tie_reasons(state, did, arcanum, arcana=arcana))


def tie_reasons(
    state: State, did: str, arcanum: str, *, arcana: Mapping[int, str] | None = None
) -> dict[int, str]:
    """``tie_breakers`` with, for each seat, the words of why its tie-breaker applies ("the
    Ferrymen's badge: the arcanum counted is wand"), for ``decide``'s ``why``. The words name
    agents: call it once the district's cards are face up (G-9)."""
    stake = stake_card(state, did)
    district = state.district(did)
    out: dict[int, str] = {}
    for seat in seats_at(state, did):
        counted = (arcana or {}).get(seat, arcanum)
        one = state.seats[seat]
        sources: list[tuple[Card, tuple[str, ...]]] = []
        badge = state.card(f"badge_{one.guild}") if one.guild else None
        if badge is not None:
            sources.append((badge, ("always",)))
        master = state.card(one.master) if one.master else None
        if master is not None:
            sources.append((master, ("always",)))
        for placed in district.agents:
            card = state.card(placed.card) if placed.owner == seat else None
            if card is not None and card.type not in (RELIC, LOCATION):
                sources.append((card, _AGENT_WHENS))
        for card, whens in sources:
            why = _applies(card.ability, whens, stake, counted)
            if why:
                out[seat] = f"{_source_words(state, card)}: {why}"
                break
    return out


def settle(
    state: State, did: str, declared: Mapping[int, str], copies: Mapping[str, str]
) -> tuple[dict[int, str], dict[int, int], int | None, str]:
    """The whole result of district ``did`` as results.py records it (a DistrictResult's
    ``arcana``, ``sums``, ``winner`` and ``reason``): ``sums.district_sums``, each seat's
    threshold, the tie-breakers that apply and ``decide`` under the table's ``tie_breakers``
    option. Call it once the district's cards are face up (G-9): the reason may name them."""
    arcana = counted_arcana(state, did, declared)
    got = district_sums(state, did, declared, copies)
    first = next(iter(arcana.values()), NONE)
    why = tie_reasons(state, did, first, arcana=arcana)
    winner, reason = decide(
        got,
        thresholds(state, did, declared),
        frozenset(why),
        state.options.tie_breakers,
        seats_at(state, did),
        why=why,
    )
    return arcana, got, winner, reason


def decide(
    sums: Mapping[int, int],
    thresholds: Mapping[int, int],
    tie_seats: Iterable[int],
    mode: str = TIED_ONLY,
    seats_at: Iterable[int] | None = None,
    *,
    why: Mapping[int, str] | None = None,
) -> tuple[int | None, str]:
    """The winner of a district (None for none) and the reason in words.

    A seat qualifies when its sum reaches its own threshold (G-11: the arcanum it declared; a
    seat without a threshold cannot qualify). The highest qualifying sum wins (R-RES-3). A tie
    for it: with ``tied_only`` (G-10) exactly one tied seat among ``tie_seats`` wins and two or
    more cancel; with ``any_at_district`` every applying tie-breaker of ``seats_at`` (default:
    the seats of ``sums``) counts, so two anywhere there cancel, and a lone one wins only for a
    tied seat (R-TIE-2). ``why`` words each seat's tie-breaker for the reason."""
    qualified = {s: v for s, v in sums.items() if s in thresholds and v >= thresholds[s]}
    if not qualified:
        return None, _nobody(sums, thresholds)
    best = max(qualified.values())
    top = sorted(s for s, v in qualified.items() if v == best)
    if len(top) == 1:
        return top[0], _win_words(top[0], sums, thresholds)
    breakers = set(tie_seats)
    if mode == ANY_AT_DISTRICT:
        looked = breakers & set(sums if seats_at is None else seats_at)
    else:
        looked = breakers & set(top)
    tied = _and(seat_ref(s) for s in top)
    if len(looked) >= 2:
        cancel = _and(possessive(s) for s in sorted(looked))
        return None, f"{tied} tie at {best}; {cancel} tie-breakers cancel: nobody wins"
    if len(looked) == 1 and looked <= set(top):
        winner = next(iter(looked))
        because = (why or {}).get(winner, "")
        tail = f" ({because})" if because else " with a tie-breaker"
        return winner, f"{seat_ref(winner)} wins the tie at {best}{tail}"
    return None, f"{tied} tie at {best} and no tie-breaker settles it: nobody wins"


def _win_words(winner: int, sums: Mapping[int, int], thresholds: Mapping[int, int]) -> str:
    """ "{seat:0} wins with 5 against 3"; with declared arcana a higher sum may have fallen short
    of its own threshold: "{seat:0} wins with 5; {seat:1} has 6 but needs 7"."""
    best = sums[winner]
    others = sorted(((v, s) for s, v in sums.items() if s != winner), reverse=True)
    head = f"{seat_ref(winner)} wins with {best}"
    if not others:
        return f"{head}, alone there"
    value, seat = others[0]
    if value > best and seat in thresholds:
        return f"{head}; {seat_ref(seat)} has {value} but needs {thresholds[seat]}"
    if value > best:
        return f"{head}; {seat_ref(seat)} has {value} but declared none"
    return f"{head} against {value}"


def _nobody(sums: Mapping[int, int], thresholds: Mapping[int, int]) -> str:
    """Why nobody qualifies, in words."""
    if not sums:
        return "nobody has an agent there"
    needed = sorted({thresholds[s] for s in sums if s in thresholds})
    if not needed:
        return "nobody counts an arcanum of the stake: nobody wins"
    if len(needed) == 1:
        return f"nobody reaches {needed[0]}"
    return "nobody reaches the threshold of the arcanum they declared"


def _applies(
    ability: Ability | None, whens: tuple[str, ...], stake: Card | None, arcanum: str
) -> str:
    """Why a ``tie_win`` of ``ability`` applies ("the stake is a relic"), "" when it does not."""
    for one in applying(ability, "tie_win", whens, stake, arcanum):
        arcana = _words(one.get("arcanum"))
        types = _words(one.get("stake_type"))
        if not arcana and not types:
            return "it wins every tie"
        if arcanum != NONE and arcanum in arcana:
            return f"the arcanum counted is {arcanum}"
        if stake is not None and stake.type in types:
            return f"the stake is a {stake.type}"
    return ""


def _source_words(state: State, card: Card) -> str:
    """A tie-breaker's card in words: "the Ferrymen's badge", "the Ferrymen's guild master",
    "the Crossbowman"."""
    if card.type in (BADGE, MASTER) and card.guild:
        guild = guild_words(card.guild)
        whose = f"{guild}'" if guild.endswith("s") else f"{guild}'s"
        return f"the {whose} {'badge' if card.type == BADGE else 'guild master'}"
    return the_card(state.pack, card.id)


def _words(value: object) -> tuple[str, ...]:
    """A field that is one word or a list of words, as a tuple."""
    if isinstance(value, str):
        return (value,)
    if isinstance(value, tuple | list):
        return tuple(str(v) for v in value)
    return ()


def _and(parts: Iterable[str]) -> str:
    """ "a", "a and b", "a, b and c"."""
    items = list(parts)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"
