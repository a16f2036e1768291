"""Hand-made Arcana packs and states for the rules modules' tests.

``pack()`` is a complete pack of the 304 ids in the rulebook's counts: the contract's sample
table cards with their values (the Crossbowman, the Funeral, Ayane, the Harlequin, House of
Penitence, the Barhan sword, …) and invented filler in a fixed pattern, so that tests need not
wait for the shipped sample pack. ``state(seats)`` is a table in round 1's intrigue phase.

Guild cards of every guild: ``_01`` … ``_14`` agents, ``_15`` … ``_17`` locations, ``_18`` …
``_20`` relics; letter A: agents 01 … 09, location 15, relic 18 (11 cards), the rest B.
Stakes: 001 … 006 as the contract's table, 007 … 042 locations, 043 … 070 relics, 071 … 116
citizens (every tenth citizen from 080 has no ducat). The first stakes of ``state``: districts
a, b, c, d, n get stake_001 … in order (the Sword, Ayane, the Harlequin, the wand relic, the
wand citizen).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from scorekeeper.games.arcana import zones
from scorekeeper.games.arcana.cards import (
    AGENT,
    ALL_DOMAINS,
    BADGE,
    CITIZEN,
    EVENT,
    EVENTS,
    FIRST_PLAYER,
    FIRST_PLAYER_CARD,
    GUILDS,
    LOCATION,
    MAJOR_ARCANA,
    MASTER,
    OBJECTIVE,
    OBJECTIVES,
    PRINCES_GAMES,
    PRINCES_GAMES_CARD,
    RELIC,
    WATCH,
    WATCH_CARDS,
    Ability,
    Card,
    Effect,
    Pack,
)
from scorekeeper.games.arcana.state import (
    INTRIGUE,
    NEUTRAL,
    District,
    Options,
    Placed,
    Seat,
    State,
    evolve,
)

DOMAINS: tuple[str, ...] = ("Ogrokh", "Kraken Quay", "Old Town")
SEAT_GUILDS: tuple[str, ...] = ("ferrymen", "usurers", "thieves", "blades")
"""The guild of seats 0 … 3 in ``state``."""
FIRST_STAKES: tuple[str, ...] = ("stake_001", "stake_002", "stake_003", "stake_004", "stake_005")

Values = tuple[int | None, int | None, int | None, int | None]


def effect(kind: str, **args: Any) -> Effect:
    """An Effect with its fields sorted (lists become tuples)."""
    fixed = {k: tuple(v) if isinstance(v, list) else v for k, v in args.items()}
    return Effect(kind, tuple(sorted(fixed.items())))


def ability(when: str, *effects: Effect, text: str = "", **conditions: str) -> Ability:
    """An Ability of ``effects`` with its conditions (``if_stake="citizen"``)."""
    return Ability(when, effects, tuple(sorted(conditions.items())), text)


def vals(
    wand: int | None = 0, sword: int | None = 0, chalice: int | None = 0, coin: int | None = None
) -> Values:
    """Card values in ARCANA order (None prints "-")."""
    return (wand, sword, chalice, coin)


# The contract's sample table cards ("The shipped sample pack"), by id.
_NAMED: dict[str, Card] = {
    c.id: c
    for c in (
        Card(
            "ferrymen_01",
            "Merchant of Krak",
            AGENT,
            "ferrymen",
            values=vals(0, 1, 2, 1),
            letter="A",
        ),
        Card("ferrymen_02", "Funeral", AGENT, "ferrymen", values=vals(0, 2, 3, 1), letter="A"),
        Card("ferrymen_03", "Crossbowman", AGENT, "ferrymen", values=vals(0, 3, 0, 1), letter="A"),
        Card(
            "ferrymen_18",
            "Barhan sword",
            RELIC,
            "ferrymen",
            values=vals(0, 0, 0, 4),
            vp=1,
            letter="A",
        ),
        Card("usurers_01", "Pale One", AGENT, "usurers", values=vals(0, 3, 0, 1), letter="A"),
        Card("usurers_02", "Lord Treasurer", AGENT, "usurers", values=vals(6, 0, 0, 2), letter="A"),
        Card("usurers_03", "Necromancer", AGENT, "usurers", values=vals(0, 0, 3, 1), letter="A"),
        Card("blades_01", "Long-staff", AGENT, "blades", values=vals(0, 0, 2, 1), letter="A"),
        Card(
            "blades_15",
            "House of Penitence",
            LOCATION,
            "blades",
            values=vals(1, 0, 2, None),
            vp=1,
            letter="A",
            ability=ability("play", effect("draw_keep", draw=2, keep=1)),
        ),
        Card(
            "stake_001",
            "Sword",
            RELIC,
            domain="Ogrokh",
            values=vals(0, 4, 0, 3),
            majors=("sword",),
            threshold=(("sword", 4),),
            vp=2,
        ),
        Card(
            "stake_002",
            "Ayane",
            CITIZEN,
            domain="Old Town",
            values=vals(2, 5, 1, 7),
            majors=("sword",),
            threshold=(("sword", 5),),
            vp=2,
        ),
        Card(
            "stake_003",
            "Harlequin",
            CITIZEN,
            domain="Kraken Quay",
            values=vals(5, 5, 5, 2),
            majors=("sword", "wand", "chalice"),
            threshold=(("sword", 5), ("wand", 5), ("chalice", 5)),
            vp=2,
            ability=ability("results", effect("copy_agent")),
        ),
        Card(
            "stake_004",
            "Wand of Ash",
            RELIC,
            domain="Ogrokh",
            values=vals(4, 0, 0, 2),
            majors=("wand",),
            threshold=(("wand", 4),),
            vp=1,
        ),
        Card(
            "stake_005",
            "Tomas",
            CITIZEN,
            domain="Kraken Quay",
            values=vals(4, 1, 0, 5),
            majors=("wand",),
            threshold=(("wand", 4),),
            vp=1,
        ),
        Card(
            "stake_006",
            "Dagger of Night",
            RELIC,
            domain="Old Town",
            values=vals(0, 4, 0, 2),
            majors=("sword",),
            threshold=(("sword", 4),),
            vp=1,
        ),
    )
}

_BADGE_TIES: dict[str, dict[str, list[str]]] = {
    "ferrymen": {"arcanum": ["wand"]},
    "thieves": {"stake_type": ["relic"]},
    "blades": {"arcanum": ["sword"]},
    "fortune_tellers": {"arcanum": ["chalice"]},
    "usurers": {"stake_type": ["citizen"]},
    "architects": {"stake_type": ["location"]},
}


def _guild_card(guild: str, k: int) -> Card:
    """Filler guild card ``k`` (1 … 20) of ``guild``."""
    piece = f"{guild}_{k:02d}"
    if piece in _NAMED:
        return _NAMED[piece]
    letter = "A" if k <= 9 or k in (15, 18) else "B"
    name = f"{guild.replace('_', ' ').title()} {k}"
    if k <= 14:
        values = [0, 0, 0, k % 3]
        values[k % 3] = 1 + k % 4
        return Card(piece, f"{name} agent", AGENT, guild, values=vals(*values), letter=letter)
    if k <= 17:
        return Card(
            piece,
            f"{name} house",
            LOCATION,
            guild,
            values=vals(1, 1, 1, None),
            vp=1,
            letter=letter,
            ability=ability("play", effect("draw", n=1)),
        )
    return Card(
        piece, f"{name} relic", RELIC, guild, values=vals(0, 0, 0, k - 16), vp=1, letter=letter
    )


def _stake(i: int) -> Card:
    """Filler stake ``stake_<i>`` (7 … 116)."""
    piece = f"stake_{i:03d}"
    if piece in _NAMED:
        return _NAMED[piece]
    major = MAJOR_ARCANA[i % 3]
    need = 3 + i % 4
    values = [1, 1, 1, None if i >= 80 and i % 10 == 0 else 2 + i % 6]
    values[MAJOR_ARCANA.index(major)] = need
    kind = LOCATION if i <= 42 else RELIC if i <= 70 else CITIZEN
    domain = ALL_DOMAINS if i % 17 == 0 else DOMAINS[i % 3]
    return Card(
        piece,
        f"{kind.title()} {i}",
        kind,
        domain=domain,
        values=vals(*values),
        majors=(major,),
        threshold=((major, need),),
        vp=1 + i % 3,
    )


def _others() -> list[Card]:
    """Badges, watch cards, masters, objectives, events and the two single cards."""
    out = [
        Card(
            f"badge_{g}",
            f"{g.replace('_', '-').title()}' badge",
            BADGE,
            g,
            ability=ability("always", effect("tie_win", **_BADGE_TIES[g])),
        )
        for g in GUILDS
    ]
    for w in WATCH_CARDS:
        captain = w.startswith("captain")
        out.append(
            Card(
                w,
                "Captain" if captain else "Constable",
                WATCH,
                values=vals(2, 3, 2, None) if captain else vals(1, 2, 1, None),
            )
        )
    for g in GUILDS:
        masters = (
            ability("use", effect("draw", n=1)),
            ability("use", effect("add", arcanum="sword", n=1, where="here")),
            ability("use", effect("manual", text="Swap two cards."), text="Swap two cards."),
        )
        for k in (1, 2, 3):
            out.append(
                Card(
                    f"master_{g}_{k}",
                    f"{g.title()} master {k}",
                    MASTER,
                    g,
                    ability=masters[k - 1],
                    once_per_round=k == 1,
                )
            )
    for k, piece in enumerate(OBJECTIVES):
        out.append(
            Card(
                piece,
                f"Objective {k + 1}",
                OBJECTIVE,
                vp=2 + k % 3,
                objective=(DOMAINS[k % 3], 2 + k % 2),
            )
        )
    for k, piece in enumerate(EVENTS):
        out.append(
            Card(
                piece,
                f"Event {k + 1}",
                EVENT,
                ability=ability(
                    "round", effect("add", arcanum=MAJOR_ARCANA[k % 3], n=1, where="neutral")
                ),
            )
        )
    out.append(Card(FIRST_PLAYER_CARD, "First player", FIRST_PLAYER))
    out.append(Card(PRINCES_GAMES_CARD, "Prince's Games", PRINCES_GAMES))
    return out


@cache
def pack() -> Pack:
    """The factory's complete pack (cached: one Pack for every test, as a table shares one)."""
    cards = [_guild_card(g, k) for g in GUILDS for k in range(1, 21)]
    cards += [_stake(i) for i in range(1, 117)]
    cards += _others()
    return Pack(name="factory", sample=False, domains=DOMAINS, cards=tuple(cards))


