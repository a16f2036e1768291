"""Prompts and decisions: ``draw_count``, ``claim``, ``claimant``, ``waiting`` (contract doc)."""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.core.answering import NO_PROMPT, WRONG_SEAT, answer_ok, game_over, match_prompt
from scorekeeper.core.inputs import Decision
from scorekeeper.core.outcomes import Accepted, Outcome, Prompt, Rejected
from scorekeeper.core.text import plural, seat_ref
from scorekeeper.games.angels_demons import rounds, words
from scorekeeper.games.angels_demons.rounds import bump, left_of
from scorekeeper.games.angels_demons.rules import declare, draw
from scorekeeper.games.angels_demons.state import (
    ACT,
    DEAL,
    DRAW,
    FLIP,
    IN_ROUND,
    LAY,
    MINE,
    OUT,
    OVER,
    REFILL,
    ROUND_OVER,
    SHOW,
    TAKE,
    State,
)

BAD_ANSWER_RULE = {
    "draw_count": "R-TURN-3",
    "claim": "R-CLAIM-1",
    "claimant": "R-CLAIM-2",
    "show_item": "R-ADV-6",
}


def pending(state: State) -> tuple[Prompt, ...]:
    """The prompts open now, each with its legal answers."""
    out: list[Prompt] = []
    if state.phase == SHOW and state.held_draw is not None:
        out.append(
            Prompt(
                "show_item",
                state.held_draw[0],
                "Show a conditional item on the "
                "going-out pad to win the game, or say there is none to show",
                ("none",),
            )
        )
    if state.phase == DRAW:
        out.append(
            Prompt(
                "draw_count",
                state.active,
                "How many cards did you draw after laying your set?",
                ("0", "1", "2"),
                private=True,
            )
        )
    if state.phase == TAKE and state.claim is not None:
        c = state.claim
        out.append(
            Prompt(
                "claim",
                None,
                f"Does anyone claim {seat_ref(c.discarder)}'s discard, "
                f"{words.card(c.card)}? Pass if nobody does.",
                ("pass",),
            )
        )
    g = state.going
    if state.phase == OUT and g is not None and g.seat is None and g.claim is not None:
        out.append(
            Prompt(
                "claimant",
                None,
                f"Who goes out on {words.card(g.claim.card)}? "
                "Several waiting players may claim it; the first listed has priority.",
                tuple(str(s) for s in g.candidates),
            )
        )
    if state.phase in IN_ROUND:
        waiting = state.waiting
        out.extend(
            Prompt("waiting", s, f"{seat_ref(s)}: declare 'waiting for one card'?", ("yes",))
            for s in range(state.n)
            if s not in waiting
        )
    return tuple(out)


