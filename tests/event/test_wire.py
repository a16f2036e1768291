"""The event wire (scorekeeper/event/wire.py): topics, ids and payloads, without a broker.

Every payload survives ``to_json``/``from_json`` (and ``decode`` on its topic) unchanged; a log
record's text comes back byte for byte (the chain is computed over it); anything foreign or
malformed is a WireError that says what was wrong, never another exception (a hub logs and
drops it).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.errors import ScorekeeperError
from scorekeeper.event import wire
from scorekeeper.event.wire import (
    Create,
    Health,
    InputCommand,
    LogBatch,
    Notice,
    Reply,
    Resend,
    Status,
    WireError,
    WireRecord,
)

AT = "2026-05-01T19:30:00+00:00"
CHAIN = "0123456789abcdef0123456789abcdef"


def test_topics_round_trip_and_name_the_clients() -> None:
    for channel in wire.CHANNELS:
        name = wire.topic("club-night", "t12", channel)
        assert name == f"sk/v1/club-night/t12/{channel}"
        assert wire.parse_topic(name) == ("club-night", "t12", channel)
    assert wire.table_client_id("ev", "t1") == "sk-ev-t1"
    assert wire.hub_client_id("ev", 2) == "sk-hub-ev-2"
    assert wire.hub_subscriptions("ev") == [
        ("$share/sk-hubs/sk/v1/ev/+/log", 1),
        ("$share/sk-hubs/sk/v1/ev/+/status", 1),
        ("$share/sk-hubs/sk/v1/ev/+/health", 0),
        ("$share/sk-hubs/sk/v1/ev/+/reply", 1),
    ]
    assert wire.table_subscriptions("ev", "t1") == [("sk/v1/ev/t1/cmd", 1)]


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("home/kitchen/temp", "not a scorekeeper topic"),
        ("sk/v2/ev/t1/log", "wire version 'v2'"),
        ("sk/v1/ev/t1", "not sk/v1/<event>/<table>/<channel>"),
        ("sk/v1/ev/t1/log/extra", "not sk/v1/<event>/<table>/<channel>"),
        ("sk/v1/ev/t1/chat", "unknown channel 'chat'"),
        ("sk/v1/Ev/t1/log", "event 'Ev' is not a valid name"),
        ("sk/v1/ev/+/log", "table '+' is not a valid name"),
        ("sk/v1/ev/" + "t" * 21 + "/log", "1 to 20 lowercase letters"),
    ],
)
def test_foreign_topics_are_refused_in_words(name: str, words: str) -> None:
    with pytest.raises(WireError) as caught:
        wire.parse_topic(name)
    assert words in str(caught.value)
    assert isinstance(caught.value, ScorekeeperError) and isinstance(caught.value, ValueError)


def test_topic_builder_refuses_what_would_be_a_wildcard_or_unknown() -> None:
    with pytest.raises(WireError, match="not a valid name"):
        wire.topic("ev", "#", "log")
    with pytest.raises(WireError, match="unknown channel"):
        wire.topic("ev", "t1", "logs")


def test_game_ids() -> None:
    assert wire.game_id("ev", 3, "t1") == "ev-r3-t1"
    assert wire.check_game("ev", "ev-r3-t1") == "ev-r3-t1"
    assert wire.check_game("ev", "ev-final") == "ev-final"
    with pytest.raises(WireError, match="longer than 32 characters"):
        wire.game_id("a" * 20, 1, "b" * 20)
    with pytest.raises(WireError, match="round 0"):
        wire.game_id("ev", 0, "t1")
    for bad in ("other-r1-t1", "ev-", "ev", "evx-r1-t1", "ev-R1-t1", None):
        with pytest.raises(WireError, match="is not a game of event 'ev'"):
            wire.check_game("ev", bad)


PAYLOADS: list[tuple[str, Any]] = [
    ("log", LogBatch("ev-r1-t1", (WireRecord(7, CHAIN, '{"type":"seen"}'),))),
    ("status", Status(True, {"ev-r1-t1": 7, "ev-r2-t1": 0}, AT)),
    ("status", Status.offline()),
    ("health", Health(({"reader": "r1", "online": True, "reads": 3, "detail": ""},), AT)),
    ("health", Health((), AT)),
    ("reply", Reply("c-1", True)),
    ("reply", Reply("c-2", False, "no game ev-r9-t1 at this table")),
    ("reply", Reply("c-3", True, None, "ev-r1-t1", {"game": "x", "kit": {"04AB": "card"}})),
    ("cmd", Resend("c-3", "ev-r1-t1", 5)),
    ("cmd", Resend("c-3b", "ev-r1-t1", 5, 9)),
    ("cmd", Resend("c-3b", "ev-r1-t1", 5, 9)),
    ("cmd", Create("c-4", "ev-r1-t1", {"game": "arcanum", "seats": 4, "names": ["A"]}, True)),
    ("cmd", InputCommand("c-5", "ev-r1-t1", {"type": "undo"}, 12, "judge ana", "misread")),
    (
        "cmd",
        InputCommand(
            "c-6",
            "ev-r1-t1",
            {
                "type": "correct",
                "replacement": {"type": "seen", "zone": "z1", "piece": "p1", "present": True},
            },
            None,
            "organiser",
            "",
        ),
    ),
    (
        "cmd",
        InputCommand(
            "c-7",
            "ev-r1-t1",
            {"type": "decision", "seat": None, "prompt": "p", "answer": "a"},
            None,
            "judge",
            "asked",
        ),
    ),
    ("cmd", Notice("c-8", "Round 2 ends in 5 minutes", AT)),
    ("cmd", Notice("c-9", "Last turn")),
]


@pytest.mark.parametrize(("channel", "payload"), PAYLOADS)
def test_every_payload_round_trips(channel: str, payload: Any) -> None:
    data = payload.to_json()
    assert json.loads(data)["v"] == 1
    again = wire.command_from_json(data) if channel == "cmd" else type(payload).from_json(data)
    assert again == payload
    message = wire.decode(wire.topic("ev", "t1", channel), data)
    assert (message.event, message.table, message.channel) == ("ev", "t1", channel)
    assert message.payload == payload
    assert message.payload.to_json() == data


def test_json_shapes_are_the_protocols() -> None:
    """The bytes other programs read: the will, a resend's ``from``, a command's kind."""
    assert Status.offline().to_json() == b'{"v":1,"online":false}'
    assert json.loads(Resend("c", "ev-r1-t1", 4).to_json()) == {
        "v": 1,
        "id": "c",
        "kind": "resend",
        "game": "ev-r1-t1",
        "from": 4,
    }
    assert json.loads(Resend("c", "ev-r1-t1", 4, 6).to_json())["to"] == 6
    assert json.loads(Resend("c", "ev-r1-t1", 4, 6).to_json())["to"] == 6
    assert json.loads(LogBatch("ev-x", (WireRecord(1, CHAIN, "{}"),)).to_json()) == {
        "v": 1,
        "game": "ev-x",
        "records": [[1, CHAIN, "{}"]],
    }
    assert json.loads(Notice("n", "hi").to_json()) == {
        "v": 1,
        "id": "n",
        "kind": "notice",
        "text": "hi",
        "until": None,
    }


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=40)  # a few seconds in all for the suite: 40 cover the escapes
@given(st.dictionaries(st.text(), json_values, max_size=4), st.booleans())
def test_record_text_comes_back_byte_for_byte(record: dict[str, Any], ascii_only: bool) -> None:
    text = json.dumps(record, ensure_ascii=ascii_only)
    batch = LogBatch("ev-r1-t1", (WireRecord(1, CHAIN, text), WireRecord(2, CHAIN, text + " ")))
    back = LogBatch.from_json(batch.to_json())
    assert [r.text for r in back.records] == [text, text + " "]


def _log(records: Any, game: Any = "ev-r1-t1") -> bytes:
    return json.dumps({"v": 1, "game": game, "records": records}).encode()


BAD: list[tuple[str, bytes, str]] = [
    ("log", b"\xff\xfe", "not JSON"),
    ("log", b"not json", "not JSON"),
    ("log", b"[1, 2]", "not a JSON object"),
    ("log", b'{"game": "ev-x", "records": []}', "wire version None"),
    ("log", b'{"v": 2, "game": "ev-x", "records": []}', "wire version 2"),
    ("log", b'{"v": 1, "records": [[1, "ab", "{}"]]}', "has no 'game'"),
    ("log", _log([]), "at least one record"),
    ("log", _log([[1, "ab"]]), "must be [seq, chain, text]"),
    ("log", _log([[0, "ab", "{}"]]), "'seq' is 0"),
    ("log", _log([[True, "ab", "{}"]]), "'seq' is True"),
    ("log", _log([[1, "ab", "{}"], [3, "ab", "{}"]]), "3 follows 1"),
    ("log", _log([[1, "AB!", "{}"]]), "a hex digest"),
    ("log", _log([[1, "ab", 5]]), "stored JSON text"),
    ("log", _log([[1, "ab", "{}"]], game="Ev-x"), "not a game id"),
    ("log", _log([[1, "ab", "{}"]], game="other-x"), "not a game of event 'ev'"),
    ("status", b'{"v": 1, "online": "yes"}', "true or false"),
    ("status", b'{"v": 1, "online": true, "games": {}}', "an ISO time"),
    ("status", b'{"v": 1, "online": true, "games": {}, "at": "5pm"}', "an ISO time"),
    ("status", b'{"v": 1, "online": true, "games": [], "at": "2026-05-01"}', "a JSON object"),
    ("status", b'{"v": 1, "online": true, "games": {"ev-x": -1}, "at": "2026-05-01"}', "-1"),
    ("health", b'{"v": 1, "readers": [{"online": true}], "at": "2026-05-01"}', "'reader' name"),
    ("health", b'{"v": 1, "readers": {}, "at": "2026-05-01"}', "a list"),
    ("reply", b'{"v": 1, "id": "c", "ok": false, "error": null}', "'error' is None"),
    ("reply", b'{"v": 1, "id": "c", "ok": true, "error": "x"}', "null when ok"),
    ("reply", b'{"v": 1, "id": "", "ok": true}', "'id' is ''"),
    ("cmd", b'{"v": 1, "id": "c", "kind": "reboot"}', "unknown command kind 'reboot'"),
    ("cmd", b'{"v": 1, "id": "c", "game": "ev-x", "from": 1}', "unknown command kind None"),
    ("cmd", b'{"v": 1, "kind": "resend", "game": "ev-x", "from": 1}', "has no 'id'"),
    ("cmd", b'{"v": 1, "id": "c", "kind": "resend", "game": "ev-x"}', "has no 'from'"),
    ("cmd", b'{"v": 1, "id": "c", "kind": "resend", "game": "ev-x", "from": "2"}', "'from'"),
    ("cmd", b'{"v": 1, "id": "c", "kind": "resend", "game": "ev-x", "from": 3, "to": 2}', "'to'"),
    ("cmd", b'{"v": 1, "id": "c", "kind": "resend", "game": "ev-x", "from": 3, "to": 2}', "'to'"),
    (
        "cmd",
        b'{"v": 1, "id": "c", "kind": "create", "game": "ev-x", "config": {}, "start": true}',
        "a table config",
    ),
    (
        "cmd",
        b'{"v": 1, "id": "c", "kind": "create", "game": "ev-x", "config": {"g": 1}, "start": 1}',
        "true or false",
    ),
    (
        "cmd",
        b'{"v": 1, "id": "c", "kind": "input", "game": "ev-x", "record": {"type": "seen",'
        b' "zone": "z", "piece": "p", "present": true}, "expect_seq": null, "by": "j",'
        b' "reason": ""}',
        "only an undo, a correction or a decision",
    ),
    (
        "cmd",
        b'{"v": 1, "id": "c", "kind": "input", "game": "ev-x", "record": {"type":'
        b' "decision"}, "expect_seq": null, "by": "j", "reason": ""}',
        "bad record",
    ),
    (
        "cmd",
        b'{"v": 1, "id": "c", "kind": "input", "game": "ev-x", "record": {"type": "undo"},'
        b' "expect_seq": 0, "by": "j", "reason": ""}',
        "'expect_seq' is 0",
    ),
    (
        "cmd",
        b'{"v": 1, "id": "c", "kind": "input", "game": "ev-x", "record": {"type": "undo"},'
        b' "expect_seq": null, "by": "", "reason": ""}',
        "'by' is ''",
    ),
    ("cmd", b'{"v": 1, "id": "c", "kind": "notice", "text": "x", "until": "soon"}', "ISO time"),
]


@pytest.mark.parametrize(("channel", "data", "words"), BAD)
def test_bad_payloads_are_refused_in_words(channel: str, data: bytes, words: str) -> None:
    with pytest.raises(WireError) as caught:
        wire.decode(f"sk/v1/ev/t1/{channel}", data)
    assert words in str(caught.value)
