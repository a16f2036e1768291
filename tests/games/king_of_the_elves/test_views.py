"""What each audience sees: a seat's gold only in its own and the organiser's view, scores 0
during play, the band option, the public keys of the contract, and a mid-game snapshot's round
trip."""

from __future__ import annotations

import json

from scorekeeper.core.snapshot import round_trips
from scorekeeper.games.king_of_the_elves.state import State, with_seat
from tests.games.king_of_the_elves.test_elves_helpers import (
    GAME,
    decide,
    new,
    pass_round,
    see,
    with_villages,
)

PUBLIC_KEYS = {
    "phase",
    "round",
    "rounds",
    "start_seat",
    "active_seat",
    "deck",
    "draw_pile",
    "discard_pile",
    "seats",
    "planning",
    "journey",
    "history",
    "winners",
    "over",
    "options",
}


def _mid_game() -> State:
    state = with_villages(new(3), s0=("village_05",), s1=("village_18",), s2=("village_09",))
    state = see(state, "attach_1:1", "gold_1")
    state = decide(state, 1, "plan", "buy")
    return state


def test_gold_only_in_its_own_and_the_organisers_view() -> None:
    state = _mid_game()
    public = GAME.view(state, "public")
    assert set(public) == PUBLIC_KEYS
    assert public["deck"] == {"name": "assumed", "assumed": True}
    assert all("gold" not in s and "ledger" not in s for s in public["seats"])
    mine = GAME.view(state, 1)
    assert mine["seats"][1]["gold"] == 6 and mine["seats"][1]["escrow"] == 1
    assert sum(mine["seats"][1]["gold_sources"].values()) == 6
    assert [e["reason"] for e in mine["seats"][1]["ledger"]] == ["start", "buy"]
    assert all("gold" not in s for i, s in enumerate(mine["seats"]) if i != 1)
    organiser = GAME.view(state, "organiser")
    assert [s["gold"] for s in organiser["seats"]] == [7, 6, 7]
    assert len(organiser["ledger"]) == 4
    assert GAME.scores(state) == (0, 0, 0)
    assert GAME.private_values(state, 1) == {"gold": 6}
    json.dumps(organiser)  # JSON-able


def test_a_changed_purse_changes_no_other_audiences_view() -> None:
    state = _mid_game()
    for value in GAME.private_range(state, 1, "gold"):
        assert value >= 0
        changed = GAME.perturb_private(state, 1, "gold", value)
        assert changed.seats[1].purse == value
        for audience in ("public", 0, 2):
            assert GAME.view(changed, audience) == GAME.view(state, audience)  # type: ignore[arg-type]
        assert GAME.pending(changed) == GAME.pending(state)
        assert GAME.waiting_for(changed) == GAME.waiting_for(state)
        assert GAME.view(changed, 1) != GAME.view(state, 1)


def test_band_shows_a_rough_figure_to_others() -> None:
    state = with_seat(new(3, public_gold="band"), 0, purse=13)
    public = GAME.view(state, "public")
    assert [s["gold_about"] for s in public["seats"]] == [10, 5, 5]
    assert "gold_about" not in GAME.view(state, 0)["seats"][0]
    assert GAME.view(state, 0)["seats"][1]["gold_about"] == 5


def test_snapshots_round_trip_mid_game() -> None:
    state = _mid_game()
    assert round_trips(state, State)
    state = pass_round(state)  # on into the travel phase
    assert state.journey is not None
    record = json.loads(json.dumps(GAME.snapshot(state)))
    assert GAME.restore(record) == state


def test_locate_and_words() -> None:
    state = _mid_game()
    assert GAME.locate(state, "village_18") == "village_1:1"
    assert GAME.locate(state, "gold_1") == "attach_1:1"
    assert GAME.locate(state, "raft_1") == ""
    assert GAME.locate(state, "nothing") is None
    assert GAME.describe_piece("village_05") == "village card 5"
    assert GAME.describe_piece_for("village_05", {"deck": state.options.raw[0][1]}) == (
        "the river village (2)"
    )
    assert GAME.describe_piece("token_c2") == "crest C's token 2"
    assert GAME.describe_piece("raft_3") == "a raft"
    assert GAME.describe_zone("attach_2:1") == "Beside the second village"
    assert GAME.answer_words("plan", "buy", state) == "Buy the top card for 1 gold"
