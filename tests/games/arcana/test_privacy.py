"""Arcana's private information (privacy.py): which pieces are one seat's secrets, what may
stand in for each (the perturbation check's kinds), where the referee knows a card to lie, and
whose a card is."""

from __future__ import annotations

from scorekeeper.games.arcana import privacy
from scorekeeper.games.arcana.state import (
    RESULTS,
    District,
    Events,
    Options,
    Resolution,
    State,
    with_district,
)
from tests.games.arcana import factory as f


def _table() -> State:
    """Two seats: Ferrymen (0) with the Funeral face down and the Crossbowman face up at
    district A (friendly), a relic on the Crossbowman; Usurers (1) with the Pale One face down
    at district C and a constable face up at the neutral district."""
    return f.state(
        2,
        agents={
            "a": (
                f.placed("ferrymen_02", 0, face_up=False),
                f.placed("ferrymen_03", 0, relics=("ferrymen_18",)),
            ),
            "c": (f.placed("usurers_01", 1, face_up=False),),
            "n": (f.placed("constable_1", 1, watch=True),),
        },
        seat_changes={
            0: {
                "hand_known": frozenset({"ferrymen_04"}),
                "objectives": ("objective_01", "objective_02"),
                "discard": ("ferrymen_15",),
                "set_aside": ("stake_010",),
                "master": "master_ferrymen_1",
            }
        },
        events=Events(now="event_01", next="event_02", left=9),
    )


def test_a_seat_s_secrets_are_its_face_down_agents_known_hand_and_objectives() -> None:
    state = _table()
    assert privacy.secrets(state, 0) == {
        "ferrymen_02",
        "ferrymen_04",
        "objective_01",
        "objective_02",
    }
    assert privacy.secrets(state, 1) == {"usurers_01"}


def test_a_face_down_watch_card_is_its_caller_s_secret() -> None:
    state = f.state(2, agents={"c": (f.placed("captain_2", 1, face_up=False, watch=True),)})
    assert privacy.secrets(state, 1) == {"captain_2"}
    assert privacy.secrets(state, 0) == frozenset()


def test_the_district_being_resolved_hides_nothing() -> None:
    """G-9: every agent at the district under way is revealed, whatever face is recorded."""
    state = _table()
    resolving = f.state(
        2,
        agents={"a": (f.placed("ferrymen_02", 0, face_up=False),)},
        phase=RESULTS,
        resolution=Resolution("a"),
    )
    assert "ferrymen_02" not in privacy.secrets(resolving, 0)
    assert resolving.district("a").agents[0].face_up is False
    assert "ferrymen_02" in privacy.secrets(state, 0)


def test_with_a_custom_guild_kept_and_returned_cards_are_secret_until_seen() -> None:
    returned = tuple(f"ferrymen_{k:02d}" for k in range(12, 21))
    kept = frozenset(f"ferrymen_{k:02d}" for k in range(1, 12))
    state = f.state(
        2,
        options=Options(custom_guild=True),
        agents={"b": (f.placed("ferrymen_03", 0),)},
        seat_changes={0: {"owned": kept, "returned": returned, "discard": ("ferrymen_05",)}},
    )
    secret = privacy.secrets(state, 0)
    assert set(returned) <= secret
    # Seen in play: face up at a district, on the discard pile.
    assert "ferrymen_03" not in secret and "ferrymen_05" not in secret
    assert kept - {"ferrymen_03", "ferrymen_05"} <= secret
    # Without the custom guild everyone knows the 11 starting cards.
    assert privacy.secrets(f.state(2), 0) == frozenset()


def test_hidden_kinds_read_guild_type_and_letter_from_the_pack() -> None:
    pack = f.pack()
    plain, custom = Options(), Options(custom_guild=True)
    assert privacy.hidden_kind_for(pack, plain, "ferrymen_03") == "ferrymen_agent_A"
    assert privacy.hidden_kind_for(pack, plain, "ferrymen_12") == "ferrymen_agent_B"
    assert privacy.hidden_kind_for(pack, plain, "blades_15") == "blades_location_A"
    assert privacy.hidden_kind_for(pack, custom, "ferrymen_03") == "ferrymen_agent"
    assert privacy.hidden_kind_for(pack, {"custom_guild": True}, "thieves_19") == "thieves_relic"
    assert privacy.hidden_kind_for(pack, {}, "thieves_19") == "thieves_relic_B"
    assert privacy.hidden_kind_for(pack, plain, "captain_1") == "watch"
    assert privacy.hidden_kind_for(pack, plain, "constable_4") == "watch"
    assert privacy.hidden_kind_for(pack, plain, "objective_07") == "objective"
    for never in ("stake_002", "badge_ferrymen", "master_usurers_2", "event_03", "princes_games"):
        assert privacy.hidden_kind_for(pack, plain, never) is None, never


def test_locate_names_the_zone_a_card_lies_on_and_nothing_out_of_sight() -> None:
    state = _table()
    assert privacy.locate(state, "stake_001") == "stake_a"
    assert privacy.locate(state, "ferrymen_02") == "agents_a"  # face down: where, not what
    assert privacy.locate(state, "ferrymen_18") == "agents_a"  # a relic on an agent
    assert privacy.locate(state, "constable_1") == "agents_n"
    assert privacy.locate(state, "ferrymen_15") == "discard:0"
    for under_badge in ("badge_ferrymen", "master_ferrymen_1", "stake_010"):
        assert privacy.locate(state, under_badge) == "badge:0", under_badge
    assert privacy.locate(state, "event_02") == "event"
    for unseen in ("ferrymen_04", "ferrymen_05", "objective_01", "stake_050", "captain_1"):
        assert privacy.locate(state, unseen) == "", unseen
    assert privacy.locate(state, "no_such_card") is None


def test_the_prince_s_games_card_on_the_neutral_stake_pad() -> None:
    state = with_district(_table(), District("n", (), "princes_games", 0))
    assert privacy.locate(state, "princes_games") == "stake_n"


def test_owner_of_a_card() -> None:
    state = f.state(
        2,
        agents={"n": (f.placed("constable_1", 1, watch=True),)},
        seat_changes={1: {"owned": f.starting_cards("usurers") | {"stake_030"}}},
    )
    assert privacy.owner_of(state, "ferrymen_12") == 0  # a guild card: its guild's seat
    assert privacy.owner_of(state, "badge_usurers") == 1
    assert privacy.owner_of(state, "stake_030") == 1  # a won stake
    assert privacy.owner_of(state, "constable_1") == 1  # a watch card: its caller
    assert privacy.owner_of(state, "constable_2") is None
    assert privacy.owner_of(state, "stake_031") is None
