"""Write Arcana's shipped sample card pack, scorekeeper/games/arcana/packs/sample.yaml.

    .venv/bin/python tools/arcana_sample_pack.py          # write it
    .venv/bin/python tools/arcana_sample_pack.py --check  # exit 1 if the file differs

The pack is made up (the rulebook prints no card's values and no list is public): it is
labelled sample and is never the values of a real copy. It holds the cards the rulebook names
with the values its examples give, the values they leave open chosen so that each worked example
comes out as the rulebook says (docs/games/arcana.md, "The card pack"), and every other card
invented in the rulebook's counts. The invented stakes come from a fixed seed, so the file is
the same on every run; tests/games/arcana/test_pack_sample.py checks that it is.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from scorekeeper.games.arcana import pack_data
from scorekeeper.games.arcana.cards import GUILDS, MAJOR_ARCANA

OUT = Path(__file__).resolve().parents[1] / "scorekeeper/games/arcana/packs/sample.yaml"
SEED = 14
DOMAINS = ["Old Town", "Kraken Quay", "Gilded Hill", "Ogrokh"]
DESCRIPTION = (
    "A made-up pack for demos and tests. Not the values of any real copy: the rulebook's "
    "examples hold, everything else is invented."
)
HEADER = (
    '# scorekeeper card pack for Arcana (see docs/games/arcana.md, "The card pack").\n'
    "# Written by tools/arcana_sample_pack.py: change that script, not this file.\n"
)

PLAY = "play"


def ab(when: str, **effects: Any) -> dict[str, Any]:
    """An ability mapping: ``when`` then the effects in the order given."""
    return {"when": when, **effects}


# Each guild's 20 cards: 01-14 agents, 15-17 locations, 18-20 relics (letter A: 01-08, 15,
# 16, 18). (name, "wand sword chalice coin", vp, ability).
GUILD_CARDS: dict[str, list[tuple[str, str, int, dict[str, Any] | None]]] = {
    "blades": [
        ("Long-staff", "1 1 2 0", 0, None),
        ("Sellsword", "0 3 0 1", 0, None),
        ("Halberdier", "1 2 0 0", 0, None),
        ("Duellist", "0 3 1 0", 0, None),
        ("Drill Sergeant", "2 2 0 0", 0, None),
        ("Armourer", "1 1 1 1", 0, None),
        ("Shield-bearer", "0 2 2 0", 0, None),
        ("Watch Veteran", "2 3 0 0", 1, None),
        ("Blade Dancer", "0 4 1 0", 1, None),
        ("Siege Captain", "3 3 0 0", 1, None),
        ("Hired Lance", "0 4 0 1", 0, None),
        (
            "Fencing Master",
            "1 4 0 0",
            1,
            ab("agent", if_major="sword", add={"arcanum": "sword", "n": 1, "where": "here"}),
        ),
        ("Mercenary Scout", "2 1 1 0", 0, None),
        ("Knife Thrower", "0 3 0 0", 0, None),
        ("House of Penitence", "1 0 2 -", 1, ab(PLAY, draw_keep={"draw": 2, "keep": 1})),
        ("Training Yard", "0 2 0 -", 1, ab(PLAY, extra_action={})),
        ("Armoury", "0 3 0 -", 1, ab(PLAY, draw={"n": 2})),
        ("Old Regiment's Banner", "- - - 2", 1, None),
        ("Duelling Rapier", "- - - 3", 1, None),
        ("Gilded Gauntlet", "- - - 4", 2, None),
    ],
    "thieves": [
        ("Pickpocket", "1 1 0 1", 0, None),
        ("Cutpurse", "0 2 1 1", 0, None),
        ("Smuggler", "2 1 0 1", 0, None),
        ("Fence", "2 0 2 1", 0, None),
        ("Lookout", "1 2 0 0", 0, None),
        ("Burglar", "0 3 0 1", 0, None),
        ("Rooftop Runner", "1 2 2 0", 0, None),
        ("Forger", "3 0 1 0", 1, None),
        ("Highwayman", "1 4 0 1", 1, None),
        ("Lockpick", "2 2 1 0", 0, None),
        ("Master of Whispers", "4 1 0 0", 1, None),
        ("Sewer Rat", "1 2 1 0", 0, None),
        ("Card Sharp", "2 1 2 1", 0, None),
        ("Blackmailer", "3 1 0 1", 1, ab("agent", bribe_bonus={"n": 2})),
        ("Den of Thieves", "1 1 0 -", 1, ab(PLAY, draw={"n": 2})),
        (
            "Smugglers' Tunnel",
            "0 1 1 -",
            1,
            ab(PLAY, move_agent={"whose": "own", "from": "any", "to": "any"}),
        ),
        (
            "Black Market",
            "2 0 0 -",
            1,
            ab(PLAY, immediate_win={"stake_type": ["relic"], "where": "friendly"}),
        ),
        ("Stolen Signet", "- - - 3", 1, None),
        ("Skeleton Key", "- - - 2", 1, None),
        ("Velvet Purse", "- - - 4", 1, None),
    ],
    "usurers": [
        ("Pale One", "0 3 0 1", 0, None),
        ("Lord Treasurer", "6 0 0 2", 1, None),
        ("Necromancer", "0 0 3 0", 0, None),
        ("Moneylender", "2 0 0 2", 0, None),
        ("Debt Collector", "1 2 0 1", 0, None),
        ("Pawnbroker", "2 0 1 1", 0, None),
        ("Bookkeeper", "2 1 0 1", 0, None),
        ("Loan Shark", "1 2 1 1", 0, None),
        ("Gambling Host", "3 0 1 1", 0, None),
        ("Opium Merchant", "1 0 3 1", 0, None),
        ("Silent Partner", "3 1 0 2", 1, None),
        ("Tax Farmer", "4 0 0 1", 1, None),
        ("Bailiff", "1 3 0 0", 0, None),
        ("Usurer's Heir", "2 1 1 2", 1, None),
        ("Counting House", "2 0 0 -", 1, ab(PLAY, draw_keep={"draw": 3, "keep": 1})),
        ("Gaming Hall", "1 0 1 -", 1, ab(PLAY, draw_keep={"draw": 2, "keep": 1})),
        (
            "Debtors' Prison",
            "1 1 0 -",
            1,
            ab(PLAY, return_agent={"whose": "any", "where": "enemy"}),
        ),
        ("Ledger of Debts", "- - - 3", 1, None),
        ("Golden Scales", "- - - 4", 1, None),
        ("Sealed Bond", "- - - 2", 1, None),
    ],
    "ferrymen": [
        ("Merchant of Krak", "0 1 2 1", 0, None),
        ("Funeral", "0 2 3 0", 0, None),
        ("Crossbowman", "0 3 0 1", 0, None),
        ("Bargeman", "2 1 0 1", 0, None),
        ("Caravan Master", "3 0 1 1", 1, None),
        ("Drover", "1 1 1 0", 0, None),
        ("Lock Keeper", "2 0 2 0", 0, None),
        ("Silent Oarsman", "1 2 1 0", 0, None),
        ("River Pilot", "2 1 2 0", 1, None),
        ("Ferry Assassin", "0 4 0 0", 1, None),
        ("Wagoner", "3 1 0 1", 0, None),
        ("Harbour Porter", "1 3 0 0", 0, None),
        ("Canal Guide", "2 0 3 0", 1, None),
        ("Toll Collector", "2 1 0 2", 0, None),
        (
            "Night Ferry",
            "0 1 2 -",
            1,
            ab(PLAY, move_agent={"whose": "own", "from": "any", "to": "any"}),
        ),
        ("Toll Bridge", "1 1 0 -", 1, ab(PLAY, draw={"n": 1}, extra_action={})),
        ("Caravan Inn", "2 0 1 -", 1, ab(PLAY, draw_keep={"draw": 3, "keep": 2})),
        ("Barhan sword", "- - - 4", 1, None),
        ("Oar of the Drowned", "- - - 3", 1, None),
        ("Lantern of the Crossing", "- - - 2", 1, None),
    ],
    "fortune_tellers": [
        ("Seer", "0 0 3 0", 0, None),
        ("Conjurer", "1 0 2 1", 0, None),
        ("Herald", "2 0 1 0", 0, None),
        ("Astrologer", "1 0 3 0", 0, None),
        ("Tarot Mage", "0 1 2 1", 0, None),
        ("Palm Reader", "2 0 2 1", 0, None),
        ("Dream Walker", "1 2 2 0", 0, None),
        ("Bone Caster", "0 2 2 0", 1, None),
        ("Oracle of the Well", "0 0 4 0", 1, None),
        ("Star Gazer", "2 0 2 0", 0, None),
        ("Veiled Prophetess", "1 0 4 0", 1, None),
        ("Incense Bearer", "0 0 3 1", 0, None),
        ("Mirror Witch", "1 1 3 0", 1, ab("results", tie_win={"stake_type": ["location"]})),
        ("Crystal Gazer", "2 0 3 0", 0, None),
        ("Hall of Omens", "0 0 2 -", 1, ab(PLAY, draw={"n": 1})),
        (
            "Observatory",
            "1 0 1 -",
            1,
            ab(PLAY, draw_keep={"draw": 3, "keep": 1}),
        ),
        (
            "Temple of Whispers",
            "0 0 3 -",
            1,
            ab(
                PLAY,
                if_major="chalice",
                immediate_win={"stake_type": ["citizen"], "where": "friendly"},
            ),
        ),
        ("Crystal Orb", "- - - 2", 1, None),
        ("Deck of Fates", "- - - 3", 1, None),
        ("Moon Amulet", "- - - 4", 2, None),
    ],
    "architects": [
        ("Master Builder", "3 0 0 1", 1, None),
        ("Stonemason", "2 1 0 0", 0, None),
        ("Glassblower", "1 0 2 0", 0, None),
        ("Smith", "1 2 0 1", 0, None),
        ("Naphtha Tamer", "2 1 1 0", 0, None),
        ("Steam Engineer", "3 0 1 0", 0, None),
        ("Surveyor", "2 0 2 1", 0, None),
        ("Scaffolder", "1 2 1 0", 0, None),
        ("Bridge Builder", "4 0 0 0", 1, None),
        ("Clockmaker", "2 0 2 1", 0, None),
        ("Foundry Master", "3 2 0 0", 1, None),
        ("Mosaicist", "2 0 3 0", 0, None),
        ("Tunneller", "1 3 0 0", 0, None),
        ("Bell Founder", "3 0 1 1", 1, None),
        (
            "Guild Workshop",
            "2 0 0 -",
            1,
            ab(PLAY, draw={"n": 1}, extra_action={}),
        ),
        ("Foundry", "1 1 0 -", 1, ab(PLAY, extra_action={})),
        (
            "Great Scaffold",
            "3 0 0 -",
            1,
            ab(PLAY, immediate_win={"stake_type": ["location"], "where": "friendly"}),
        ),
        ("Master's Plumb Line", "- - - 2", 1, None),
        ("Steam Valve", "- - - 3", 1, None),
        ("Keystone", "- - - 4", 2, None),
    ],
}
assert tuple(GUILD_CARDS) == GUILDS

BADGES: dict[str, tuple[str, dict[str, Any]]] = {
    "blades": ("Blades' Badge", {"arcanum": ["sword"]}),
    "thieves": ("Thieves' Badge", {"stake_type": ["relic"]}),
    "usurers": ("Usurers' Badge", {"stake_type": ["citizen"]}),
    "ferrymen": ("Ferrymen's Badge", {"arcanum": ["wand"]}),
    "fortune_tellers": ("Fortune-Tellers' Badge", {"arcanum": ["chalice"]}),
    "architects": ("Architects' Badge", {"stake_type": ["location"]}),
}
"""The Ferrymen's and Thieves' are the rulebook's (R-TIE-1); the other four are invented."""

