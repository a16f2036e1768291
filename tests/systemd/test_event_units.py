"""The event's systemd units: the hub's template unit and the table's drop-in, verified by
systemd-analyze (make test installs it) and checked for the same hardening as the table's."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.systemd.test_unit import EXEC, SYSTEMD, need, parse_unit

HUB = SYSTEMD / "scorekeeper-hub@.service"
DROP_IN = SYSTEMD / "scorekeeper-event-table.conf"


def verify(path: Path, cwd: Path) -> list[str]:
    analyze = need("systemd-analyze", "it comes with systemd (apt-get install systemd)")
    done = subprocess.run(
        [analyze, "verify", "--man=no", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=cwd,
    )
    lines = [ln for ln in (done.stdout + done.stderr).splitlines() if ln.strip()]
    assert done.returncode == 0, "\n".join(lines)
    return lines


def test_hub_unit_runs_the_event_hub_hardened() -> None:
    s = parse_unit(HUB.read_text())["Service"]
    assert s["ExecStart"][0].startswith(f"{EXEC} hub serve %i ")
    for flag in (
        "--db ${SCOREKEEPER_EVENT_DB}",
        "--hub-number ${SCOREKEEPER_HUB_NUMBER}",
        "--dir /etc/scorekeeper/events/%i",
    ):
        assert flag in s["ExecStart"][0]
    assert s["EnvironmentFile"] == ["/etc/scorekeeper/events/%i/hub.env"]
    assert s["Restart"] == ["always"] and s["User"] == ["scorekeeper"]
    for key, value in {
        "ProtectSystem": "strict",
        "NoNewPrivileges": "yes",
        "PrivateDevices": "yes",
        "MemoryDenyWriteExecute": "yes",
        "CapabilityBoundingSet": "",
        "RestrictNamespaces": "yes",
    }.items():
        assert s.get(key) == [value], key


def test_units_pass_systemd_analyze(tmp_path: Path) -> None:
    stub = tmp_path / "scorekeeper"
    stub.write_text("#!/bin/sh\nexit 0\n")
    stub.chmod(0o755)
    unit = tmp_path / "scorekeeper-hub@spring.service"
    unit.write_text(HUB.read_text().replace(f"ExecStart={EXEC} ", f"ExecStart={stub} "))
    assert verify(unit, tmp_path) == []
    # the table's drop-in on top of the table's unit
    table = tmp_path / "scorekeeper.service"
    table.write_text(
        (SYSTEMD / "scorekeeper.service")
        .read_text()
        .replace(f"ExecStart={EXEC} ", f"ExecStart={stub} ")
    )
    drop = tmp_path / "scorekeeper.service.d"
    drop.mkdir()
    (drop / "event.conf").write_text(DROP_IN.read_text().replace(f"{EXEC} ", f"{stub} "))
    assert verify(table, tmp_path) == []
    starts = parse_unit(DROP_IN.read_text())["Service"]["ExecStart"]
    assert starts[0] == "" and starts[1].endswith("--event /etc/scorekeeper/event.json")
    # not vacuous: a misspelt option is reported
    broken = tmp_path / "broken" / "scorekeeper-hub@spring.service"
    broken.parent.mkdir()
    broken.write_text(unit.read_text().replace("LockPersonality=", "LockPersonalty="))
    done = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", str(broken)], capture_output=True, text=True
    )
    assert "LockPersonalty" in done.stdout + done.stderr
