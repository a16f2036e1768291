"""A new Hub on the same database file rebuilds every table by replay: identical views."""

from __future__ import annotations

from pathlib import Path

from scorekeeper.core.inputs import Decision, Seen, Undo
from scorekeeper.service import Hub
from scorekeeper.service.demo import demo_kit, find_world_class
from tests.api.games import find_test_game


def _views(hub: Hub, tid: str) -> list[dict[str, object]]:
    seats = len(hub.config(tid).seats)
    return [hub.view(tid, a) for a in ("public", "organiser", *range(seats))]


def test_restart_gives_identical_views_for_a_real_game(tmp_path: Path) -> None:
    db = tmp_path / "var" / "scorekeeper.db"
    hub = Hub.open(db, find_game=find_test_game)
    game = find_test_game("angels-and-demons")
    tid = hub.create_table(game.id, 3, kit=demo_kit(game.pieces()), readers="sim")
    hub.start(tid)
    backend = hub.readers(tid)
    reader_of = {zone: reader for reader, zone in hub.config(tid).layout.items()}
    uid_of = {piece: uid for uid, piece in hub.config(tid).kit.items()}
    world = find_world_class(game.id)(3, {}, 11)
    for n, inp in enumerate(world.inputs()):
        if n == 150:
            break
        if isinstance(inp, Seen):
            act = backend.put if inp.present else backend.take
            act(reader_of[inp.zone], uid_of[inp.piece])
        else:
            assert isinstance(inp, Decision)
            hub.submit(tid, inp)
    hub.submit(tid, Seen("talon", "no-such-card", True))  # refused, still logged
    hub.submit(tid, Undo())
    hub.pause(tid)
    before = _views(hub, tid)
    assert before[0]["inputs"] >= 150 and before[0]["status"] == "paused"
    hub.close()

    again = Hub.open(db, find_game=find_test_game)
    try:
        assert again.table_ids() == [tid]
        assert _views(again, tid) == before
        assert again.tokens.has_organiser_token() is False  # not created by a bare hub
    finally:
        again.close()
