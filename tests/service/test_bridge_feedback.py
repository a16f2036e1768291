"""A play refused at a reader makes the bridge beep: hub -> serial backend -> BUZZER frame."""

from __future__ import annotations

import os
import time
import tty
from pathlib import Path

from firmware_bridge import protocol as p
from scorekeeper.readers.fake_bridge import FakeBridge
from scorekeeper.service import Hub

UID = "04A1B2C3D4E5F6"


def buzzer_commands(bridge: FakeBridge) -> list[p.Command]:
    return [c for c in bridge.commands if c.code == p.CMD_BUZZER]


def test_a_refused_sighting_beeps_the_bridge_and_an_accepted_one_does_not(tmp_path: Path) -> None:
    master, slave = os.openpty()
    tty.setraw(slave)
    bridge = FakeBridge(master, reader_count=2).start()
    hub = Hub.open(tmp_path / "var" / "t.db")
    try:
        table = hub.create_table(
            "angels-and-demons",
            ["Ann", "Bea"],
            layout={"r0": "talon", "r1": "discard:1"},
            kit={UID: "H1b1", "04A1B2C3D4E5F7": "H2b1"},
            readers=f"serial:{os.ttyname(slave)}",
        )
        hub.start(table)
        assert bridge.synced.wait(5)
        bridge.put(0, bytes.fromhex(UID))  # a card turned onto the talon: accepted
        assert hub.wait_inputs(table, 1, 5)
        time.sleep(0.2)
        assert buzzer_commands(bridge) == []
        bridge.put(1, bytes.fromhex("04A1B2C3D4E5F7"))  # a discard during the deal: refused
        assert hub.wait_inputs(table, 2, 5)
        deadline = time.monotonic() + 5
        while not buzzer_commands(bridge) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert buzzer_commands(bridge), "the bridge was not told to beep"
        feed = hub.view(table, "organiser")["feed"]  # every input, events or not
        assert [e["accepted"] for e in feed] == [True, False]
    finally:
        hub.close()
        bridge.stop()
        os.close(slave)