# The stakes the worked examples use: (name, type, domain, "wand sword chalice coin", majors,
# vp, ability).
FIXED_STAKES: list[tuple[str, str, str, str, list[str], int, dict[str, Any] | None]] = [
    ("Sword", "relic", "Old Town", "1 4 0 3", ["sword"], 2, None),  # T1, T2, T10: sword 4
    ("Ayane", "citizen", "Old Town", "2 5 1 7", ["sword"], 2, None),  # T3, T4: ducat 7
    (
        "Harlequin",
        "citizen",
        "Kraken Quay",
        "5 5 5 -",
        ["sword", "wand", "chalice"],
        3,
        ab("results", copy_agent={}),
    ),  # T6, T7
    ("Sceptre of Office", "relic", "Gilded Hill", "3 1 0 2", ["wand"], 2, None),  # T8
    ("City Magistrate", "citizen", "Gilded Hill", "4 1 2 6", ["wand"], 2, None),  # T9
    ("Ogre's Cleaver", "relic", "Ogrokh", "0 3 1 2", ["sword"], 2, None),  # T9
]


def _names(text: str) -> list[str]:
    """Names written as one comma-separated text (shorter than a list of strings)."""
    return [name.strip() for name in text.split(",")]


RELICS = _names(
    "Ducal Crown, Chalice of Saints, Black Grail, Ivory Wand, Iron Crown, Serpent Ring, "
    "Bloodstone, Saint's Finger, Drowned Bell, Map of the Tunnels, Pearl of the Quay, Ogrokh "
    "Idol, Scroll of Names, Lion Seal, Silver Censer, Jade Mask, War Horn, Crystal Skull, "
    "Founder's Charter, Obsidian Mirror, Bone Flute, Sunstone, Tarnished Medal, Emerald Key, "
    "Ancient Codex, Hangman's Rope, Prince's Dagger, Weeping Icon"
)
CITIZENS = _names(
    "Mirela, Tobias, Vesna, Lazlo, Ilona, Kasimir, Orsolya, Dragan, Ottokar, Zora, Bazil, "
    "Irma, Morwen, Elek, Rozsa, Anselm, Duke's Chamberlain, Old Duchess, Captain of the Guard, "
    "High Priestess, Plague Doctor, Harbour Master, Chief Lamplighter, City Executioner, Court "
    "Jester, Bishop of Ashes, Ogrokh Envoy, Gate Warden, Royal Alchemist, Foreign Ambassador, "
    "Spice Trader, Marsh Witch, Poet Laureate, Street Preacher, Veteran Knight, Master Printer, "
    "Court Physician, Hanging Judge, Keeper of Archives, Beggar King, Dowager Countess, Famous "
    "Courtesan, Court Sculptor, Ducal Falconer, Rat Catcher, Tax Assessor"
)
LOCATIONS = _names(
    "Blood Gardens, Old Harbour, Cathedral of Ash, Ducal Palace, Fish Market, Kraken "
    "Lighthouse, Mint, Opera House, Lantern Street, Great Library, Arena, Ogrokh Gate, Salt "
    "Warehouse, Bathhouse, Hanging Tree, Clock Tower, Alchemists' Row, Silk Bazaar, Necropolis, "
    "Beggars' Court, Tannery, Crooked Tavern, Printing House, Guard Barracks, Stone Bridge, "
    "Embassy, Flower Market, Chapel of Tears, City Archive, Sewer Gate, Gilded Hill Manor, "
    "Drydock, Shrine of the Tide, Hospice, Old Town Square, Rope Walk"
)
NAMED_ARCANUM = {"Wand": "wand", "Crown": "wand", "Chalice": "chalice", "Grail": "chalice"}
NAMED_ARCANUM |= {"Censer": "chalice", "Icon": "chalice", "Dagger": "sword", "Horn": "sword"}
"""A relic whose name says its arcanum has it as its major."""
assert (len(RELICS), len(CITIZENS), len(LOCATIONS)) == (28, 46, 36)

