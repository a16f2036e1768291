"""What each audience sees of an Arcana table (views.py), and a small perturbation check: a
seat's secret piece swapped for another card of its hidden kind changes no byte of what anyone
else is shown (views, prompts and their answers' words, the waiting line)."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from scorekeeper.games.arcana import privacy, prompts, views, words
from scorekeeper.games.arcana.cards import Pack
from scorekeeper.games.arcana.state import (
    OVER,
    DistrictResult,
    Events,
    Options,
    Resolution,
    State,
    evolve,
)
from tests.games.arcana import factory as f
from tests.games.arcana.test_prompts import catalogue, table

TOP = {
    "phase",
    "round",
    "final_round",
    "first_seat",
    "active_seat",
    "pack",
    "districts",
    "seats",
    "events",
    "watch_deck",
    "results",
    "history",
    "winners",
    "over",
    "options",
    "answer_words",
}
DISTRICT = {
    "id",
    "name",
    "friends",
    "stake",
    "pile",
    "empty",
    "awaiting",
    "agents",
    "sums_seen",
    "resolved",
}
SEAT = {
    "seat",
    "guild",
    "guild_name",
    "hand",
    "deck",
    "discard",
    "discard_top",
    "set_aside",
    "master",
    "objectives",
    "vp",
    "stakes",
}
PRIVATE = {"face_down", "hand_known", "owned", "discard_cards"}
HISTORY = {"round", "district", "stake", "arcana", "sums", "winner", "reason", "immediate"}


def _secretive() -> State:
    """The prompts' table with Ann's known hand card and both seats' objectives."""
    return evolve(
        table(),
        options=Options(watch=True, guild_masters=True, objectives=True),
        seats=(
            dataclasses.replace(
                table().seats[0],
                hand_known=frozenset({"ferrymen_04"}),
                objectives=("objective_01", "objective_05"),
                owned=table().seats[0].owned | {"stake_071", "stake_074"},
            ),
            dataclasses.replace(table().seats[1], objectives=("objective_02", "objective_03")),
        ),
    )


def _agents(view: dict[str, Any], did: str) -> list[dict[str, Any]]:
    district = next(d for d in view["districts"] if d["id"] == did)
    agents: list[dict[str, Any]] = district["agents"]
    return agents


def test_the_public_view_has_the_contract_s_keys() -> None:
    view = views.view(_secretive(), "public")
    assert set(view) == TOP
    assert view["pack"] == {"name": "factory", "sample": False}
    for district in view["districts"]:
        assert set(district) == DISTRICT
        for agent in district["agents"]:
            assert set(agent) == {"card", "name", "values", "owner", "face", "relics", "watch"}
    for seat in view["seats"]:
        assert set(seat) == SEAT
        assert seat["objectives"] in (0, 2)
    assert view["watch_deck"] == 6 and view["events"] is None and view["results"] is None
    json.dumps(view)


def test_a_face_down_agent_is_a_back_to_others_and_named_to_its_owner() -> None:
    state = table()
    for audience in ("public", 1):
        funeral, crossbowman = _agents(views.view(state, audience), "a")
        assert funeral == {
            "card": None,
            "name": None,
            "values": None,
            "owner": 0,
            "face": "down",
            "relics": [],
            "watch": False,
        }
        assert crossbowman["card"] == "ferrymen_03" and crossbowman["name"] == "Crossbowman"
        assert crossbowman["values"] == {"wand": 0, "sword": 3, "chalice": 0, "coin": 1}
    for audience in (0, "organiser"):
        funeral = _agents(views.view(state, audience), "a")[0]
        assert (funeral["card"], funeral["name"], funeral["face"]) == (
            "ferrymen_02",
            "Funeral",
            "down",
        )
    assert _agents(views.view(state, 0), "c")[0]["card"] is None  # Bea's Pale One
    assert _agents(views.view(state, "organiser"), "c")[0]["card"] == "usurers_01"


def test_sums_seen_count_face_up_agents_and_a_seat_s_sums_its_own_face_down_ones() -> None:
    state = table()
    public = views.view(state, "public")["districts"][0]
    assert public["sums_seen"] == {"0": {"sword": 3}} and "sums" not in public
    own = views.view(state, 0)["districts"][0]
    assert own["sums"] == {"0": {"sword": 5}}  # the Crossbowman 3 and the Funeral 2
    other = views.view(state, 1)["districts"][0]
    assert other["sums"] == {"0": {"sword": 3}}


