"""The rule registry: every rule id a refusal or notice can name, declared once with one line.

Each game declares its own rules in ``scorekeeper/games/<game>/rule_ids.py`` as a
``RuleRegistry``; the platform's ``TABLE-*`` ids, which every game's reference explains in its
"Table" section, are declared here as ``TABLE_RULES``. Every rule entry of a game's players'
reference (``docs/rules/<game>.md``, served at ``/rules/<game>``) lands in exactly one of three
lists, so that a rule nobody checks cannot hide: the table refuses a play that breaks it, the
table carries it out itself (scores, turn order, a notice), or no reader can see it.
tests/games/test_rule_registry.py holds the code, the golden scripts and the references to
these lists.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class RuleRegistry:
    """One game's (or the platform's) rules, each id in exactly one of three lists.

    ``refusals``: the ids a ``Rejected`` can name, with what the table refuses in one line.
    ``applied``: rules the table carries out itself with nothing to refuse (it adds the score,
    picks the next seat, announces a reader), with what it does in one line.
    ``not_observable``: rules no reader can see, with the reason in plain words; the players
    keep these themselves.
    """

    refusals: Mapping[str, str]
    applied: Mapping[str, str] = field(default_factory=dict)
    not_observable: Mapping[str, str] = field(default_factory=dict)

    def declared(self) -> set[str]:
        """Every id in any of the three lists."""
        return set(self.refusals) | set(self.applied) | set(self.not_observable)

    def text(self, rule: str) -> str | None:
        """The one line declared for ``rule``, or None when it is not declared here."""
        for table in (self.refusals, self.applied, self.not_observable):
            if rule in table:
                return table[rule]
        return None


#: The platform's own ids: refusals the table makes before or around any game's rules, and its
#: notices about readers. Each game's reference explains them under "Table".
TABLE_RULES = RuleRegistry(
    refusals={
        "TABLE-UNKNOWN-TAG": "a reader saw a card or tag that is not in this table's kit",
        "TABLE-UNKNOWN-READER": "something was seen at a reader that is not in the table's layout",
        "TABLE-WRONG-SEAT": "an answer came from a seat the question was not for, or no such seat",
        "TABLE-NO-PROMPT": "an answer came when the table was not waiting for one",
        "TABLE-GAME-OVER": "a play came after the game ended",
        "TABLE-NOT-RUNNING": "a play came while the table is paused or not started",
        "TABLE-UNDO-EMPTY": "an undo came with no play left to take back",
    },
    applied={
        "TABLE-READERS": "the table tells the organiser that the readers did not start",
        "TABLE-READER-OFFLINE": "the table announces a reader gone offline, keeping what it held",
        "TABLE-READER-BACK": "the table announces a reader back online",
    },
)
