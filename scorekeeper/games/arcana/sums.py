"""Arcana's sums: each seat's sum at a district being resolved (R-RES-2, R-MULTI, R-HARL-1) and
a briber's sum S (R-BRIBE-3, G-13). Pure functions over the state and its pack.

What counts (docs/games/arcana.md, "The results phase" and "Abilities"):

- every card a seat has at the district as an agent: guild agents, won citizens and, with the
  watch, the watch cards it called (R-INT-3, R-OPT-D-3), each at its printed value in the
  arcanum the seat counts: the stake's one major, or the one it declared (G-11);
- a Harlequin (any card whose ability has ``copy_agent``) counts the value of the agent its
  owner named, in that arcanum (R-HARL-1, G-17); alone or copying nothing it counts 0;
- relics add nothing to results sums (G-16);
- ``add`` effects that apply (see ``add_bonus``).

Hazard: these sums include face-down agents. A sum is shown only where every card it counts is
known (the seat's own view, or a district whose cards are all face up): never in a feed line.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from scorekeeper.games.arcana.cards import LOCATION, RELIC, Ability, Card, Effect
from scorekeeper.games.arcana.state import NEUTRAL, District, State

NONE = "none"
"""The arcanum of a seat that declared none (G-11): it sums 0 and cannot qualify."""

FRIENDLY = "friendly"
NEUTRAL_RELATION = "neutral"
ENEMY = "enemy"

_AGENT_WHENS = ("agent", "results", "always")
"""When an agent's ability acts while it lies at a district (docs/games/arcana.md, "Abilities")."""
_RELIC_WHENS = ("agent", "play", "always")
"""When a relic laid on an agent may add to its briber's sum (``bribe_bonus``)."""


def seats_at(state: State, did: str) -> tuple[int, ...]:
    """The seats with at least one agent (watch cards included) at district ``did``, in seat
    order."""
    return tuple(sorted({p.owner for p in state.district(did).agents}))


def stake_card(state: State, did: str) -> Card | None:
    """The face-up stake of district ``did`` as a stake card (None without one, or while the
    Prince's Games card lies there)."""
    stake = state.district(did).stake
    card = state.card(stake) if stake else None
    return card if card is not None and card.majors else None


def counted_arcana(state: State, did: str, declared: Mapping[int, str]) -> dict[int, str]:
    """The arcanum each seat with agents at ``did`` counts: the stake's major when it has one,
    else the one the seat declared (R-MULTI-1, G-11); NONE for a seat that declared none, has
    not declared yet, or named an arcanum the stake does not have (the caller refuses that,
    R-MULTI-1), and for every seat when the district shows no stake."""
    stake = stake_card(state, did)
    out: dict[int, str] = {}
    for seat in seats_at(state, did):
        if stake is None:
            out[seat] = NONE
        elif len(stake.majors) == 1:
            out[seat] = stake.majors[0]
        else:
            got = declared.get(seat, NONE)
            out[seat] = got if got in stake.majors else NONE
    return out


def thresholds(state: State, did: str, declared: Mapping[int, str]) -> dict[int, int]:
    """Each seat's threshold at ``did``: the stake's printed value in the arcanum the seat counts
    (G-11). A seat counting NONE has no entry: it cannot qualify."""
    stake = stake_card(state, did)
    out: dict[int, int] = {}
    if stake is None:
        return out
    for seat, arcanum in counted_arcana(state, did, declared).items():
        value = stake.threshold_in(arcanum) if arcanum != NONE else None
        if value is not None:
            out[seat] = value
    return out


