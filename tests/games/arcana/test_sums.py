"""Arcana's sums at a district (R-RES-2, R-MULTI, R-HARL-1, G-11, G-16, G-17, the `add`
effect) and a briber's S (R-BRIBE-3, G-13, `bribe_bonus`, G-17's option), on the rulebook's
examples T-1, T-2, T-3, T-4, T-6 and T-7.

The small hand-made pack and ``table`` here are shared by test_ties, test_objectives and
test_scoring: the rulebook's example cards with the contract's sample values.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from scorekeeper.games.arcana import sums
from scorekeeper.games.arcana.cards import (
    AGENT,
    BADGE,
    CITIZEN,
    EVENT,
    LOCATION,
    MASTER,
    OBJECTIVE,
    RELIC,
    WATCH,
    Ability,
    Card,
    Effect,
    Pack,
)
from scorekeeper.games.arcana.state import (
    RESULTS,
    District,
    Events,
    Options,
    Placed,
    Seat,
    State,
)

DOMAINS = ("Ogrokh", "Old Town", "Kraken Quay")


def eff(kind: str, **args: Any) -> Effect:
    """An Effect with its fields sorted, lists as tuples."""
    fixed = {k: tuple(v) if isinstance(v, list) else v for k, v in args.items()}
    return Effect(kind, tuple(sorted(fixed.items())))


def ab(when: str, *effects: Effect, **conditions: str) -> Ability:
    """An Ability of ``effects`` narrowed by ``conditions`` (``if_stake="citizen"``)."""
    return Ability(when, effects, tuple(sorted(conditions.items())))


def v(wand: int = 0, sword: int = 0, chalice: int = 0, coin: int | None = None) -> Any:
    """Values in ARCANA order."""
    return (wand, sword, chalice, coin)


def stake(
    piece: str, name: str, kind: str, major: dict[str, int], domain: str = "Ogrokh", **kw: Any
) -> Card:
    """A stake card whose majors print their thresholds."""
    values = [0, 0, 0, kw.pop("coin", None)]
    for arcanum, value in major.items():
        values[("wand", "sword", "chalice").index(arcanum)] = value
    return Card(
        piece,
        name,
        kind,
        domain=domain,
        values=tuple(values),
        majors=tuple(major),
        threshold=tuple(major.items()),
        **kw,
    )


@cache
def pack(harlequin: int = 5) -> Pack:
    """The rulebook's example cards (the contract's sample values), a few more for ties,
    objectives and abilities; the Harlequin's threshold is ``harlequin`` in each arcanum."""
    cards = [
        Card(
            "ferrymen_01", "Merchant of Krak", AGENT, "ferrymen", values=v(0, 1, 2, 1), letter="A"
        ),
        Card("ferrymen_02", "Funeral", AGENT, "ferrymen", values=v(0, 2, 3, 1), letter="A", vp=1),
        Card("ferrymen_03", "Crossbowman", AGENT, "ferrymen", values=v(0, 3, 0, 1), letter="A"),
        Card("ferrymen_04", "Oarsman", AGENT, "ferrymen", values=v(4, 0, 0, 1), letter="A"),
        Card(
            "ferrymen_05",
            "Drummer",
            AGENT,
            "ferrymen",
            values=v(0, 1, 0, 1),
            letter="B",
            vp=2,
            ability=ab("agent", eff("add", arcanum="sword", n=2, where="here")),
        ),
        Card(
            "ferrymen_06",
            "Pilot",
            AGENT,
            "ferrymen",
            values=v(1, 1, 1, 1),
            letter="B",
            ability=ab("agent", eff("tie_win", arcanum=["chalice"])),
        ),
        Card("ferrymen_15", "Quay", LOCATION, "ferrymen", values=v(1, 1, 1), letter="A", vp=1),
        Card("ferrymen_18", "Barhan sword", RELIC, "ferrymen", values=v(0, 0, 0, 4), letter="A"),
        Card(
            "ferrymen_19",
            "Rusty key",
            RELIC,
            "ferrymen",
            values=v(0, 0, 0, 3),
            letter="B",
            vp=1,
        ),
        Card("usurers_01", "Pale One", AGENT, "usurers", values=v(0, 3, 0, 1), letter="A"),
        Card("usurers_02", "Lord Treasurer", AGENT, "usurers", values=v(6, 0, 0, 2), letter="A"),
        Card("usurers_03", "Necromancer", AGENT, "usurers", values=v(0, 0, 3, 1), letter="A"),
        Card("usurers_04", "Moneylender", AGENT, "usurers", values=v(4, 5, 0, 1), letter="A"),
        Card("thieves_01", "Cutpurse", AGENT, "thieves", values=v(4, 0, 0, 1), letter="A"),
        Card("thieves_02", "Smuggler", AGENT, "thieves", values=v(0, 4, 0, 1), letter="A"),
        Card("blades_01", "Long-staff", AGENT, "blades", values=v(0, 0, 2, 1), letter="A"),
        stake("stake_001", "Sword", RELIC, {"sword": 4}, vp=2, coin=3),
        stake("stake_002", "Ayane", CITIZEN, {"sword": 5}, "Old Town", vp=2, coin=7),
        stake(
            "stake_003",
            "Harlequin",
            CITIZEN,
            {"sword": harlequin, "wand": harlequin, "chalice": harlequin},
            "Kraken Quay",
            vp=2,
            coin=2,
            ability=ab("results", eff("copy_agent")),
        ),
        stake("stake_004", "Wand of Ash", RELIC, {"wand": 4}, vp=1, coin=2),
        stake("stake_005", "Tomas", CITIZEN, {"wand": 4}, "Kraken Quay", vp=1, coin=5),
        stake("stake_006", "Dagger of Night", RELIC, {"sword": 4}, "Old Town", vp=1, coin=2),
        stake("stake_007", "Chapel", LOCATION, {"chalice": 4}, vp=3),
        stake("stake_008", "Gardens", LOCATION, {"chalice": 3}, "all", vp=1),
        stake("stake_009", "Map of all roads", RELIC, {"wand": 3}, "all", vp=1),
        stake("stake_010", "Boatwright", CITIZEN, {"sword": 3}, "Old Town", vp=2, coin=4),
        Card(
            "badge_ferrymen",
            "Ferrymen's badge",
            BADGE,
            "ferrymen",
            ability=ab("always", eff("tie_win", arcanum=["wand"])),
        ),
        Card(
            "badge_thieves",
            "Thieves' badge",
            BADGE,
            "thieves",
            ability=ab("always", eff("tie_win", stake_type=["relic"])),
        ),
        Card(
            "badge_usurers",
            "Usurers' badge",
            BADGE,
            "usurers",
            ability=ab("always", eff("bribe_bonus", n=1), if_stake="citizen"),
        ),
        Card("badge_blades", "Blades' badge", BADGE, "blades"),
        Card("constable_1", "Constable", WATCH, values=v(1, 2, 1)),
        Card(
            "master_blades_1",
            "Master of Blades",
            MASTER,
            "blades",
            ability=ab("always", eff("tie_win", arcanum=["chalice"])),
        ),
        Card(
            "event_01",
            "Parade",
            EVENT,
            ability=ab("round", eff("add", arcanum="sword", n=1, where="neutral")),
        ),
        Card(
            "event_02",
            "Feast",
            EVENT,
            ability=ab("round", eff("add", n=2, where="any"), if_stake="citizen"),
        ),
        Card("event_03", "Duel", EVENT, ability=ab("round", eff("tie_win"))),
        Card("event_04", "Tax day", EVENT, ability=ab("round", eff("bribe_bonus", n=2))),
        Card("objective_01", "Blood gardens", OBJECTIVE, vp=4, objective=("Ogrokh", 3)),
        Card("objective_02", "Old quarter", OBJECTIVE, vp=3, objective=("Old Town", 2)),
        Card("objective_03", "The docks", OBJECTIVE, vp=3, objective=("Kraken Quay", 1)),
        Card("objective_04", "Anywhere", OBJECTIVE, vp=2, objective=("all", 2)),
    ]
    return Pack(name="test", sample=False, domains=DOMAINS, cards=tuple(cards))