LOCATION_ABILITIES: list[dict[str, Any]] = [
    ab(PLAY, draw={"n": 1}),
    ab(PLAY, draw_keep={"draw": 2, "keep": 1}),
    ab(PLAY, move_agent={"whose": "own", "from": "any", "to": "any"}),
    ab(PLAY, draw_keep={"draw": 3, "keep": 2}),
    ab(PLAY, return_agent={"whose": "any", "where": "neutral"}),
    ab(PLAY, extra_action={}),
    ab(PLAY, return_agent={"whose": "any", "where": "enemy"}),
    ab(PLAY, draw={"n": 2}),
    ab(PLAY, move_agent={"whose": "any", "from": "neutral", "to": "enemy"}),
    ab(PLAY, move_agent={"whose": "own", "from": "neutral", "to": "friendly"}),
    ab(PLAY, immediate_win={"stake_type": ["relic"], "where": "neutral"}),
    ab(PLAY, draw={"n": 1}, extra_action={}),
]
CITIZEN_ABILITIES: list[dict[str, Any]] = [
    ab("agent", add={"arcanum": "sword", "n": 1, "where": "here"}),
    ab("agent", tie_win={"stake_type": ["citizen"]}),
    ab("agent", bribe_bonus={"n": 2}),
    ab("results", if_major="wand", add={"arcanum": "wand", "n": 2, "where": "here"}),
    ab("agent", add={"arcanum": "chalice", "n": 1, "where": "here"}),
    ab("agent", tie_win={"arcanum": ["sword", "chalice"]}),
]

