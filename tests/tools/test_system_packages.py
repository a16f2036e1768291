"""tools/system-packages.sh: what `make test` runs before any test to bring up Debian packages.

The script is run for real with a PATH of our making, so that it sees exactly the tools we
choose: which packages are missing, whether it is root, whether apt-get exists.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "tools" / "system-packages.sh"
TOOLS = ("chromium", "shellcheck", "systemd-analyze", "npm", "fusermount3")


def fake_bin(tmp_path: Path, present: tuple[str, ...], *, uid: int, apt: bool) -> Path:
    """A folder for PATH: the shell utilities the script uses, the tools in ``present``, an
    ``id`` that says ``uid`` and, with ``apt``, an apt-get that records its arguments."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("bash", "env"):
        real = shutil.which(tool)
        assert real, tool
        (bin_dir / tool).symlink_to(real)
    scripts = {name: "#!/bin/sh\nexit 0\n" for name in present}
    scripts["id"] = f"#!/bin/sh\necho {uid}\n"
    if apt:
        scripts["apt-get"] = f'#!/bin/sh\necho "$@" >> {tmp_path / "apt.log"}\n'
    for name, text in scripts.items():
        path = bin_dir / name
        path.write_text(text)
        path.chmod(0o755)
    return bin_dir


def run(bin_dir: Path) -> subprocess.CompletedProcess[str]:
    bash = str(bin_dir / "bash")
    return subprocess.run(
        [bash, str(SCRIPT)],
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, "PATH": str(bin_dir)},
    )


def test_nothing_missing_does_nothing(tmp_path: Path) -> None:
    done = run(fake_bin(tmp_path, TOOLS, uid=0, apt=True))
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "apt.log").exists()


def test_root_with_apt_installs_exactly_what_is_missing(tmp_path: Path) -> None:
    done = run(fake_bin(tmp_path, ("shellcheck", "systemd-analyze"), uid=0, apt=True))
    assert done.returncode == 0, done.stderr
    calls = (tmp_path / "apt.log").read_text().splitlines()
    assert calls[0].startswith("update")
    assert calls[1].startswith("install")
    assert calls[1].split()[-3:] == ["chromium", "npm", "fuse3"]
    assert "installing the system packages the tests need: chromium npm fuse3" in done.stderr


def test_not_root_stops_with_the_one_command(tmp_path: Path) -> None:
    done = run(fake_bin(tmp_path, ("chromium", "npm", "fusermount3"), uid=1000, apt=True))
    assert done.returncode == 1
    assert not (tmp_path / "apt.log").exists()
    assert "missing: shellcheck systemd" in done.stderr
    assert "sudo apt-get install -y -q --no-install-recommends shellcheck systemd" in done.stderr


def test_without_apt_names_the_packages(tmp_path: Path) -> None:
    done = run(
        fake_bin(
            tmp_path, ("shellcheck", "systemd-analyze", "npm", "fusermount3"), uid=0, apt=False
        )
    )
    assert done.returncode == 1
    assert "missing: chromium" in done.stderr
    assert "package manager" in done.stderr


def test_script_passes_shellcheck() -> None:
    tool = shutil.which("shellcheck")
    assert tool, "shellcheck is missing: make test installs it (tools/system-packages.sh)"
    done = subprocess.run([tool, str(SCRIPT)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout
