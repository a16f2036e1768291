"""King of the Elves in plain words: pieces, villages, zones, prompts and answers.

Seats are named with ``seat_ref`` markers (the table puts the players' names in). Every card on
the table is public (the game has no secret piece), so words may name cards; none names a purse.
"""

from __future__ import annotations

from collections.abc import Iterable

from scorekeeper.core.text import seat_ref
from scorekeeper.games.king_of_the_elves import zones
from scorekeeper.games.king_of_the_elves.cards import (
    TYPE_WORDS,
    VILLAGES,
    card_type,
    crest_words,
    kind_of,
    token_crest,
    type_words,
)
from scorekeeper.games.king_of_the_elves.state import Deck, State, Village

PROMPT_WORDS = {
    "plan": "the planning turn",
    "searched": "what the search found",
    "pay": "a payment",
    "journey": "the journey",
    "teleport_to": "where to teleport",
}

_FIXED = {
    ("plan", "pass"): "Pass",
    ("plan", "draw3"): "Draw 3 cards, then discard 4",
    ("plan", "search"): "Search the draw pile for a village",
    ("searched", "found"): "I took a village",
    ("searched", "none"): "There is no village anywhere",
    ("journey", "stop"): "Stop the journey here",
    ("journey", "teleport"): "Teleport: 3 gold and any 4 travel cards",
}


def possessive(seat: int) -> str:
    """``{seat:n}'s``."""
    return f"{seat_ref(seat)}'s"


def village_words(village: Village, owner: int | None = None) -> str:
    """A village on the table: "the forest village (4)", or "{seat:1}'s forest village (4)"."""
    head = "the" if owner is None else possessive(owner)
    return f"{head} {village.terrain} village ({village.value})"


def card_words(card: str, deck: Deck | None = None) -> str:
    """A card in words without its owner: "the forest village (4)" (with a manifest; "village
    card 4" without), "a raft", "a thief"."""
    if card in _VILLAGE_NUMBER:
        if deck is not None and deck.terrain(card):
            return f"the {deck.terrain(card)} village ({deck.value(card)})"
        return f"village card {_VILLAGE_NUMBER[card]}"
    kind = card_type(card)
    if kind:
        return type_words(kind)
    return card


def piece_words(piece: str, deck: Deck | None = None) -> str:
    """Any piece in words: a card (``card_words``) or a token ("crest C's token 2")."""
    if kind_of(piece) == "token":
        return f"{crest_words(token_crest(piece))}'s token {piece[-1]}"
    return card_words(piece, deck)


def special_words(kind: str, owner: int) -> str:
    """A special card with its owner: "{seat:1}'s thief"."""
    return f"{possessive(owner)} {TYPE_WORDS.get(kind, kind)}"


def zone_words(zone: str) -> str:
    """A zone as people name it, with a seat marker: "{seat:2}'s first village", "beside
    {seat:2}'s second village", "the road pad", "the discard pad"."""
    where = zones.parse(zone)
    if where is None:
        return zone
    kind, slot, seat = where
    if kind == zones.VILLAGE:
        return f"{possessive(seat)} {zones.ordinal(slot)} village pad"
    if kind == zones.ATTACH:
        return f"the pad beside {possessive(seat)} {zones.ordinal(slot)} village"
    return f"the {zones.describe_zone(zone).lower()}"


def price(bought: int) -> int:
    """The price of a seat's next purchase this round: 1, 2, then 3 (R-PLAN-6)."""
    return bought + 1


def answer(prompt: str, option: str, state: State | None = None) -> str:
    """One answer to a prompt in words, as a button would say it."""
    fixed = _FIXED.get((prompt, option))
    if fixed is not None:
        return fixed
    if prompt == "plan" and option == "buy":
        if state is not None and state.active_seat is not None:
            return f"Buy the top card for {price(state.seats[state.active_seat].bought)} gold"
        return "Buy the top card"
    if prompt == "pay" and option == "pay":
        return pay_words(state)
    if prompt == "teleport_to" and state is not None:
        seat, _, slot = option.partition(".")
        if seat.isdigit() and slot.isdigit():
            s, k = int(seat), int(slot)
            if 0 <= s < state.n and 0 < k <= len(state.seats[s].villages):
                v = state.seats[s].villages[k - 1]
                return f"{possessive(s)} {zones.ordinal(k)} village ({v.terrain}, {v.value})"
    return option


def pay_words(state: State | None) -> str:
    """The ``pay`` answer: "Pay 4 gold to the bank" (a removal) or "Pay 2 gold to {seat:1}" (a
    thief); amounts are public, never a balance."""
    if state is None:
        return "Pay"
    action = state.planning.action if state.planning is not None else None
    if action is not None and action.kind == "pay":
        return f"Pay {action.amount} gold to the bank"
    journey = state.journey
    if journey is not None and getattr(journey, "pay_to", -1) >= 0:
        return f"Pay {journey.pay_amount} gold to {seat_ref(journey.pay_to)}"
    return "Pay"


def answers(prompt: str, options: Iterable[str], state: State | None = None) -> str:
    """The answers of a prompt in words, joined with "or"."""
    words = [answer(prompt, o, state) for o in options]
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} or {words[-1]}"


def or_list(items: list[str]) -> str:
    """``a, b or c``."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} or {items[-1]}"


_VILLAGE_NUMBER = {c: int(c[-2:]) for c in VILLAGES}
