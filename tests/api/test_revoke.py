"""A withdrawn phone sees nothing more: its open WebSocket gets no frame after the withdrawal
and is closed within a second with the code the page explains (4401)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from scorekeeper.core.game import ORGANISER
from scorekeeper.service import Hub
from scorekeeper.service.tokens import credential
from scorekeeper.service.watchers import Ended
from tests.api.games import find_test_game


def pair(client: Any, org: Any, tid: str, seat: int) -> str:
    code = client.post(f"/api/tables/{tid}/seats/{seat}/pair", headers=org).json()["code"]
    return str(client.post("/api/pair", json={"code": code}).json()["token"])


def test_unpairing_closes_the_seat_socket_at_once_and_it_gets_no_more_secrets(
    client: Any, org: Any, new_table: Callable[..., str]
) -> None:
    tid = new_table()
    token = pair(client, org, tid, 0)
    other = pair(client, org, tid, 1)
    client.post(f"/api/tables/{tid}/inputs", json={"input": "+hand C9"}, headers=org)
    with (
        client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws,
        client.websocket_connect(f"/ws/tables/{tid}?token={other}") as neighbour,
        ThreadPoolExecutor(1) as pool,
    ):
        assert ws.receive_json()["state"]["hand"] == ["C9"]  # it saw its hidden cards
        neighbour.receive_json()
        gone = client.delete(f"/api/tables/{tid}/seats/0/tokens", headers=org)
        assert gone.json() == {"revoked": 1, "codes_revoked": 0}
        withdrawn = time.monotonic()
        closing = pool.submit(ws.receive)  # the next thing the socket gets
        for card in ("C8", "C7", "C6"):  # the table keeps playing
            client.post(f"/api/tables/{tid}/inputs", json={"input": f"+hand {card}"}, headers=org)
        message = closing.result(timeout=1)
        assert time.monotonic() - withdrawn < 1
        assert message["type"] == "websocket.close" and message["code"] == 4401, message
        assert "withdrawn" in message.get("reason", "")
        # The other seat's phone is not touched: it follows the play.
        views = [neighbour.receive_json() for _ in range(3)]
        assert views[-1]["inputs"] == 4 and "C8" not in json.dumps(views[-1]["state"])
    assert client.get(f"/api/tables/{tid}/seat/0", params={"token": token}).status_code == 401
    with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
        assert "withdrawn" in ws.receive_json()["error"]


def test_a_watcher_of_a_withdrawn_credential_takes_no_view_even_one_already_waiting(
    tmp_path: Path,
) -> None:
    """In the hub: the view pending in the mailbox when the token is withdrawn is dropped, the
    table's later views never reach it, other watchers are untouched; the organiser's old
    token ends its watchers when a new one replaces it."""
    hub = Hub.open(tmp_path / "sk.db", find_game=find_test_game)
    tid = hub.create_table("fake", 2)
    hub.start(tid)
    old = hub.tokens.ensure_organiser_token()
    assert old is not None
    code, _ = hub.tokens.pairing_code(tid, 0)
    token, _ = hub.tokens.redeem(code, "10.0.0.7")

    async def scenario() -> None:
        hub.bind_loop(asyncio.get_running_loop())
        seat = hub.subscribe(tid, 0, credential(token))
        organiser = hub.subscribe(tid, ORGANISER, credential(old))
        public = hub.subscribe(tid, "public")
        await asyncio.to_thread(hub.tokens.unpair, tid, 0)  # a pending view: the first one
        assert hub.watchers(tid) == 2
        await asyncio.to_thread(hub.submit, tid, parse("+hand C8"))
        ended = await asyncio.wait_for(_error_of(seat.next()), 1)
        assert isinstance(ended, Ended) and ended.code == 4401
        assert json.loads(await asyncio.wait_for(public.next(), 1))["inputs"] == 1
        await organiser.next()
        await asyncio.to_thread(hub.tokens.new_organiser_token)
        assert isinstance(await asyncio.wait_for(_error_of(organiser.next()), 1), Ended)
        for sub in (seat, organiser, public):
            hub.unsubscribe(sub)
        assert hub.watchers(tid) == 0 and not len(hub._credentials)

    try:
        asyncio.run(scenario())
    finally:
        hub.close()


def parse(text: str) -> Any:
    from scorekeeper.core.inputs import parse_input

    return parse_input(text)


async def _error_of(waiting: Any) -> BaseException | None:
    try:
        await waiting
    except Exception as exc:  # noqa: BLE001 - the test looks at which one
        return exc
    return None
