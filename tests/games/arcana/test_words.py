"""Arcana in words (words.py): the waiting line of every situation, answers as the contract's
table words them, abilities, and inputs described for the organiser's feed."""

from __future__ import annotations

import re

import pytest

from scorekeeper.core.inputs import Decision, Seen, Undo, parse_input
from scorekeeper.core.text import render_seats
from scorekeeper.games.arcana import words
from scorekeeper.games.arcana.cards import PIECES
from scorekeeper.games.arcana.state import District, Events, Options, Step, evolve, with_district
from tests.games.arcana import factory as f
from tests.games.arcana.test_prompts import NAMES, SYNTAX, catalogue, table

IDS = set(PIECES)


def _line(state: object) -> str:
    return render_seats(words.waiting_for(state), NAMES)  # type: ignore[arg-type]


def test_every_situation_has_its_own_waiting_line_in_plain_words() -> None:
    lines = {name: _line(state) for name, state in catalogue().items()}
    for name, line in lines.items():
        assert line.strip(), name
        assert not SYNTAX.search(line), (name, line)
        assert not set(re.findall(r"\w+", line)) & IDS, (name, line)
        assert "Funeral" not in line and "Pale One" not in line, (name, line)  # face down
    assert len(set(lines.values())) == len(lines), lines


@pytest.mark.parametrize(
    ("name", "line"),
    [
        ("turn", "Ann's turn: play an agent, a location, a relic, a discard or call the watch"),
        ("keep", "Ann keeps 1 of the 2 cards drawn and lays 1 card on Ann's discard pad"),
        ("location", "Ann says whether to use the Ferrymen 15 house's ability"),
        ("watch_card", "Ann lays the top watch card on a district's agents pad"),
        ("relic_on", "Ann says which agent at district A takes the Barhan sword"),
        ("confirm", "The organiser confirms that the Ferrymen master 3's ability was carried out"),
        ("next_district", "Ann chooses the next district to settle"),
        (
            "declare",
            "Turn every card at district C face up; Bea says which arcanum to count there",
        ),
        (
            "copy",
            "Turn every card at district B face up; Bea says which agent Harlequin copies",
        ),
        (
            "awaiting",
            "Turn up district B's next stake; Ann's turn: play an agent, a location, a relic, "
            "a discard or call the watch",
        ),
        ("over", "The game is over: Bea wins"),
        ("shared win", "The game is over: Ann and Bea share the win"),
    ],
)
def test_waiting_lines(name: str, line: str) -> None:
    assert _line(catalogue()[name]) == line


def test_the_setup_line_names_what_is_still_missing() -> None:
    line = _line(catalogue()["setup"])
    assert line.startswith("Setting up: the first stake of district A; ")
    assert "the first stake of the neutral district" in line
    assert "Ann's badge" not in line and "Bea's badge" in line
    assert "Ann's guild master" not in line and "Bea's guild master" in line
    state = evolve(
        catalogue()["setup"],
        options=Options(objectives=True, custom_guild=True, events=True),
        events=Events(left=11),
    )
    line = _line(state)
    assert "Ann's 2 kept objectives" in line and "9 returned cards on Ann's discard pad" in line
    assert line.endswith("the first event on the event pad")


def test_several_districts_awaiting_their_next_stake() -> None:
    state = catalogue()["awaiting"]
    a = state.district("a")
    state = with_district(state, District("a", a.friends, None, 2, awaiting=True))
    assert _line(state).startswith("Turn up the next stakes of district A and district B; ")


def test_a_step_about_a_face_down_agent_names_it_by_its_owner() -> None:
    state = table(steps=(Step("return", 0, card="ferrymen_02"),))
    assert _line(state) == "Ann names the agent Ann's face-down agent sends back"


def test_extra_actions_and_the_next_event_are_said() -> None:
    state = table(actions=2, options=Options(events=True), events=Events(now="event_01", left=8))
    assert _line(state) == (
        "Lay the next event on the event pad; Ann's turn (2 actions left): play an agent, "
        "a location, a relic or a discard"
    )


def test_answers_in_the_contract_s_words() -> None:
    state = table()
    said = {
        ("next_district", "c"): "district C (Bea's): Harlequin, sword 5, wand 5 or chalice 5",
        ("next_district", "a"): "district A (Ann's): the Sword, sword 4",
        ("next_district", "n"): "the neutral district: Tomas, wand 4",
        ("win_at", "b"): "district B: Ayane, sword 5",
        ("location", "discard"): "Discard it unused",
        ("stake_discard", "watch"): "Call the watch",
        ("stake_discard", "discard"): "Just discard it",
        ("bribe_arcanum", "sword"): "Bribe in sword",
        ("move", "none"): "Move no agent",
        ("master", "use"): "Use your guild master: draw 1 card",
        ("manual", "done"): "Done",
        ("confirm", "yes"): "It was done as the card says",
        ("confirm", "no"): "Undo it",
        ("declare", "none"): "Declare none",
        ("copy", "none"): "It counts 0",
        ("set_aside", "discard"): "Onto your discard pile",
        ("set_aside", "badge"): "Under your badge",
    }
    for (prompt, answer), text in said.items():
        assert render_seats(words.answer_words(prompt, answer, state), NAMES) == text
    three = f.state(3)
    assert render_seats(words.answer_words("next_district", "a", three), NAMES) == (
        "district A (Ann and Bea's): the Sword, sword 4"
    )
    located = table(steps=(Step("location", 0, card="blades_15"),))
    assert words.answer_words("location", "play", located) == "Use its ability: draw 2, keep 1"
    declaring = catalogue()["declare"]
    assert words.answer_words("declare", "wand", declaring) == "Declare wand (it needs 5)"


