"""The organiser console's backup line in a real browser: the last periodic backup
(``serve --backup-to``), then the failure in words once the USB stick is gone."""

from __future__ import annotations

import re
import signal
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.api.procs import free_port, start_cli, stop, wait_http


def test_the_console_shows_the_last_backup_and_then_its_failure(
    tmp_path: Path, new_page: Callable[..., Page]
) -> None:
    usb = tmp_path / "usb"
    usb.mkdir()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start_cli(
        [
            "serve",
            "--port",
            str(port),
            "--db",
            "var/b.db",
            "--backup-to",
            "usb",
            "--backup-every",
            "0.01",
        ],
        tmp_path,
    )  # every 0.6 s
    try:
        wait_http(f"{base}/healthz", proc)
        page = new_page(base=base)
        page.goto("/console")
        page.locator("#token").fill((tmp_path / "var" / "b.organiser-token").read_text().strip())
        page.locator("#token-save").click()
        line = page.locator("#backup-line")
        expect(line, "#backup-line does not show the last backup").to_have_text(
            re.compile(r"^Last backup \d\d:\d\d to usb/b-\d{8}-\d{6}(-\d+)?\.db$")
        )
        usb.rename(tmp_path / "pulled")  # the stick is pulled out, at once, even mid-round
        expect(line, "#backup-line does not say the backup failed").to_contain_text(
            re.compile(
                r"Backup to usb failed at \d\d:\d\d: "
                r".*(is the USB stick plugged in|USB stick failed or was removed)"
            )
        )
        expect(line).to_have_class(re.compile(r"\berror-text\b"))
    finally:
        assert stop(proc, signal.SIGINT) in (0, 130)