FRIENDS = {
    2: {"a": (0,), "b": (0,), "c": (1,), "d": (1,), "n": ()},
    3: {"a": (0, 1), "b": (1, 2), "c": (2, 0), "n": ()},
}


def table(
    guilds: tuple[str, ...] = ("ferrymen", "usurers"),
    *,
    stakes: dict[str, str] | None = None,
    agents: dict[str, tuple[Placed, ...]] | None = None,
    harlequin: int = 5,
    options: Options | None = None,
    seats: dict[int, dict[str, Any]] | None = None,
    event: str = "",
) -> State:
    """A table in the results phase: one seat per guild (2 or 3), each district's stake from
    ``stakes`` (else the Sword), the cards at each district from ``agents``; ``seats`` gives
    Seat fields per seat; ``event`` the event in effect."""
    districts = tuple(
        District(
            did,
            friends,
            (stakes or {}).get(did, "stake_001"),
            5,
            (agents or {}).get(did, ()),
        )
        for did, friends in FRIENDS[len(guilds)].items()
    )
    return State(
        pack=pack(harlequin),
        options=options or Options(),
        seats=tuple(Seat(guild=g, **(seats or {}).get(i, {})) for i, g in enumerate(guilds)),
        districts=districts,
        phase=RESULTS,
        round=1,
        events=Events(now=event) if event else None,
    )


