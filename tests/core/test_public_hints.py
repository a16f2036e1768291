"""Refusals shown to anyone but the organiser name where, not what (issue 10, point 6; issue 12,
point 3).

A refusal's hint names the card to move ("take the black human 6 off the talon"). Shown to
anyone but the organiser (the feed, every seat's view, the hub's pushed views, the public export,
the log) it names no piece of the game at all: "take the card off the talon". Not only the cards
secret now: words that changed when a card was hidden later would tell everyone which card it
was, and a card named while public would stay named after it went back into a hand. The
organiser keeps the full words.
"""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.core.game import ORGANISER, PUBLIC, Audience, Game
from scorekeeper.core.inputs import Seen, parse_input
from scorekeeper.core.outcomes import Outcome, Rejected
from scorekeeper.core.table import Table, TableConfig, without_names
from scorekeeper.games import find_game
from scorekeeper.service import Hub
from tests.fakes import FakeGame, FakeState
from tests.games.arcanum.test_engine_helpers import LAYOUT

AD = find_game("angels-and-demons")
ARCANUM = find_game("arcanum")
DEAL = ("+talon H6b1", "+talon H1b1", "+talon H2b1", "+talon H3b1", "+talon H4b1")
NAME = "black human 6"  # H6b1 in words


def _table(game: Any, seats: int, options: dict[str, Any] | None = None) -> Table:
    names = ("Ann", "Bea", "Cid", "Dee", "Eve")[:seats]
    return Table(
        TableConfig(
            game=game.id,
            seats=names,
            options=game.resolve_options(options or {}, seats),
            layout=game.default_layout(seats),
        ),
        game,
    )


def _send(table: Table, *lines: str, accepted: bool = True) -> None:
    for line in lines:
        result = table.submit(parse_input(line))
        assert result.accepted is accepted, (line, result.rejection)


def _hints(table: Table, audience: Audience) -> list[str]:
    return [e["rejection"]["hint"] for e in table.view(audience)["feed"] if "rejection" in e]


def _refusals(view: str) -> list[dict[str, str]]:
    """The refusals in a view's feed (the deal's event names the talon cards: public then)."""
    return [e["rejection"] for e in json.loads(view)["feed"] if "rejection" in e]


def test_a_talon_card_is_never_named_to_others_before_or_after_it_goes_into_a_hand() -> None:
    table = _table(AD, 4)
    _send(table, *DEAL)
    _send(table, "+discard:1 H6b1", accepted=False)  # Bea discards out of turn
    hint = f"take the {NAME} off Bea's discard row"
    unnamed = ["take the card off Bea's discard row"]
    for audience in (PUBLIC, 0, 1, 2, 3):  # on the talon, in the open: still "the card"
        assert _hints(table, audience) == unnamed, audience
    assert _hints(table, ORGANISER) == [hint]
    _send(table, "-talon H6b1")  # Ann takes it: a secret of Ann's from now on
    assert "H6b1" in AD.secrets(table.state, 0)
    for audience in (PUBLIC, 0, 1, 2, 3):  # the same words: nothing tells it went to a hand
        assert _hints(table, audience) == unnamed, audience
    assert _hints(table, ORGANISER) == [hint]
    _send(table, "+talon H6b1", accepted=False)
    assert _hints(table, PUBLIC)[-1] == "take the card off the talon"
    assert _hints(table, ORGANISER)[-1] == f"take the {NAME} off the talon"
    refusals = json.dumps(_refusals(json.dumps(table.view(PUBLIC))))
    assert NAME not in refusals and "H6b1" not in refusals


def test_an_arcanum_card_on_the_board_is_never_named_to_others() -> None:
    table = _table(ARCANUM, 3, {"board": "sample"})
    _send(table, *(f"+loc:{loc} {pawn}" for pawn, loc in LAYOUT.items()))
    _send(table, "+loc:9 cups_6", accepted=False)  # a card on the city, in the open
    words = ARCANUM.describe_piece("cups_6")
    before = {a: _hints(table, a) for a in (PUBLIC, 1, 2)}
    assert before[PUBLIC] == ["take the card off the location"]
    _send(table, "+hide:0 cups_6")  # now face down on Ann's hide strip
    assert "cups_6" in ARCANUM.secrets(table.state, 0)
    for audience in (PUBLIC, 1, 2):
        assert _hints(table, audience) == before[audience], audience
        assert words not in json.dumps(
            _refusals(json.dumps(table.view(audience))), ensure_ascii=False
        )
    assert _hints(table, ORGANISER) == [f"take the {words} off the location"]


