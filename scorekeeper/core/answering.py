"""The platform's refusals around a game's rules, and matching an answer to the prompt it answers.

Every game refuses a play after the end, a sighting at a zone the table does not have, a tag
that is no piece, an answer nobody asked for and an answer from a seat the question is not for
with the same ``TABLE-*`` ids (declared once in ``core/rule_ids.py``); the ids, and the words
that are the same for every game, live here so that no game spells them again. ``match_prompt``
finds the open prompt a ``Decision`` answers, the same way for every game, and says what is
wrong when there is none; the game then words the refusal, since only it knows what its
prompts are about and what a private prompt must not tell.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from scorekeeper.core.inputs import Decision
from scorekeeper.core.outcomes import Prompt, Rejected
from scorekeeper.core.rule_ids import TABLE_RULES


def _declared(rule: str) -> str:
    """``rule``, checked to be one of the platform's declared refusals (at import time, so a
    misspelt id stops the program before any table opens)."""
    if rule not in TABLE_RULES.refusals:
        raise ValueError(f"{rule} is not declared in core/rule_ids.py's TABLE_RULES")
    return rule


GAME_OVER = _declared("TABLE-GAME-OVER")
NO_PROMPT = _declared("TABLE-NO-PROMPT")
WRONG_SEAT = _declared("TABLE-WRONG-SEAT")
UNKNOWN_READER = _declared("TABLE-UNKNOWN-READER")
UNKNOWN_TAG = _declared("TABLE-UNKNOWN-TAG")
NOT_RUNNING = _declared("TABLE-NOT-RUNNING")
UNDO_EMPTY = _declared("TABLE-UNDO-EMPTY")


def game_over() -> Rejected:
    """The refusal of any play after the game ended: an undo reopens it."""
    return Rejected(GAME_OVER, "the game is over", "undo the last input to reopen it")


def unknown_zone(zone: str, zones: Iterable[str]) -> Rejected:
    """The refusal of a sighting at ``zone``, which is none of the table's ``zones``."""
    return Rejected(
        UNKNOWN_READER, f"{zone!r} is not a zone of this table", "zones: " + ", ".join(zones)
    )


@dataclass(frozen=True, slots=True)
class PromptMatch:
    """What ``match_prompt`` found for one decision.

    ``problem`` is "" when ``prompt`` is the open prompt the decision answers (its answer still
    has to be checked: ``answer_ok``); "no-prompt" when no prompt of that id is open (``prompt``
    is None); "wrong-seat" when prompts of that id are open but none for the decision's seat
    (``prompt`` is the first of them, the one to name in the refusal).
    """

    prompt: Prompt | None
    problem: Literal["", "no-prompt", "wrong-seat"] = ""


def match_prompt(prompts: Sequence[Prompt], decision: Decision) -> PromptMatch:
    """The open prompt among ``prompts`` (a game's ``pending``) that ``decision`` answers.

    Who may answer: the organiser (``seat`` None) answers the first open prompt of that id; a
    seat answers a prompt for it or for anyone (``Prompt.seat`` None), never another seat's.
    """
    open_ = [p for p in prompts if p.id == decision.prompt]
    if not open_:
        return PromptMatch(None, "no-prompt")
    if decision.seat is None:
        return PromptMatch(open_[0])
    mine = [p for p in open_ if p.seat is None or p.seat == decision.seat]
    if not mine:
        return PromptMatch(open_[0], "wrong-seat")
    return PromptMatch(mine[0])


def answer_ok(prompt: Prompt, answer: str) -> bool:
    """True when ``answer`` is one of ``prompt``'s options."""
    return answer in prompt.options
