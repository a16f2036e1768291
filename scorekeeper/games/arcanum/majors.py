"""The 22 majors (rules §6, R-MAJ-1) and the prompts they ask.

``play`` resolves a major the AP just put on the play area: VP changes happen at once, and the
rest (a pawn move "as the Fool", draws, prompts, hides, discards, a World fame phase) is pushed
to the queue's front, followed by ``Finish`` (the card goes to the major discard pile, the Tower
to the city). Refusals about a major's effect cite R-MAJ-1 and name the card.
"""

from __future__ import annotations

from itertools import combinations

from scorekeeper.core.text import seat_ref
from scorekeeper.games.arcanum.cards import SUITS, describe, is_minor
from scorekeeper.games.arcanum.locations import hide_step
from scorekeeper.games.arcanum.ops import (
    bump,
    change_rep,
    clockwise,
    fool_can_move,
    gain_vp,
    major_words,
    movable,
    others,
    pawn_words,
    place,
    pop,
    push,
    put,
    swap_head,
)
from scorekeeper.games.arcanum.state import (
    CARD_INDEX,
    PAWN_INDEX,
    TRAY,
    UNSEEN,
    Ask,
    Draw,
    FameBegin,
    Finish,
    Hides,
    JudgePlace,
    JudgeRemove,
    Owe,
    Pawn,
    State,
    Step,
    Sun,
    SwapIn,
    Wheel,
    evolve,
)

RULE = "R-MAJ-1"
PROMPTS = ("family", "empress", "death", "tower", "temperance", "wheel", "sun", "judgement")
PRIVATE = frozenset({"wheel", "temperance", "sun"})

WHEEL_KINDS: dict[str, tuple[int, int]] = {
    "minor+minor": (2, 0),
    "minor+major": (1, 1),
    "major+major": (0, 2),
    "minor": (1, 0),
    "major": (0, 1),
}
"""A Wheel answer -> (minors, majors) passed left."""


def _move(state: State, card: str, ev: list[str]) -> tuple[Step, ...]:
    """Move "as the Fool": a pawn move is awaited, unless no pawn can move."""
    if fool_can_move(state):
        return (Pawn(card),)
    ev.append(f"{major_words(card)}: no pawn can move")
    return ()


def play(state: State, card: str, seat: int, ev: list[str]) -> State:
    """Resolve major ``card`` played by ``seat`` (the AP)."""
    k = int(card[-2:])
    name = major_words(card)
    src = f"major:{card}"  # the VP source (State.vp_sources)
    fin = Finish(card)
    opp = others(state, seat)
    if k == 0:
        return push(state, *_move(state, card, ev), fin)
    if k == 1:
        return push(state, Draw(seat, 2), hide_step(state, seat, 1, RULE, name), fin)
    if k == 2:
        return push(gain_vp(state, seat, 3, ev, name, src), fin)
    if k == 3:
        return push(state, *_move(state, card, ev), Ask("empress", seat), fin)
    if k == 4:
        return push(
            state, hide_step(state, seat, 1, RULE, name), Ask("family", seat, (3, card)), fin
        )
    if k == 5:
        return push(state, Draw(seat, 1, 1), fin)
    if k == 6:
        return push(_lovers(state, seat, ev), fin)
    if k == 7:
        owes = tuple(Owe(s, 1, "", RULE, name) for s in opp)
        return push(state, Ask("family", seat, (2, card)), *owes, fin)
    if k == 8:
        state = gain_vp(state, seat, 2, ev, name, src)
        return push(state, Ask("family", seat, (3, card)), fin)
    if k in (9, 18):
        draws = tuple(Draw(s, 1) for s in clockwise(state, seat)) if k == 18 else ()
        theirs = Hides(
            tuple((s, 1) for s in opp), False, RULE, name, state.cfg.variant != "simplest"
        )
        return push(state, *draws, hide_step(state, seat, 2, RULE, name), theirs, fin)
    if k == 10:
        answers = tuple("-" if state.hand(s) == 0 else "" for s in range(state.n))
        if all(a == "-" for a in answers):
            ev.append(f"{name}: nobody holds a card")
            return push(state, fin)
        return push(state, Wheel(answers), fin)
    if k == 11:
        short = max(0, 4 - state.hand(seat))
        if not short:
            ev.append(f"{name}: {seat_ref(seat)} already holds 4 or more cards")
            return push(state, fin)
        return push(state, Draw(seat, short), fin)
    if k == 12:
        return push(gain_vp(state, seat, -2, ev, name, src), Draw(seat, 2), fin)
    if k == 13:
        if state.minors[seat] == 0:
            ev.append(f"{name}: {seat_ref(seat)} holds no minor to discard")
            return push(state, fin)
        return push(state, Ask("death", seat), fin)
    if k == 14:
        return push(state, *_move(state, card, ev), Ask("temperance", seat), fin)
    if k == 15:
        ev.append(
            f"{name}: every VP {seat_ref(seat)} gains or loses is doubled until the end "
            "of the round"
        )
        return push(evolve(state, devil=seat), fin)
    if k == 16:
        return push(gain_vp(state, seat, 2, ev, name, src), Ask("tower", seat), fin)
    if k == 17:
        return push(gain_vp(state, seat, 2, ev, name, src), Draw(seat, 2), fin)
    if k == 19:
        return _sun(gain_vp(state, seat, 2, ev, name, src), seat, ev, fin)
    if k == 20:
        owes = tuple(Owe(s, 1, "", RULE, name) for s in opp)
        return push(state, *owes, JudgeRemove(seat, 3), fin)
    return push(state, hide_step(state, seat, 1, RULE, name), FameBegin("world"), fin)