def test_a_seat_s_own_view_adds_its_private_entry() -> None:
    state = _secretive()
    view = views.view(state, 0)
    mine, theirs = view["seats"]
    assert set(mine) == SEAT | PRIVATE and set(theirs) == SEAT
    assert mine["face_down"] == [
        {
            "district": "a",
            "card": "ferrymen_02",
            "name": "Funeral",
            "values": {"wand": 0, "sword": 2, "chalice": 3, "coin": 1},
            "watch": False,
        }
    ]
    assert mine["hand_known"] == [{"card": "ferrymen_04", "name": "Ferrymen 4 agent"}]
    owned = {c["card"] for c in mine["owned"]}
    assert "ferrymen_04" in owned and "stake_071" in owned
    assert not owned & {"ferrymen_02", "ferrymen_03"}  # at district A
    goals = {o["card"]: o for o in mine["objectives"]}
    # Objective 1: 2 Ogrokh stakes; Objective 5: 3 Kraken Quay. Stake 71 is Kraken Quay, 74 Ogrokh.
    assert goals["objective_01"]["need"] == 2 and goals["objective_01"]["met"] is False
    assert {"card", "name", "domain", "have", "need", "met"} == set(goals["objective_05"])
    organiser = views.view(state, "organiser")
    assert all(set(s) == SEAT | PRIVATE for s in organiser["seats"])


def test_public_vp_and_stakes_during_play_and_the_exact_vp_to_the_seat() -> None:
    from scorekeeper.games.arcana import scoring

    state = _secretive()
    public = views.view(state, "public")["seats"][0]
    assert public["vp"] == scoring.public_vp(state, 0) and public["stakes"] == 2
    assert views.view(state, 0)["seats"][0]["vp"] == scoring.vp_now(state, 0)


def test_relic_on_answer_words_reach_only_the_briber_and_the_organiser() -> None:
    state = catalogue()["relic_on"]
    assert "relic_on" in views.view(state, 0)["answer_words"]
    assert "relic_on" in views.view(state, "organiser")["answer_words"]
    assert views.view(state, "public")["answer_words"] == {}
    assert views.view(state, 1)["answer_words"] == {}
    location = views.view(catalogue()["location"], "public")["answer_words"]
    assert location == {
        "location": {"play": "Use its ability: draw 1 card", "discard": "Discard it unused"}
    }


def test_the_district_under_way_is_revealed_to_everyone() -> None:
    state = evolve(catalogue()["declare"], resolution=Resolution("c", declared=((1, "sword"),)))
    view = views.view(state, "public")
    assert _agents(view, "c")[0]["card"] == "usurers_01"
    assert view["districts"][2]["sums_seen"] == {"1": {"sword": 3, "wand": 0, "chalice": 0}}
    results = view["results"]
    assert results["district"] == "c" and results["declared"] == {"1": "sword"}
    assert results["sums"] == {"1": 3}
    assert results["winner"] is None and results["reason"] == ""
    assert view["active_seat"] == state.first_seat


def test_results_show_the_result_once_it_is_in_the_history() -> None:
    result = DistrictResult(1, "c", "stake_003", ((1, "sword"),), ((1, 5),), 1, "Bea wins")
    state = evolve(catalogue()["declare"], history=(result,), resolution=Resolution("c"))
    results = views.view(state, "public")["results"]
    assert (results["winner"], results["reason"], results["sums"]) == (1, "Bea wins", {"1": 5})
    (entry,) = views.view(state, "public")["history"]
    assert set(entry) == HISTORY
    assert entry["stake"] == {"card": "stake_003", "name": "Harlequin"}
    assert entry["arcana"] == {"1": "sword"} and entry["sums"] == {"1": 5}


def test_the_seat_a_results_prompt_waits_for_is_the_active_seat() -> None:
    state = catalogue()["copy"]
    assert views.view(state, "public")["active_seat"] == 1


def test_at_the_end_every_score_and_objective_is_shown() -> None:
    state = evolve(_secretive(), phase=OVER, winners=(0,))
    view = views.view(state, "public")
    assert view["over"] is True and view["winners"] == [0]
    for seat in view["seats"]:
        assert set(seat["vp_sources"]) == {
            "guild_cards",
            "stakes",
            "set_aside",
            "objectives",
            "leftovers",
        }
        assert sum(seat["vp_sources"].values()) == seat["vp"]
        assert [o["card"] for o in seat["objectives"]] in (
            ["objective_01", "objective_05"],
            ["objective_02", "objective_03"],
        )


def test_events_and_the_watch_deck_only_with_their_options() -> None:
    state = table(
        options=Options(events=True), events=Events(now="event_01", next="event_02", left=9)
    )
    events = views.view(state, "public")["events"]
    assert events["now"]["card"] == "event_01" and events["next"]["name"] == "Event 2"
    assert events["left"] == 9 and events["now"]["about"] == "+1 wand at the neutral district"
    assert views.view(state, "public")["watch_deck"] is None


