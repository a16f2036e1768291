"""Printable zone mats: an SVG drawing at real size, generated from a game's zone layout.

The drawing and the software can never disagree because the drawing *is* the layout: one pad
per layout entry (reader id -> zone), labelled with the zone in plain words, the zone name and
the reader id that sits under it, and a circle marking the centre of that reader's antenna.

``plan_mat`` places the pads and checks the result (mat_plan.py, the layout maths and
``MatPlan.warnings``); ``render_svg`` draws a plan (this module); ``mat_svg`` does both.
Everything here is pure (no files, no clock): ``scorekeeper mat`` writes the file.

Placement (mat_plan.py). Seats sit around the edge of the paper in turn order, seat 0 at the
bottom; shared zones go in the middle, under the title; pads shrink to fit, and whatever does
not fit even then is printed in red on the drawing itself.

Plain words. Each pad is labelled with the game's ``describe_zone``; this module names no game
and holds no game's words.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from scorekeeper.core.game import Game
from scorekeeper.mat_plan import (
    LABEL_BAND,
    MIN_SPACING_MM,
    PAD_MM,
    PAPERS,
    MatPlan,
    Pad,
    plan_mat,
    zone_seat,
    zone_words,
)

# What other modules and tests import from here (the layout maths lives in mat_plan.py).
__all__ = [
    "MIN_SPACING_MM",
    "PAPERS",
    "MatPlan",
    "mat_filename",
    "mat_svg",
    "plan_mat",
    "render_svg",
    "zone_seat",
    "zone_words",
]

SEAT_COLOURS = (
    "#dbe9f7",
    "#f9e1cf",
    "#dcefd9",
    "#ece0f3",
    "#f6f0c8",
    "#d6efef",
    "#f5d9e3",
    "#e6e6e6",
)
SEAT_INKS = ("#1f4e79", "#8a4a12", "#2e6b2a", "#5b3475", "#6f6312", "#1e6363", "#7a2948", "#444444")
SHARED_COLOUR = "#efefef"


def mat_filename(game_id: str, seats: int, paper: str) -> str:
    """The file name ``scorekeeper mat`` writes by default: ``<game>-<seats>p-<paper>.svg``."""
    return f"{game_id}-{seats}p-{paper}.svg"


def mat_svg(
    game: Game[Any],
    seats: int,
    layout: Mapping[str, str] | None = None,
    paper: str = "A2",
    min_spacing: float = MIN_SPACING_MM,
) -> str:
    """The SVG text of the zone mat of ``game`` at ``seats`` players on ``paper`` (A2 or A3).

    ``layout`` (reader id -> zone) defaults to the game's default layout. Raises ConfigError for
    an unknown paper, a player count the game does not have, or a zone the game does not know.
    Problems of placement are not errors: they are drawn on the mat (see ``plan_mat``).
    """
    return render_svg(plan_mat(game, seats, layout, paper, min_spacing))


# --- drawing ---------------------------------------------------------------------------------


def _n(x: float) -> str:
    """A coordinate in mm, short and stable: at most two decimals, no trailing zeros."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _text(x: float, y: float, size: float, content: str, cls: str, anchor: str = "middle") -> str:
    return (
        f'<text class="{cls}" x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}" '
        f'text-anchor="{anchor}">{escape(content)}</text>'
    )


def _pad_svg(p: Pad, pw: float, ph: float, s: float) -> list[str]:
    """A pad drawn in its group's frame, centred at (u, v)."""
    u, v = p.u, p.v
    r = 11.0 * s
    cross = 15.0 * s
    return [
        '<g class="pad">',
        f'<rect class="zone" x="{_n(u - pw / 2)}" y="{_n(v - ph / 2)}" width="{_n(pw)}" '
        f'height="{_n(ph)}" rx="3" data-reader={quoteattr(p.reader)} '
        f'data-zone={quoteattr(p.zone)} data-seat="{"" if p.seat is None else p.seat}" '
        f'data-x="{_n(p.x)}" data-y="{_n(p.y)}" data-width="{_n(p.w)}" '
        f'data-height="{_n(p.h)}" data-cx="{_n(p.cx)}" data-cy="{_n(p.cy)}"/>',
        _text(u, v - ph / 2 + 9.5 * s, 6.4 * s, p.label, "label"),
        f'<circle class="antenna" cx="{_n(u)}" cy="{_n(v)}" r="{_n(r)}"/>',
        f'<path class="cross" d="M{_n(u - cross)} {_n(v)}H{_n(u + cross)}'
        f'M{_n(u)} {_n(v - cross)}V{_n(v + cross)}"/>',
        _text(u, v + ph / 2 - 12.5 * s, 4.0 * s, f"{p.zone}  ·  reader {p.reader}", "ids"),
        _text(u, v + ph / 2 - 5.5 * s, 3.2 * s, "centre the card on the circle", "note"),
        "</g>",
    ]


STYLE = """
text { font-family: 'DejaVu Sans', 'Helvetica Neue', Arial, sans-serif; fill: #222; }
.zone { fill: #ffffff; stroke: #333333; stroke-width: 0.6; }
.antenna { fill: none; stroke: #333333; stroke-width: 0.5; stroke-dasharray: 2 1.2; }
.cross { stroke: #333333; stroke-width: 0.35; }
.label { font-weight: bold; }
.ids { font-family: 'DejaVu Sans Mono', Menlo, Consolas, monospace; fill: #444; }
.note { fill: #666; font-style: italic; }
.seat-label { font-weight: bold; letter-spacing: 0.4px; }
.title { font-weight: bold; }
.sub { fill: #444; }
.foot { fill: #777; }
.warning { fill: #c00000; font-weight: bold; }
.scale { stroke: #222; stroke-width: 0.5; fill: none; }
"""


