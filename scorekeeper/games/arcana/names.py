"""Arcana's cards, districts and seats named in plain words, from the table's pack.

Every module that writes a feed line, a refusal or a prompt names things through here, so a
card reads the same everywhere: "the Crossbowman", "Ayane", "{seat:1}'s Funeral". Seats are
``seat_ref`` markers (the table puts the players' names in).

Hazard: a face-down agent must never be named where anyone but its owner reads (a feed line,
a public refusal, a waiting line): use ``face_down_words`` there.
"""

from __future__ import annotations

from scorekeeper.core.text import seat_ref
from scorekeeper.games.arcana.cards import (
    FIRST_PLAYER_CARD,
    GUILD_WORDS,
    PRINCES_GAMES_CARD,
    Pack,
    guild_of_id,
)
from scorekeeper.games.arcana.state import NEUTRAL

_FALLBACK_TYPES = {
    "badge_": "badge",
    "master_": "guild master",
    "objective_": "objective",
    "event_": "event",
    "captain_": "captain",
    "constable_": "constable",
}


def possessive(seat: int) -> str:
    """``{seat:n}'s``."""
    return f"{seat_ref(seat)}'s"


def card_name(pack: Pack | None, piece: str) -> str:
    """A card's bare name from the pack ("Crossbowman"); for a card the pack does not name
    yet, its place in the copy ("Ferrymen card 7", "stake 17", "badge of the Ferrymen")."""
    card = pack.card(piece) if pack is not None else None
    if card is not None and card.name:
        return card.name
    return fallback_name(piece)


def fallback_name(piece: str) -> str:
    """A card named by its id alone: "Ferrymen card 7", "stake 17", "the Ferrymen's badge",
    "the first-player card"."""
    if piece == FIRST_PLAYER_CARD:
        return "first-player card"
    if piece == PRINCES_GAMES_CARD:
        return "Prince's Games card"
    guild = guild_of_id(piece)
    if piece.startswith("badge_") and guild:
        return f"{GUILD_WORDS[guild]}' badge"
    if piece.startswith("master_") and guild:
        return f"{GUILD_WORDS[guild]} guild master {piece.rpartition('_')[2]}"
    head, _, tail = piece.rpartition("_")
    if guild and tail.isdigit():
        return f"{GUILD_WORDS[guild]} card {int(tail)}"
    if head == "stake" and tail.isdigit():
        return f"stake {int(tail)}"
    for prefix, word in _FALLBACK_TYPES.items():
        if piece.startswith(prefix) and tail.isdigit():
            return f"{word} {int(tail)}"
    return piece.replace("_", " ")


def the_card(pack: Pack | None, piece: str) -> str:
    """A card with its article: "the Crossbowman" (a name that is a person's, like "Ayane",
    reads well with "the" dropped only in the pack's own words, so "the" is always used for
    cards the pack names as things; names are kept as printed)."""
    name = card_name(pack, piece)
    if name.lower().startswith("the "):
        return name
    return f"the {name}" if not _is_personal(pack, piece) else name


def owned_card(pack: Pack | None, piece: str, owner: int) -> str:
    """A card with its owner: "{seat:1}'s Crossbowman"."""
    name = card_name(pack, piece)
    if name.lower().startswith("the "):
        name = name[4:]
    return f"{possessive(owner)} {name}"


def face_down_words(owner: int) -> str:
    """A face-down agent as anyone but its owner may read it: "{seat:1}'s face-down agent"."""
    return f"{possessive(owner)} face-down agent"


def district_words(did: str) -> str:
    """A district by its letter: "district A", "the neutral district"."""
    return "the neutral district" if did == NEUTRAL else f"district {did.upper()}"


def guild_words(guild: str) -> str:
    """A guild's name: "Ferrymen", "Fortune-Tellers" ("" for none)."""
    return GUILD_WORDS.get(guild, "")


def _is_personal(pack: Pack | None, piece: str) -> bool:
    """Whether a card's name is a person's own name (a citizen: "Ayane", not "the Ayane")."""
    card = pack.card(piece) if pack is not None else None
    return card is not None and card.type == "citizen" and " " not in card.name.strip()