OBJECTIVES: list[tuple[str, str, int, int]] = [
    ("Exotic Blood Gardens", "Ogrokh", 3, 4),  # the rulebook's example (R-OPT-C-2)
    ("Harbour Rights", "Kraken Quay", 2, 3),
    ("Old Families", "Old Town", 3, 4),
    ("Noble Patrons", "Gilded Hill", 2, 3),
    ("Ogre Embassy", "Ogrokh", 2, 2),
    ("Kraken Cult", "Kraken Quay", 3, 4),
    ("Cathedral Chapter", "Old Town", 2, 3),
    ("Ducal Favour", "Gilded Hill", 4, 6),
    ("Bone Market", "Ogrokh", 4, 6),
    ("Fish Monopoly", "Kraken Quay", 4, 5),
    ("Guild Hall Seats", "Old Town", 4, 5),
    ("Gilded Salons", "Gilded Hill", 3, 4),
    ("Ogrokh Tribute", "Ogrokh", 2, 3),
    ("Lighthouse Keepers", "Kraken Quay", 2, 2),
    ("Ancient Walls", "Old Town", 2, 2),
    ("Palace Gossip", "Gilded Hill", 2, 2),
    ("Horn Gate Toll", "Ogrokh", 3, 5),
    ("Smugglers' Quay", "Kraken Quay", 3, 5),
    ("City Charter", "Old Town", 3, 5),
    ("Manor Deeds", "Gilded Hill", 3, 5),
    ("Feast of Ogres", "Ogrokh", 4, 5),
    ("Sea Charter", "Kraken Quay", 4, 6),
    ("Market Rights", "Old Town", 4, 6),
    ("Court Titles", "Gilded Hill", 4, 5),
]

