"""Judging decisions: a person's answer to an open prompt (contract, "Prompts and their
answers").

``plan``, ``searched`` and a removal's ``pay`` are planning's (plan_answers.py); ``journey``,
``teleport_to`` and a thief's ``pay`` go to travel.py, and when a journey has ended the next one
starts here (``rounds.after_journey``). Answers not offered are refused with the rule that
explains why (R-PLAN-14, R-PLAN-6, G-15, R-PLAN-4), never with a word about a purse.
"""

from __future__ import annotations

from scorekeeper.core.answering import NO_PROMPT, WRONG_SEAT, answer_ok, game_over, match_prompt
from scorekeeper.core.inputs import Decision
from scorekeeper.core.outcomes import Accepted, Outcome, Rejected
from scorekeeper.core.text import seat_ref
from scorekeeper.games.king_of_the_elves import plan_answers, planning, rounds, words
from scorekeeper.games.king_of_the_elves.prompts import pending, waiting_for
from scorekeeper.games.king_of_the_elves.state import PLANNING, TRAVEL, State


def decide(state: State, d: Decision) -> Outcome:
    """Judge a person's answer to an open prompt."""
    if state.over:
        return game_over()
    match = match_prompt(pending(state), d)
    if match.prompt is None:
        return _unasked(state, d)
    prompt = match.prompt
    if match.problem == "wrong-seat":
        who = seat_ref(prompt.seat or 0)
        return Rejected(
            WRONG_SEAT, f"that question is for {who}", f"{who} or the organiser answers it"
        )
    if state.phase == PLANNING:
        if not answer_ok(prompt, d.answer):
            refusal = plan_answers.not_offered(state, d.answer) if prompt.id == "plan" else None
            return refusal or Rejected(
                "R-PLAN-1",
                f"that is not one of the answers about {words.PROMPT_WORDS[prompt.id]}",
                "the answers are: " + words.answers(prompt.id, prompt.options, state),
            )
        if prompt.id == "plan":
            return plan_answers.answer_plan(state, d.answer)
        if prompt.id == "searched":
            return plan_answers.answer_searched(state, d.answer)
        return plan_answers.answer_pay(state)
    from scorekeeper.games.king_of_the_elves import travel

    out = travel.on_decision(state, d)
    if isinstance(out, Accepted) and out.state.phase == TRAVEL and out.state.journey is None:
        ev = list(out.events)
        return Accepted(rounds.after_journey(out.state, ev), tuple(ev))
    return out


def _unasked(state: State, d: Decision) -> Rejected:
    """A decision with no open prompt of its kind: say why, with the rule that explains it."""
    hint = f"now: {waiting_for(state)}"
    if state.phase == PLANNING and d.prompt == "plan":
        refusal = planning.unfinished(state, laid=False)
        if refusal is not None:
            return refusal
    if state.phase == PLANNING and d.prompt in ("journey", "teleport_to"):
        return Rejected("R-TRAVEL-1", "the journeys begin when planning is over", hint)
    about = words.PROMPT_WORDS.get(d.prompt, "that question")
    return Rejected(NO_PROMPT, f"nobody is asked about {about} now", hint)
