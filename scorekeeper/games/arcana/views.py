"""What each audience may see of an Arcana table (filtered here and nowhere else;
docs/games/arcana.md, "The views").

Public: the districts (stakes, pile counts, every agent in the order laid, a face-down one as
a back: ``card`` and ``name`` null), the seats (counts, set-aside stakes, masters, public VP
G-36), events, the watch deck, the district under way, the history, and at the end every
seat's score by source and objectives. A seat's own view adds to its entry its face-down
agents, the cards known in its hand (G-37), what its deck and hand hold together, its discard
pile, its objectives with their progress and its exact VP, shows its own face-down agents at
the districts and gives each district's provisional ``sums``; the organiser's adds all of it
for every seat. Every card comes with its ``name`` from the pack: the dashboard prints words.

Hazard: the public view and another seat's may carry nothing computed from a secret piece
(privacy.secrets): a face-down agent's card, values or sum, a hand, an objective, exact VP.
Agents at the district under way are revealed (G-9) and shown to everyone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from scorekeeper.games.arcana import prompts, scoring, words
from scorekeeper.games.arcana.cards import ARCANA, PRINCES_GAMES_CARD, Pack
from scorekeeper.games.arcana.names import card_name, district_words, guild_words
from scorekeeper.games.arcana.objectives import completed, progress
from scorekeeper.games.arcana.privacy import locate
from scorekeeper.games.arcana.state import (
    OVER,
    RESULTS,
    District,
    DistrictResult,
    Placed,
    State,
)

Shown = Callable[[Placed], bool]
"""Whether an audience sees a placed card's face."""


def card_entry(pack: Pack, piece: str) -> dict[str, Any]:
    """``{card, name}``: a card's id and its name from the pack."""
    return {"card": piece, "name": card_name(pack, piece)}


def stake_entry(state: State, piece: str | None) -> dict[str, Any] | None:
    """A face-up stake: ``{card, name, type, majors, threshold, ducat}`` (the Prince's Games
    card has no majors), None without one."""
    if not piece:
        return None
    card = state.card(piece)
    return {
        "card": piece,
        "name": card_name(state.pack, piece),
        "type": card.type if card is not None else "",
        "majors": list(card.majors) if card is not None else [],
        "threshold": dict(card.threshold) if card is not None else {},
        "ducat": card.ducat if card is not None and piece != PRINCES_GAMES_CARD else None,
    }


def _under_way(state: State) -> str:
    return state.resolution.district if state.resolution is not None else ""


def values_of(state: State, piece: str) -> dict[str, int | None]:
    """A card's printed ``{wand, sword, chalice, coin}`` (None for a value it lacks)."""
    card = state.card(piece)
    values = card.values if card is not None else (None,) * 4
    return dict(zip(ARCANA, values, strict=True))


def _agent(state: State, placed: Placed, shown: bool) -> dict[str, Any]:
    """An agent at a district as ``shown`` to the audience: a back (``card``, ``name`` and
    ``values`` None) unless the audience may see its face (so the dashboard can print it)."""
    return {
        "card": placed.card if shown else None,
        "name": card_name(state.pack, placed.card) if shown else None,
        "values": values_of(state, placed.card) if shown else None,
        "owner": placed.owner,
        "face": "up" if placed.face_up else "down",
        "relics": [card_entry(state.pack, r) for r in placed.relics],
        "watch": placed.watch,
    }


def _sums(state: State, district: District, shown: Shown) -> dict[str, dict[str, int]]:
    """Each seat with a card ``shown`` at the district: its printed values there in each of
    the stake's majors, by seat number (a Harlequin's copy and ``add`` effects come with the
    result, ``results.sums``)."""
    card = state.card(district.stake) if district.stake else None
    majors = card.majors if card is not None else ()
    out: dict[str, dict[str, int]] = {}
    for placed in district.agents:
        if not shown(placed):
            continue
        mine = out.setdefault(str(placed.owner), dict.fromkeys(majors, 0))
        agent = state.card(placed.card)
        for arcanum in majors:
            mine[arcanum] += agent.value(arcanum) if agent is not None else 0
    return out


def _district(state: State, district: District, shown: Shown, own: bool) -> dict[str, Any]:
    """A district as an audience sees it; ``own``: with the provisional ``sums`` of what the
    audience sees (a seat's own view, the organiser's)."""
    out: dict[str, Any] = {
        "id": district.id,
        "name": district_words(district.id),
        "friends": list(district.friends),
        "stake": stake_entry(state, district.stake),
        "pile": district.pile,
        "empty": district.empty,
        "awaiting": district.awaiting,
        "agents": [_agent(state, p, shown(p)) for p in district.agents],
        "sums_seen": _sums(state, district, lambda p: p.face_up or _revealed(state, district)),
        "resolved": district.resolved,
    }
    if own:
        out["sums"] = _sums(state, district, shown)
    return out


