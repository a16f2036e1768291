"""What the console says the latest correction changed: against the override it replaced,
not against the table's own result, and a clearing against the override it took away."""

from __future__ import annotations

from scorekeeper.event.hub_views import _latest_changes
from scorekeeper.event.records import OverrideCleared, ResultOverride
from scorekeeper.event.state import apply
from tests.event.event_core_helpers import event, play_round


def test_the_latest_correction_is_compared_with_what_it_replaced() -> None:
    _records, state = event(8)
    state, results = play_round(state, {}, seed=1)
    pod = state.rounds[0].pods[0]
    first, second = pod.players[0], pod.players[-1]

    own = {pod.players[seat]: score for seat, _rank, score in results[pod.game_id].places}

    def override(top: str, reason: str) -> ResultOverride:
        """``top`` first; the others as the table had them; the table's own scores, the top
        place's score given to ``top``."""
        order = sorted(pod.players, key=lambda p: (p != top, -own[p]))
        scores = sorted(own.values(), reverse=True)
        places = tuple((p, rank, scores[rank - 1]) for rank, p in enumerate(order, start=1))
        return ResultOverride(pod.game_id, places, reason, "Jo")

    # A judge puts the last seat first: that moves players.
    state = apply(state, override(second, "the last seat won"))
    assert any(state.name(second) in words for words in _latest_changes(state, results))
    # A second override on the same game, back to the table's own order: compared with the
    # override it replaced (players move back), not with the table's result (nothing).
    state = apply(state, override(first, "the sheet was right"))
    back = _latest_changes(state, results)
    assert back and any(state.name(first) in words for words in back)
    # Cleared: the table's own result again, equal to the override taken away: nobody moves.
    state = apply(state, OverrideCleared(pod.game_id, "no override needed", "Jo"))
    assert _latest_changes(state, results) == []
