"""The organiser's feed says each input in plain words (``words``), beside the raw input;
seats and the public get neither."""

from __future__ import annotations

from scorekeeper.core.inputs import Decision, Seen, Sighting, Undo
from scorekeeper.core.outcomes import Rejected
from scorekeeper.core.table import Table, TableConfig
from scorekeeper.games import find_game

SEATS = ("Ann", "Bea", "Cid")


def _table() -> Table:
    config = TableConfig(
        game="angels-and-demons",
        seats=SEATS,
        layout={"r-talon": "talon", "r-d1": "discard:1"},
        kit={"04A1B2C3": "H1b1"},
    )
    return Table(config, find_game("angels-and-demons"))


def test_feed_words_name_cards_zones_and_seats_for_the_organiser_only() -> None:
    table = _table()
    table.submit(Sighting("r-talon", "04A1B2C3", True))  # mapped: H1b1 on the talon
    table.submit(Decision(1, "claim", "pass"))  # nobody asked: refused, still in words
    table.submit(Undo())
    table.refuse(Seen("discard:1", "H2b1", True), Rejected("TABLE-NOT-RUNNING", "paused"))
    feed = table.view("organiser")["feed"]
    assert [e["words"] for e in feed] == [
        "the black human 1 laid on the talon",
        "Bea's answer about claiming the discard: nobody claims it",
        "undo: the last accepted input taken back (taking back: the black human 1 laid on the "
        "talon)",
        "the black human 2 laid on Bea's discard row",
    ]
    assert feed[0]["input"] == "tag +r-talon 04A1B2C3"
    for audience in ("public", 0):
        assert all("words" not in e and "input" not in e for e in table.view(audience)["feed"])
