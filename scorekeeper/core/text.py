"""Text for people: how games refer to seats so that tables can show the players' names.

A game does not know who sits where, so its plain-language lines (events, refusals, prompts,
"waiting for") name a seat with ``seat_ref(n)``, a ``{seat:n}`` marker. The table renders the
markers with the seat's name (``render_seats``) before anything reaches a person.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_SEAT_REF = re.compile(r"\{seat:(\d+)\}")


def seat_ref(seat: int) -> str:
    """The marker for seat ``seat`` (0-based) inside a game's text."""
    return f"{{seat:{seat}}}"


def render_seats(text: str, names: Sequence[str]) -> str:
    """Replace every seat marker in ``text`` with that seat's name ("seat n" when unnamed)."""
    if "{seat:" not in text:
        return text

    def name(match: re.Match[str]) -> str:
        seat = int(match.group(1))
        return names[seat] if 0 <= seat < len(names) and names[seat] else f"seat {seat}"

    return _SEAT_REF.sub(name, text)


# A card named by its number first ("IX The Hermit", "XIII Death") takes no article.
_NUMBERED = re.compile(r"^[IVXLC]+ ")


def with_article(name: str) -> str:
    """``name`` after "the", unless it already starts with an article ("the Fool (0)") or is a
    numbered card's title ("IX The Hermit", never "the IX The Hermit")."""
    if name.lower().startswith(("the ", "a ", "an ")) or _NUMBERED.match(name):
        return name
    return f"the {name}"


def plural(count: int, word: str, many: str | None = None) -> str:
    """``count`` and ``word`` with the right number: "1 card", "2 cards" ("2 pawns"); ``many``
    for a word whose plural is not ``word + "s"``."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


TYPED_HINT = "that input was not applied; nothing to put back"
# A part of a hint that asks for a physical move: meaningless for an input that was typed.
_PHYSICAL = re.compile(r"\b(?:put|take|lift|pick)\b[^;]*\b(?:back|off|on|onto|in)\b", re.IGNORECASE)


def typed_hint(hint: str) -> str:
    """A refusal's ``hint`` for an input the organiser typed rather than laid: no card lies on
    the table, so every "put it back" or "take it off" part is dropped, and the hint says the
    input was not applied; what remains ("now: ...") is kept."""
    hint = hint.removeprefix(TYPED_HINT)
    keep = [part.strip() for part in hint.split(";") if part.strip() and not _PHYSICAL.search(part)]
    return "; ".join([TYPED_HINT, *keep])
