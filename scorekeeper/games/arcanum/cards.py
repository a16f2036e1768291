"""Arcanum's pieces: the 78 tarot cards and the 16 family pawns, their ids, values and words.

Ids follow the contract (docs/games/arcanum.md, "Pieces"): majors ``major_00`` … ``major_21``
(the Fool is ``major_00``), minors ``<suit>_<rank>`` (``swords_4``, ``coins_queen``) and pawns
``pawn_<suit>_<figure>``. ``PIECES`` is the enrollment order. Families are always named with
their symbol as well as their colour, so no text relies on colour alone.
"""

from __future__ import annotations

SUITS: tuple[str, ...] = ("swords", "coins", "wands", "cups")
"""The four families, in the order that breaks ties within a fame row (R-FAME-3)."""

FIGURES: tuple[str, ...] = ("page", "knight", "queen", "king")
RANKS: tuple[str, ...] = tuple(str(n) for n in range(1, 11)) + FIGURES

FIGURE_VALUES: dict[str, int] = {"page": 11, "knight": 12, "queen": 13, "king": 14}
VALUES: dict[str, int] = {**{str(n): n for n in range(1, 11)}, **FIGURE_VALUES}
"""Rank -> value (R-FAME-6): number cards their number, page 11 … king 14."""

FOOL = "major_00"
TOWER = "major_16"
FOOL_VALUE = 0

MAJORS: tuple[str, ...] = tuple(f"major_{n:02d}" for n in range(22))
MINORS: tuple[str, ...] = tuple(f"{suit}_{rank}" for suit in SUITS for rank in RANKS)
PAWNS: tuple[str, ...] = tuple(f"pawn_{suit}_{figure}" for suit in SUITS for figure in FIGURES)
CARD_IDS: tuple[str, ...] = MAJORS + MINORS
PIECES: tuple[str, ...] = CARD_IDS + PAWNS

_MAJOR_ENGLISH = (
    "The Fool",
    "The Magician",
    "The High Priestess",
    "The Empress",
    "The Emperor",
    "The Hierophant",
    "The Lovers",
    "The Chariot",
    "Strength",
    "The Hermit",
    "Wheel of Fortune",
    "Justice",
    "The Hanged Man",
    "Death",
    "Temperance",
    "The Devil",
    "The Tower",
    "The Star",
    "The Moon",
    "The Sun",
    "Judgement",
    "The World",
)
MAJOR_NAMES: dict[str, str] = dict(zip(MAJORS, _MAJOR_ENGLISH, strict=True))

_ROMAN = (("X", 10), ("IX", 9), ("V", 5), ("IV", 4), ("I", 1))


def _roman(n: int) -> str:
    """Roman numeral of 0 … 39 (majors print "0" for the Fool)."""
    out = ""
    for letters, size in _ROMAN:
        while n >= size:
            out += letters
            n -= size
    return out or "0"


_NUMERALS = tuple(_roman(n) for n in range(22))

FAMILY_COLOUR: dict[str, str] = {
    "swords": "blue",
    "coins": "yellow",
    "wands": "green",
    "cups": "red",
}
FAMILY_SYMBOL: dict[str, str] = {"swords": "⚔", "coins": "◉", "wands": "⚚", "cups": "♥"}

_MAJOR_SET = frozenset(MAJORS)
_MINOR_SET = frozenset(MINORS)
_PAWN_SET = frozenset(PAWNS)


def is_major(piece: str) -> bool:
    """True for a major arcanum id (``major_00`` … ``major_21``)."""
    return piece in _MAJOR_SET


def is_minor(piece: str) -> bool:
    """True for a minor arcanum id (``swords_4``, ``coins_queen``)."""
    return piece in _MINOR_SET


def is_pawn(piece: str) -> bool:
    """True for a family pawn id (``pawn_swords_knight``)."""
    return piece in _PAWN_SET


def is_card(piece: str) -> bool:
    """True for any tarot card id, major or minor (not a pawn)."""
    return piece in _MAJOR_SET or piece in _MINOR_SET


def suit_of(piece: str) -> str:
    """The family of a minor or a pawn; ValueError for anything else (majors have none)."""
    if is_minor(piece):
        return piece.split("_", 1)[0]
    if is_pawn(piece):
        return piece.split("_")[1]
    raise ValueError(f"{piece!r} is not a minor arcanum or a family pawn")


def rank_of(minor: str) -> str:
    """The rank of a minor: ``"1"`` … ``"10"`` or a figure name; ValueError otherwise."""
    if not is_minor(minor):
        raise ValueError(f"{minor!r} is not a minor arcanum")
    return minor.split("_", 1)[1]


def value_of(card: str) -> int:
    """The fame value of a card (R-FAME-6): a minor's value, the Fool 0.

    ValueError for every other major and for pawns: they never count in a fame phase.
    """
    if card == FOOL:
        return FOOL_VALUE
    return VALUES[rank_of(card)]


def number_of(minor: str) -> int | None:
    """A number card's number (1 … 10, also its target location); None for a figure card."""
    rank = rank_of(minor)
    return None if rank in FIGURE_VALUES else int(rank)


def figure_of(piece: str) -> str | None:
    """The figure of a figure card or a pawn; None for a number card. ValueError otherwise."""
    if is_pawn(piece):
        return piece.split("_")[2]
    rank = rank_of(piece)
    return rank if rank in FIGURE_VALUES else None


def pawn_for(figure_minor: str) -> str:
    """The pawn a figure card moves (R-MIN-3): ``coins_queen`` -> ``pawn_coins_queen``."""
    figure = figure_of(figure_minor)
    if figure is None or not is_minor(figure_minor):
        raise ValueError(f"{figure_minor!r} is not a figure card")
    return f"pawn_{suit_of(figure_minor)}_{figure}"


def numeral(major: str) -> str:
    """The Roman numeral printed on a major: ``"0"``, ``"I"`` … ``"XXI"``."""
    if not is_major(major):
        raise ValueError(f"{major!r} is not a major arcanum")
    return _NUMERALS[int(major[-2:])]


def family_name(suit: str) -> str:
    """A family's label for texts, with its symbol: ``"swords ⚔"``."""
    if suit not in FAMILY_SYMBOL:
        raise ValueError(f"{suit!r} is not a family; families: {', '.join(SUITS)}")
    return f"{suit} {FAMILY_SYMBOL[suit]}"


def describe(piece: str) -> str:
    """Plain words for any piece, with the family symbol.

    ``"4 of swords ⚔"``, ``"queen of coins ◉"``, ``"the Fool (0)"``, ``"XVI The Tower"``,
    ``"blue knight pawn (swords ⚔)"``. ValueError for an unknown id.
    """
    if piece == FOOL:
        return "the Fool (0)"
    if is_major(piece):
        return f"{numeral(piece)} {MAJOR_NAMES[piece]}"
    if is_minor(piece):
        return f"{rank_of(piece)} of {family_name(suit_of(piece))}"
    if is_pawn(piece):
        suit = suit_of(piece)
        return f"{FAMILY_COLOUR[suit]} {figure_of(piece)} pawn ({family_name(suit)})"
    raise ValueError(f"{piece!r} is not an Arcanum piece")
