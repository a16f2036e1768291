"""axe-core in a Playwright page: the accessibility audit of every dashboard view.

axe-core comes from the npm registry (``make test`` installs the pinned version into
``.venv/axe``; ``SK_AXE_JS`` may name another ``axe.min.js``). Nothing is downloaded by a test.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

REPO = Path(__file__).resolve().parents[2]
AXE_JS = Path(
    os.environ.get("SK_AXE_JS")
    or REPO / ".venv" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
)
SERIOUS = ("serious", "critical")


def axe_script() -> str:
    """The text of axe.min.js; fails with the command to run when it is not installed."""
    if not AXE_JS.is_file():
        raise AssertionError(
            f"axe-core is not installed at {AXE_JS}: run `make test` (it "
            "installs it with npm), or set SK_AXE_JS to an axe.min.js"
        )
    return AXE_JS.read_text(encoding="utf-8")


def audit(page: Page) -> list[dict[str, Any]]:
    """Run axe-core on ``page`` as it is now; every violation, each with its nodes."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=axe_script())
    result: dict[str, Any] = page.evaluate(
        "async () => await window.axe.run(document, {resultTypes: ['violations']})"
    )
    return list(result["violations"])


def serious_violations(page: Page) -> list[str]:
    """The violations of impact serious or critical, one readable line per failing node."""
    lines = []
    for v in audit(page):
        if v.get("impact") not in SERIOUS:
            continue
        for node in v["nodes"]:
            target = " ".join(str(t) for t in node.get("target", []))
            lines.append(
                f"{v['id']} ({v['impact']}): {target}: {node.get('failureSummary', '')}".replace(
                    "\n", " "
                )
            )
    return lines
