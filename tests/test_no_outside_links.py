"""No file of the project sends its reader outside the repository.

The project was written next to a folder of specifications that a clone does not have; a
pointer into it ("see the rules in the folder beside the repository") leads nowhere. The rules
players need are the project's own: docs/rules/ and /rules/<game> on the server.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
_SHARED = "shared"  # spelled apart so that this file does not match its own patterns
_DESIGN = "DESIGN"  # the design notes beside the repository; ours are docs/design.md
OUTSIDE = re.compile(
    "|".join(
        re.escape(p)
        for p in (
            f"../{_SHARED}",
            f"{_SHARED}/rules",
            f"{_SHARED}/DESIGN",
            f"{_SHARED}/seeds",
            f"/work/{_SHARED}",
            f"{_DESIGN}.md",
        )
    )
)
SKIP_DIRS = {".git", ".venv", "var", "node_modules", "__pycache__", "build", "dist"}


def tracked_files() -> list[Path]:
    """The repository's files: ``git ls-files``, or a walk of the tree outside a git clone."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True, timeout=60
        ).stdout
        names = [n for n in out.decode("utf-8", "replace").split("\0") if n]
        if names:
            return [REPO / n for n in names]
    except (OSError, subprocess.SubprocessError):
        pass
    return [
        p
        for p in REPO.rglob("*")
        if p.is_file()
        and not SKIP_DIRS.intersection(p.relative_to(REPO).parts)
        and not any(part.endswith(".egg-info") for part in p.relative_to(REPO).parts)
    ]


def test_the_scan_finds_a_pointer_outside() -> None:
    assert OUTSIDE.search(f"rules: `../{_SHARED}/rules/arcanum.md`")
    assert OUTSIDE.search(f"(see {_SHARED}/{_DESIGN}.md)")
    assert OUTSIDE.search(f"the budgets of {_DESIGN}.md")
    assert not OUTSIDE.search("the budgets of docs/design.md")
    assert not OUTSIDE.search("rules: docs/rules/arcanum.md, served at /rules/arcanum")


def test_no_tracked_file_points_outside_the_repository() -> None:
    files = tracked_files()
    assert any(p.name == "README.md" for p in files)
    hits = []
    for path in files:
        if not path.is_file():  # deleted in the work tree, not yet in the index
            continue
        text = path.read_bytes().decode("utf-8", "replace")
        for number, line in enumerate(text.splitlines(), 1):
            if OUTSIDE.search(line):
                hits.append(f"{path.relative_to(REPO)}:{number}: {line.strip()[:120]}")
    assert not hits, (
        "these lines point outside the repository; point them at the project's "
        "own docs (the rules: docs/rules/<game>.md, /rules/<game>):\n" + "\n".join(hits)
    )