@pytest.mark.parametrize("audience", [2, -1, True, "seat 0", None])
def test_an_audience_that_is_no_one_is_refused(audience: Any) -> None:
    with pytest.raises(ValueError):
        views.view(table(), audience)


# -- the perturbation check -------------------------------------------------------------------


def _rename(value: Any, a: str, b: str) -> Any:
    """``value`` with the piece ids ``a`` and ``b`` trading places everywhere (not the pack)."""
    if isinstance(value, str):
        return b if value == a else a if value == b else value
    if isinstance(value, Pack):
        return value
    if isinstance(value, tuple):
        return tuple(_rename(v, a, b) for v in value)
    if isinstance(value, frozenset):
        return frozenset(_rename(v, a, b) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {x.name: _rename(getattr(value, x.name), a, b) for x in dataclasses.fields(value)}
        return dataclasses.replace(value, **changes)
    return value


def _partners(state: State, seat: int, piece: str) -> list[str]:
    """Cards that could stand in for ``piece``: of its hidden kind, out of sight and nobody's
    secret, else the seat's own other hidden cards of the kind (as tests/perturb.py does)."""
    kind = privacy.hidden_kind_for(state.pack, state.options, piece)
    if kind is None:
        return []
    hidden = set().union(*(privacy.secrets(state, s) for s in range(len(state.seats))))
    alike = [
        c.id
        for c in state.pack.cards
        if c.id != piece and privacy.hidden_kind_for(state.pack, state.options, c.id) == kind
    ]
    unseen = [c for c in alike if c not in hidden and privacy.locate(state, c) == ""]
    # With none unseen, it trades places with another of the seat's own hidden cards.
    return unseen or [c for c in alike if c in privacy.secrets(state, seat)]


def _shown(state: State, audience: Any) -> str:
    """Every byte ``audience`` gets: its view, the prompts it may see, the waiting line."""
    seen = [
        {**p.to_dict(), "answers": [words.answer_words(p.id, a, state) for a in p.options]}
        for p in prompts.pending(state)
        if not p.private or p.seat == audience
    ]
    return json.dumps([views.view(state, audience), seen, words.waiting_for(state)], sort_keys=True)


def _perturbable() -> dict[str, State]:
    out = dict(catalogue())
    out["secretive"] = _secretive()
    out["custom guild"] = evolve(
        table(),
        options=Options(custom_guild=True),
        seats=(
            dataclasses.replace(
                table().seats[0],
                owned=frozenset(
                    f"ferrymen_{k:02d}" for k in (1, 2, 3, 4, 10, 11, 12, 13, 16, 17, 19)
                ),
                returned=tuple(f"ferrymen_{k:02d}" for k in (5, 6, 7, 8, 9, 14, 15, 18, 20)),
            ),
            table().seats[1],
        ),
    )
    out["watch"] = evolve(
        table(),
        districts=tuple(
            dataclasses.replace(
                d, agents=(*d.agents, f.placed("captain_1", 0, face_up=False, watch=True))
            )
            if d.id == "b"
            else d
            for d in table().districts
        ),
    )
    return out


@pytest.mark.parametrize("name", sorted(_perturbable()))
def test_no_one_else_can_tell_a_secret_piece_from_another_of_its_kind(name: str) -> None:
    state = _perturbable()[name]
    swapped = 0
    for seat in range(len(state.seats)):
        others: list[Any] = ["public", *(s for s in range(len(state.seats)) if s != seat)]
        before = {a: _shown(state, a) for a in others}
        for piece in sorted(privacy.secrets(state, seat)):
            for partner in _partners(state, seat, piece)[:3]:
                other = _rename(state, piece, partner)
                assert partner in privacy.secrets(other, seat)
                for audience in others:
                    assert _shown(other, audience) == before[audience], (seat, piece, partner)
                if partner not in privacy.secrets(state, seat):  # news to the seat itself
                    assert _shown(other, seat) != _shown(state, seat), (seat, piece, partner)
                swapped += 1
    assert swapped or not any(privacy.secrets(state, s) for s in range(len(state.seats)))


def test_the_perturbation_check_sees_a_leak() -> None:
    """Were the public shown a face-down card, the swap would show: the check can fail."""
    state = table()
    other = _rename(state, "ferrymen_02", "ferrymen_05")
    assert views.view(state, "organiser") != views.view(other, "organiser")
    assert _shown(state, "public") == _shown(other, "public")