MASTERS: dict[str, list[tuple[str, bool, dict[str, Any]]]] = {
    "blades": [
        ("Marshal of Blades", True, ab("use", draw={"n": 1})),
        (
            "Mercenary Lord",
            True,
            ab("use", move_agent={"whose": "own", "from": "any", "to": "any"}),
        ),
        ("Sword Saint", False, ab("use", return_agent={"whose": "any", "where": "neutral"})),
    ],
    "thieves": [
        ("Prince of Thieves", True, ab("use", return_agent={"whose": "any", "where": "any"})),
        ("Shadow Broker", False, ab("use", draw_keep={"draw": 2, "keep": 1})),
        ("Night Queen", True, ab("use", extra_action={})),
    ],
    "usurers": [
        (
            "Grand Usurer",
            False,
            ab("use", move_agent={"whose": "own", "from": "any", "to": "any"}),
        ),
        ("Banker of Souls", True, ab("use", draw={"n": 1})),
        ("Master of Debts", True, ab("use", return_agent={"whose": "any", "where": "enemy"})),
    ],
    "ferrymen": [
        (
            "Ferry Master",
            False,
            ab("use", move_agent={"whose": "own", "from": "any", "to": "any"}),
        ),
        ("Caravan Prince", True, ab("use", draw={"n": 1})),
        ("Boatman of the Dead", True, ab("use", extra_action={})),
    ],
    "fortune_tellers": [
        ("Noc-Atlalt, Lord of Winds", True, ab("use", draw_keep={"draw": 3, "keep": 1})),
        (
            "High Oracle",
            True,
            ab(
                "use",
                manual={"text": "Look at the top card of one district's pile, then put it back."},
            ),
        ),
        (
            "Mistress of Dreams",
            False,
            ab("use", draw_keep={"draw": 2, "keep": 1}),
        ),
    ],
    "architects": [
        ("Grand Architect", False, ab("use", draw={"n": 1})),
        ("Steam Baron", True, ab("use", extra_action={})),
        (
            "Keeper of the Keys",
            True,
            ab("use", immediate_win={"stake_type": ["location"], "where": "friendly"}),
        ),
    ],
}

