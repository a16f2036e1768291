"""Judging decisions: a person's answer to an open prompt (docs/games/arcanum.md, "Decisions").

Answers outside a prompt's options are refused with the prompt's rule; a decision nobody asked
for is TABLE-NO-PROMPT (or the rule that explains why it is not asked: R-DRAW-1/2, R-PLAY-3/5,
R-DRAW-4). Refusals of private prompts never echo the answer or list the options (they may name
hidden cards), and never tell which seat a private prompt is for.
"""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.core.answering import NO_PROMPT, WRONG_SEAT, answer_ok, game_over, match_prompt
from scorekeeper.core.inputs import Decision
from scorekeeper.core.outcomes import Accepted, Outcome, Prompt, Rejected
from scorekeeper.core.text import seat_ref
from scorekeeper.games.arcanum import famephase, locations, majors, rounds, words
from scorekeeper.games.arcanum.engine import settle
from scorekeeper.games.arcanum.ops import major_words, majors_allowed, pop, swap_head
from scorekeeper.games.arcanum.prompts import PRIVATE, pending, waiting_for
from scorekeeper.games.arcanum.refusals import owed_refusal
from scorekeeper.games.arcanum.state import (
    DRAW,
    FAME,
    HIDE,
    OVER,
    PLAY,
    Ask,
    FameWait,
    Harbour,
    Hides,
    JudgePlace,
    JudgeRemove,
    Owe,
    State,
    Sun,
    Wheel,
)

ANSWER_RULE = {
    "draw": "R-DRAW-1",
    "end_turn": "R-PLAY-3",
    **{p: "R-MIN-6" for p in locations.PROMPTS},
    **{p: "R-MAJ-1" for p in majors.PROMPTS},
    "fame": "R-FAME-3",
    "fool": "R-FAME-4",
}


def decide(state: State, d: Decision) -> Outcome:
    """Judge a person's answer to an open prompt."""
    if state.phase == OVER:
        return game_over()
    head = state.head
    if isinstance(head, Owe):
        return owed_refusal(state, head, "")
    match = match_prompt(pending(state), d)
    if match.prompt is None:
        return _unasked(state, d)
    if match.problem == "wrong-seat":
        return _wrong_seat(state, d, match.prompt)
    prompt = match.prompt
    private = prompt.private
    answer = d.answer
    if prompt.id == "temperance" and "+" in answer and answer not in prompt.options:
        a, _, b = answer.partition("+")
        answer = f"{b}+{a}"
    if not answer_ok(prompt, answer):
        rule = _answer_rule(state, prompt.id)
        about = words.PROMPT_WORDS.get(prompt.id, "this question")
        if private:
            return Rejected(
                rule,
                f"that is not one of the answers about {about}",
                "the answers are listed with the private question",
            )
        return Rejected(
            rule,
            f"that is not one of the answers about {about}",
            "the answers are: " + words.answers(prompt.id, prompt.options, state.cfg.names),
        )
    ev: list[str] = []
    state = _apply(state, prompt, answer, ev)
    return Accepted(settle(state, ev), tuple(ev))


def _answer_rule(state: State, prompt_id: str) -> str:
    head = state.head
    if prompt_id == "hide" and isinstance(head, Hides):
        return head.rule
    return ANSWER_RULE.get(prompt_id, NO_PROMPT)


def _wrong_seat(state: State, d: Decision, prompt: Prompt) -> Rejected:
    assert d.seat is not None
    if prompt.id == "draw":
        return Rejected(
            "R-DRAW-1",
            f"draws go clockwise from the start seat: it is "
            f"{seat_ref(prompt.seat or 0)}'s turn to draw",
            f"{seat_ref(prompt.seat or 0)} chooses a draw first",
        )
    if prompt.private:
        return Rejected(
            ANSWER_RULE.get(prompt.id, WRONG_SEAT),
            f"{seat_ref(d.seat)} is not asked about "
            f"{words.PROMPT_WORDS.get(prompt.id, 'that')} now",
            "only the seat asked answers a private prompt",
        )
    return Rejected(
        WRONG_SEAT,
        f"that question is for {seat_ref(prompt.seat or 0)}",
        f"{seat_ref(prompt.seat or 0)} or the organiser answers it",
    )