def _lovers(state: State, seat: int, ev: list[str]) -> State:
    """VI: the fewest VP (ties count as fewest, G-23) gains 4; else 2 to the AP and to every
    opponent with fewer VP than the AP (scores compared before any gain)."""
    before = state.vp
    name = major_words("major_06")
    src = "major:major_06"
    if before[seat] == min(before):
        return gain_vp(state, seat, 4, ev, f"{name}, fewest VP", src)
    state = gain_vp(state, seat, 2, ev, name, src)
    for s in others(state, seat):
        if before[s] < before[seat]:
            state = gain_vp(state, s, 2, ev, f"{name}, fewer VP than {seat_ref(seat)}", src)
    return state


def _sun(state: State, seat: int, ev: list[str], fin: Finish) -> State:
    """XIX: each opponent reveals 3 hidden cards (its choice), or all when it has 3 or fewer."""
    left = [0] * state.n
    revealed = set(state.revealed)
    for s in others(state, seat):
        face_down = [c for c in state.hidden(s) if c not in revealed]
        if not face_down:
            continue
        if len(face_down) <= 3:
            revealed.update(face_down)
            ev.append(
                f"{seat_ref(s)} reveals {', '.join(describe(c) for c in face_down)} (the Sun)"
            )
        else:
            left[s] = 3
    state = evolve(state, revealed=frozenset(revealed))
    if any(left):
        return push(state, Sun(tuple(left)), fin)
    return push(state, fin)


# --- prompts ----------------------------------------------------------------------------------


def removable(state: State) -> tuple[str, ...]:
    """Pawns Judgement may remove: on the board, not on a blocked location."""
    return tuple(p for p in PAWN_INDEX if movable(state, p))


def wheel_options(state: State, seat: int) -> tuple[str, ...]:
    """What ``seat`` may pass at the Wheel, by kind (only what its hand allows)."""
    m, j = state.minors[seat], state.majors[seat]
    if m + j >= 2:
        return tuple(
            a for a, (mm, jj) in WHEEL_KINDS.items() if mm + jj == 2 and mm <= m and jj <= j
        )
    if m + j == 1:
        return ("minor",) if m else ("major",)
    return ()


def temperance_options(state: State, seat: int) -> tuple[str, ...]:
    """``none``, or one or two hidden minors (``a+b``), as many as the hand's minors allow."""
    hidden = [c for c in state.hidden(seat) if is_minor(c)]
    out = ["none"]
    if state.minors[seat] >= 1:
        out.extend(hidden)
    if state.minors[seat] >= 2:
        out.extend(f"{a}+{b}" for a, b in combinations(hidden, 2))
    return tuple(out)


def sun_options(state: State, seat: int) -> tuple[str, ...]:
    return tuple(c for c in state.hidden(seat) if c not in state.revealed)


def options(state: State, step: Ask) -> tuple[str, ...]:
    """The legal answers to a major's prompt."""
    if step.id == "family":
        return SUITS
    if step.id == "empress":
        return tuple(f"{u}/{d}" for u in SUITS for d in SUITS if u != d)
    if step.id == "death":
        return tuple(str(k) for k in range(1, min(2, state.minors[step.seat]) + 1))
    if step.id == "tower":
        free = tuple(str(k) for k in range(1, 11) if k not in state.blocked)
        return free + (("done",) if state.blocked else ())
    if step.id == "temperance":
        return temperance_options(state, step.seat)
    raise ValueError(step.id)  # pragma: no cover


def question(state: State, step: Ask) -> str:
    """A major prompt's question (names no hidden card)."""
    who = seat_ref(step.seat)
    if step.id == "family":
        amount, card = step.arg
        return f"{major_words(card)}: which family does {who} give +{amount} reputation?"
    if step.id == "empress":
        return (
            f"{major_words('major_03')}: {who} gives +1 reputation to one family and -1 to another"
        )
    if step.id == "death":
        return (
            f"{major_words('major_13')}: how many minors does {who} discard (then draws as "
            "many majors)?"
        )
    if step.id == "tower":
        blocked = ", ".join(place(state, k) for k in sorted(state.blocked)) or "none yet"
        return (
            f"{major_words('major_16')}: which location does it block? One at a time; "
            f"done once at least one is blocked (blocked so far: {blocked})"
        )
    if step.id == "temperance":
        return (
            f"{major_words('major_14')}: which hidden minors does {who} take back (the same "
            "number of minors from the hand are hidden instead)? None, one or two"
        )
    raise ValueError(step.id)  # pragma: no cover


