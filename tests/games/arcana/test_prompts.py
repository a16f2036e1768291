"""Arcana's open prompts (prompts.pending): one per open step, the first step first, then the
phase's (the guild master, the results' district, declarations and copies), each with answers
offered from what everyone knows and every answer in words.

``catalogue()`` is a table in every situation a prompt or a waiting line has words for; the
words and views tests use it too.
"""

from __future__ import annotations

import re

import pytest

from scorekeeper.core.text import render_seats
from scorekeeper.games.arcana import prompts, words
from scorekeeper.games.arcana.cards import PIECES
from scorekeeper.games.arcana.state import (
    OVER,
    RESULTS,
    SETUP,
    District,
    Options,
    Resolution,
    State,
    Step,
    evolve,
    with_district,
    with_seat,
)
from tests.games.arcana import factory as f

NAMES = ("Ann", "Bea", "Cid", "Dan")
IDS = set(PIECES)
SYNTAX = re.compile(r"\b[a-z]+_[a-z0-9_]+\b|\b[a-z]+:\d|\{seat:|\(s\)")


def table(**changes: object) -> State:
    """Two seats, Ann (Ferrymen, 0) and Bea (Usurers, 1): at district A (Ann's) the Funeral
    face down and the Crossbowman face up, at district C (Bea's) the Pale One face down, at
    the neutral district Bea's Necromancer face up; Ann's guild master is the first Ferrymen
    master."""
    state = f.state(
        2,
        options=Options(watch=True, guild_masters=True, set_aside=True),
        agents={
            "a": (f.placed("ferrymen_02", 0, face_up=False), f.placed("ferrymen_03", 0)),
            "c": (f.placed("usurers_01", 1, face_up=False),),
            "n": (f.placed("usurers_03", 1),),
        },
        seat_changes={0: {"master": "master_ferrymen_1"}, 1: {"master": "master_usurers_2"}},
    )
    return evolve(state, **changes) if changes else state


def _step(kind: str, seat: int = 0, **fields: object) -> State:
    return table(steps=(Step(kind, seat, **fields),))  # type: ignore[arg-type]


def _copying() -> State:
    """Results at district B (Ayane, sword): Bea's Harlequin, Bea's Necromancer, Ann's
    Merchant of Krak."""
    state = table(phase=RESULTS, resolution=Resolution("b"))
    b = state.district("b")
    agents = (
        f.placed("stake_003", 1),
        f.placed("usurers_03", 1),
        f.placed("ferrymen_01", 0),
    )
    return with_district(state, District("b", b.friends, b.stake, b.pile, agents))


def _declaring() -> State:
    """Results at district C, whose stake (the Harlequin) has three majors."""
    state = table(phase=RESULTS, resolution=Resolution("c"))
    c = state.district("c")
    return with_district(state, District("c", c.friends, "stake_003", c.pile, c.agents))


def _setup() -> State:
    state = table(phase=SETUP, round=0)
    state = evolve(
        state, districts=tuple(District(d.id, d.friends, None, 11) for d in state.districts)
    )
    return with_seat(state, 1, f.seat(""))


def catalogue() -> dict[str, State]:
    """A table in each situation with words of its own, by name."""
    effects = {
        "move": f.effect("move_agent", whose="own", to="any"),
        "win_at": f.effect("immediate_win", stake_type=["citizen"], where="any"),
        "return": f.effect("return_agent", whose="any", where="any"),
    }
    return {
        "turn": table(),
        "location": _step("location", card="ferrymen_15"),
        "keep": _step("keep", card="blades_15", count=1),
        "stake_discard": _step("stake_discard", card="stake_080"),
        "watch_card": _step("watch_card"),
        "bribe_arcanum": _step("bribe_arcanum", 1, card="usurers_18", district="c"),
        "relic_on": _step("relic_on", card="ferrymen_18", district="a"),
        "move": _step("move", card="ferrymen_16", effects=(effects["move"],)),
        "win_at": _step("win_at", card="ferrymen_17", effects=(effects["win_at"],)),
        "return": _step("return", 1, card="usurers_16", effects=(effects["return"],)),
        "master": _step("master"),
        "manual": _step("manual", card="master_ferrymen_3"),
        "confirm": _step("confirm", card="master_ferrymen_3"),
        "set_aside": _step("set_aside", card="stake_002", district="b"),
        "next_district": table(phase=RESULTS),
        "declare": _declaring(),
        "copy": _copying(),
        "awaiting": with_district(table(), District("b", (0,), None, 10, awaiting=True)),
        "setup": _setup(),
        "over": table(phase=OVER, winners=(1,)),
        "shared win": table(phase=OVER, winners=(0, 1)),
    }


