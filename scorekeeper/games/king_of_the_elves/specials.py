"""Special cards laid while planning and their ownership tokens (R-PLAN-8 … 12, G-11, G-17).

A gold or thief card goes on the pad beside its village (``attach``), an obstacle on the
village's own pad; the turn passes when the card is seen, and its owner is the actor. The token
is a confirmation, checked whenever it comes (contract, "Lay a special card"): it never holds up
the game.
"""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.core.outcomes import Accepted, Outcome, Rejected
from scorekeeper.core.text import seat_ref
from scorekeeper.games.king_of_the_elves.cards import (
    OBSTACLES,
    TYPE_WORDS,
    WATER,
    card_type,
    crest_words,
    token_crest,
)
from scorekeeper.games.king_of_the_elves.planning import (
    actor,
    from_hand,
    played,
    slide_refusal,
    unfinished,
)
from scorekeeper.games.king_of_the_elves.state import (
    Special,
    State,
    Village,
    seat_of_crest,
    village_at,
    with_seat,
    with_village,
)
from scorekeeper.games.king_of_the_elves.words import (
    card_words,
    possessive,
    special_words,
    village_words,
)
from scorekeeper.games.king_of_the_elves.zones import ATTACH, VILLAGE, ordinal

TOKENS_PER_SEAT = 4
_CATEGORY = {"gold": "gold", "thief": "thief", "fallen_tree": "obstacle", "sea_monster": "obstacle"}


def _special_at(village: Village, kind: str) -> Special | None:
    category = _CATEGORY[kind]
    return getattr(village, category)  # type: ignore[no-any-return]


def _placement_limit(state: State, s: int) -> Rejected | None:
    """R-PLAN-11 (per_round) or G-11's on_table option: at most 4."""
    seat = state.seats[s]
    if state.options.token_limit == "on_table":
        on_table = sum(
            1 for other in state.seats for v in other.villages for x in v.specials() if x.owner == s
        )
        if on_table >= TOKENS_PER_SEAT:
            return Rejected(
                "R-PLAN-11",
                f"all four of {possessive(s)} tokens are on the table",
                "put it back; pass, or another action",
            )
        return None
    if seat.placed >= TOKENS_PER_SEAT:
        return Rejected(
            "R-PLAN-11",
            f"{seat_ref(s)} has laid four special cards this round",
            "put it back; pass, or another action",
        )
    return None


def lay_special(state: State, pad: str, seat: int, slot: int, card: str) -> Outcome:
    """A special card arrives on ``seat``'s ``pad`` (village or attach) at ``slot`` (R-PLAN-8 …
    12)."""
    kind = card_type(card)
    village = village_at(state, seat, slot)
    if village is not None and kind in _CATEGORY:
        here = _special_at(village, kind)
        if here is not None and here.card == card and _pad_for(kind) == pad:
            return Accepted(state)  # seen again where it lies
    refusal = unfinished(state)
    if refusal is not None:
        return refusal
    if kind not in _CATEGORY:
        return Rejected(
            "R-PLAN-12",
            f"{card_words(card)} is played on a journey, not while planning",
            "put it back; keep it for your journey",
        )
    if _pad_for(kind) != pad:
        return Rejected(
            "R-PLAN-8",
            f"{card_words(card)} does not go on that pad",
            "a gold or thief card goes beside the village, an obstacle on it",
        )
    if village is None:
        return Rejected(
            "R-PLAN-8",
            f"there is no village in {possessive(seat)} {ordinal(slot)} place",
            "put it back; lay it beside a village",
        )
    refusal = slide_refusal(state, seat)
    if refusal is not None:
        return refusal
    held = _special_at(village, kind)
    if held is not None:
        return Rejected(
            "R-PLAN-9",
            f"{village_words(village, seat)} already has {special_words(held.type, held.owner)}",
            "put it back; lay it at another village",
        )
    if kind in OBSTACLES and (kind == "sea_monster") != (village.terrain in WATER):
        good = "lake or river" if kind == "sea_monster" else "desert, plain, forest or mountain"
        return Rejected(
            "R-PLAN-10",
            f"a {TYPE_WORDS[kind]} cannot go on {village_words(village, seat)}",
            f"put it back; a {TYPE_WORDS[kind]} goes on {good}",
        )
    s = actor(state)
    refusal = _placement_limit(state, s) or from_hand(state, card)
    if refusal is not None:
        return refusal
    special = Special(card, kind, s)
    state = with_village(state, seat, slot, _with_special(village, _CATEGORY[kind], special))
    state = with_seat(state, s, placed=state.seats[s].placed + 1)
    ev: list[str] = []
    what = (
        f"{seat_ref(s)} lays a {TYPE_WORDS[kind]} on {village_words(village, seat)}"
        f"; a token of {crest_words(state.seats[s].crest)} goes on it"
    )
    return Accepted(played(state, card, ev, what), tuple(ev))


def _with_special(village: Village, category: str, special: Special) -> Village:
    if category == "gold":
        return replace(village, gold=special)
    if category == "thief":
        return replace(village, thief=special)
    return replace(village, obstacle=special)


def _pad_for(kind: str) -> str:
    return VILLAGE if kind in OBSTACLES else ATTACH


def lay_token(state: State, pad: str, seat: int, slot: int, token: str) -> Outcome:
    """An ownership token arrives on a pad: a confirmation of a special card's owner, checked
    whenever it comes; it never holds up the game (contract, "Lay a special card")."""
    owner = seat_of_crest(state, token_crest(token))
    if owner is None:
        return Rejected(
            "R-SETUP-3",
            f"nobody plays {crest_words(token_crest(token))}",
            "take the token off; it stays in the box",
        )
    village = village_at(state, seat, slot)
    here = () if village is None else village.specials()
    here = tuple(x for x in here if _pad_for(x.type) == pad)
    if any(x.token == token for x in here):
        return Accepted(state)
    elsewhere = any(
        x.token == token for other in state.seats for v in other.villages for x in v.specials()
    )
    free = [x for x in here if x.token is None]
    mine = [x for x in free if x.owner == owner]
    if elsewhere or not mine:
        if free and not elsewhere:
            who = free[0].owner
            return Rejected(
                "R-PLAN-8",
                f"that {TYPE_WORDS[free[0].type]} is {possessive(who)}: the token must be "
                f"{crest_words(state.seats[who].crest)}",
                f"take it off; {seat_ref(who)} lays {possessive(who)} own token, "
                f"{crest_words(state.seats[who].crest)}",
            )
        return Rejected(
            "R-PLAN-8",
            "there is no special card of that crest still without a token here",
            "take it off; a token lies on its owner's special card",
        )
    assert village is not None
    target = mine[0]
    done = replace(target, token=token)
    field = _CATEGORY[target.type]
    return Accepted(with_village(state, seat, slot, _with_special(village, field, done)))