def at(card: str, owner: int, *relics: str, watch: bool = False) -> Placed:
    """A face-up card at a district with ``relics`` laid on it."""
    return Placed(card, owner, True, relics=relics, watch=watch)


def results(
    state: State,
    did: str,
    declared: dict[int, str] | None = None,
    copies: dict[str, str] | None = None,
) -> dict[int, int]:
    """``sums.district_sums`` with empty declarations and copies by default."""
    return sums.district_sums(state, did, declared or {}, copies or {})


T1 = (at("ferrymen_03", 0), at("ferrymen_02", 0), at("usurers_01", 1))


def test_t1_each_seat_sums_its_agents_in_the_stakes_major() -> None:
    state = table(agents={"c": T1})
    assert results(state, "c") == {0: 5, 1: 3}
    assert sums.counted_arcana(state, "c", {}) == {0: "sword", 1: "sword"}
    assert sums.thresholds(state, "c", {}) == {0: 4, 1: 4}
    assert sums.seats_at(state, "c") == (0, 1)
    # T-2: without the Crossbowman
    assert results(table(agents={"c": T1[1:]}), "c") == {0: 2, 1: 3}
    # a district with no agents has no sums
    assert results(state, "a") == {}


def test_only_the_major_counts_and_relics_add_nothing() -> None:
    # Funeral's chalice 3 and Merchant's chalice 2 do not count at a sword stake; the Barhan
    # sword on Funeral adds nothing (G-16); the watch card counts as an agent (R-OPT-D-3)
    cards = (
        at("ferrymen_02", 0, "ferrymen_18"),
        at("ferrymen_01", 0),
        at("constable_1", 1, watch=True),
    )
    assert results(table(agents={"a": cards}), "a") == {0: 3, 1: 2}


def test_t6_declared_arcana_and_thresholds_g11() -> None:
    cards = (at("ferrymen_02", 0), at("ferrymen_01", 0), at("usurers_02", 1))
    state = table(stakes={"a": "stake_003"}, agents={"a": cards}, harlequin=6)
    declared = {0: "chalice", 1: "wand"}
    assert results(state, "a", declared) == {0: 5, 1: 6}
    assert sums.thresholds(state, "a", declared) == {0: 6, 1: 6}
    # undeclared, "none" and an arcanum the stake lacks: 0 and no threshold
    for bad in ({}, {0: "none", 1: "none"}, {0: "coin", 1: "coin"}):
        assert results(state, "a", bad) == {0: 0, 1: 0}
        assert sums.thresholds(state, "a", bad) == {}


def test_t7_the_harlequin_copies_an_agent_at_its_district() -> None:
    cards = (at("stake_003", 1), at("usurers_03", 1), at("blades_01", 0))
    state = table(("blades", "usurers"), stakes={"b": "stake_007"}, agents={"b": cards})
    assert results(state, "b", copies={"stake_003": "usurers_03"}) == {0: 2, 1: 6}
    # another seat's agent (G-17)
    assert results(state, "b", copies={"stake_003": "blades_01"}) == {0: 2, 1: 5}
    # nothing named, itself, or a card elsewhere: 0
    for target in ("", "stake_003", "ferrymen_02"):
        assert results(state, "b", copies={"stake_003": target}) == {0: 2, 1: 3}