def test_answers_without_a_state_still_read_as_words() -> None:
    assert words.answer_words("location", "play") == "Use its ability"
    assert words.answer_words("master", "use") == "Use your guild master"
    assert words.answer_words("next_district", "n") == "the neutral district"
    assert words.answer_words("declare", "chalice") == "Declare chalice"
    assert words.answer_words("relic_on", "ferrymen_03") == "the Ferrymen card 3"
    assert words.answer_words("return", "a.2") == "an agent"
    assert words.prompt_words("bribe_arcanum") == "the arcanum of the bribe"
    assert words.prompt_words("something_new") == "something new"


def test_abilities_in_words() -> None:
    e = f.effect
    cases = {
        e("draw_keep", draw=2, keep=1): "draw 2, keep 1",
        e("draw", n=1): "draw 1 card",
        e("tie_win", arcanum=["wand"]): "win ties in wand",
        e("tie_win", stake_type=["relic"]): "win ties for a relic stake",
        e("copy_agent"): "count as another agent at its district",
        e("move_agent", whose="any", to="friendly"): "move any agent to a friendly district",
        e("add", arcanum="sword", n=1, where="here"): "+1 sword at its district",
        e("bribe_bonus", n=2): "+2 to your bribes",
        e("immediate_win", stake_type=["citizen", "relic"]): "win a citizen or relic stake at once",
        e("return_agent", whose="own"): "send one of your agents back to its owner's discard pile",
        e("extra_action"): "one more action this turn",
        e("manual", text="Swap two cards."): "Swap two cards.",
    }
    for effect, text in cases.items():
        assert words.effect_words(effect) == text
    conditional = f.ability("agent", e("add", arcanum="wand", n=2, where="any"), if_stake="citizen")
    assert (
        words.ability_words(conditional) == "+2 wand at any district, when the stake is a citizen"
    )
    assert words.ability_words(None) == ""


def test_inputs_in_words_for_the_organiser() -> None:
    state = table()
    said = {
        "+agents_a ferrymen_05": "the Ferrymen 5 agent laid on district A's agents",
        "-stake_b stake_002": "Ayane lifted off district B's stake",
        "+discard:1 usurers_15": "the Usurers 15 house laid on Bea's discard pad",
        "+badge:0 master_ferrymen_1": "the Ferrymen master 1 laid on Ann's badge",
        "decide 0 next_district c": (
            "Ann's answer about the next district to settle: district C (Bea's): Harlequin, "
            "sword 5, wand 5 or chalice 5"
        ),
        "decide organiser confirm yes": (
            "the organiser's answer about confirming an ability carried out by hand: It was "
            "done as the card says"
        ),
    }
    for line, text in said.items():
        assert words.describe_input(parse_input(line), NAMES, state) == text
    assert words.describe_input(Undo(), NAMES, state) is None
    assert words.describe_input(Seen("stake_a", "stake_001", True), NAMES, pack=f.pack()) == (
        "the Sword laid on district A's stake"
    )


def test_a_card_going_face_down_is_a_face_down_agent_in_the_public_words() -> None:
    state = table()
    hidden = Seen("agents_a", "ferrymen_05", True)  # Ann's agent at her friendly district
    shown = Seen("agents_c", "ferrymen_05", True)  # ... at Bea's: face up
    assert words.describe_input(hidden, NAMES, state, public=True) == (
        "Ann's face-down agent laid on district A's agents"
    )
    assert words.describe_input(shown, NAMES, state, public=True) == (
        "the Ferrymen 5 agent laid on district C's agents"
    )
    already = Seen("agents_a", "ferrymen_02", True)  # the Funeral lies there face down
    assert "face-down" in str(words.describe_input(already, NAMES, state, public=True))
    assert words.describe_input(already, NAMES, state) == "the Funeral laid on district A's agents"
    watch = Seen("agents_b", "constable_2", True)  # called by Ann, the actor, at her district
    assert words.describe_input(watch, NAMES, state, public=True) == (
        "Ann's face-down agent laid on district B's agents"
    )
    decision = Decision(1, "declare", "sword")
    assert words.describe_input(decision, NAMES, state, public=True) == (
        "Bea's answer about the arcanum counted: Declare sword"
    )