EVENTS: list[tuple[str, dict[str, Any]]] = [
    ("Festival of Lanterns", ab("round", add={"arcanum": "chalice", "n": 1, "where": "neutral"})),
    ("Ducal Parade", ab("round", add={"arcanum": "wand", "n": 1, "where": "any"})),
    (
        "Trial by Combat",
        ab("round", if_major="sword", add={"arcanum": "sword", "n": 1, "where": "any"}),
    ),
    ("Market Day", ab("round", draw={"n": 1})),
    (
        "Relic Fair",
        ab("round", if_stake="relic", add={"arcanum": "chalice", "n": 1, "where": "any"}),
    ),
    ("Tournament", ab("round", add={"arcanum": "sword", "n": 1, "where": "neutral"})),
    ("Night of Omens", ab("round", add={"arcanum": "chalice", "n": 1, "where": "any"})),
    ("Bribe Season", ab("round", bribe_bonus={"n": 1})),
    (
        "Council Session",
        ab("round", if_stake="citizen", add={"arcanum": "wand", "n": 1, "where": "friendly"}),
    ),
    ("Merchant Caravan", ab("round", draw={"n": 1})),
    (
        "Plague Quarantine",
        ab("round", manual={"text": "No agent may be laid at the neutral district this round."}),
    ),
    ("Riot in the Streets", ab("round", add={"arcanum": "sword", "n": 1, "where": "enemy"})),
]


def values(text: str) -> dict[str, Any]:
    """``"0 3 0 1"`` as a card's values ("-" kept)."""
    cells = [c if c == "-" else int(c) for c in text.split()]
    return dict(zip(("wand", "sword", "chalice", "coin"), cells, strict=True))


def guild_cards() -> dict[str, dict[str, Any]]:
    """The 120 guild cards, the 6 badges first."""
    cards: dict[str, dict[str, Any]] = {}
    for guild, (name, ties) in BADGES.items():
        cards[f"badge_{guild}"] = {
            "name": name,
            "type": "badge",
            "guild": guild,
            "ability": ab("always", tie_win=ties),
        }
    for guild, rows in GUILD_CARDS.items():
        for k, (name, printed, vp, ability) in enumerate(rows, start=1):
            kind = "agent" if k <= 14 else "location" if k <= 17 else "relic"
            letter = "A" if k <= 8 or k in (15, 16, 18) else "B"
            card: dict[str, Any] = {"name": name, "type": kind, "guild": guild}
            card.update(values=values(printed), vp=vp, letter=letter)
            if ability:
                card["ability"] = ability
            cards[f"{guild}_{k:02d}"] = card
    return cards


def stake(
    name: str, kind: str, domain: str, printed: dict[str, Any], majors: list[str], vp: int
) -> dict[str, Any]:
    return {
        "name": name,
        "type": kind,
        "domain": domain,
        "values": printed,
        "major": majors,
        "threshold": {a: printed[a] for a in majors},
        "vp": vp,
    }


def invented_stake(rng: random.Random, name: str, kind: str, k: int) -> dict[str, Any]:
    """One invented stake: a threshold 3-8 in its major, lower other arcana, ducats as the
    rulebook describes them (relics 1-4, citizens 4-9 or -, locations none)."""
    two = kind == "citizen" and k % 9 == 4
    majors = rng.sample(MAJOR_ARCANA, 2 if two else 1)
    named = [a for word, a in NAMED_ARCANUM.items() if word in name.split()]
    if named:
        majors = named[:1]
    low, high = (4, 8) if kind == "citizen" else (3, 6)
    threshold = rng.randint(low, high)
    printed: dict[str, Any] = {}
    for arcanum in MAJOR_ARCANA:
        if arcanum in majors:
            printed[arcanum] = threshold
        else:
            printed[arcanum] = rng.choice([0, 1, 1, 2, 2, 3, "-"])
    if kind == "relic":
        printed["coin"] = rng.randint(1, 4)
    elif kind == "citizen":
        printed["coin"] = "-" if k % 10 == 7 else rng.randint(4, 9)
    else:
        printed["coin"] = "-"
    domain = "all" if k % 11 == 5 else rng.choice(DOMAINS)
    vp = max(1, min(5, threshold - 3 + rng.choice([0, 0, 1]) + (1 if two else 0)))
    return stake(name, kind, domain, printed, majors, vp)


