"""Seeded random full games: every move accepted, counts agree with the world, replay is
identical, and no view or feed line leaks another seat's secrets."""

from __future__ import annotations

import json

import pytest

from scorekeeper.core.game import PUBLIC
from scorekeeper.core.inputs import Decision, Seen, Undo, parse_input
from tests.games.angels_demons.helpers import GAME, World, new_ref


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("mode", ["basic", "advanced"])
def test_random_games_finish_and_replay(n: int, mode: str) -> None:
    for seed in range(5):
        draw = "choice" if seed % 2 else "always2"
        world = World(n, seed, mode=mode, post_set_draw=draw)
        final = world.run()
        assert final.over and final.winners and final.history
        ref = new_ref(n, mode=mode, post_set_draw=draw)
        for line in world.lines:
            inp = parse_input(line)
            assert isinstance(inp, Seen | Decision)
            assert ref.apply(inp).accepted
        assert ref.state == final and hash(ref.state) == hash(final)


def test_views_and_feed_never_leak_secrets_and_undo_restores() -> None:
    world = World(3, 11)
    world.run(max_inputs=600)
    states = [*world.before[1:], world.ref.state]
    for st, events in zip(states, world.events, strict=True):
        hidden = set().union(*(GAME.secrets(st, s) for s in range(3)))
        for event in events:
            assert not any(card in event.replace(",", " ").split() for card in hidden), event
    for st in states[::7]:
        public = json.dumps(GAME.view(st, PUBLIC))
        for seat in range(3):
            for card in GAME.secrets(st, seat):
                assert f'"{card}"' not in public
                for other in range(3):
                    if other != seat:
                        assert f'"{card}"' not in json.dumps(GAME.view(st, other))
    ref = world.ref
    for _ in range(40):
        assert ref.apply(Undo()).accepted
    assert ref.state == world.before[-40]