def district_sums(
    state: State, did: str, declared: Mapping[int, str], copies: Mapping[str, str]
) -> dict[int, int]:
    """Each seat with agents at ``did``: its sum in the arcanum it counts (``counted_arcana``).

    ``declared`` maps a seat to the arcanum it declared (only read for a stake with several
    majors); ``copies`` maps a Harlequin's card id to the card its owner named ("" for none).
    A copy naming a card not at the district counts 0 (the caller refuses it first, R-HARL-1).
    A seat counting NONE sums 0, ``add`` effects included."""
    district = state.district(did)
    stake = stake_card(state, did)
    arcana = counted_arcana(state, did, declared)
    out: dict[int, int] = {}
    for seat, arcanum in arcana.items():
        if arcanum == NONE:
            out[seat] = 0
            continue
        total = 0
        for placed in district.agents:
            if placed.owner != seat:
                continue
            card = state.card(placed.card)
            if card is None or card.type in (RELIC, LOCATION):
                continue  # relics add nothing (G-16); a location is never an agent
            if is_copier(card):
                total += copy_value(state, district, placed.card, copies, arcanum)
            else:
                total += card.value(arcanum)
        out[seat] = total + add_bonus(state, district, seat, arcanum, stake)
    return out


def is_copier(card: Card | None) -> bool:
    """Whether ``card`` is a Harlequin: its ability copies an agent (``copy_agent``)."""
    return card is not None and card.ability is not None and bool(card.ability.effect("copy_agent"))


def copy_value(
    state: State, district: District, piece: str, copies: Mapping[str, str], arcanum: str
) -> int:
    """The value in ``arcanum`` of the Harlequin ``piece`` at ``district``: the printed value of
    the agent it copies there (any other agent, its owner's or another's, watch cards included,
    G-17). Copying another Harlequin follows that one's copy; a loop, a card not at the district,
    the Harlequin itself or nothing ("") counts 0."""
    here = {p.card for p in district.agents}
    seen = {piece}
    target = copies.get(piece, "")
    while target and target in here and target not in seen:
        card = state.card(target)
        if card is None or card.type in (RELIC, LOCATION):
            return 0
        if not is_copier(card):
            return card.value(arcanum)
        seen.add(target)
        target = copies.get(target, "")
    return 0


def relation(district: District, seat: int) -> str:
    """What ``district`` is to ``seat``: "friendly", "neutral" or "enemy" (G-1 … G-3), read
    from the district's own ``friends``."""
    if district.id == NEUTRAL:
        return NEUTRAL_RELATION
    return FRIENDLY if seat in district.friends else ENEMY


def applying(
    ability: Ability | None,
    kind: str,
    whens: Iterable[str],
    stake: Card | None,
    arcanum: str,
) -> tuple[Effect, ...]:
    """The effects of ``kind`` in ``ability`` that act now: its ``when`` among ``whens`` and its
    conditions met: ``if_stake`` the stake's type, ``if_major`` the arcanum being counted (a
    condition's value may be one word or a tuple of words)."""
    if ability is None or ability.when not in whens:
        return ()
    for name, value in ability.conditions:
        got = (stake.type if stake is not None else "") if name == "if_stake" else arcanum
        if name in ("if_stake", "if_major") and not _listed(value, got):
            return ()
    return tuple(e for e in ability.effects if e.kind == kind)


def add_bonus(
    state: State, district: District, seat: int, arcanum: str, stake: Card | None = None
) -> int:
    """What ``add`` effects give ``seat``'s sum in ``arcanum`` at ``district``.

    Sources: the seat's agents lying there (``when`` agent, results or always; ``where: here``
    or a ``where`` naming what the district is to the seat: an agent acts only where it lies),
    its badge and its guild master when their ``when`` is ``always`` (``here`` counts
    everywhere for them), and the event in effect (``when: round``, ``State.events.now``) for
    every seat with agents there. An ``add`` without ``arcanum`` adds in any arcanum. A master's
    ``use`` abilities are carried out by the intrigue phase, not here."""
    if arcanum == NONE:
        return 0
    rel = relation(district, seat)
    total = 0
    for placed in district.agents:
        if placed.owner == seat:
            card = state.card(placed.card)
            if card is not None and card.type not in (RELIC, LOCATION):
                total += _adds(card.ability, _AGENT_WHENS, stake, arcanum, rel)
    for card in seat_cards(state, seat):
        total += _adds(card.ability, ("always",), stake, arcanum, rel)
    event = event_card(state)
    if event is not None:
        total += _adds(event.ability, ("round",), stake, arcanum, rel)
    return total