def test_the_hub_and_the_public_export_name_no_card(tmp_path: Path) -> None:
    """The hub keeps each feed line's JSON; the public export names where, not what, too."""
    hub = Hub.open(tmp_path / "sk.db")
    try:
        tid = hub.create_table(AD.id, ["Ann", "Bea", "Cid", "Dee"])
        hub.start(tid)
        for line in (*DEAL, "+discard:1 H6b1"):
            hub.submit(tid, parse_input(line))
        named = [
            {
                "rule": "R-TURN-3",
                "reason": "Bea cannot discard now: only the active seat discards, after taking",
                "hint": f"take the {NAME} off Bea's discard row",
            }
        ]
        unnamed = [{**named[0], "hint": "take the card off Bea's discard row"}]
        assert _refusals(hub.view_json(tid, PUBLIC)) == unnamed
        hub.submit(tid, parse_input("-talon H6b1"))
        for audience in (PUBLIC, 1, 2, 3):
            assert _refusals(hub.view_json(tid, audience)) == unnamed, audience
        assert _refusals(hub.view_json(tid, ORGANISER)) == named
        public = hub.export(tid, PUBLIC)
        assert [i["rejection"] for i in public["inputs"] if "rejection" in i] == unnamed
        assert _refusals(json.dumps(public["view"])) == unnamed
        full = hub.export(tid, ORGANISER)
        assert [i["rejection"] for i in full["inputs"] if "rejection" in i] == named
    finally:
        hub.close()


class TwiceGame(FakeGame):
    """FakeGame that refuses a card laid in play twice, naming it; every input has a feed line,
    so the hub serves every audience's feed from its per-line JSON."""

    id = "twice"

    def observe(self, state: FakeState, seen: Seen) -> Outcome:
        if seen.present and seen.zone == "play" and seen.piece in state.play:
            return Rejected(
                "FAKE-TWICE",
                "that card is in play already",
                f"take the {self.describe_piece(seen.piece)} off the play area",
            )
        return super().observe(state, seen)


def test_the_hubs_kept_feed_lines_name_no_card_whatever_happens_to_it(tmp_path: Path) -> None:
    def games(game_id: str) -> Game:
        return TwiceGame()

    hub = Hub.open(tmp_path / "sk.db", find_game=games)
    try:
        tid = hub.create_table("twice", 2)
        hub.start(tid)
        hub.submit(tid, parse_input("+play C1"))
        hub.submit(tid, parse_input("+play C1"))  # refused: card 1 is in play, in the open
        for audience in (PUBLIC, 1):
            assert [r["hint"] for r in _refusals(hub.view_json(tid, audience))] == [
                "take the card off the play area"
            ], audience
        hub.submit(tid, parse_input("+hand C1"))  # now seat 0's secret: the same words
        for audience in (PUBLIC, 1):
            assert [r["hint"] for r in _refusals(hub.view_json(tid, audience))] == [
                "take the card off the play area"
            ], audience
        assert (
            _refusals(hub.view_json(tid, ORGANISER))[0]["hint"] == "take the card 1 off the "
            "play area"
        )
    finally:
        hub.close()


def test_the_log_names_no_hidden_card(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A refusal's reason goes to the log at INFO (the journal under systemd): it may not name
    a card another seat holds (docs/server.md: never a hidden card)."""
    hub = Hub.open(tmp_path / "sk.db")
    try:
        tid = hub.create_table(AD.id, ["Ann", "Bea", "Cid", "Dee"])
        hub.start(tid)
        for line in (*DEAL, "-talon H6b1", "+discard:0 H7b1", "-talon H1b1"):
            assert hub.submit(tid, parse_input(line)).accepted, line
        with caplog.at_level(logging.INFO, logger="scorekeeper"):
            answer = hub.submit(tid, parse_input("+discard:1 H6b1"))  # Ann holds it
        assert answer.rejection is not None and NAME in answer.rejection.reason  # organiser
        logged = [r for r in caplog.records if r.getMessage() == "input refused"]
        assert [getattr(r, "reason", None) for r in logged] == ["the card is not in Bea's hand"]
    finally:
        hub.close()


def test_without_names_matches_whole_names_only() -> None:
    hidden = re.compile(r"(?<!\w)(?:[Tt]he )?(?:red angel 1|H1r|T2)(?!\w)")
    rejection = Rejected("R-X", "The red angel 1 is not yours", "move red angel 10, not H1r")
    out = without_names(rejection, hidden)
    assert out == Rejected("R-X", "The card is not yours", "move red angel 10, not the card")
    out = without_names(Rejected("R-X", "T2 is hidden", "put the T2 back"), hidden)
    assert (out.reason, out.hint) == ("the card is hidden", "put the card back")
    assert without_names(rejection, None) is rejection
