"""The systemd unit, the udev rule and install.sh: verified by the real tools where they exist.

Nothing here is skipped for a missing tool: ``systemd-analyze`` and ``shellcheck`` are needed
(``make test`` installs them: tools/system-packages.sh), and a missing one fails with the reason.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.api.procs import free_port, stop, wait_http

ROOT = Path(__file__).resolve().parents[2]
SYSTEMD = ROOT / "systemd"
UNIT = SYSTEMD / "scorekeeper.service"
RULE = SYSTEMD / "99-scorekeeper-bridge.rules"
INSTALL = SYSTEMD / "install.sh"
EXEC = "/opt/scorekeeper/venv/bin/scorekeeper"

# Messages of `systemd-analyze verify` that describe this test machine rather than the unit.
# None is expected: the test replaces the ExecStart binary (not installed here) with a stub, and
# systemd 252's verify does not look up User=/Group=. If another machine prints one, add its
# exact text here with the reason; never a pattern that could hide a mistake in the unit.
ENVIRONMENT_MESSAGES: tuple[re.Pattern[str], ...] = ()


def parse_unit(text: str) -> dict[str, dict[str, list[str]]]:
    """``{section: {key: [values in order]}}``; repeated keys (DeviceAllow) keep every value."""
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], {})
            continue
        assert current is not None, f"option outside a section: {line!r}"
        key, eq, value = line.partition("=")
        assert eq, f"not key=value: {line!r}"
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


def service() -> dict[str, list[str]]:
    return parse_unit(UNIT.read_text())["Service"]


def need(tool: str, how: str) -> str:
    found = shutil.which(tool)
    if found is None:
        pytest.fail(f"{tool} is not installed: {how}")
    return found


def test_service_basics() -> None:
    s = service()
    expected = {
        "Type": "notify",
        "NotifyAccess": "main",
        "WatchdogSec": "30",
        "Restart": "on-failure",
        "RestartSec": "2",
        "User": "scorekeeper",
        "Group": "scorekeeper",
        "StateDirectory": "scorekeeper",
    }
    for key, value in expected.items():
        assert s.get(key) == [value], key
    assert set(s["SupplementaryGroups"][0].split()) == {"spi", "gpio", "dialout"}
    assert s["ExecStart"] == [
        f"{EXEC} serve --host 0.0.0.0 --db "
        "/var/lib/scorekeeper/scorekeeper.db --readers "
        "serial:/dev/scorekeeper-bridge --feedback"
    ]
    assert parse_unit(UNIT.read_text())["Install"]["WantedBy"] == ["multi-user.target"]


def test_hardening_options() -> None:
    s = service()
    required = {
        "ProtectSystem": "strict",
        "ProtectHome": "yes",
        "PrivateTmp": "yes",
        "NoNewPrivileges": "yes",
        "ProtectKernelTunables": "yes",
        "ProtectKernelModules": "yes",
        "ProtectKernelLogs": "yes",
        "ProtectControlGroups": "yes",
        "RestrictNamespaces": "yes",
        "LockPersonality": "yes",
        "MemoryDenyWriteExecute": "yes",
        "SystemCallArchitectures": "native",
        "CapabilityBoundingSet": "",
        "DevicePolicy": "closed",
    }
    for key, value in required.items():
        assert s.get(key) == [value], f"{key}={value} missing from the unit (got {s.get(key)})"
    assert set(s["RestrictAddressFamilies"][0].split()) == {"AF_UNIX", "AF_INET", "AF_INET6"}
    allowed = {v.split()[0]: v.split()[1] for v in s["DeviceAllow"]}
    for device in ("char-spi", "char-gpiochip", "char-ttyACM"):
        assert allowed.get(device) == "rw", f"DeviceAllow={device} rw missing"
    # no capability, no privilege: nothing that would undo the above
    for risky in ("AmbientCapabilities", "PrivilegeEscalation", "PermissionsStartOnly"):
        assert not any(s.get(risky, [])), risky


def test_systemd_analyze_verify(tmp_path: Path) -> None:
    analyze = need("systemd-analyze", "it comes with systemd (apt-get install systemd)")
    stub = tmp_path / "scorekeeper"
    stub.write_text("#!/bin/sh\nexit 0\n")
    stub.chmod(0o755)
    text = UNIT.read_text()
    assert f"ExecStart={EXEC} " in text
    # The real binary is installed by install.sh on a Pi, not here: verify checks that the
    # ExecStart program exists and is executable, so it points at a stub for this check only.
    unit = tmp_path / "scorekeeper.service"
    unit.write_text(text.replace(f"ExecStart={EXEC} ", f"ExecStart={stub} "))

    def verify(path: Path) -> tuple[int, list[str]]:
        done = subprocess.run(
            [analyze, "verify", "--man=no", str(path)],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=tmp_path,
        )
        lines = [ln for ln in (done.stdout + done.stderr).splitlines() if ln.strip()]
        return done.returncode, [
            ln for ln in lines if not any(p.search(ln) for p in ENVIRONMENT_MESSAGES)
        ]

    code, complaints = verify(unit)
    assert code == 0 and complaints == [], "\n".join(complaints)

    # The check is not vacuous: a misspelt option is reported (as a warning, exit 0).
    broken = tmp_path / "broken" / "scorekeeper.service"
    broken.parent.mkdir()
    broken.write_text(unit.read_text().replace("LockPersonality=", "LockPersonalty="))
    assert any("LockPersonalty" in line for line in verify(broken)[1])


def test_udev_rule() -> None:
    rules = [ln for ln in RULE.read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    assert len(rules) == 1
    rule = rules[0]
    for part in (
        'SUBSYSTEM=="tty"',
        'ATTRS{idVendor}=="2e8a"',
        'SYMLINK+="scorekeeper-bridge"',
        'GROUP="dialout"',
        'MODE="0660"',
        'ENV{ID_MM_DEVICE_IGNORE}="1"',
    ):
        assert part in rule, part
    # every key=value pair is well formed (udev silently ignores a broken rule line)
    for pair in re.split(r",\s*", rule):
        assert re.fullmatch(r'[A-Z_]+(\{[A-Za-z_]+\})?(==|!=|\+=|=|:=)"[^"]*"', pair), pair


def test_install_sh_passes_shellcheck() -> None:
    tool = need("shellcheck", "make test installs it (tools/system-packages.sh)")
    done = subprocess.run(
        [tool, "--severity=style", str(INSTALL)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_install_sh_shape() -> None:
    text = INSTALL.read_text()
    assert text.startswith("#!/usr/bin/env bash\n")
    assert "set -euo pipefail" in text
    assert os.access(INSTALL, os.X_OK), "install.sh must be executable"
    for needed in (
        "id -u",
        "raspi-config nonint do_spi 0",
        "systemctl daemon-reload",
        "systemctl enable",
        "hostname -I",
        "organiser-token",
        "useradd --system",
        "[pi]",
        "python3-venv",
        "/healthz",
        "-m compileall",  # the service cannot write __pycache__: compiled once, as root
    ):
        assert needed in text, needed
    done = subprocess.run(
        ["bash", str(INSTALL), "--help"], capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0 and "install.sh" in done.stdout
    done = subprocess.run(
        ["bash", str(INSTALL), "--frobnicate"], capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 1 and "unknown option: --frobnicate" in done.stderr


PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN = 65, 1


def test_server_runs_under_memory_deny_write_execute(tmp_path: Path) -> None:
    """MemoryDenyWriteExecute=yes must not break the server (with GPIO feedback, on mock pins).

    The kernel's PR_SET_MDWE (Linux 6.3+) refuses writable+executable memory like the unit's
    setting does, and is inherited across exec: a small launcher sets it and execs the server.
    """
    probe = subprocess.run(
        [
            sys.executable,
            "-c",
            textwrap.dedent(f"""
        import ctypes, mmap
        libc = ctypes.CDLL(None, use_errno=True)
        assert libc.prctl({PR_SET_MDWE}, {PR_MDWE_REFUSE_EXEC_GAIN}, 0, 0, 0) == 0
        try:
            mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
        except OSError:
            print("enforced")
        """),
        ],
        capture_output=True,
        text=True,
        timeout=30,
    )
    if probe.stdout.strip() != "enforced":
        pytest.skip(
            f"this kernel ({os.uname().release}) has no PR_SET_MDWE (Linux 6.3+), so "
            f"MemoryDenyWriteExecute cannot be tried here: {probe.stderr.strip()}"
        )
    launcher = tmp_path / "mdwe.py"
    launcher.write_text(
        textwrap.dedent(f"""
        import ctypes, os, sys
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl({PR_SET_MDWE}, {PR_MDWE_REFUSE_EXEC_GAIN}, 0, 0, 0) != 0:
            sys.exit("prctl(PR_SET_MDWE) failed")
        os.execv(sys.executable, [sys.executable, "-m", "scorekeeper", *sys.argv[1:]])
        """)
    )
    port = free_port()
    env = dict(os.environ, PYTHONUNBUFFERED="1", GPIOZERO_PIN_FACTORY="mock")
    env.pop("NOTIFY_SOCKET", None)
    with open(tmp_path / "stderr.txt", "w") as err:
        proc = subprocess.Popen(
            [
                sys.executable,
                str(launcher),
                "serve",
                "--port",
                str(port),
                "--db",
                "var/scorekeeper.db",
                "--readers",
                "sim",
                "--feedback",
            ],
            cwd=tmp_path,
            stdout=subprocess.DEVNULL,
            stderr=err,
            env=env,
        )
        try:
            wait_http(f"http://127.0.0.1:{port}/healthz", proc)
        finally:
            code = stop(proc, signal.SIGTERM)
    log = (tmp_path / "stderr.txt").read_text()
    assert code == 0, log
    assert 'msg="GPIO feedback on"' in log, log
    assert "could not use the GPIO" not in log and "Traceback" not in log, log
