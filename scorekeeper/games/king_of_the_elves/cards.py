"""King of the Elves' pieces: card and token ids, their types, and the fixed sets of words.

Ids follow the contract (docs/games/king-of-the-elves.md, "Pieces"): villages ``village_01`` …
``village_26``, travel and special cards ``<type>_<n>`` numbered within their type, tokens
``token_<crest><k>``. A village's terrain and value are not in its id: they come from the
table's deck manifest (``state.Deck``). Pure data and parsing, no state.
"""

from __future__ import annotations

TERRAINS: tuple[str, ...] = ("lake", "river", "desert", "mountain", "forest", "plain")
WATER: frozenset[str] = frozenset({"lake", "river"})

TRAVEL_TYPES: tuple[str, ...] = (
    "giant_pig",
    "elfcycle",
    "magic_cloud",
    "unicorn",
    "troll_wagon",
    "dragon",
    "raft",
)
PLANNING_SPECIALS: tuple[str, ...] = ("gold", "thief", "fallen_tree", "sea_monster")
"""Special cards laid while planning (round corner symbol), R-PLAN-8."""
JOURNEY_SPECIALS: tuple[str, ...] = ("escort", "turnaround")
"""Special cards laid on a journey (square corner symbol), R-TRAVEL-10/11."""
SPECIAL_TYPES: tuple[str, ...] = PLANNING_SPECIALS + JOURNEY_SPECIALS
OBSTACLES: tuple[str, ...] = ("fallen_tree", "sea_monster")

CRESTS: tuple[str, ...] = ("a", "b", "c", "d", "e", "f")
TOKENS_PER_CREST = 4
VILLAGE_COUNT = 26
VILLAGES: tuple[str, ...] = tuple(f"village_{k:02d}" for k in range(1, VILLAGE_COUNT + 1))
TOKENS: tuple[str, ...] = tuple(
    f"token_{c}{k}" for c in CRESTS for k in range(1, TOKENS_PER_CREST + 1)
)

TYPE_WORDS: dict[str, str] = {
    "giant_pig": "giant pig",
    "elfcycle": "elfcycle",
    "magic_cloud": "magic cloud",
    "unicorn": "unicorn",
    "troll_wagon": "troll wagon",
    "dragon": "dragon",
    "raft": "raft",
    "gold": "gold card",
    "thief": "thief",
    "fallen_tree": "fallen tree",
    "sea_monster": "sea monster",
    "escort": "escort",
    "turnaround": "turnaround",
}
_PLURALS = {"thief": "thieves"}


def kind_of(piece: str) -> str:
    """What a piece is: "village", "travel", "special", "token", or "" for an unknown id."""
    if piece in _VILLAGE_SET:
        return "village"
    if piece in _TOKEN_SET:
        return "token"
    kind = card_type(piece)
    if kind in TRAVEL_TYPES:
        return "travel"
    if kind in SPECIAL_TYPES:
        return "special"
    return ""


def card_type(card: str) -> str:
    """The type of a travel or special card id (``raft_10`` -> ``raft``), "village" for a
    village, "" for anything else. Hazard: does not check the number against the deck's
    counts (``kind_of`` does not either; the kit decides which pieces exist)."""
    if card in _VILLAGE_SET:
        return "village"
    head, sep, tail = card.rpartition("_")
    if sep and tail.isdigit() and head in TYPE_WORDS:
        return head
    return ""


def token_crest(token: str) -> str:
    """A token's crest letter (``token_c2`` -> ``c``), "" for a non-token."""
    return token[6] if token in _TOKEN_SET else ""


def type_words(kind: str, count: int = 1) -> str:
    """A type in words with its count: "a raft", "2 rafts", "an elfcycle", "1 more unicorn"
    is the caller's. ``count`` 1 gives the article form."""
    word = TYPE_WORDS.get(kind, kind.replace("_", " "))
    if count == 1:
        return f"{'an' if word[0] in 'aeiou' else 'a'} {word}"
    return f"{count} {_PLURALS.get(word, word + 's')}"


def crest_words(crest: str) -> str:
    """A crest as the console shows it: "crest C"."""
    return f"crest {crest.upper()}"


def piece_ids(travel: dict[str, int], special: dict[str, int]) -> tuple[str, ...]:
    """Every piece id of a deck with these counts, in enrollment order: villages, travel cards
    by type, special cards by type, then the 24 tokens."""
    out = list(VILLAGES)
    for kind in TRAVEL_TYPES:
        out += [f"{kind}_{k}" for k in range(1, travel.get(kind, 0) + 1)]
    for kind in SPECIAL_TYPES:
        out += [f"{kind}_{k}" for k in range(1, special.get(kind, 0) + 1)]
    return (*out, *TOKENS)


_VILLAGE_SET = frozenset(VILLAGES)
_TOKEN_SET = frozenset(TOKENS)