def _words_of(state: State) -> list[str]:
    out = []
    for prompt in prompts.pending(state):
        out.append(render_seats(prompt.question, NAMES))
        out += [
            render_seats(words.answer_words(prompt.id, a, state), NAMES) for a in prompt.options
        ]
    return out


@pytest.mark.parametrize("name", sorted(catalogue()))
def test_every_prompt_has_a_question_and_every_answer_words(name: str) -> None:
    state = catalogue()[name]
    for prompt in prompts.pending(state):
        assert prompt.id in prompts.PROMPTS
        assert prompt.options, prompt
        for answer in prompt.options:
            said = render_seats(words.answer_words(prompt.id, answer, state), NAMES)
            assert said and said != answer, (prompt.id, answer)
            assert not SYNTAX.search(said), said
            assert not set(re.findall(r"\w+", said)) & IDS, said
    for text in _words_of(state):
        assert not SYNTAX.search(text), text
        assert "Funeral" not in text or name == "relic_on", text  # Ann's face-down agent


def test_each_step_kind_asks_its_prompt_and_arrivals_ask_none() -> None:
    found = {name: [p.id for p in prompts.pending(s)] for name, s in catalogue().items()}
    for kind in ("location", "stake_discard", "bribe_arcanum", "relic_on", "move", "win_at"):
        assert found[kind] == [kind]
    for kind in ("return", "master", "manual", "confirm", "set_aside", "next_district"):
        assert found[kind] == [kind]
    assert found["declare"] == ["declare"] and found["copy"] == ["copy"]
    assert found["keep"] == found["watch_card"] == []
    assert found["setup"] == found["over"] == []
    assert found["turn"] == ["master"]  # a draw-1 master, not spent


def test_only_the_first_step_is_asked() -> None:
    state = table(
        steps=(Step("location", 0, card="ferrymen_15"), Step("set_aside", 0, card="stake_002"))
    )
    assert [p.id for p in prompts.pending(state)] == ["location"]


def test_relic_on_is_private_and_offers_the_seat_s_own_agents_there() -> None:
    (prompt,) = prompts.pending(catalogue()["relic_on"])
    assert prompt.private and prompt.seat == 0
    assert prompt.options == ("ferrymen_02", "ferrymen_03")
    state = catalogue()["relic_on"]
    assert words.answer_words("relic_on", "ferrymen_02", state) == "the Funeral (face down)"
    assert words.answer_words("relic_on", "ferrymen_03", state) == "the Crossbowman"
    assert all(
        not p.private
        for s in catalogue().values()
        for p in prompts.pending(s)
        if p.id != "relic_on"
    )


def test_return_offers_a_face_down_agent_by_its_place() -> None:
    state = catalogue()["return"]
    (prompt,) = prompts.pending(state)
    assert prompt.options == ("a.1", "ferrymen_03", "c.1", "usurers_03")
    said = [render_seats(words.answer_words("return", a, state), NAMES) for a in prompt.options]
    assert said == [
        "Ann's first face-down agent at district A",
        "Ann's Crossbowman at district A",
        "Bea's first face-down agent at district C",
        "Bea's Necromancer at the neutral district",
    ]
    place = words.answer_place(state, "a.1")
    assert place is not None and place[1].card == "ferrymen_02"
    assert words.answer_place(state, "a.9") is None and words.answer_place(state, "a") is None


def test_return_of_own_agents_only() -> None:
    own = f.effect("return_agent", whose="own", where="friendly")
    state = _step("return", 1, card="usurers_16", effects=(own,))
    (prompt,) = prompts.pending(state)
    assert prompt.options == ("c.1",)


def test_copy_offers_the_other_agents_there_and_none_only_when_alone() -> None:
    state = catalogue()["copy"]
    (prompt,) = prompts.pending(state)
    assert (prompt.seat, prompt.options) == (1, ("usurers_03", "ferrymen_01"))
    assert render_seats(words.answer_words("copy", "usurers_03", state), NAMES) == (
        "Bea's Necromancer (sword 0)"
    )
    b = state.district("b")
    alone = with_district(state, District("b", b.friends, b.stake, b.pile, b.agents[:1]))
    assert prompts.pending(alone)[0].options == ("none",)
    answered = evolve(state, resolution=Resolution("b", copies=(("stake_003", "usurers_03"),)))
    assert prompts.pending(answered) == ()


