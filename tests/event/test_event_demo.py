"""``scorekeeper event-demo`` end to end, small: 3 bot-played tables, 2 rounds, the broker
restarted in round 1 and the hub SIGKILLed in round 2, real PostgreSQL and Mosquitto of its
own (it must restart and kill them, so it never uses the session servers).

It proves what ``make event-demo`` promises at its full size: the event reaches its final
standings by itself through both faults, the hub's standings equal a fresh computation from
the event's records and every table's own SQLite log, the hub holds every table's log record
for record, and everything it started is stopped when it exits.
"""

from __future__ import annotations

import re
import socket
import subprocess
import sys
from pathlib import Path


def test_event_demo_survives_a_broker_restart_and_a_hub_kill(tmp_path: Path) -> None:
    folder = tmp_path / "event-demo"
    demo = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "scorekeeper",
            "event-demo",
            "--tables",
            "3",
            "--rounds",
            "2",
            "--pace",
            "0.002",
            "--option",
            "max_rounds=2",  # games of ~300 inputs instead of ~1000
            "--no-browser",
            "--dir",
            str(folder),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        out, err = demo.communicate(timeout=300)
    except subprocess.TimeoutExpired:
        demo.terminate()  # SIGTERM: the demo stops its servers and programs on the way out
        out, err = demo.communicate(timeout=60)
        raise AssertionError(f"the demo did not end in 300 s:\n{out}{err}") from None
    assert demo.returncode == 0, out + err
    assert "round 1: the broker restarts now" in out and "round 1: the broker is back" in out
    assert "round 2: the hub is killed now" in out and "round 2: the hub is back" in out
    for number in (1, 2):
        assert f"round {number}: 3 of 3 tables finished" in out
        assert f"round {number}: every result is final" in out
    assert "standings equal a fresh computation from every table's log: yes" in out
    records = re.search(r"record for record: yes \((\d+) records\)", out)
    assert records is not None and int(records.group(1)) > 6 * 100, out  # 6 games
    places = re.findall(r"^\s+(\d+)\. .+ points", out, re.MULTILINE)
    assert [int(p) for p in places] == sorted(int(p) for p in places) and len(places) == 12
    # What it started is stopped: the hub's port is closed.
    port = re.search(r"projector is at http://127\.0\.0\.1:(\d+)/", out)
    assert port is not None
    with socket.socket() as s:
        assert s.connect_ex(("127.0.0.1", int(port.group(1)))) != 0
    assert sorted(p.name for p in (folder / "tables").glob("*.db")) == ["1.db", "2.db", "3.db"]