def starting_cards(guild: str) -> frozenset[str]:
    """The 11 letter-A cards of ``guild`` (a seat's starting deck, R-SETUP-3)."""
    return frozenset(c.id for c in pack().guild_cards(guild, "A"))


def seat(guild: str, **changes: Any) -> Seat:
    """A seat of ``guild`` in round 1 after the draw: hand 4, deck 7, owning its 11 A cards."""
    base = Seat(guild=guild, hand=4, deck=7, owned=starting_cards(guild))
    return Seat(**{**{f: getattr(base, f) for f in Seat.__slots__}, **changes})


def districts(seats: int, stakes: tuple[str, ...] = FIRST_STAKES) -> tuple[District, ...]:
    """The districts at ``seats`` seats (G-1 … G-3), each with its first stake from ``stakes``
    (in order) and 11 cards in its pile (12 under the neutral one: the Prince's Games card)."""
    out = []
    for (did, friends), stake in zip(zones.district_table(seats), stakes, strict=False):
        out.append(District(did, friends, stake, 12 if did == NEUTRAL else 11))
    return tuple(out)


def state(
    seats: int = 2,
    *,
    options: Options | None = None,
    guilds: tuple[str, ...] | None = None,
    seat_changes: dict[int, dict[str, Any]] | None = None,
    agents: dict[str, tuple[Placed, ...]] | None = None,
    **changes: Any,
) -> State:
    """A table of ``seats`` seats in round 1's intrigue phase, seat 0 first and on turn.

    ``guilds`` overrides SEAT_GUILDS; ``seat_changes`` maps a seat to Seat field overrides
    (``{1: {"hand": 0}}``); ``agents`` maps a district id to the cards lying there; any other
    keyword is a State field (``phase=RESULTS``, ``round=3``, ``options=Options(watch=True)``).
    With ``options.watch`` the watch deck holds 6 unless ``watch_deck`` is given.
    """
    opts = options or Options()
    chosen = guilds or SEAT_GUILDS[:seats]
    table = [seat(g, **(seat_changes or {}).get(i, {})) for i, g in enumerate(chosen)]
    places = tuple(
        District(d.id, d.friends, d.stake, d.pile, (agents or {}).get(d.id, ()))
        for d in districts(seats)
    )
    base = State(
        pack=pack(),
        options=opts,
        seats=tuple(table),
        districts=places,
        phase=INTRIGUE,
        round=1,
        first_seat=opts.start_seat,
        active_seat=opts.start_seat,
        watch_deck=6 if opts.watch else 0,
    )
    return evolve(base, **changes) if changes else base


def placed(card: str, owner: int, *, face_up: bool = True, **changes: Any) -> Placed:
    """A card at a district (``relics=("ferrymen_18",)``, ``watch=True``)."""
    return Placed(card, owner, face_up, **changes)
