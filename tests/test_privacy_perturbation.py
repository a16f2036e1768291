"""Privacy proven by perturbation (issue 12, point 3; docs/design.md, invariant 5).

The first line of defence: for seeded games of every registered game, each seat's secrets are
swapped for pieces consistent with everything public (tests/perturb.py says how), and both
histories are played through the real Hub, with pinned undos, corrections and stray pieces;
every audience but that seat and the organiser must get the same bytes at every step. The
piece-id scans (tests/test_conformance.py, tests/games/arcanum/test_privacy.py) are the second
line. The planted leaks below prove the check fails when it should, including leaks that name
no piece (which the piece-id scans cannot see).
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from scorekeeper.games import find_game, game_ids
from scorekeeper.sim import has_world
from tests.perturb import check, plan, play, played_until
from tests.perturb_values import check_private

# (game, seats, seed): two games at the fewest seats and one at one seat more, per game.
CASES = [
    (g, min(find_game(g).min_seats + extra, find_game(g).max_seats), seed)
    for g in game_ids()
    if has_world(g)
    for extra, seed in ((0, 0), (0, 1), (1, 1))
]


@pytest.mark.parametrize(("game_id", "seats", "seed"), CASES)
def test_a_seats_secrets_change_nothing_anyone_else_gets(
    game_id: str, seats: int, seed: int
) -> None:
    """Every other audience gets the same bytes, step by step, with a seat's secrets swapped."""
    started = time.perf_counter()
    played = play(game_id, seats, seed)
    the_plan = plan(played)
    # Every secret life is swapped or counted as unswappable, with its reason.
    assert the_plan.swapped + sum(the_plan.skipped.values()) >= the_plan.lives
    compared: dict[str, int] = {}
    differences = check(played, the_plan, compared=compared)
    # Private values that are not pieces (a seat's gold), changed in the state through the
    # game's contract (tests/perturb_values.py): none declared yet costs a scan of the states.
    value_differences, values = check_private(played)
    took = time.perf_counter() - started
    if the_plan.runs:  # every audience was heard from, not only present
        assert compared and min(compared.values()) > 0, compared
    summary = (
        f"{game_id} seed {seed}, {seats} seats: {len(played.ops)} steps, "
        f"{the_plan.lives} secret lives, {the_plan.swapped} life swaps in "
        f"{len(the_plan.runs)} runs, not swapped: {the_plan.skipped}; states with a "
        f"secret fully swapped: {the_plan.covered_states}/{the_plan.secret_states}; "
        f"{values}; {took:.1f} s"
    )
    assert not value_differences, f"{summary}\n\n" + "\n\n".join(map(str, value_differences))
    # A game that declares private values but no other value they could hold compares nothing.
    assert values.tried or not values.values, f"{summary}: Game.private_range gives nothing"
    print(summary)
    known = f"\n\n{REFUSAL_LEAK}" if any('"rejection"' in d.before() for d in differences) else ""
    assert not differences, (
        f"{summary}\nWhat one seat alone knows changed what others got (a leak, unless the "
        "perturbation itself is inconsistent with the public history: see tests/perturb.py):"
        "\n\n" + "\n\n".join(map(str, differences)) + known
    )


def test_the_perturbation_reaches_the_secrets_of_a_game_that_has_them() -> None:
    """Arcanum's hidden minors are swapped in most states where a seat holds one, so the check
    above is no empty ritual; Angels & Demons has no secret of one seat alone: each card it
    keeps from the others' screens was taken from the face-up talon, in everyone's sight."""
    arcanum = plan(play("arcanum", 3, 0))
    assert arcanum.runs and arcanum.covered_states >= 0.8 * arcanum.secret_states
    angels = plan(play("angels-and-demons", 2, 0))
    assert angels.lives and not angels.runs
    assert set(angels.skipped) == {"in sight before it was a secret"}
    # Arcana's face-down agents are swapped for cards of their guild, type and letter that stay
    # out of sight meanwhile: fewer states than Arcanum's (a starting deck of 11 cycles through
    # the discard pile in everyone's sight, so most cards have no partner out of sight all
    # along), but some in every game.
    arcana = plan(play("arcana", 2, 0))
    assert arcana.runs and arcana.covered_states >= 0.1 * arcana.secret_states


# -- leaks the check found in the code --------------------------------------------------------

REFUSAL_LEAK = (
    "A refusal shown to everyone but the organiser must say the same whichever card a seat "
    "hides later: refusals shown to others name no piece at all (Table.secret_names). It once "
    'took out only the names of the cards secret *now*, so an old public refusal ("take the 4 '
    'of wands off the location") turned into "take the card off the location" the moment a '
    "seat hid that card, and the TV learnt which card was hidden."
)


