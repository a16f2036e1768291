"""The fame phase (R-FAME): regular at the end of a fame round, or the World's special phase.

Families are revealed in row order (R-FAME-2/3), each after the table answers ``fame reveal``.
The referee knows every hidden card (it read them when they were hidden), so a reveal shows
them and pays the awards (``fame.score_family``). The seat that hid the Fool may assign it to a
family not yet scored with the private prompt ``fool``; unassigned, it counts for the last
family (R-FAME-4, G-9). A regular phase then resets reputation and discards the revealed cards
(R-FAME-10); the World's leaves both (R-FAME-11). The Sun's reveals end either way.

The discarded cards are on their piles for the referee at once, but the table carries them
there afterwards, maybe after the next round's automatic draws have shuffled a pile into a new
deck. ``State.carry`` remembers them until they are seen arriving (see ``sightings``).
"""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.core.text import seat_ref
from scorekeeper.games.arcanum import fame
from scorekeeper.games.arcanum.cards import FOOL, SUITS, describe, is_minor, suit_of, value_of
from scorekeeper.games.arcanum.ops import credit, doubled, fam, pop, push, put
from scorekeeper.games.arcanum.reputation import START
from scorekeeper.games.arcanum.state import (
    CARD_INDEX,
    FAME,
    MAJOR_PILE,
    MINOR_PILE,
    PLAY,
    FameRecord,
    FameState,
    FameWait,
    FamilyRecord,
    State,
    evolve,
)

RULE = "R-FAME-4"


def title(kind: str) -> str:
    return "Fame phase" if kind == "regular" else "The World's fame phase"


def begin(state: State, kind: str, ev: list[str]) -> State:
    """Start a fame phase: rows from the reputation now (R-FAME-2), scoring order (R-FAME-3)."""
    rows = fame.rows(state.rep)
    order = fame.order(rows)
    listing = ", ".join(f"{fam(f)} row {rows[f]}" for f in order)
    halved = " (awards halved, reputation stays)" if kind == "world" else ""
    ev.append(f"{title(kind)}{halved}: {listing}")
    fs = FameState(kind, tuple(rows[f] for f in SUITS), order)
    return push(evolve(state, fame=fs, phase=FAME), FameWait())


def fool_holder(state: State) -> int | None:
    """The seat that has the Fool on its hide strip, or None."""
    loc = state.loc_of(FOOL)
    return int(loc[5:]) if loc.startswith("hide:") else None


def fool_options(state: State) -> tuple[str, ...]:
    """Families the Fool may still be assigned to (those not yet scored)."""
    assert state.fame is not None
    return state.fame.order[len(state.fame.scored) :]


def next_family(state: State) -> tuple[str, int]:
    """The family revealed next and its row."""
    fs = state.fame
    assert fs is not None
    family = fs.order[len(fs.scored)]
    return family, fs.rows[SUITS.index(family)]


def assign(state: State, family: str) -> State:
    """The Fool's holder assigns it (private: no feed line)."""
    assert state.fame is not None
    return evolve(state, fame=replace(state.fame, fool=family))


