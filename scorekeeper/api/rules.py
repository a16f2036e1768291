"""The players' rules reference: ``GET /rules`` (the games) and ``GET /rules/<game id>``.

Refusals name a rule (``R-MIN-4``, ``TABLE-GAME-OVER``); these pages explain each one, with the
rule id as the anchor of its entry, so ``/rules/arcanum#R-MIN-4`` opens at that rule. The text
is the project's own reference, written for players: ``docs/rules/<game id>.md`` in the
repository, shipped in the package as ``scorekeeper/rulebook/<game id>.md`` (a test keeps the two
identical). A small renderer of our own turns the few Markdown forms the reference uses into
HTML; nothing is fetched from elsewhere, so the pages work on a table with no internet.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

RULEBOOK = Path(__file__).resolve().parent.parent / "rulebook"

# A rule id as the references and the refusals write it: R-TURN-3, R-FAME, D-4, G-12, TABLE-...
RULE_ID = re.compile(r"\b((?:R|D|A|G|TABLE)-[A-Z0-9]+(?:-[A-Z0-9]+)*)\b")
# The first line of a rule's entry: "**R-TURN-3 Take a talon card.** text..."
RULE_START = re.compile(
    r"\*\*((?:R|D|A|G|TABLE)-[A-Z0-9]+(?:-[A-Z0-9]+)*)\b *(.*?)\*\* *(.*)", re.S
)
HEADING_ID = re.compile(r"\s*\(((?:R|D|A|G|TABLE)-[A-Z0-9]+(?:-[A-Z0-9]+)*)\)\s*$")

STYLE = """
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; background: #fdfcf8; color: #1b1b1b; font: 1.25rem/1.55 system-ui,
  -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif;
  overflow-wrap: anywhere; }