def _hide(extra_before: list[Any], extra_after: list[Any]) -> Any:
    """An ``instead`` for ``played_until``: at the first hide, play ``extra_before`` (made from
    the hidden piece), the hide, then ``extra_after``."""
    from scorekeeper.core.inputs import Seen

    def instead(state: Any, inp: Any) -> list[Any] | None:
        if isinstance(inp, Seen) and inp.present and inp.zone.startswith("hide:"):
            return [*(make(inp.piece) for make in extra_before), inp, *extra_after]
        return None

    return instead


def test_an_undone_hide_says_the_same_to_others_whichever_card_it_was() -> None:
    """A card lifted off the minor discard pile (a departure changes nothing), then hidden, then
    the hide undone: the public words said "put it back on the minor discard pile", as the log
    last saw the card leave it, which told everyone which card had been hidden. Arcanum now
    locates its cards (Game.locate): "put it back in P1's hand", whatever the card."""
    from scorekeeper.core.inputs import Seen, Undo

    played = played_until(
        "arcanum", 3, 0, _hide([lambda piece: Seen("minor_discard", piece, False)], [Undo()])
    )
    assert isinstance(played.ops[-1].inp, Undo)
    differences = check(played, plan(played))
    assert not differences, "\n".join(map(str, differences))


def test_an_old_public_refusal_keeps_its_words_when_the_card_is_hidden_later() -> None:
    """A card laid on a location by mistake is refused in public, naming it; then the same card
    is hidden. What others see of the old refusal must not depend on which card was hidden."""
    from scorekeeper.core.inputs import Seen

    played = played_until("arcanum", 3, 0, _hide([lambda piece: Seen("loc:1", piece, True)], []))
    differences = check(played, plan(played))
    assert not differences, REFUSAL_LEAK + "\n\n" + "\n".join(map(str, differences))


# -- planted leaks: the check must catch them -------------------------------------------------


def _leaky_public(monkeypatch: pytest.MonkeyPatch, extra: Any) -> None:
    """Make Arcanum's public view (and so every seat's) carry ``extra(state)`` too."""
    from scorekeeper.games.arcanum import views

    honest = views.public

    def public(state: Any) -> dict[str, Any]:
        out = honest(state)
        out["planted"] = extra(state)
        return out

    monkeypatch.setattr(views, "public", public)


def _values(state: Any, seat: int) -> list[int]:
    from scorekeeper.games.arcanum.cards import VALUES

    return sorted(
        VALUES[c.partition("_")[2]] for c in state.hidden(seat) if c not in state.revealed
    )


def _caught(game_id: str = "arcanum", seats: int = 3, seed: int = 0) -> list[str]:
    played = play(game_id, seats, seed)
    return [str(d) for d in check(played, plan(played), limit=1)]


def test_a_card_named_to_the_public_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The plainest leak: the TV names seat 0's first hidden card."""
    _leaky_public(
        monkeypatch, lambda state: [c for c in state.hidden(0) if c not in state.revealed][:1]
    )
    caught = _caught()
    assert caught and "seat 0's secrets" in caught[0] and "public" in caught[0], caught


def test_a_leak_that_names_no_piece_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The values of each seat's hidden cards, sorted: no piece id and no card's words, so the
    piece-id scan passes it, and the perturbation check does not."""
    from tests.test_conformance import _leaks

    _leaky_public(monkeypatch, lambda state: [_values(state, s) for s in range(state.n)])
    played = play("arcanum", 3, 0)
    game = played.game
    for before, after in zip(played.states, played.states[1:], strict=False):
        assert not _leaks(game, before, after, 3, ()), "the piece-id scan should miss it"
    differences = check(played, plan(played), limit=3)
    assert differences, "the perturbation check missed the values of hidden cards"
    assert any(
        d.audience.startswith(("public", "WebSocket", "view of seat")) for d in differences
    ), [str(d) for d in differences]


def test_a_count_by_kind_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """How many of seat 1's hidden cards are figures (page to king): a count, like a count by
    colour, that names no piece; swapping a number card for a figure of its family changes
    it."""
    from scorekeeper.games.arcanum.cards import FIGURES

    _leaky_public(
        monkeypatch,
        lambda state: sum(
            c.partition("_")[2] in FIGURES for c in state.hidden(1) if c not in state.revealed
        ),
    )
    caught = _caught()
    assert caught and "seat 1's secrets" in caught[0], caught


def test_a_leak_to_another_seat_only_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat 2's screen alone shows the values of seat 0's hidden cards: the public view stays
    clean, and the check still finds it on seat 2's frames."""
    from scorekeeper.games.arcanum import views

    honest = views.seat_view

    def seat_view(state: Any, seat: int) -> dict[str, Any]:
        out = honest(state, seat)
        if seat == 2:
            out["planted"] = _values(state, 0)
        return out

    monkeypatch.setattr(views, "seat_view", seat_view)
    caught = _caught()
    assert caught and "seat 0's secrets" in caught[0], caught
    audience = caught[0].split(" changed what the ")[1].split(" got ")[0]
    assert audience in ("view of seat 2", "WebSocket frames to seat 2"), caught
