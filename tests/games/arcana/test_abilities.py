"""The ability vocabulary in the intrigue phase: T-11 (House of Penitence: hand 4 -> 3 -> 5 ->
4, deck -2, discard +2), a draw short of cards (G-21, G-37), T-13 (moved agents turn face up
and face down, R-INT-6), ``immediate_win`` with the set-aside (G-26), ``return_agent``,
``extra_action``, ``manual`` with the organiser's confirmation (G-33), and guild masters
(R-OPT-E-2, G-38).
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from scorekeeper.core.outcomes import Accepted, Rejected
from scorekeeper.games.arcana import abilities, intrigue, masters
from scorekeeper.games.arcana.cards import Ability, Effect, Pack
from scorekeeper.games.arcana.state import NEUTRAL, Options, State, evolve
from tests.games.arcana import factory
from tests.games.arcana.factory import ability, effect

HOUSE = "blades_15"  # draw 2, keep 1
PLACE = "ferrymen_15"  # a Ferrymen location whose ability each test sets
MERCHANT, FUNERAL, CROSSBOWMAN, PALE_ONE = "ferrymen_01", "ferrymen_02", "ferrymen_03", "usurers_01"


def see(state: State, zone: str, piece: str) -> Accepted[State]:
    out = intrigue.observe(state, zone, piece)
    assert isinstance(out, Accepted), out
    return out


def say(state: State, prompt: str, answer: str, seat: int | None = 0) -> Accepted[State]:
    out = intrigue.decide(state, prompt, answer, seat)
    assert isinstance(out, Accepted), out
    return out


@cache
def pack_with(piece: str, given: Ability) -> Pack:
    base = factory.pack()
    cards = tuple(replace(c, ability=given) if c.id == piece else c for c in base.cards)
    return Pack(base.name, base.sample, base.domains, cards)


def played(state: State, *effects: Effect) -> Accepted[State]:
    """Seat 0 plays PLACE with ``effects`` and uses it."""
    state = evolve(state, pack=pack_with(PLACE, ability("play", *effects)))
    return say(see(state, "discard:0", PLACE).state, "location", "play")


def test_t_11_house_of_penitence() -> None:
    state = factory.state(2, guilds=("blades", "usurers"))
    out = see(state, "discard:0", HOUSE)
    assert out.state.seats[0].hand == 3
    assert out.state.steps[0].kind == "location"
    out = say(out.state, "location", "play")
    seat = out.state.seats[0]
    assert (seat.hand, seat.deck) == (5, 5)
    assert out.state.steps[0].kind == "keep" and out.state.steps[0].count == 1
    assert "{seat:0} draws 2 cards (the House of Penitence)" in out.events
    assert out.state.active_seat == 0
    out = see(out.state, "discard:0", "blades_03")
    seat = out.state.seats[0]
    assert (seat.hand, seat.deck, seat.discard) == (4, 5, (HOUSE, "blades_03"))
    assert not out.state.steps
    assert out.state.active_seat == 1
    discarded = see(state, "discard:0", HOUSE)
    out = say(discarded.state, "location", "discard")
    assert out.events == ("{seat:0} discards the House of Penitence unused",)
    assert out.state.seats[0].hand == 3 and out.state.active_seat == 1


def test_g_21_a_draw_short_of_cards_reshuffles_and_the_last_cards_are_known() -> None:
    pile = tuple(f"blades_0{k}" for k in range(2, 8))
    state = factory.state(
        2, guilds=("blades", "usurers"), seat_changes={0: {"deck": 1, "discard": pile}}
    )
    out = say(see(state, "discard:0", HOUSE).state, "location", "play")
    seat = out.state.seats[0]
    assert (seat.hand, seat.deck, seat.discard) == (5, 6, ())
    assert seat.hand_known == {"blades_01", "blades_08", "blades_09", "blades_18"}


def test_t_13_moved_agents_turn_face_up_and_face_down() -> None:
    state = factory.state(
        2,
        agents={
            "a": (
                factory.placed(FUNERAL, 0, face_up=False),
                factory.placed(MERCHANT, 0, face_up=False),
            ),
            NEUTRAL: (factory.placed(CROSSBOWMAN, 0),),
        },
    )
    move = effect("move_agent", whose="any", to="any")
    out = played(state, move, move, move)
    assert out.state.steps[0].kind == "move"
    out = see(out.state, "agents_c", FUNERAL)  # friendly -> enemy
    assert out.state.district("c").agents[0].face_up
    assert (
        out.events[0] == "{seat:0}'s Funeral moves from district A to district C: turn it face up"
    )
    out = see(out.state, "agents_b", CROSSBOWMAN)  # neutral -> friendly
    assert not out.state.district("b").agents[0].face_up
    assert out.events[0] == (
        "{seat:0}'s Crossbowman moves from the neutral district to district B: turn it face down"
    )
    out = see(out.state, "agents_b", MERCHANT)  # friendly -> friendly: still unnamed
    assert out.events[0] == "{seat:0}'s face-down agent moves from district A to district B"
    assert not out.state.district("a").agents
    assert not out.state.steps and out.state.active_seat == 1


def test_a_move_the_ability_does_not_allow_is_refused_and_none_moves_nothing() -> None:
    state = factory.state(
        2, agents={"a": (factory.placed(FUNERAL, 0, face_up=False), factory.placed(PALE_ONE, 1))}
    )
    out = played(state, effect("move_agent", whose="own", to="enemy"))
    wrong = intrigue.observe(out.state, "agents_n", FUNERAL)  # the neutral one is no enemy
    assert isinstance(wrong, Rejected) and wrong.rule == "R-INT-6"
    assert "Funeral" not in wrong.reason
    wrong = intrigue.observe(out.state, "agents_c", PALE_ONE)  # not seat 0's own
    assert isinstance(wrong, Rejected) and wrong.rule == "R-INT-6"
    out = say(out.state, "move", "none")
    assert out.events[0] == "{seat:0} moves no agent"
    assert out.state.active_seat == 1


def test_immediate_win_asks_the_district_and_the_set_aside() -> None:
    state = factory.state(2, options=Options(set_aside=True))
    out = played(state, effect("immediate_win", stake_type=["citizen"]))
    step = out.state.steps[0]
    assert step.kind == "win_at"
    assert abilities.win_answers(out.state, 0, step.effects[0], PLACE) == ("b", "c", NEUTRAL)
    wrong = intrigue.decide(out.state, "win_at", "a", 0)  # the Sword is a relic
    assert isinstance(wrong, Rejected)
    out = say(out.state, "win_at", NEUTRAL)
    assert out.events[0] == "{seat:0} wins Tomas at the neutral district at once"
    assert out.state.steps[0].kind == "set_aside"
    assert out.state.active_seat == 0  # the action ends with the stake's place
    out = see(out.state, "badge:0", "stake_005")
    assert out.state.seats[0].set_aside == ("stake_005",)
    assert "stake_005" in out.state.seats[0].owned
    assert not out.state.steps and out.state.active_seat == 1
    assert out.state.district(NEUTRAL).awaiting


def test_return_agent_by_place_names_only_a_face_up_agent() -> None:
    state = factory.state(
        2,
        agents={
            NEUTRAL: (factory.placed(PALE_ONE, 1),),
            "d": (factory.placed("usurers_02", 1, face_up=False),),
        },
    )
    out = played(state, effect("return_agent", whose="other", where="any"))
    step = out.state.steps[0]
    assert abilities.return_answers(out.state, 0, step.effects[0], PLACE) == ("d.1", PALE_ONE)
    back = say(out.state, "return", "d.1")
    assert back.events[0] == "{seat:1}'s face-down agent at district D goes to the discard pile"
    assert back.state.seats[1].discard == ("usurers_02",)
    back = say(out.state, "return", PALE_ONE)
    assert back.events[0] == "{seat:1}'s Pale One at the neutral district goes to the discard pile"
    wrong = intrigue.decide(out.state, "return", "n.1", 0)  # a face-up agent goes by name
    assert isinstance(wrong, Rejected)
    none = say(out.state, "return", "none")
    assert none.events[0] == "{seat:0} sends no agent back"
    assert none.state.active_seat == 1


def test_extra_action_keeps_the_turn() -> None:
    out = played(factory.state(2), effect("extra_action"))
    assert out.state.active_seat == 0 and out.state.actions == 1
    out = see(out.state, "agents_n", CROSSBOWMAN)
    assert out.state.active_seat == 1


def test_manual_is_done_by_hand_and_confirmed_by_the_organiser() -> None:
    state = factory.state(2, agents={"a": (factory.placed(FUNERAL, 0, face_up=False),)})
    out = played(state, effect("manual", text="Swap two cards."))
    assert out.state.steps[0].kind == "manual"
    assert "{seat:0} carries out the Ferrymen 15 house by hand: Swap two cards." in out.events
    out = see(out.state, "discard:0", CROSSBOWMAN)  # taken as the table says
    assert out.state.seats[0].hand == 2 and out.state.active_seat == 0
    out = see(out.state, "discard:0", FUNERAL)  # from a district, as the card says
    assert out.events == ("{seat:0} takes a face-down agent from district A to the discard pile",)
    assert not out.state.district("a").agents and out.state.seats[0].hand == 2
    out = say(out.state, "manual", "drew:1")
    assert out.state.steps[0].kind == "confirm"
    again = say(out.state, "confirm", "no", None)
    assert again.state.steps[0].kind == "manual"
    out = say(out.state, "confirm", "yes", None)
    seat = out.state.seats[0]
    assert (seat.hand, seat.deck) == (3, 6)
    assert "resolved by hand, confirmed by the organiser" in out.events[0]
    assert out.state.active_seat == 1


def test_guild_master_use_is_no_action_and_once_a_round_by_the_card() -> None:
    state = factory.state(
        2, options=Options(guild_masters=True), seat_changes={0: {"master": "master_ferrymen_1"}}
    )
    assert masters.usable(state, 0)
    out = say(state, "master", "use")
    seat = out.state.seats[0]
    assert (seat.hand, seat.deck, seat.master_used) == (5, 6, True)
    assert out.state.active_seat == 0 and out.state.actions == 1  # G-38
    assert not masters.usable(out.state, 0)
    spent = intrigue.decide(out.state, "master", "use", 0)
    assert isinstance(spent, Rejected) and spent.rule == "R-OPT-E-2"
    assert spent.hint == "play your turn without it; it can be used again next round"
    unlimited = evolve(out.state, options=Options(guild_masters=True, master_limit="unlimited"))
    assert say(unlimited, "master", "use").state.seats[0].hand == 6
