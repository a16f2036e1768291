"""Secrets that are not piece ids (issue 12, point 2): the private-value contract
(``Game.private_values``, ``private_range``, ``perturb_private``) and its perturbation check
(tests/perturb_values.py), proven on Gold (tests/toy_gold.py), a toy game with each seat's gold
private: the honest game passes, and variants leaking the gold to the public or to another
seat, without naming any piece, fail. Registered for these tests only."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper import games as registry
from scorekeeper.core.game import Audience
from scorekeeper.core.inputs import Correct, Decision, Seen, Undo
from scorekeeper.games import find_game, game_ids
from tests.perturb_values import check_private, played_by_walk
from tests.toy_gold import ID, Gold, GoldState, LeakyGold


def test_the_honest_game_keeps_each_seats_gold_to_itself() -> None:
    kinds: set[type] = set()
    for seats, seed in ((2, 0), (3, 1), (3, 2), (2, 3)):
        played = played_by_walk(Gold(), seats, seed)
        assert played.game.is_over(played.states[-1]), "the walk should finish a game of Gold"
        kinds |= {type(op.inp) for op in played.ops}
        differences, report = check_private(played)
        assert not differences, "\n\n".join(map(str, differences))
        # The check did work: values met, other values tried, steps played on and compared.
        assert report.keys == {"gold"} and report.tried > 20 and report.steps > 2 * report.tried
        print(f"Gold, {seats} seats, seed {seed}: {len(played.ops)} inputs; {report}")
    assert {Seen, Decision, Undo, Correct} <= kinds, kinds  # undos and corrections included


def test_a_public_total_of_gold_is_caught() -> None:
    """The public view tells the sum of everyone's gold: no piece, no seat's name; changing
    one seat's gold changes it, for the TV and for every other seat."""
    differences, _ = check_private(played_by_walk(LeakyGold(), 3, 0), limit=3)
    assert differences, "the check missed a public total of private gold"
    first = str(differences[0])
    assert "private gold set from" in first and "changed what the public got" in first, first
    assert "gold in play" in first, first


class _TellsTheNextSeat(Gold):
    """Each seat's screen shows the gold of the seat after it: the public view stays clean."""

    def view(self, state: GoldState, audience: Audience) -> dict[str, Any]:
        out = super().view(state, audience)
        if isinstance(audience, int):
            out["neighbour"] = state.gold[(audience + 1) % state.n]
        return out


def test_a_leak_to_one_other_seat_only_is_caught() -> None:
    differences, _ = check_private(played_by_walk(_TellsTheNextSeat(), 3, 0), limit=1)
    assert differences and " got at state " in str(differences[0])
    leaked = differences[0]
    assert leaked.audience == f"seat {(leaked.seat - 1) % 3}", str(leaked)


class _PricesInTheOptions(Gold):
    """The buy prompt (shown to everyone) offers "buy" only to a seat that can pay: it never
    names the gold, and still tells whether it is 3 or more."""

    def pending(self, state: GoldState) -> tuple[Any, ...]:
        from scorekeeper.core.outcomes import Prompt

        if state.phase == "buy" and state.gold[state.turn] < 3:
            return (Prompt("buy", state.turn, "Buy a point?", ("pass",)),)
        return super().pending(state)


def test_a_prompt_whose_options_depend_on_the_gold_is_caught() -> None:
    differences, _ = check_private(played_by_walk(_PricesInTheOptions(), 3, 0), limit=1)
    assert differences and '"options"' in differences[0].original, str(differences[0])


def test_every_registered_game_is_checked_for_its_private_values(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The loop the suite runs over registered games reaches a game registered with private
    values: here Gold, registered for this test only, beside the real games (a scan of their
    states for those that declare none); every game that declares one has it tried."""
    monkeypatch.setitem(registry._REGISTRY, ID, Gold)
    monkeypatch.setattr(registry, "_LOADED", dict(registry._LOADED))
    checked = {}
    for game_id in game_ids():
        game = find_game(game_id)
        played = played_by_walk(game, game.min_seats, 0, max_steps=40)
        differences, report = check_private(played)
        assert not differences, "\n\n".join(map(str, differences))
        checked[game_id] = report
    declared = {g for g, r in checked.items() if r.keys}
    assert ID in declared, checked
    assert all(checked[g].tried > 0 and checked[g].steps > 0 for g in declared), checked
