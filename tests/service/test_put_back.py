"""Issue 9, point 2: after an undo or a correction the views say what to do with the pieces,
and a hidden card is named only to its owner and the organiser (docs/design.md, invariant 5)."""

from __future__ import annotations

from scorekeeper.core.game import ORGANISER, PUBLIC
from scorekeeper.core.inputs import Correct, Seen, Undo
from scorekeeper.core.table import Table, TableConfig
from scorekeeper.games import find_game
from scorekeeper.sim import find_world

NAMES = ("Bot 1", "Bot 2", "Bot 3", "Bot 4")


def _table(game_id: str) -> Table:
    game = find_game(game_id)
    return Table(TableConfig(game=game_id, seats=NAMES, layout=game.default_layout(4)), game)


def _play_to_the_first_discard(table: Table) -> Seen:
    """Play the seeded Angels & Demons game on ``table`` up to its first discard; that input."""
    for inp in find_world("angels-and-demons")(4, {}, 1).inputs():
        assert table.submit(inp).accepted
        if isinstance(inp, Seen) and inp.present and inp.zone.startswith("discard:"):
            return inp
    raise AssertionError("the seeded game discards")


def test_undo_of_a_discard_says_take_it_back_into_the_hand() -> None:
    table = _table("angels-and-demons")
    game = table.game
    inp = _play_to_the_first_discard(table)
    seat = int(inp.zone.split(":")[1])
    name = game.describe_piece(inp.piece)
    assert table.view(PUBLIC)["put_back"] is None
    assert table.submit(Undo()).accepted
    want = (
        f"Take the {name} back off {NAMES[seat]}'s discard pile and put it back in "
        f"{NAMES[seat]}'s hand."
    )
    view = table.view(PUBLIC)
    assert view["put_back"]["text"] == want and view["put_back"]["kind"] == "undo"
    assert view["feed"][-1]["kind"] == "undo" and view["feed"][-1]["put_back"] == want
    # the public feed line says where in words, never the zone's id (and never the card)
    assert view["feed"][-1]["events"] == [f"undone: the piece laid on {NAMES[seat]}'s discard row"]
    # lifting the card off (what the words ask) keeps them up; the next play clears them
    table.submit(Seen(inp.zone, inp.piece, False))
    assert table.view(PUBLIC)["put_back"] is not None
    assert table.submit(inp).accepted
    assert table.view(PUBLIC)["put_back"] is None


def test_a_card_seen_in_an_earlier_round_goes_back_where_it_comes_from_now() -> None:
    """A card last seen lifted off the table in one round and laid again in a later one (from
    the deck, or from a hand nobody saw): the undo sends it back where the game knows it comes
    from now (``Game.locate``), never to where the log last saw it leave. Found by hand on the
    demo: "take the red demon 2 back off Bot 1's discard pile and put it back on Bot 4's
    melds"."""
    table = _table("angels-and-demons")
    game = table.game
    last: dict[str, tuple[Seen, int]] = {}  # piece -> its latest sighting, and in which round
    checked = set()
    for inp in find_world("angels-and-demons")(4, {}, 5).inputs():
        public = game.view(table.state, PUBLIC)
        now, active = public["round"], public["active_seat"]
        assert table.submit(inp).accepted
        if not isinstance(inp, Seen) or game.locate(table.state, inp.piece) is None:
            continue  # a token: the game does not track where tokens are
        seen, then = last.get(inp.piece, (inp, now))
        last[inp.piece] = (inp, now)
        if not inp.present or seen.present or then == now or inp.zone in checked:
            continue
        checked.add(inp.zone.split(":")[0])
        assert table.submit(Undo()).accepted
        text = table.view(PUBLIC)["put_back"]["text"]
        name = game.describe_piece(inp.piece)
        where = "the deck" if inp.zone in ("talon", "flip") else f"{NAMES[active]}'s hand"
        assert text.startswith(f"Take the {name} back off ") and text.endswith(
            f"put it back {'on' if where == 'the deck' else 'in'} {where}."
        ), text
        assert table.submit(inp).accepted
    assert {"talon", "discard"} <= checked, checked


def test_a_hidden_card_is_named_only_to_its_owner_and_the_organiser() -> None:
    table = _table("arcanum")
    game = table.game
    checked = 0
    for inp in find_world("arcanum")(4, {}, 3).inputs():
        assert table.submit(inp).accepted
        if not (isinstance(inp, Seen) and inp.present and inp.zone.startswith("hide:")):
            continue
        owner = int(inp.zone.split(":")[1])
        name = game.describe_piece(inp.piece)
        assert table.submit(Undo()).accepted
        for audience in (PUBLIC, *range(4)):
            text = table.view(audience)["put_back"]["text"]
            feed = table.view(audience)["feed"][-1]["put_back"]
            assert name not in feed and inp.piece not in feed
            if audience == owner:
                assert name in text, text
            else:
                assert name not in text and inp.piece not in text, (audience, text)
                assert f"card {NAMES[owner]} just laid on {NAMES[owner]}'s hide strip" in text
        assert name in table.view(ORGANISER)["put_back"]["text"]
        assert table.submit(inp).accepted
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_a_correction_says_what_the_table_now_counts() -> None:
    table = _table("angels-and-demons")
    game = table.game
    inp = _play_to_the_first_discard(table)
    # the same card read again: nothing moves
    assert table.submit(Correct(inp)).accepted
    text = table.view(PUBLIC)["put_back"]["text"]
    assert text == (
        f"The table still counts the {game.describe_piece(inp.piece)} on "
        f"{NAMES[int(inp.zone[8:])]}'s discard pile: nothing to move."
    )
    other = next(
        p
        for p in game.pieces()
        if p != inp.piece
        and p[0] == inp.piece[0]
        and table.submit(Correct(Seen(inp.zone, p, True))).accepted
    )
    text = table.view(PUBLIC)["put_back"]["text"]
    assert text.startswith(f"The table now counts the {game.describe_piece(other)} on ")
    assert f"instead of the {game.describe_piece(inp.piece)} on " in text
    assert text.endswith("Make the pieces on the table match it.")
    assert table.view(PUBLIC)["put_back"]["kind"] == "correct"
    assert table.last_accepted_seq == table.inputs_seen  # the correction is what undo takes


def test_a_token_laid_again_where_it_was_lifted_is_only_taken_off() -> None:
    """A waiting token put back on the spot it was last lifted off: the words say to take it
    off, never "take it off Bot 3's waiting spot and put it back on Bot 3's waiting spot"."""
    table = _table("angels-and-demons")
    game = table.game
    lifted: set[tuple[str, str]] = set()
    for inp in find_world("angels-and-demons")(4, {}, 5).inputs():
        assert table.submit(inp).accepted
        if isinstance(inp, Seen) and inp.zone.startswith("wait:"):
            if not inp.present:
                lifted.add((inp.zone, inp.piece))
            elif (inp.zone, inp.piece) in lifted:
                break
    else:
        raise AssertionError("the seeded game lays a waiting token twice on one spot")
    seat = int(inp.zone.split(":")[1])
    assert table.submit(Undo()).accepted
    assert table.view(PUBLIC)["put_back"]["text"] == (
        f"Take the {game.describe_piece(inp.piece)} back off {NAMES[seat]}'s waiting spot."
    )