def test_a_harlequin_alone_counts_0_and_may_copy_a_watch_card() -> None:
    alone = table(agents={"a": (at("stake_003", 0),)})
    assert results(alone, "a", copies={"stake_003": ""}) == {0: 0}
    assert results(alone, "a") == {0: 0}
    watch = (at("stake_003", 0), at("constable_1", 1, watch=True))
    state = table(agents={"a": watch})
    assert results(state, "a", copies={"stake_003": "constable_1"}) == {0: 2, 1: 2}


def test_add_effects_of_agents_and_of_the_event_in_effect() -> None:
    drummer = (at("ferrymen_05", 0), at("usurers_01", 1))
    # the Drummer adds 2 in sword where it lies, for its owner only
    assert results(table(agents={"a": drummer}), "a") == {0: 3, 1: 3}
    chalice = table(stakes={"a": "stake_007"}, agents={"a": drummer})
    assert results(chalice, "a") == {0: 0, 1: 0}
    # the Parade adds 1 in sword to every seat there, at the neutral district only
    paraded = table(agents={"a": drummer, "n": drummer}, event="event_01")
    assert results(paraded, "n") == {0: 4, 1: 4}
    assert results(paraded, "a") == {0: 3, 1: 3}
    # the Feast adds 2 in any arcanum, only where the stake is a citizen (if_stake)
    feast = table(stakes={"a": "stake_005"}, agents={"a": drummer, "b": drummer}, event="event_02")
    assert results(feast, "a") == {0: 2, 1: 2}
    assert results(feast, "b") == {0: 3, 1: 3}


def test_t3_bribe_sum_counts_relic_agents_and_other_relics() -> None:
    cards = (at("ferrymen_01", 0), at("ferrymen_02", 0), at("usurers_01", 1))
    state = table(stakes={"a": "stake_002"}, agents={"a": cards})
    assert sums.bribe_sum(state, "a", 0, "sword", "ferrymen_18") == 1 + 2 + 4
    # T-4: a relic of ducat 3 falls short; laid, it is not counted twice on a re-check
    assert sums.bribe_sum(state, "a", 0, "sword", "ferrymen_19") == 6
    laid = (at("ferrymen_01", 0), at("ferrymen_02", 0, "ferrymen_19"), at("usurers_01", 1))
    later = table(stakes={"a": "stake_002"}, agents={"a": laid})
    assert sums.bribe_sum(later, "a", 0, "sword", "ferrymen_19") == 6
    assert sums.bribe_sum(later, "a", 0, "sword", "") == 6
    # a second relic on another agent adds its ducat too (G-13)
    assert sums.bribe_sum(later, "a", 0, "sword", "ferrymen_18") == 10
    # another seat's agents and relics never count for the briber (the Pale One 3, and 1 of
    # the Usurers' badge)
    assert sums.bribe_sum(later, "a", 1, "sword", "") == 3 + 1


def test_bribe_bonus_from_badge_and_event() -> None:
    cards = (at("usurers_01", 1), at("ferrymen_02", 0))
    state = table(stakes={"a": "stake_002"}, agents={"a": cards})
    # the Usurers' badge: +1 in bribes of citizens
    assert sums.bribe_sum(state, "a", 1, "sword", "ferrymen_18") == 3 + 4 + 1
    taxed = table(stakes={"a": "stake_002"}, agents={"a": cards}, event="event_04")
    assert sums.bribe_sum(taxed, "a", 0, "sword", "ferrymen_18") == 2 + 4 + 2


def test_the_harlequin_in_bribes_g17() -> None:
    cards = (at("stake_003", 0), at("ferrymen_01", 0), at("usurers_04", 1))
    base = table(stakes={"a": "stake_002"}, agents={"a": cards})
    assert sums.bribe_sum(base, "a", 0, "sword", "ferrymen_18") == 0 + 1 + 4
    copying = table(
        stakes={"a": "stake_002"}, agents={"a": cards}, options=Options(harlequin_in_bribes=True)
    )
    # it copies the best other agent there: the Moneylender's sword 5
    assert sums.bribe_sum(copying, "a", 0, "sword", "ferrymen_18") == 5 + 1 + 4
