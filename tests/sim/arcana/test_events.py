"""The simulated Arcana world carries out an event in effect by its own code: a ``draw`` event
gives every seat more cards after the 4 at the start of its round (docs/games/arcana.md, "Start
of a round"); another event gives none. The referee's side: tests/games/arcana/test_effects.py;
that both agree over whole games: test_against_referee.py."""

from __future__ import annotations

from scorekeeper.sim.arcana.world import ArcanaWorld


def _first_round_with(event: str) -> ArcanaWorld:
    """A dealt 3-seat world with events whose first event is ``event``, round 1 begun."""
    world = ArcanaWorld(3, {"events": True}, 1)
    world.event_deck = [e for e in world.event_deck if e != event]
    world.event_next = event
    world._begin_round()
    return world


def test_a_draw_event_gives_every_seat_one_more_card() -> None:
    world = _first_round_with("event_04")  # Market Day: draw 1
    assert world.event_now == "event_04"
    assert [len(p.hand) for p in world.players] == [5, 5, 5]
    assert [len(p.deck) for p in world.players] == [6, 6, 6]
    assert world.events["event_draw"] == 1


def test_another_event_draws_nothing_more() -> None:
    world = _first_round_with("event_01")  # Festival of Lanterns: +1 chalice at the neutral
    assert [len(p.hand) for p in world.players] == [4, 4, 4]
    assert world.events["event_draw"] == 0
