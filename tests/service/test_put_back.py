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


def test_undo_of_a_discard_says_take_it_back_into_the_hand() -> None:
    table = _table("angels-and-demons")
    game = table.game
    for inp in find_world("angels-and-demons")(4, {}, 1).inputs():
        assert table.submit(inp).accepted
        if isinstance(inp, Seen) and inp.present and inp.zone.startswith("discard:"):
            break
    seat = int(inp.zone.split(":")[1])
    name = game.describe_piece(inp.piece)
    assert table.view(PUBLIC)["put_back"] is None
    assert table.submit(Undo()).accepted
    want = (f"Take the {name} back off {NAMES[seat]}'s discard pile and put it back in "
            f"{NAMES[seat]}'s hand.")
    view = table.view(PUBLIC)
    assert view["put_back"]["text"] == want and view["put_back"]["kind"] == "undo"
    assert view["feed"][-1]["kind"] == "undo" and view["feed"][-1]["put_back"] == want
    # lifting the card off (what the words ask) keeps them up; the next play clears them
    table.submit(Seen(inp.zone, inp.piece, False))
    assert table.view(PUBLIC)["put_back"] is not None
    assert table.submit(inp).accepted
    assert table.view(PUBLIC)["put_back"] is None


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
    for inp in find_world("angels-and-demons")(4, {}, 1).inputs():
        assert table.submit(inp).accepted
        if isinstance(inp, Seen) and inp.present and inp.zone.startswith("discard:"):
            break
    # the same card read again: nothing moves
    assert table.submit(Correct(inp)).accepted
    text = table.view(PUBLIC)["put_back"]["text"]
    assert text == (f"The table still counts the {game.describe_piece(inp.piece)} on "
                    f"{NAMES[int(inp.zone[8:])]}'s discard pile: nothing to move.")
    other = next(p for p in game.pieces() if p != inp.piece and p[0] == inp.piece[0]
                 and table.submit(Correct(Seen(inp.zone, p, True))).accepted)
    text = table.view(PUBLIC)["put_back"]["text"]
    assert text.startswith(f"The table now counts the {game.describe_piece(other)} on ")
    assert f"instead of the {game.describe_piece(inp.piece)} on " in text
    assert text.endswith("Make the pieces on the table match it.")
    assert table.view(PUBLIC)["put_back"]["kind"] == "correct"
    assert table.last_accepted_seq == table.inputs_seen  # the correction is what undo takes