def render_svg(plan: MatPlan) -> str:
    """The SVG text of a placed mat: real size (``width="594mm"``), user units are mm."""
    s = plan.scale
    pw, ph = PAD_MM[0] * s, PAD_MM[1] * s
    w, h = plan.width, plan.height
    pads = plan.pads
    title = f"{plan.game_name}: zone mat for {plan.seats} players, {plan.paper}"
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(w)}mm" height="{_n(h)}mm" '
        f'viewBox="0 0 {_n(w)} {_n(h)}" data-game={quoteattr(plan.game_id)} '
        f'data-seats="{plan.seats}" data-paper="{plan.paper}" data-scale="{_n(s)}" '
        f'data-min-spacing="{_n(plan.min_spacing)}">',
        f"<title>{escape(title)}</title>",
        "<desc>Generated by 'scorekeeper mat' from the zone layout: one pad per reader, the "
        "circle marks the centre of that reader's antenna. Print at actual size (100 %).</desc>",
        f"<style>{STYLE}</style>",
        f'<rect x="0.5" y="0.5" width="{_n(w - 1)}" height="{_n(h - 1)}" fill="#ffffff" '
        'stroke="#bbbbbb" stroke-width="0.4" stroke-dasharray="4 3"/>',
    ]
    for g in plan.groups:
        bx, by, bw, bh = g.box
        seat_attr = "" if g.seat is None else str(g.seat)
        fill = SHARED_COLOUR if g.seat is None else SEAT_COLOURS[g.seat % len(SEAT_COLOURS)]
        ink = "#444444" if g.seat is None else SEAT_INKS[g.seat % len(SEAT_INKS)]
        out.append(
            f'<g class="{"shared" if g.seat is None else "seat"}" data-seat="{seat_attr}"'
            f' transform="translate({_n(g.ox)} {_n(g.oy)}) rotate({g.rotation})">'
        )
        out.append(
            f'<rect class="group" x="{_n(bx)}" y="{_n(by)}" width="{_n(bw)}" '
            f'height="{_n(bh)}" rx="5" fill="{fill}" stroke="{ink}" '
            'stroke-width="0.5"/>'
        )
        if g.seat is None:
            label = "Shared zones"
            ly = by + LABEL_BAND - 3
        else:
            label = f"Seat {g.seat}"
            ly = by + bh - 3
        out.append(
            f'<text class="seat-label" x="0" y="{_n(ly)}" font-size="5.5" '
            f'text-anchor="middle" style="fill:{ink}">'
            f"{escape(label)}</text>"
        )
        for p in g.pads:
            out.extend(_pad_svg(p, pw, ph, s))
        out.append("</g>")
    out.extend(_title_svg(plan, len(pads)))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _title_svg(plan: MatPlan, readers: int) -> list[str]:
    """Title, instructions, scale bar, the command that made it, and any warnings."""
    w = plan.width
    cx = w / 2
    y = plan.title_y
    shrink = f" · pads at {plan.scale:.0%} of a card" if plan.scale < 1 else ""
    out = [
        '<g class="titles">',
        _text(cx, y + 10, 9.0, f"{plan.game_name}: zone mat", "title"),
        _text(
            cx,
            y + 17.5,
            4.6,
            f"{plan.seats} players · {plan.paper} "
            f"({plan.width:.0f} × {plan.height:.0f} mm) · {readers} readers{shrink}",
            "sub",
        ),
        _text(
            cx,
            y + 23.5,
            3.6,
            "Each circle marks the centre of one reader's antenna: centre the card on its circle.",
            "sub",
        ),
        _text(
            cx,
            y + 28,
            3.6,
            f"Antennas at least {plan.min_spacing:.0f} mm apart, centre to "
            "centre. No metal under the mat.",
            "sub",
        ),
    ]
    fy = plan.foot_y + 6
    bar = 50.0
    x0 = cx - bar / 2
    out += [
        f'<path class="scale" d="M{_n(x0)} {_n(fy - 2)}V{_n(fy)}H{_n(x0 + bar)}V{_n(fy - 2)}"/>',
        _text(cx, fy - 1, 3.0, "50 mm at 100 % print size", "foot"),
        _text(
            cx,
            fy + 5,
            3.0,
            f"scorekeeper mat --game {plan.game_id} --seats {plan.seats} "
            f"--paper {plan.paper}"
            + (
                " --layout FILE (a custom zone layout)"
                if plan.custom_layout
                else " (the game's default zone layout)"
            ),
            "foot",
        ),
        "</g>",
    ]
    if plan.warnings:
        lines = ["WARNING: this layout does not fit the paper cleanly:", *plan.warnings]
        box_h = 6.0 * len(lines) + 4
        out.append('<g class="warnings">')
        out.append(
            f'<rect x="{_n(cx - 140)}" y="4" width="280" height="{_n(box_h)}" '
            'fill="#ffffff" fill-opacity="0.92" stroke="#c00000" stroke-width="0.6"/>'
        )
        out += [_text(cx, 10 + 6.0 * i, 4.0, line, "warning") for i, line in enumerate(lines)]
        out.append("</g>")
    return out