def _revealed(state: State, district: District) -> bool:
    """Whether every card at ``district`` is revealed: it is being resolved (G-9)."""
    return district.id == _under_way(state)


def _seat(state: State, s: int) -> dict[str, Any]:
    seat = state.seats[s]
    pack = state.pack
    master = None
    if seat.master:
        master = {**card_entry(pack, seat.master), "used": seat.master_used}
    return {
        "seat": s,
        "guild": seat.guild,
        "guild_name": guild_words(seat.guild),
        "hand": seat.hand,
        "deck": seat.deck,
        "discard": len(seat.discard),
        "discard_top": card_entry(pack, seat.discard[-1]) if seat.discard else None,
        "set_aside": [card_entry(pack, p) for p in seat.set_aside],
        "master": master,
        "objectives": len(seat.objectives),
        "vp": scoring.public_vp(state, s),
        "stakes": scoring.stakes_owned(state, s),
    }


def _objectives(state: State, s: int, stakes: list[str]) -> list[dict[str, Any]]:
    """A seat's kept objectives with how far each is met: ``have`` of ``need`` stakes that
    could count, ``met`` when the best assignment completes it (G-23)."""
    seat = state.seats[s]
    done = set(completed(state.pack, seat.objectives, stakes))
    out = []
    for piece in seat.objectives:
        have, need = progress(state.pack, piece, stakes)
        card = state.card(piece)
        domain = card.objective[0] if card is not None and card.objective else ""
        out.append(
            {
                **card_entry(state.pack, piece),
                "domain": domain,
                "have": have,
                "need": need,
                "met": piece in done,
            }
        )
    return out


def _counted_stakes(state: State, s: int) -> list[str]:
    """The stakes a seat's objectives count now: those it owns that lie in its deck, hand or
    discard pile, and those under its badge (G-23, G-27)."""
    seat = state.seats[s]
    there = scoring.at_districts(state)
    home = [p for p in seat.owned if scoring.is_stake(p) and p not in there]
    if state.options.leftovers == "returned":
        home += [p for p in seat.owned if scoring.is_stake(p) and p in there]
    return sorted(set(home) | set(seat.set_aside))


def _private(state: State, s: int, entry: dict[str, Any]) -> None:
    """Add to a seat's entry what only that seat (and the organiser) may see."""
    seat = state.seats[s]
    pack = state.pack
    face_down = []
    for district in state.districts:
        for placed in district.agents:
            if placed.owner == s and not placed.face_up:
                face_down.append(
                    {
                        "district": district.id,
                        **card_entry(pack, placed.card),
                        "values": values_of(state, placed.card),
                        "watch": placed.watch,
                    }
                )
    # Deck and hand together: what it owns that lies nowhere the referee sees (G-37).
    owned = [
        c.id
        for c in pack.cards
        if c.id in seat.owned and c.id not in seat.returned and locate(state, c.id) == ""
    ]
    entry.update(
        face_down=face_down,
        hand_known=[card_entry(pack, p) for p in sorted(seat.hand_known)],
        owned=[card_entry(pack, p) for p in owned],
        discard_cards=[card_entry(pack, p) for p in seat.discard],
        objectives=_objectives(state, s, _counted_stakes(state, s)),
        vp=scoring.vp_now(state, s),
    )


def _final(state: State, seats: list[dict[str, Any]]) -> None:
    """At the end: every seat's score by source and its objectives, shown to everyone."""
    for score in scoring.final(state):
        entry = seats[score.seat]
        entry.update(vp=score.vp, stakes=score.stakes, vp_sources=dict(score.vp_sources))
        done = set(score.objectives)
        entry["objectives"] = [
            {**card_entry(state.pack, p), "met": p in done}
            for p in state.seats[score.seat].objectives
        ]


def _results(state: State) -> dict[str, Any] | None:
    """The district under way: what was declared and copied, the sums once every answer is
    in, and the winner with the reason once it is settled."""
    res = state.resolution
    if state.phase != RESULTS or res is None:
        return None
    declared = dict(res.declared)
    copies = dict(res.copies)
    sums = None
    if not prompts.results_prompts(state) and not any(
        s.kind in ("declare", "copy") for s in state.steps
    ):
        from scorekeeper.games.arcana.sums import district_sums

        sums = {str(s): v for s, v in district_sums(state, res.district, declared, copies).items()}
    last = state.history[-1] if state.history else None
    done = last is not None and last.district == res.district and last.round == state.round
    return {
        "district": res.district,
        "declared": {str(s): a for s, a in res.declared},
        "copies": {
            c: {"card": t, "name": card_name(state.pack, t) if t else ""} for c, t in copies.items()
        },
        "sums": {str(s): v for s, v in last.sums} if done and last is not None else sums,
        "winner": last.winner if done and last is not None else None,
        "reason": last.reason if done and last is not None else "",
    }