def stakes() -> dict[str, dict[str, Any]]:
    """The 116 stakes: the examples' six, then 110 invented from the fixed seed."""
    cards: dict[str, dict[str, Any]] = {}
    for k, (name, kind, domain, printed, majors, vp, ability) in enumerate(FIXED_STAKES, 1):
        card = stake(name, kind, domain, values(printed), majors, vp)
        if ability:
            card["ability"] = ability
        cards[f"stake_{k:03d}"] = card
    rng = random.Random(SEED)
    kinds = ["relic"] * len(RELICS) + ["citizen"] * len(CITIZENS) + ["location"] * len(LOCATIONS)
    rng.shuffle(kinds)
    names = {"relic": iter(RELICS), "citizen": iter(CITIZENS), "location": iter(LOCATIONS)}
    n_location = n_citizen = 0
    for k, kind in enumerate(kinds, start=len(FIXED_STAKES) + 1):
        card = invented_stake(rng, next(names[kind]), kind, k)
        if kind == "location":
            card["ability"] = LOCATION_ABILITIES[n_location % len(LOCATION_ABILITIES)]
            n_location += 1
        elif kind == "citizen":
            if n_citizen % 4 == 1:
                card["ability"] = CITIZEN_ABILITIES[(n_citizen // 4) % len(CITIZEN_ABILITIES)]
            n_citizen += 1
        cards[f"stake_{k:03d}"] = card
    return cards


def option_cards() -> dict[str, dict[str, Any]]:
    """The two single cards, the watch, the masters, the objectives and the events."""
    watch = {"Captain": "2 4 2 -", "Constable": "1 2 1 -"}
    cards: dict[str, dict[str, Any]] = {
        "first_player": {"name": "First Player", "type": "first_player"},
        "princes_games": {"name": "Prince's Games", "type": "princes_games"},
    }
    for piece in ("captain_1", "captain_2", *(f"constable_{k}" for k in range(1, 5))):
        name = piece.split("_")[0].title()
        cards[piece] = {"name": name, "type": "watch", "values": values(watch[name]), "vp": 0}
        cards[piece]["letter"] = "D"
    for guild, rows in MASTERS.items():
        for k, (name, once, ability) in enumerate(rows, start=1):
            card: dict[str, Any] = {"name": name, "type": "master", "guild": guild, "vp": 0}
            card["letter"] = "E"
            if once:
                card["once_per_round"] = True
            card["ability"] = ability
            cards[f"master_{guild}_{k}"] = card
    for k, (name, domain, count, vp) in enumerate(OBJECTIVES, start=1):
        cards[f"objective_{k:02d}"] = {
            "name": name,
            "type": "objective",
            "vp": vp,
            "letter": "C",
            "objective": {"domain": domain, "count": count},
        }
    for k, (name, ability) in enumerate(EVENTS, start=1):
        cards[f"event_{k:02d}"] = {"name": name, "type": "event", "vp": 0, "letter": "F"}
        cards[f"event_{k:02d}"]["ability"] = ability
    return cards


def build() -> dict[str, Any]:
    """The whole sample pack's mapping, checked as any pack is."""
    cards = {**guild_cards(), **stakes(), **option_cards()}
    data = {
        "name": "sample",
        "sample": True,
        "description": DESCRIPTION,
        "domains": DOMAINS,
        "cards": cards,
    }
    return pack_data.from_mapping(data, "the sample pack")


def text() -> str:
    """The file's text."""
    return HEADER + pack_data.dump(build())


def ready() -> str:
    """The JSON beside the YAML: the checked mapping a table plays from (pack.load_shipped),
    read without the schema's models or a YAML parser."""
    return json.dumps(build(), ensure_ascii=False, separators=(",", ":")) + "\n"


def main(argv: list[str]) -> int:
    files = {OUT: text(), OUT.with_suffix(".json"): ready()}
    if "--check" in argv:
        stale = [
            p
            for p, wanted in files.items()
            if not p.exists() or p.read_text(encoding="utf-8") != wanted
        ]
        for p in files:
            print(f"{p}: {'differs; run this script to write it' if p in stale else 'up to date'}")
        return 1 if stale else 0
    OUT.parent.mkdir(parents=True, exist_ok=True)
    for p, wanted in files.items():
        p.write_text(wanted, encoding="utf-8")
        print(f"wrote {p}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
