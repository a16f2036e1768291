"""The dashboard's scripts under /static: every ES module of webui/ (the page's entry app.js,
kit.js, the page's modules in webui/app/ and the game views in webui/games/, with the modules a
game's view keeps in its own folder, such as webui/games/arcanum/) is served as
JavaScript, which a browser requires of a module, with the same headers as the entry; and every
module a script imports by a relative path exists, so no import 404s in a browser."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

WEBUI = Path(__file__).resolve().parents[2] / "webui"
# `import ... from "./x.js"`, `export ... from "../x.js"`, `import("../x.js")`: the static ones
IMPORT = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}/[^"'$]+)["']""")


def _modules() -> list[str]:
    """webui's scripts the dashboard loads, as paths under /static."""
    scripts = [WEBUI / "app.js", WEBUI / "kit.js"]
    # rglob: a game's view may be split into modules under webui/games/<game>/
    scripts += sorted((WEBUI / "app").glob("*.js")) + sorted((WEBUI / "games").rglob("*.js"))
    return [p.relative_to(WEBUI).as_posix() for p in scripts]


def test_every_dashboard_module_is_served_as_javascript(client: TestClient) -> None:
    entry = client.get("/static/app.js")
    assert entry.status_code == 200
    for path in _modules():
        r = client.get(f"/static/{path}")
        assert r.status_code == 200, path
        kind = r.headers["content-type"].split(";")[0].strip()
        assert kind in ("text/javascript", "application/javascript"), (path, kind)
        assert set(r.headers) == set(entry.headers), path


def test_every_relative_import_names_a_file_that_exists() -> None:
    modules = _modules()
    assert "app/main.js" in modules and "app/render.js" in modules
    wrong = []
    found = 0
    for path in modules:
        source = (WEBUI / path).read_text(encoding="utf-8")
        for target in IMPORT.findall(source):
            resolved = (WEBUI / path).parent / target
            if not resolved.resolve().is_file():
                wrong.append(f"webui/{path} imports {target}, which does not exist")
        found += len(IMPORT.findall(source))
    assert not wrong, "\n".join(wrong)
    # the pattern does find them: the page's modules import kit.js and one another
    assert found > len(modules), f"only {found} imports found in {len(modules)} modules"