def _unasked(state: State, d: Decision) -> Rejected:
    """A decision with no open prompt of its kind: say why, with the rule that explains it."""
    head = state.head
    t = state.turn
    hint = f"now: {waiting_for(state)}"
    if d.prompt == "end_turn" and state.phase == PLAY and head is None and t is not None:
        if t.minor is None and t.major_moved and t.major is not None:
            return Rejected(
                "R-PLAY-5",
                f"the pawn move of {major_words(t.major)} does not count "
                f"as the minor: {seat_ref(t.seat)} must still play a minor",
                hint,
            )
        if t.minor is None:
            return Rejected(
                "R-PLAY-3", f"{seat_ref(t.seat)} must play a minor before the turn ends", hint
            )
    if d.prompt == "draw" and state.phase in (DRAW, HIDE):
        if state.round == 1:
            return Rejected(
                "R-DRAW-2",
                "in round 1 every seat draws 1 major and 4 minors at once: nobody chooses",
                hint,
            )
        if not rounds.draw_choice(state):
            return Rejected(
                "R-DRAW-1",
                "in this round every seat draws 3 minors: there is no "
                "choice (first game rounds 1-2, simplest game)",
                hint,
            )
    if d.prompt == "hide" and isinstance(head, Hides) and head.required:
        return Rejected(head.rule, f"this hide is compulsory ({head.why}): nobody may pass", hint)
    if d.prompt == "fool" and state.phase == FAME:
        who = "that seat" if d.seat is None else seat_ref(d.seat)
        return Rejected(
            "R-FAME-4",
            f"{who} is not asked which family the Fool counts for",
            "only the seat that hid the Fool assigns it, once, to a family not yet scored",
        )
    about = words.PROMPT_WORDS.get(d.prompt, "that question")
    return Rejected(NO_PROMPT, f"nobody is asked about {about} now", hint)


def _apply(state: State, prompt: Prompt, answer: str, ev: list[str]) -> State:
    """Apply a legal answer (the prompt is open and ``answer`` is one of its options)."""
    head = state.head
    pid = prompt.id
    if pid == "end_turn":
        t = state.turn
        assert t is not None
        ev.append(
            f"{seat_ref(t.seat)} ends the turn"
            + (" without a major" if majors_allowed(state) else "")
        )
        return rounds.end_turn(state, ev)
    if pid == "fame":
        return famephase.reveal(state, ev)
    if pid == "fool":
        return famephase.assign(state, answer)
    if isinstance(head, Ask):
        if pid == "draw":
            return rounds.draw_answer(state, head, answer)
        if pid in locations.PROMPTS:
            return locations.answer(state, head, answer, ev)
        return majors.answer(state, head, answer, ev)
    if isinstance(head, Harbour):
        return locations.harbour_answer(state, head, answer, ev)
    if isinstance(head, Hides):
        seat = prompt.seat
        assert seat is not None
        ev.append(f"{seat_ref(seat)} hides nothing more ({head.why})")
        rest = tuple((s, 0 if s == seat else k) for s, k in head.left)
        if not any(k for _, k in rest):
            return pop(state)
        return swap_head(state, replace(head, left=rest))
    if isinstance(head, Wheel):
        assert prompt.seat is not None
        return majors.wheel_answer(state, head, prompt.seat, answer, ev)
    if isinstance(head, Sun):
        assert prompt.seat is not None
        return majors.sun_answer(state, head, prompt.seat, answer, ev)
    if isinstance(head, JudgeRemove):
        return majors.judgement_remove(state, head, answer, ev)
    if isinstance(head, JudgePlace):
        return majors.judgement_place(state, head, head.pawns[0], int(answer), ev)
    assert isinstance(head, FameWait)  # pragma: no cover
    return state  # pragma: no cover


__all__ = ["PRIVATE", "decide"]