header { background: #f1ede3; border-bottom: 1px solid #d8d1c0; padding: .6rem 1rem; }
header nav { display: flex; flex-wrap: wrap; gap: .3rem 1.4rem; }
main { max-width: 46rem; margin: 0 auto; padding: .5rem 1rem 4rem; }
h1 { font-size: 2rem; line-height: 1.2; margin: 1rem 0; }
h2 { font-size: 1.55rem; line-height: 1.25; margin: 2.2rem 0 .8rem;
  border-bottom: 2px solid #d8d1c0; padding-bottom: .2rem; }
h2:target { background: #fff0b8; }
a { color: #0b4a8f; text-decoration-thickness: .08em; text-underline-offset: .15em; }
a:focus-visible { outline: 3px solid #0b4a8f; outline-offset: 2px; }
p, ul { margin: .5rem 0; }
ul { padding-left: 1.4rem; }
li { margin: .3rem 0; }
code, .rid { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: .92em; }
.rule { margin: .9rem -.75rem; padding: .35rem .75rem; border-left: 5px solid transparent;
  border-radius: 4px; scroll-margin-top: .5rem; }
.rule:target { background: #fff0b8; border-left-color: #7a4d00; }
.rid { background: #ece6d8; border-radius: 4px; padding: 0 .3em; white-space: nowrap; }
.note { background: #e9f0f7; border-left: 4px solid #3a6594; padding: .4rem .7rem;
  margin: .6rem 0; }
table { border-collapse: collapse; width: 100%; margin: .6rem 0; }
th, td { border: 1px solid #cfc7b4; padding: .3rem .5rem; text-align: left; }
th { background: #f1ede3; }
nav.contents ul { columns: 2 14rem; }
.games li { font-size: 1.4rem; margin: .8rem 0; }
"""

# "Back to the table" returns to the page the player came from (their table or their phone's
# seat view) when it is this server's; otherwise it opens the live page.
BACK_SCRIPT = """
document.getElementById("back").addEventListener("click", (e) => {
  const ref = document.referrer;
  if (ref && new URL(ref).origin === location.origin
      && !new URL(ref).pathname.startsWith("/rules") && history.length > 1) {
    e.preventDefault();
    history.back();
  }
});
"""


def available() -> dict[str, str]:
    """Every game with a rules reference: its id and the reference's title."""
    out = {}
    for path in sorted(RULEBOOK.glob("*.md")):
        out[path.stem] = _title(path.read_text(encoding="utf-8"))
    return out


def _title(text: str) -> str:
    for line in text.splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return "Rules"


def reference_text(game_id: str) -> str | None:
    """The Markdown source of ``game_id``'s reference, or None when it has none."""
    if not re.fullmatch(r"[a-z0-9-]+", game_id):
        return None
    path = RULEBOOK / f"{game_id}.md"
    return path.read_text(encoding="utf-8") if path.is_file() else None


def anchors(text: str) -> set[str]:
    """The rule ids that get their own anchor on the page rendered from ``text``."""
    ids = set()
    for line in text.splitlines():
        start = RULE_START.match(line)
        if start:
            ids.add(start.group(1))
        elif line.startswith("#"):
            found = HEADING_ID.search(line)
            if found:
                ids.add(found.group(1))
    return ids


# -- a renderer for the Markdown the references use ----------------------------------------------
# Headings (#, ##, ###; "(R-FAME)" at the end of a heading becomes its id), paragraphs, "- " lists
# (continued by indented lines), "> " notes, "|" tables, and inline **bold**, *italic*, `code`,
# [links](url). A block that starts with "**<rule id> ...**" opens a rule's entry, which runs
# until the next rule or heading.


def _inline(text: str, known: set[str]) -> str:
    """One line's worth of inline Markdown as HTML; known rule ids link to their entries."""
    parts = re.split(r"(`[^`]*`)", text)
    out = []
    for part in parts:
        if part.startswith("`") and part.endswith("`") and len(part) >= 2:
            out.append(f"<code>{html.escape(part[1:-1])}</code>")
            continue
        s = html.escape(part, quote=False)
        s = re.sub(
            r"\[([^\]]+)\]\(([^)\s]+)\)",
            lambda m: f'<a href="{html.escape(m.group(2))}">{m.group(1)}</a>',
            s,
        )
        s = RULE_ID.sub(
            lambda m: (
                f'<a href="#{m.group(1)}">{m.group(1)}</a>' if m.group(1) in known else m.group(1)
            ),
            s,
        )
        s = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", s)
        s = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"<em>\1</em>", s)
        out.append(s)
    return "".join(out)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"


def _table(lines: list[str], known: set[str]) -> str:
    rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines]
    body = [r for r in rows[1:] if not all(re.fullmatch(r":?-+:?", c) for c in r)]
    head = "".join(f'<th scope="col">{_inline(c, known)}</th>' for c in rows[0])
    cells = "".join(
        "<tr>" + "".join(f"<td>{_inline(c, known)}</td>" for c in r) + "</tr>" for r in body
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{cells}</tbody></table>"


def _block(lines: list[str], known: set[str]) -> str:
    """One block (lines between blank lines) that is not a heading."""
    if all(line.startswith("|") for line in lines):
        return _table(lines, known)
    out: list[str] = []
    para: list[str] = []
    items: list[list[str]] = []
    note: list[str] = []

    def flush() -> None:
        if para:
            out.append(f"<p>{_inline(' '.join(para), known)}</p>")
            para.clear()
        if items:
            lis = "".join(f"<li>{_inline(' '.join(i), known)}</li>" for i in items)
            out.append(f"<ul>{lis}</ul>")
            items.clear()
        if note:
            out.append(f'<p class="note">{_inline(" ".join(note), known)}</p>')
            note.clear()

    for line in lines:
        if line.startswith("- "):
            if para or note:
                flush()
            items.append([line[2:].strip()])
        elif line.startswith("  ") and items:
            items[-1].append(line.strip())
        elif line.startswith(">"):
            if para or items:
                flush()
            note.append(line[1:].strip())
        else:
            if items or note:
                flush()
            para.append(line.strip())
    flush()
    return "".join(out)


def render(text: str) -> tuple[str, str]:
    """The reference's title and its body as HTML (one element per rule, id = rule id)."""
    known = anchors(text)
    title = _title(text)
    blocks: list[list[str]] = [[]]
    for line in text.splitlines():
        if line.strip():
            blocks[-1].append(line.rstrip())
        elif blocks[-1]:
            blocks.append([])
    out: list[str] = []
    contents: list[tuple[str, str]] = []
    in_rule = False
    for block in (b for b in blocks if b):
        first = block[0]
        heading = re.match(r"(#{1,3}) +(.*)", first)
        if heading:
            if in_rule:
                out.append("</section>")
                in_rule = False
            level = len(heading.group(1))
            words = heading.group(2).strip()
            found = HEADING_ID.search(words)
            anchor = found.group(1) if found else _slug(words)
            words = HEADING_ID.sub("", words)
            if level == 1:
                out.append(f"<h1>{_inline(words, known)}</h1>")
            else:
                out.append(f'<h{level} id="{anchor}">{_inline(words, known)}</h{level}>')
                if level == 2:
                    contents.append((anchor, words))
            if len(block) > 1:
                out.append(_block(block[1:], known))
            continue
        start = RULE_START.match(first)
        if start:
            if in_rule:
                out.append("</section>")
            rule, name = start.group(1), start.group(2).strip()
            rest = [start.group(3), *block[1:]] if start.group(3) else block[1:]
            lead = f'<span class="rid">{rule}</span>' + (f" {_inline(name, known)}" if name else "")
            body = _block(rest, known) if rest else ""
            # the lead joins the first paragraph, so the entry reads as one sentence
            if body.startswith("<p>"):
                body = f"<p><strong>{lead}</strong> {body[3:]}"
            else:
                body = f"<p><strong>{lead}</strong></p>{body}"
            out.append(f'<section class="rule" id="{rule}">{body}')
            in_rule = True
            continue
        out.append(_block(block, known))
    if in_rule:
        out.append("</section>")
    toc = "".join(f'<li><a href="#{a}">{_inline(w, known)}</a></li>' for a, w in contents)
    nav = f'<nav class="contents" aria-label="Contents"><ul>{toc}</ul></nav>' if toc else ""
    body = "".join(out)
    # the contents go right after the title and the introduction, before the first section
    cut = body.find("<h2")
    if cut >= 0:
        body = body[:cut] + nav + body[cut:]
    return title, body


def page(title: str, body: str) -> str:
    """A whole HTML page around ``body``: readable type, no external files."""
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>"
        '<header><nav aria-label="Back"><a id="back" href="/">← Back to the table</a>'
        '<a href="/rules">Rules of every game</a></nav></header>'
        f"<main>{body}</main><script>{BACK_SCRIPT}</script></body></html>"
    )


def index_page() -> str:
    """The list of games that have a rules reference."""
    links = "".join(
        f'<li><a href="/rules/{gid}">{html.escape(title)}</a></li>'
        for gid, title in available().items()
    )
    return page(
        "Rules of the games",
        "<h1>Rules of the games</h1><p>Each page explains the "
        "rules the table follows, under the same names the table uses when it refuses "
        f'a play.</p><ul class="games">{links}</ul>',
    )


def not_found_page(game_id: str) -> str:
    """The page for a game with no rules reference."""
    return page(
        "No such game",
        "<h1>No rules for that game</h1><p>There is no rules page for "
        f"“{html.escape(game_id)}”. Pick a game from the list of "
        '<a href="/rules">rules of every game</a>.</p>',
    )


def rules_routes() -> APIRouter:
    """The router serving the rules pages."""
    router = APIRouter(include_in_schema=False)

    @router.get("/rules", response_class=HTMLResponse)
    def rules_index() -> HTMLResponse:
        return HTMLResponse(index_page())

    @router.get("/rules/{game_id}", response_class=HTMLResponse)
    def rules_page(game_id: str) -> HTMLResponse:
        text = reference_text(game_id)
        if text is None:
            return HTMLResponse(not_found_page(game_id), status_code=404)
        title, body = render(text)
        return HTMLResponse(page(title, body))

    return router