def _history(state: State) -> list[dict[str, Any]]:
    return [_result(state.pack, h) for h in state.history]


def _result(pack: Pack, h: DistrictResult) -> dict[str, Any]:
    """One history entry in view form; kept by identity, since a result never changes once
    written and every view of every later state repeats it (each caller gets its own copy)."""
    kept = _RESULTS.get(id(h))
    if kept is None or kept[0] is not h or kept[1] is not pack:
        made: dict[str, Any] = {
            "round": h.round,
            "district": h.district,
            "stake": card_entry(pack, h.stake),
            "arcana": {str(s): a for s, a in h.arcana},
            "sums": {str(s): v for s, v in h.sums},
            "winner": h.winner,
            "reason": h.reason,
            "immediate": h.immediate,
        }
        kept = _RESULTS[id(h)] = (h, pack, made)
        if len(_RESULTS) > 4096:
            del _RESULTS[next(iter(_RESULTS))]
    entry = kept[2]
    return {
        **entry,
        "stake": dict(entry["stake"]),
        "arcana": dict(entry["arcana"]),
        "sums": dict(entry["sums"]),
    }


_RESULTS: dict[int, tuple[DistrictResult, Pack, dict[str, Any]]] = {}


def _events(state: State) -> dict[str, Any] | None:
    ev = state.events
    if not state.options.events or ev is None:
        return None

    def one(piece: str) -> dict[str, Any] | None:
        if not piece:
            return None
        card = state.card(piece)
        about = words.ability_words(card.ability) if card is not None else ""
        return {**card_entry(state.pack, piece), "about": about}

    return {"now": one(ev.now), "next": one(ev.next), "left": ev.left}


def _active(state: State) -> int:
    """The actor; in the results phase the seat the first prompt waits for (the first player
    while none does)."""
    if state.phase != RESULTS:
        return state.active_seat
    waiting = [p.seat for p in prompts.pending(state) if p.seat is not None]
    return waiting[0] if waiting else state.first_seat


def _answers(state: State, audience: int | str) -> dict[str, dict[str, str]]:
    """The words of every answer of the prompts ``audience`` may see, by prompt and answer
    (a private prompt only for its seat and the organiser)."""
    out: dict[str, dict[str, str]] = {}
    for prompt in prompts.pending(state):
        if prompt.private and audience not in ("organiser", prompt.seat):
            continue
        out[prompt.id] = {a: words.answer_words(prompt.id, a, state) for a in prompt.options}
    return out


def _build(state: State, audience: int | str) -> dict[str, Any]:
    """The view of ``audience``: "public", "organiser" or a seat number."""
    everything = audience == "organiser"

    def shown(placed: Placed) -> bool:
        return placed.face_up or everything or placed.owner == audience

    def sees(district: District) -> Shown:
        return (lambda p: True) if _revealed(state, district) else shown

    seats = [_seat(state, s) for s in range(len(state.seats))]
    for s, entry in enumerate(seats):
        if everything or s == audience:
            _private(state, s, entry)
    over = state.phase == OVER
    if over:
        _final(state, seats)
    return {
        "phase": state.phase,
        "round": state.round,
        "final_round": state.final_round,
        "first_seat": state.first_seat,
        "active_seat": _active(state),
        "pack": {"name": state.pack.name, "sample": state.pack.sample},
        "districts": [_district(state, d, sees(d), audience != "public") for d in state.districts],
        "seats": seats,
        "events": _events(state),
        "watch_deck": state.watch_deck if state.options.watch else None,
        "results": _results(state),
        "history": _history(state),
        "winners": list(state.winners),
        "over": over,
        "options": dict(state.options.raw),
        "answer_words": _answers(state, audience),
    }


def public(state: State) -> dict[str, Any]:
    """The view safe for the TV and spectators."""
    return _build(state, "public")


def seat_view(state: State, seat: int) -> dict[str, Any]:
    """The public view plus what ``seat`` alone may know."""
    return _build(state, seat)


def organiser(state: State) -> dict[str, Any]:
    """Everything: every seat's private additions and every face-down card."""
    return _build(state, "organiser")


def view(state: State, audience: int | str) -> dict[str, Any]:
    """The view of ``audience`` ("public", "organiser" or a seat number); ValueError for an
    audience that is no one at this table (never a fuller view by mistake)."""
    if audience in ("public", "organiser"):
        return _build(state, audience)
    seat = isinstance(audience, int) and not isinstance(audience, bool)
    if seat and 0 <= int(audience) < len(state.seats):
        return _build(state, audience)
    raise ValueError(f"unknown audience {audience!r}")