def bribe_sum(state: State, did: str, seat: int, arcanum: str, relic: str) -> int:
    """The briber's S at district ``did`` (R-BRIBE-3, G-13): the ducats of the relic ``relic``
    (not counted twice when already laid; "" for a re-check) and of every relic on ``seat``'s
    agents there, plus those agents' values in ``arcanum``, face-down ones included (G-14), plus
    ``bribe_bonus`` effects (the agents and relics there, the seat's badge and master when
    ``always``, the event in effect). ``add`` effects do not count: they are results sums.

    A Harlequin of the briber counts 0 unless ``harlequin_in_bribes`` (G-17); with it, it copies
    the other agent at the district (anyone's, watch cards included, Harlequins excepted) with
    the highest printed value in ``arcanum``: the best copy for the briber."""
    district = state.district(did)
    stake = stake_card(state, did)
    relics: list[str] = []
    total = 0
    for placed in district.agents:
        if placed.owner != seat:
            continue
        relics += [r for r in placed.relics if r not in relics]
        card = state.card(placed.card)
        if card is None or card.type in (RELIC, LOCATION):
            continue
        if is_copier(card):
            total += _best_copy(state, district, placed.card, arcanum)
        else:
            total += card.value(arcanum)
        total += _bonuses(card.ability, _AGENT_WHENS, stake, arcanum)
    if relic and relic not in relics:
        relics.append(relic)
    for piece in relics:
        card = state.card(piece)
        if card is not None:
            total += card.ducat or 0
            total += _bonuses(card.ability, _RELIC_WHENS, stake, arcanum)
    for card in seat_cards(state, seat):
        total += _bonuses(card.ability, ("always",), stake, arcanum)
    event = event_card(state)
    if event is not None:
        total += _bonuses(event.ability, ("round",), stake, arcanum)
    return total


def seat_cards(state: State, seat: int) -> tuple[Card, ...]:
    """The cards that act for ``seat`` from beside it: its guild's badge (the pack's badge card
    of its guild) and its guild master, when the pack holds them."""
    one = state.seats[seat]
    out: list[Card] = []
    if one.guild:
        badge = state.card(f"badge_{one.guild}")
        if badge is not None:
            out.append(badge)
    if one.master:
        master = state.card(one.master)
        if master is not None:
            out.append(master)
    return tuple(out)


def event_card(state: State) -> Card | None:
    """The event in effect this round (R-OPT-F-2), None without one."""
    if state.events is None or not state.events.now:
        return None
    return state.card(state.events.now)


def _adds(
    ability: Ability | None, whens: tuple[str, ...], stake: Card | None, arcanum: str, rel: str
) -> int:
    """The ``add`` of ``ability`` in ``arcanum`` where the district is ``rel`` to the seat."""
    total = 0
    for one in applying(ability, "add", whens, stake, arcanum):
        wanted = one.get("arcanum")
        if wanted is not None and not _listed(wanted, arcanum):
            continue
        where = one.get("where", "here")
        if _listed(where, "here") or _listed(where, "any") or _listed(where, rel):
            total += int(one.get("n", 0))
    return total


def _bonuses(
    ability: Ability | None, whens: tuple[str, ...], stake: Card | None, arcanum: str
) -> int:
    """The ``bribe_bonus`` of ``ability``."""
    return sum(int(e.get("n", 0)) for e in applying(ability, "bribe_bonus", whens, stake, arcanum))


def _best_copy(state: State, district: District, piece: str, arcanum: str) -> int:
    """A Harlequin's value in a bribe: 0, or with ``harlequin_in_bribes`` the best other agent's
    printed value in ``arcanum`` at the district."""
    if not state.options.harlequin_in_bribes:
        return 0
    best = 0
    for placed in district.agents:
        card = state.card(placed.card)
        if placed.card == piece or card is None or is_copier(card):
            continue
        if card.type not in (RELIC, LOCATION):
            best = max(best, card.value(arcanum))
    return best


def _listed(value: object, word: str) -> bool:
    """Whether ``word`` is ``value`` (one word) or among it (a tuple or list of words)."""
    if isinstance(value, str):
        return value == word
    if isinstance(value, tuple | list):
        return word in value
    return False