def decide(state: State, decision: Decision) -> Outcome:
    """Judge a person's answer to an open prompt."""
    if state.phase == OVER:
        return game_over()
    if state.may_show is not None and state.phase != SHOW:
        state = replace(state, may_show=None)
    if decision.prompt == "waiting":
        if decision.answer != "yes":
            return Rejected(
                "R-TURN-5",
                "a 'waiting' declaration cannot be withdrawn",
                "declare 'waiting' with yes, or leave it",
            )
        if decision.seat is None:
            return Rejected(
                "R-TURN-5", "say which seat declares 'waiting'", "send the declaration as that seat"
            )
        if not 0 <= decision.seat < state.n:
            return Rejected(
                WRONG_SEAT,
                f"there is no {seat_ref(decision.seat)}",
                f"seats are 0 to {state.n - 1}",
            )
        if decision.seat in state.waiting:
            return Rejected(
                NO_PROMPT,
                f"{seat_ref(decision.seat)} has already declared 'waiting'",
                "a declaration is made once per round and stays",
            )
        return declare(state, decision.seat)
    # Every prompt id but "waiting" (answered above) is open at most once, so the first open
    # prompt of the id is the one asked, whoever answers.
    match = match_prompt(pending(state), decision)
    prompt = match.prompt
    if prompt is None:
        about = words.PROMPT_WORDS.get(decision.prompt, "that question")
        return Rejected(NO_PROMPT, f"nobody is asked about {about} now", waiting_for(state))
    if match.problem == "wrong-seat":
        assert prompt.seat is not None  # a prompt for anyone is every seat's
        return Rejected(
            WRONG_SEAT,
            f"that question is for {seat_ref(prompt.seat)}",
            f"{seat_ref(prompt.seat)} or the organiser answers it",
        )
    if not answer_ok(prompt, decision.answer):
        return Rejected(
            BAD_ANSWER_RULE.get(prompt.id, NO_PROMPT),
            f"that is not one of the answers about {words.PROMPT_WORDS[prompt.id]}",
            "the answers are: " + words.answers(prompt.id, prompt.options),
        )
    if prompt.id == "show_item":
        assert state.held_draw is not None
        seat, count, after = state.held_draw
        state = replace(state, may_show=None, held_draw=None)
        s, ev = draw(state, seat, count, after, (f"{seat_ref(seat)} shows no conditional item",))
        return Accepted(s, ev)
    if prompt.id == "draw_count":
        seat = state.active
        s, ev = draw(state, seat, int(decision.answer), left_of(state, seat), ())
        return Accepted(s, ev)
    if prompt.id == "claim":
        assert state.claim is not None
        line = f"nobody claims {words.card(state.claim.card)}"
        s, ev = rounds.settle(replace(state, claim=None), (line,))
        return Accepted(s, ev)
    g = state.going
    assert g is not None and g.claim is not None
    seat = int(decision.answer)
    state = replace(
        state, going=replace(g, seat=seat), hands=bump(state.hands, seat, -(len(g.cards) - 1))
    )
    return Accepted(state, (f"{seat_ref(seat)} claims {words.card(g.claim.card)} to go out",))


def waiting_for(state: State) -> str:
    """One plain line: what the table is waiting for now."""
    a, n1 = state.active, state.n + 1
    phase = state.phase
    if phase == OVER:
        return "the game is over: " + ", ".join(f"{seat_ref(s)}" for s in state.winners) + " won"
    if phase == ROUND_OVER:
        dealer = seat_ref(left_of(state, state.start))
        return f"{dealer}: deal the next round and turn {n1} cards onto the talon"
    if phase in (DEAL, REFILL):
        who = state.start if phase == DEAL else a
        return (
            f"{seat_ref(who)}: turn {plural(state.refill_left, 'more card')} onto the "
            f"talon ({n1 - state.refill_left} of {n1} so far)"
        )
    if phase == TAKE:
        line = (
            f"{seat_ref(a)}: take a card from the talon"
            if state.talon
            else f"{seat_ref(a)}: turn {n1} cards onto the empty talon"
        )
        if state.claim is not None:
            line += (
                f" (or someone claims {seat_ref(state.claim.discarder)}'s discard, "
                f"{words.card(state.claim.card)}, or everyone passes)"
            )
        return line
    if phase == ACT:
        if a in state.waiting:
            return f"{seat_ref(a)}: go out, or discard the card just taken"
        return f"{seat_ref(a)}: go out, lay a set or discard"
    if phase in (LAY, MINE):
        b = state.building
        left = 3 - (len(b.cards) if b else 0)
        what = "'mine!' set" if phase == MINE else "set"
        return f"{seat_ref(b.seat if b else a)}: lay {plural(left, 'more card')} of the {what}"
    if phase == DRAW:
        return f"{seat_ref(a)}: say how many cards you drew (0, 1 or 2)"
    if phase == SHOW and state.held_draw is not None:
        return (
            f"{seat_ref(state.held_draw[0])}: show a conditional item on the going-out pad "
            "to win, or say there is none to show"
        )
    g = state.going
    if phase == OUT and g is not None:
        if g.seat is None:
            return "the table: say which waiting player goes out on the claimed card"
        return (
            f"{seat_ref(g.seat)}: put {plural(8 - len(g.cards), 'more card')} on the going-out pad"
        )
    if phase == FLIP:
        return "flip the top deck card onto the flip pad"
    return ""  # pragma: no cover - every phase is handled above