def reveal(state: State, ev: list[str]) -> State:
    """Reveal the next family's hidden cards and pay its awards; after the fourth, clean up."""
    fs = state.fame
    assert fs is not None
    family, row = next_family(state)
    last = len(fs.scored) == len(SUITS) - 1
    holder = fool_holder(state)
    fool_here = holder is not None and (fs.fool == family or (last and fs.fool is None))
    cards: list[tuple[str, ...]] = []
    for s in range(state.n):
        mine = [c for c in state.hidden(s) if is_minor(c) and suit_of(c) == family]
        if fool_here and s == holder:
            mine.append(FOOL)
        cards.append(tuple(mine))
    holdings = {s: [value_of(c) for c in cs] for s, cs in enumerate(cards) if cs}
    result = fame.score_family(
        family, row, holdings, world=fs.kind == "world", split=state.cfg.split
    )
    vp = state.vp
    sources = state.vp_sources
    source = f"{'world' if fs.kind == 'world' else 'fame'}:{family}"
    awards = [0] * state.n
    for s, award in result.awards.items():
        if award:
            got = award * 2 if doubled(state, s) else award
            awards[s] = got
            vp = put(vp, s, vp[s] + got)
            sources = credit(sources, state.n, s, source, got)
    shown = (
        "; ".join(
            f"{seat_ref(s)} reveals {', '.join(describe(c) for c in cs)}"
            for s, cs in enumerate(cards)
            if cs
        )
        or "nobody has a card of it"
    )
    if fool_here:
        shown += f" (the Fool counts for {fam(family)})"
    paid = (
        ", ".join(
            f"{seat_ref(s)} +{awards[s]} VP"
            + (" (doubled by the Devil)" if doubled(state, s) else "")
            for group in result.places
            for s in group
            if awards[s]
        )
        or "no awards"
    )
    ev.append(f"{title(fs.kind)}, {fam(family)} row {row}: {shown}; {paid}")
    record = FamilyRecord(family, row, tuple(cards), result.places, tuple(awards))
    fs = replace(fs, scored=fs.scored + (record,))
    state = evolve(state, vp=vp, vp_sources=sources, fame=fs)
    return _finish(state, ev) if last else state


def _finish(state: State, ev: list[str]) -> State:
    """All four families are scored: history, then cleanup (R-FAME-10) or not (R-FAME-11)."""
    fs = state.fame
    assert fs is not None
    totals = tuple(sum(r.awards[s] for r in fs.scored) for s in range(state.n))
    record = FameRecord(state.round, fs.kind, fs.rows, fs.scored, totals)
    state = evolve(state, history=state.history + (record,), fame=None)
    summary = ", ".join(f"{seat_ref(s)} +{t}" for s, t in enumerate(totals))
    hidden = {c for s in range(state.n) for c in state.hidden(s)}
    if fs.kind == "world":
        ev.append(
            f"{title(fs.kind)} is over ({summary}): reputation stays and the cards go back "
            "under the board face down"
        )
        state = evolve(
            state, phase=PLAY, revealed=frozenset(), known=state.known | frozenset(hidden)
        )
        return pop(state)
    where = list(state.where)
    minors = list(state.pile_minor)
    majors = list(state.pile_major)
    for s in range(state.n):
        for c in state.hidden(s):
            if is_minor(c):
                where[CARD_INDEX[c]] = MINOR_PILE
                minors.append(c)
            else:
                where[CARD_INDEX[c]] = MAJOR_PILE
                majors.append(c)
    ev.append(
        f"{title(fs.kind)} is over ({summary}): every reputation goes back to 0 and the "
        "revealed cards go to the discard piles"
    )
    state = evolve(
        state,
        where=tuple(where),
        pile_minor=tuple(minors),
        pile_major=tuple(majors),
        rep=START,
        revealed=frozenset(),
        known=state.known - frozenset(hidden),
        carry=frozenset(hidden) - fs.carried,
    )
    return pop(state)


def carried_early(state: State, card: str) -> State:
    """A revealed ``card`` is seen on its discard pile before the regular phase is over: the
    cleanup puts it there, and it is not waited for afterwards (``State.carry``)."""
    assert state.fame is not None
    if card in state.fame.carried:
        return state
    return evolve(state, fame=replace(state.fame, carried=state.fame.carried | {card}))


def carry_done(state: State, card: str) -> State:
    """A card of ``State.carry`` has been seen off its strip: it is no longer waited for."""
    return evolve(state, carry=state.carry - {card})


def shown_now(state: State) -> frozenset[str]:
    """Hidden cards the current fame phase has already revealed (public)."""
    fs = state.fame
    if fs is None:
        return frozenset()
    return frozenset(c for r in fs.scored for cs in r.cards for c in cs)
