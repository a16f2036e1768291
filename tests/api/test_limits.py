"""Limits that keep one client from hurting a table: bounded inputs, pairing under guessing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def test_oversized_inputs_are_refused_and_logged_nowhere(
    client: Any, org: Any, new_table: Callable[..., str]
) -> None:
    tid = new_table()
    before = client.get(f"/api/tables/{tid}").json()["inputs"]
    huge = "x" * 3000  # past the fields' limits, under the body limit (4 KiB: test_body_limits)
    assert (
        client.post(
            f"/api/tables/{tid}/inputs", headers=org, json={"input": "+play " + huge}
        ).status_code
        == 422
    )
    assert (
        client.post(
            f"/api/tables/{tid}/decisions", headers=org, json={"prompt": huge, "answer": "yes"}
        ).status_code
        == 422
    )
    view = client.get(f"/api/tables/{tid}").json()
    assert view["inputs"] == before
    assert huge not in str(view)


def test_a_guessing_phone_is_locked_out_and_the_others_still_pair(
    hub: Any, org: Any, new_table: Callable[..., str]
) -> None:
    """After 5 wrong codes from one address no code is looked at from it (429, Retry-After);
    another phone's right code still pairs. The lockout in detail: tests/service."""
    from fastapi.testclient import TestClient

    from scorekeeper.api import create_app

    tid = new_table()
    app = create_app(hub)
    guesser = TestClient(app, client=("192.0.2.9", 40000))
    player = TestClient(app, client=("192.0.2.10", 40001))
    code = guesser.post(f"/api/tables/{tid}/seats/0/pair", headers=org).json()["code"]
    for _ in range(5):
        assert guesser.post("/api/pair", json={"code": "AAAAAA"}).status_code == 401
    locked = guesser.post("/api/pair", json={"code": code})  # right, but not looked at
    assert locked.status_code == 429, locked.text
    wait = int(locked.headers["Retry-After"])
    assert 55 <= wait <= 60 and locked.json()["retry_after"] == wait
    assert locked.json()["everyone"] is False
    assert locked.json()["error"] == (
        f"Too many wrong codes from this phone: wait {wait} seconds, then type the code again"
    )
    paired = player.post("/api/pair", json={"code": code})  # the code was not used up
    assert paired.status_code == 200, paired.text
    assert paired.json()["seat"] == 0


def test_tokens_and_pairing_codes_never_reach_the_log() -> None:
    from scorekeeper.api.logs import redact

    line = 'GET /?pair=K7QM3X HTTP/1.1 and /ws/tables/t1?token=abc123&x=1 "token=zz"'
    shown = redact(line)
    assert "K7QM3X" not in shown and "abc123" not in shown and "zz" not in shown
    assert "pair=***" in shown and "token=***&x=1" in shown
    assert redact("GET /?organiser=s3cret HTTP/1.1") == "GET /?organiser=*** HTTP/1.1"
