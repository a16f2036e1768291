"""A line of a table's recent-plays feed, and the refusal words that name no hidden card.

``Table`` (scorekeeper/core/table.py) makes a ``FeedEntry`` for every input it logs; the
views show them to each audience through ``FeedEntry.to_dict``, which keeps the raw input and
the names of hidden cards for the organiser.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.core.game import ORGANISER, PUBLIC, Audience
from scorekeeper.core.outcomes import Rejected
from scorekeeper.core.putback import PutBack

UNNAMED = "the card"  # what a public refusal says instead of a hidden card's name


@dataclass(frozen=True, slots=True)
class FeedEntry:
    """One line of the table's recent-plays feed. ``text`` is safe for the public view."""

    seq: int
    accepted: bool
    input: str
    events: tuple[str, ...]
    rejection: Rejected | None
    put_back: PutBack | None = None  # an accepted undo or correction: what to move
    # The input in plain words (Game.describe_input), for the organiser only: worked out when
    # first asked for, so that replaying a long log at start-up pays nothing for it.
    describe: Callable[[], str] | None = field(default=None, compare=False, repr=False)
    # The pieces a refusal shown to anyone but the organiser must not name (the table's
    # ``secret_names``: every piece of the game, so the words never depend on what is hidden).
    unnamed: Callable[[], re.Pattern[str] | None] | None = field(
        default=None, compare=False, repr=False
    )
    _words: list[str] = field(default_factory=list, compare=False, repr=False)

    @property
    def words(self) -> str:
        """The input in plain words ("" when the game cannot say)."""
        if not self._words:
            self._words.append(self.describe() if self.describe is not None else "")
        return self._words[0]

    def to_dict(self, audience: Audience) -> dict[str, Any]:
        out: dict[str, Any] = {
            "seq": self.seq,
            "accepted": self.accepted,
            "events": list(self.events),
        }
        if self.rejection is not None:
            rejection = self.rejection
            if audience != ORGANISER and self.unnamed is not None:
                rejection = without_names(rejection, self.unnamed())
            out["rejection"] = rejection.to_dict()
        if self.put_back is not None:
            # Seats get the public words here (the feed is shared by every seat); the view's
            # own "put_back" gives the owner of a hidden card its name.
            out["kind"] = self.put_back.kind
            out["put_back"] = self.put_back.text_for(ORGANISER if audience == ORGANISER else PUBLIC)
        if audience == ORGANISER:
            # The raw input may name a hidden card: only the organiser sees it.
            out["input"] = self.input
            if self.words:
                out["words"] = self.words
        return out


def without_names(rejection: Rejected, names: re.Pattern[str] | None) -> Rejected:
    """``rejection`` with every match of ``names`` (a hidden card, by id or in words, with its
    "the") replaced by "the card": it says where, not what. The same object when nothing
    matches."""
    if names is None:
        return rejection

    def unnamed(text: str) -> str:
        # "The" stays capitalised where the text had it (a reason may start a sentence).
        return names.sub(
            lambda m: UNNAMED.capitalize() if m[0].startswith("The ") else UNNAMED, text
        )

    reason, hint = unnamed(rejection.reason), unnamed(rejection.hint)
    if (reason, hint) == (rejection.reason, rejection.hint):
        return rejection
    return Rejected(rejection.rule, reason, hint)