def test_declarations_go_in_turn_order_from_the_first_player() -> None:
    state = f.state(
        3,
        phase=RESULTS,
        first_seat=1,
        agents={"c": (f.placed("ferrymen_03", 0), f.placed("thieves_01", 2))},
    )
    c = state.district("c")
    state = with_district(state, District("c", c.friends, "stake_003", c.pile, c.agents))
    state = evolve(state, resolution=Resolution("c"))
    assert [(p.id, p.seat) for p in prompts.pending(state)] == [("declare", 2)]
    (prompt,) = prompts.pending(state)
    assert prompt.options == ("sword", "wand", "chalice", "none")
    state = evolve(state, resolution=Resolution("c", declared=((2, "wand"),)))
    assert [(p.id, p.seat) for p in prompts.pending(state)] == [("declare", 0)]
    state = evolve(state, resolution=Resolution("c", declared=((2, "wand"), (0, "none"))))
    assert prompts.pending(state) == ()


def test_a_single_major_asks_no_declaration() -> None:
    state = table(phase=RESULTS, resolution=Resolution("a"))
    assert prompts.pending(state) == ()


def test_next_district_leaves_out_resolved_awaiting_empty_and_the_prince_s_games() -> None:
    state = table(phase=RESULTS, first_seat=1)
    (prompt,) = prompts.pending(state)
    assert (prompt.seat, prompt.options) == (1, ("a", "b", "c", "d", "n"))
    a, b, c, n = (state.district(x) for x in "abcn")
    state = with_district(state, District("a", a.friends, a.stake, a.pile, resolved=True))
    state = with_district(state, District("b", b.friends, None, 4, awaiting=True))
    state = with_district(state, District("c", c.friends, None, 0))
    state = with_district(state, District("n", n.friends, "princes_games", 0))
    assert prompts.pending(state)[0].options == ("d",)
    d = state.district("d")
    state = with_district(state, District("d", d.friends, d.stake, d.pile, resolved=True))
    assert prompts.pending(state) == ()


@pytest.mark.parametrize(
    ("limit", "master", "usable_after_use"),
    [
        ("by_card", "master_ferrymen_1", False),  # marked once per round
        ("by_card", "master_ferrymen_2", True),
        ("once_per_round", "master_ferrymen_2", False),
        ("unlimited", "master_ferrymen_1", True),
    ],
)
def test_the_master_prompt_follows_the_master_limit(
    limit: str, master: str, usable_after_use: bool
) -> None:
    state = f.state(
        2,
        options=Options(guild_masters=True, master_limit=limit),
        seat_changes={0: {"master": master}},
    )
    assert [(p.id, p.seat, p.options) for p in prompts.pending(state)] == [("master", 0, ("use",))]
    used = with_seat(state, 0, f.seat("ferrymen", master=master, master_used=True))
    assert bool(prompts.pending(used)) is usable_after_use


def test_no_master_prompt_without_the_option_or_off_turn() -> None:
    state = f.state(2, seat_changes={0: {"master": "master_ferrymen_1"}})
    assert prompts.pending(state) == ()
    state = table(active_seat=1)
    assert [(p.id, p.seat) for p in prompts.pending(state)] == [("master", 1)]
    assert prompts.pending(table(phase=RESULTS, resolution=Resolution("a"))) == ()


def test_calling_the_watch_is_offered_only_with_watch_cards_left() -> None:
    state = catalogue()["stake_discard"]
    assert prompts.pending(state)[0].options == ("watch", "discard")
    assert prompts.pending(evolve(state, watch_deck=0))[0].options == ("discard",)


def test_win_at_offers_the_districts_whose_stake_the_ability_may_win() -> None:
    state = catalogue()["win_at"]
    # Citizens: Ayane (b), the Harlequin (c) and Tomas (the neutral district).
    assert prompts.pending(state)[0].options == ("b", "c", "n")
    said = [render_seats(words.answer_words("win_at", d, state), NAMES) for d in ("b", "n")]
    assert said == ["district B: Ayane, sword 5", "the neutral district: Tomas, wand 4"]
    enemy = f.effect("immediate_win", stake_type=["citizen"], where="enemy")
    state = _step("win_at", card="ferrymen_17", effects=(enemy,))
    assert prompts.pending(state)[0].options == ("c",)
    c = state.district("c")
    state = with_district(state, District("c", c.friends, None, 3, awaiting=True))
    assert prompts.pending(state)[0].options == ("none",)
    assert words.answer_words("win_at", "none", state) == "Win no stake: none fits"


def test_a_location_without_an_ability_can_only_be_discarded() -> None:
    state = _step("location", card="stake_010")
    assert prompts.pending(state)[0].options == ("discard",)


def test_manual_and_confirm() -> None:
    (manual,) = prompts.pending(catalogue()["manual"])
    assert manual.options[0] == "done" and "drew:2" in manual.options
    assert words.answer_words("manual", "drew:2") == "I drew 2 cards"
    assert words.answer_words("manual", "drew:1") == "I drew 1 card"
    (confirm,) = prompts.pending(catalogue()["confirm"])
    assert (confirm.seat, confirm.options) == (None, ("yes", "no"))
