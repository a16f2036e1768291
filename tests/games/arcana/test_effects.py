"""Arcana's ability vocabulary carried out (docs/games/arcana.md, "Abilities"): every effect a
pack may give at each ``when`` has a handler in the referee and one in the simulated world,
every effect the sample pack uses is among them, and what nobody would carry out is refused by
the pack check. The events that act: an event's draw at the start of its round (after the 4,
from the first player, G-21 when a deck is short), its ``add`` and ``bribe_bonus`` in the sums.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from scorekeeper.errors import ConfigError
from scorekeeper.games.arcana import abilities, pack, rounds, sums, ties, views
from scorekeeper.games.arcana.pack_vocab import EFFECTS_BY_WHEN
from scorekeeper.games.arcana.state import RESULTS, Events, Options, State, evolve
from scorekeeper.sim.arcana.abilities import Abilities
from scorekeeper.sim.arcana.rules import Reckoning
from scorekeeper.sim.arcana.world import ArcanaWorld
from tests.games.arcana.factory import placed, state

SAMPLE = pack.sample_pack()
_ACTIVE: tuple[str, ...] = ("draw_keep", "draw", "move_agent", "immediate_win", "return_agent")
_ACTIVE += ("extra_action", "manual")
_AT_DISTRICT = ("agent", "results", "always")

# Where each (when, effect) is carried out. The referee: a played location's or a used master's
# effects run in the intrigue phase (abilities.resume); the others count in a sum, a bribe or a
# tie; an event's draw at the round's start, its manual words in every view. The world: by its
# own code (scorekeeper/sim/arcana), never the referee's.
REFEREE: dict[tuple[str, str], Callable[..., Any]] = {
    **{(when, kind): abilities.resume for when in ("play", "use") for kind in _ACTIVE},
    **{(when, "add"): sums.add_bonus for when in _AT_DISTRICT},
    **{(when, "tie_win"): ties.tie_breakers for when in _AT_DISTRICT},
    ("agent", "bribe_bonus"): sums.bribe_sum,
    ("always", "bribe_bonus"): sums.bribe_sum,
    ("results", "copy_agent"): sums.copy_value,
    ("round", "add"): sums.add_bonus,
    ("round", "bribe_bonus"): sums.bribe_sum,
    ("round", "draw"): rounds.event_draw,
    ("round", "manual"): views.view,
}
WORLD: dict[tuple[str, str], Callable[..., Any]] = {
    **{(when, kind): Abilities._ability for when in ("play", "use") for kind in _ACTIVE},
    **{(when, "add"): Reckoning.adds for when in _AT_DISTRICT},
    **{(when, "tie_win"): Reckoning.tie_seats for when in _AT_DISTRICT},
    ("agent", "bribe_bonus"): Reckoning.bribe_sum,
    ("always", "bribe_bonus"): Reckoning.bribe_sum,
    ("results", "copy_agent"): Reckoning.is_harlequin,
    ("round", "add"): Reckoning.adds,
    ("round", "bribe_bonus"): Reckoning.bribe_sum,
    ("round", "draw"): ArcanaWorld._event_draw,
    # A manual event's words are the table's to follow (G-33): the referee shows them and
    # takes nothing of them, so the world's players have nothing to perform either.
    ("round", "manual"): ArcanaWorld._begin_round,
}


def test_every_effect_the_vocabulary_accepts_has_a_handler_in_the_referee_and_the_world() -> None:
    accepted = {(when, kind) for when, kinds in EFFECTS_BY_WHEN.items() for kind in kinds}
    assert accepted == set(REFEREE) == set(WORLD)
    assert all(callable(f) for f in (*REFEREE.values(), *WORLD.values()))


def test_every_effect_of_the_sample_is_accepted_at_its_when() -> None:
    used: set[tuple[str, str]] = set()
    for card in SAMPLE.cards:
        if card.ability is not None:
            used |= {(card.ability.when, e.kind) for e in card.ability.effects}
    assert used <= set(REFEREE), used - set(REFEREE)
    assert ("round", "draw") in used and ("round", "tie_win") not in used
    assert not used & {("play", "add"), ("use", "add"), ("use", "bribe_bonus")}


def _mine(**cards: Any) -> dict[str, Any]:
    data = copy.deepcopy(pack.load_shipped("sample"))
    for piece, ability in cards.items():
        data["cards"][piece] = {**data["cards"][piece], "ability": ability}
    return {**data, "name": "mine", "sample": False}


@pytest.mark.parametrize(
    ("piece", "ability", "words"),
    [
        (
            "event_03",
            {"when": "round", "tie_win": {"arcanum": ["sword"]}},
            "event_03 (Trial by Combat): ability: an event's tie-breaker would favour no one; "
            "give it another effect or write it as manual",
        ),
        (
            "event_04",
            {"when": "round", "extra_action": {}},
            "event_04 (Market Day): ability.extra_action does not act at round",
        ),
        (
            "event_04",
            {"when": "round", "if_stake": "citizen", "draw": {"n": 1}},
            "event_04 (Market Day): ability: an event's draw comes at the start of the round",
        ),
        (
            "blades_17",
            {"when": "play", "add": {"arcanum": "sword", "n": 2, "where": "friendly"}},
            "blades_17 (Armoury): ability.add does not act at play",
        ),
        (
            "master_usurers_1",
            {"when": "use", "bribe_bonus": {"n": 2}},
            "master_usurers_1 (Grand Usurer): ability.bribe_bonus does not act at use",
        ),
        (
            "badge_ferrymen",
            {"when": "always", "manual": {"text": "Wins every tie."}},
            "badge_ferrymen (Ferrymen's Badge): ability.manual does not act at always",
        ),
    ],
)
def test_an_effect_nobody_would_carry_out_is_refused_by_the_pack_check(
    piece: str, ability: dict[str, Any], words: str
) -> None:
    with pytest.raises(ConfigError) as err:
        pack.from_mapping(_mine(**{piece: ability}))
    assert words in str(err.value)


def _between_rounds(
    seats: int, next_event: str, agents: dict[str, Any] | None = None, **seat_changes: Any
) -> State:
    """A table at the end of round 1 on the sample pack, every hand empty, ``next_event`` face
    up and about to be in effect (``s0={...}`` changes seat 0, as the factory's)."""
    changes: dict[int, dict[str, Any]] = {s: {"hand": 0} for s in range(seats)}
    for s, more in seat_changes.items():
        changes[int(s[1:])].update(more)
    base = state(
        seats,
        options=Options(events=True),
        seat_changes=changes,
        agents=agents,
        phase=RESULTS,
        events=Events(now="event_01", next=next_event, left=6),
    )
    return evolve(base, pack=SAMPLE, first_seat=1)


def test_an_event_draw_gives_every_seat_more_after_the_four() -> None:
    s, lines = rounds.start_round(_between_rounds(3, "event_04"))  # Market Day: draw 1
    assert [(x.hand, x.deck) for x in s.seats] == [(5, 2)] * 3
    assert "Everyone draws 1 more for the event Market Day" in lines
    plain, lines = rounds.start_round(_between_rounds(3, "event_02"))  # Ducal Parade: add
    assert [x.hand for x in plain.seats] == [4] * 3
    assert not any("more for the event" in line for line in lines)


def test_an_event_draw_from_a_short_deck_takes_the_discard_pile_as_the_deck_g21() -> None:
    pile = ("ferrymen_05", "ferrymen_06", "ferrymen_07")
    start = _between_rounds(2, "event_10", s0={"deck": 4, "discard": pile})  # Merchant Caravan
    s, _ = rounds.start_round(start)
    mine = s.seats[0]
    assert (mine.hand, mine.deck, mine.discard) == (5, 2, ())
    assert s.seats[1].hand == 5


def test_an_events_add_and_bribe_bonus_count_for_every_seat() -> None:
    agents = {"n": (placed("ferrymen_03", 0), placed("usurers_03", 1))}
    base = _between_rounds(2, "", agents)
    festival = evolve(base, events=Events(now="event_01"))  # +1 chalice at the neutral district
    neutral, district_a = festival.district("n"), festival.district("a")
    assert sums.add_bonus(festival, neutral, 0, "chalice") == 1
    assert sums.add_bonus(festival, neutral, 1, "chalice") == 1
    assert sums.add_bonus(festival, neutral, 1, "sword") == 0
    assert sums.add_bonus(festival, district_a, 0, "chalice") == 0
    season = evolve(base, events=Events(now="event_08"))  # Bribe Season: +1 to bribes
    plain = sums.bribe_sum(festival, "n", 0, "sword", "")
    assert sums.bribe_sum(season, "n", 0, "sword", "") == plain + 1