def answer(state: State, step: Ask, choice: str, ev: list[str]) -> State:
    """Apply a legal answer to a major's prompt (``step`` is the queue's head)."""
    a = step.seat
    if step.id == "family":
        amount, card = step.arg
        return pop(change_rep(state, choice, amount, ev, major_words(card)))
    if step.id == "empress":
        up, down = choice.split("/")
        name = major_words("major_03")
        state = change_rep(state, up, 1, ev, name)
        return pop(change_rep(state, down, -1, ev, name))
    if step.id == "death":
        n = int(choice)
        name = major_words("major_13")
        return swap_head(state, Owe(a, n, "minor", RULE, name), Draw(a, 0, n))
    if step.id == "tower":
        if choice == "done":
            return pop(state)
        return block(state, int(choice), ev)
    if step.id == "temperance":
        return _temperance(state, a, choice, ev)
    raise ValueError(step.id)  # pragma: no cover


def block(state: State, loc: int, ev: list[str]) -> State:
    """The Tower blocks ``loc`` (answer or the card seen on ``loc:k``)."""
    state = evolve(state, blocked=state.blocked | {loc})
    ev.append(f"{major_words('major_16')} blocks {place(state, loc)}")
    return pop(state) if len(state.blocked) == 10 else state


def _temperance(state: State, seat: int, choice: str, ev: list[str]) -> State:
    if choice == "none":
        ev.append(f"{seat_ref(seat)} swaps no hidden card")
        return pop(state)
    cards = choice.split("+")
    where = list(state.where)
    for c in cards:
        where[CARD_INDEX[c]] = f"hand:{seat}"
    seen = state.revealed & set(cards)
    state = evolve(
        state,
        where=tuple(where),
        minors=bump(state.minors, seat, len(cards)),
        revealed=state.revealed - seen,
        known=state.known | seen,
    )
    ev.append(
        f"{seat_ref(seat)} takes {len(cards)} hidden card{'s' if len(cards) > 1 else ''} "
        f"back into the hand and hides as many minors from the hand "
        f"({major_words('major_14')})"
    )
    return swap_head(state, SwapIn(seat, len(cards)))


def wheel_answer(state: State, step: Wheel, seat: int, choice: str, ev: list[str]) -> State:
    """``seat`` chose what it passes; when everyone has, the passes happen at once."""
    answers = put(step.answers, seat, choice)
    if "" in answers:
        return swap_head(state, Wheel(answers))
    give = [WHEEL_KINDS.get(a, (0, 0)) for a in answers]
    n = state.n
    minors = tuple(state.minors[s] - give[s][0] + give[(s - 1) % n][0] for s in range(n))
    majors = tuple(state.majors[s] - give[s][1] + give[(s - 1) % n][1] for s in range(n))
    where = tuple(UNSEEN if w.startswith("hand:") else w for w in state.where)
    state = evolve(state, minors=minors, majors=majors, where=where)
    ev.append(f"{major_words('major_10')}: every seat passes its cards to the left neighbour")
    state = pop(state)
    assert state.turn is not None
    owes = tuple(
        Owe(s, state.hand(s) - 7) for s in clockwise(state, state.turn.seat) if state.hand(s) > 7
    )
    return push(state, *owes)


def sun_answer(state: State, step: Sun, seat: int, card: str, ev: list[str]) -> State:
    """``seat`` reveals one hidden card of its choice."""
    state = evolve(state, revealed=state.revealed | {card})
    ev.append(f"{seat_ref(seat)} reveals {describe(card)} (the Sun)")
    left = bump(step.left, seat, -1)
    if not any(left):
        return pop(state)
    return swap_head(state, Sun(left))


def judgement_remove(state: State, step: JudgeRemove, pawn: str, ev: list[str]) -> State:
    """Judgement: ``pawn`` goes to the tray until the next round."""
    state = evolve(state, pawns=put(state.pawns, PAWN_INDEX[pawn], TRAY))
    prev = state.judgement[1] if state.judgement is not None else ()
    state = evolve(state, judgement=(step.seat, prev + (pawn,)))
    ev.append(f"{seat_ref(step.seat)} removes the {pawn_words(pawn)} to the tray (Judgement)")
    if step.left <= 1 or not removable(state):
        return pop(state)
    return swap_head(state, JudgeRemove(step.seat, step.left - 1))


def judgement_place(state: State, step: JudgePlace, pawn: str, loc: int, ev: list[str]) -> State:
    """Start of a round: a removed pawn comes back on an unused location (no icons, no
    effect)."""
    state = evolve(state, pawns=put(state.pawns, PAWN_INDEX[pawn], loc))
    ev.append(
        f"{seat_ref(step.seat)} places the {pawn_words(pawn)} on {place(state, loc)} "
        "(Judgement: no icons, no effect)"
    )
    rest = tuple(p for p in step.pawns if p != pawn)
    if not rest:
        return pop(evolve(state, judgement=None))
    assert state.judgement is not None
    return swap_head(
        evolve(state, judgement=(state.judgement[0], rest)),
        JudgePlace(step.seat, rest, step.used + (loc,)),
    )
