"""Printable zone mats: an SVG drawing at real size, generated from a game's zone layout.

The drawing and the software can never disagree because the drawing *is* the layout: one pad
per layout entry (reader id -> zone), labelled with the zone in plain words, the zone name and
the reader id that sits under it, and a circle marking the centre of that reader's antenna.

``plan_mat`` places the pads and checks the result; ``render_svg`` draws a plan; ``mat_svg`` does
both. Everything here is pure (no files, no clock): ``scorekeeper mat`` writes the file.

Placement. Seats sit around the edge of the paper in turn order, clockwise seen from above
(seat 0 at the bottom, seat 1 on its left, ...); a seat's pads form a row in front of that
player, turned so the player reads them. Zones that belong to no seat go in the middle, under
the title. The game says which seat a zone belongs to (``Game.seat_of_zone``: by default, the
seat its name ends in, the zone naming rule of docs/kits-and-layouts.md). Pads are card-sized
(a 63 x 88 mm card with a margin); when they do not fit the paper they are shrunk step by step,
down to a pad that still covers an RC522 board (60 x 40 mm). Whatever does not fit even then --
a pad off the paper, two pads overlapping, two antenna centres closer than ``min_spacing`` -- is
reported in ``MatPlan.warnings`` and printed in red on the drawing itself.

Plain words. Each pad is labelled with the game's ``describe_zone``; this module names no game
and holds no game's words.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from scorekeeper.core.game import Game, seat_in_zone_name
from scorekeeper.errors import ConfigError

PAPERS: dict[str, tuple[float, float]] = {"A2": (594.0, 420.0), "A3": (420.0, 297.0)}
"""Paper name -> (width, height) in mm, landscape."""

MIN_SPACING_MM = 70.0
"""Default minimum distance between two antenna centres (hardware/placement.md)."""

PAD_MM = (96.0, 70.0)  # a 63 x 88 mm card lying across the pad, with a margin all round
SCALES = tuple(round(1.0 - 0.05 * i, 2) for i in range(7))  # 1.0 .. 0.7: 67 x 49 mm at least
GAP = 10.0  # between two pads of one row
MARGIN = 8.0  # paper edge to a seat's label band
LABEL_BAND = 10.0  # the band that carries "Seat N", between the pads and the player
BOX_PAD = 4.0  # group box around its pads
TITLE_H = 30.0  # title block above the shared zones
FOOT_H = 16.0  # scale bar and generator line under the shared zones
MAX_LISTED = 8  # warnings listed before "... and N more"
GROUP_CLEARANCE = 4.0  # between two group outlines

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

# Where the seats sit, in turn order (clockwise from the bottom): (side, start, end), the part of
# that paper edge the seat's row is centred in, as fractions (x for S/N, y for W/E).
Slot = tuple[str, float, float]
_FULL = (0.0, 1.0)
SLOTS: dict[int, tuple[Slot, ...]] = {
    1: (("S", *_FULL),),
    2: (("S", *_FULL), ("N", *_FULL)),
    3: (("S", *_FULL), ("W", *_FULL), ("E", *_FULL)),
    4: (("S", *_FULL), ("W", *_FULL), ("N", *_FULL), ("E", *_FULL)),
    5: (("S", 0.5, 1), ("S", 0, 0.5), ("W", *_FULL), ("N", *_FULL), ("E", *_FULL)),
    6: (("S", 0.5, 1), ("S", 0, 0.5), ("W", *_FULL), ("N", 0, 0.5), ("N", 0.5, 1), ("E", *_FULL)),
    7: (
        ("S", 0.5, 1),
        ("S", 0, 0.5),
        ("W", 0.5, 1),
        ("W", 0, 0.5),
        ("N", 0, 0.5),
        ("N", 0.5, 1),
        ("E", *_FULL),
    ),
    8: (
        ("S", 0.5, 1),
        ("S", 0, 0.5),
        ("W", 0.5, 1),
        ("W", 0, 0.5),
        ("N", 0, 0.5),
        ("N", 0.5, 1),
        ("E", 0, 0.5),
        ("E", 0.5, 1),
    ),
}
# Rotation (degrees, clockwise on the page) that turns text upright for a player on that side.
ROTATION = {"S": 0, "W": 90, "N": 180, "E": -90}


@dataclass(frozen=True, slots=True)
class Pad:
    """One reader's pad. ``cx, cy``: antenna centre on the paper (mm, from the top left);
    ``u, v``: the same point in its group's own (rotated) frame; ``x, y, w, h``: the pad's box
    on the paper."""

    reader: str
    zone: str
    label: str
    seat: int | None
    cx: float
    cy: float
    u: float
    v: float
    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True, slots=True)
class Group:
    """A seat's row of pads (``seat`` set) or the shared zones in the middle (``seat`` None).

    ``ox, oy, rotation``: where the group's frame sits on the paper; ``box``: the group's outline
    in that frame (left, top, width, height)."""

    seat: int | None
    ox: float
    oy: float
    rotation: int
    box: tuple[float, float, float, float]
    pads: tuple[Pad, ...]


@dataclass(frozen=True, slots=True)
class MatPlan:
    """A placed zone mat: everything ``render_svg`` draws, and what is wrong with it."""

    game_id: str
    game_name: str
    seats: int
    paper: str
    width: float
    height: float
    scale: float
    min_spacing: float
    groups: tuple[Group, ...]
    title_y: float
    foot_y: float
    warnings: tuple[str, ...]
    custom_layout: bool = False

    @property
    def pads(self) -> tuple[Pad, ...]:
        """Every pad, seat groups first."""
        return tuple(p for g in self.groups for p in g.pads)


def zone_words(game: Game[Any], zone: str) -> str:
    """The plain-language name of ``zone`` on its pad, without its seat (``Game.describe_zone``)."""
    return game.describe_zone(zone)


def zone_seat(zone: str, seats: int, game: Game[Any] | None = None) -> int | None:
    """The seat a zone belongs to (``pile:2`` -> 2), or None for a shared zone or a seat the
    table does not have. ``game``'s ``seat_of_zone`` decides; without a game, the seat its
    name ends in (the base class's default)."""
    seat = game.seat_of_zone(zone) if game is not None else seat_in_zone_name(zone)
    return seat if seat is not None and 0 <= seat < seats else None


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


def plan_mat(
    game: Game[Any],
    seats: int,
    layout: Mapping[str, str] | None = None,
    paper: str = "A2",
    min_spacing: float = MIN_SPACING_MM,
) -> MatPlan:
    """Place every pad of the mat; see the module docstring. ConfigError as ``mat_svg``."""
    if paper not in PAPERS:
        raise ConfigError(f"unknown paper {paper!r}; choose one of {', '.join(PAPERS)}")
    if not game.min_seats <= seats <= game.max_seats:
        raise ConfigError(
            f"{game.name} is for {game.min_seats}-{game.max_seats} players, not {seats}"
        )
    if seats not in SLOTS:
        raise ConfigError(f"zone mats are drawn for 1-{max(SLOTS)} seats, not {seats}")
    if not min_spacing > 0:
        raise ConfigError(f"the minimum antenna spacing must be positive, not {min_spacing}")
    zones = game.zones(seats)
    entries = dict(game.default_layout(seats) if layout is None else layout)
    if not entries:
        raise ConfigError("the zone layout lists no reader")
    for reader, zone in entries.items():
        if zone not in zones:
            raise ConfigError(
                f"reader {reader}: {game.name} has no zone {zone!r} at {seats} "
                f"players; valid zones: {', '.join(zones)}"
            )
    order = {z: i for i, z in enumerate(zones)}
    ordered = sorted(entries.items(), key=lambda rz: (order[rz[1]], rz[0]))
    width, height = PAPERS[paper]
    custom = layout is not None and entries != game.default_layout(seats)
    best: MatPlan | None = None
    for scale in SCALES:
        plan = _place(game, seats, ordered, paper, width, height, scale, min_spacing, custom)
        if not plan.warnings:
            return plan
        best = plan
    assert best is not None
    return best


def _place(
    game: Game[Any],
    seats: int,
    ordered: Sequence[tuple[str, str]],
    paper: str,
    width: float,
    height: float,
    scale: float,
    min_spacing: float,
    custom: bool,
) -> MatPlan:
    """One attempt at ``scale``: seat rows on the edges, shared zones in the middle, checked."""
    pw, ph = PAD_MM[0] * scale, PAD_MM[1] * scale
    pitch_u = max(pw + GAP, min_spacing)
    pitch_v = max(ph + GAP, min_spacing)
    by_seat: dict[int | None, list[tuple[str, str]]] = {}
    for reader, zone in ordered:
        by_seat.setdefault(zone_seat(zone, seats, game), []).append((reader, zone))

    groups: list[Group] = []
    band = MARGIN + LABEL_BAND + ph + BOX_PAD  # depth a seat row takes from its paper edge
    used_sides: set[str] = set()
    for seat, (side, lo, hi) in enumerate(SLOTS[seats]):
        items = by_seat.get(seat, [])
        if not items:
            continue
        used_sides.add(side)
        rot = ROTATION[side]
        depth = MARGIN + LABEL_BAND + ph / 2  # paper edge to the pads' centre line
        along = (lo + hi) / 2 * (width if side in "SN" else height)
        ox, oy = {
            "S": (along, height - depth),
            "N": (along, depth),
            "W": (depth, along),
            "E": (width - depth, along),
        }[side]
        # The player reads left to right along +u; +v points at the player.
        us = [(i - (len(items) - 1) / 2) * pitch_u for i in range(len(items))]
        pads = tuple(
            _pad(game, reader, zone, seat, u, 0.0, ox, oy, rot, pw, ph)
            for (reader, zone), u in zip(items, us, strict=True)
        )
        half_row = (us[-1] - us[0]) / 2 + pw / 2 + BOX_PAD
        box = (-half_row, -ph / 2 - BOX_PAD, 2 * half_row, ph + BOX_PAD + LABEL_BAND)
        groups.append(Group(seat, ox, oy, rot, box, pads))

    # The middle: between the seat rows of the sides in use.
    left = band if "W" in used_sides else MARGIN
    right = width - band if "E" in used_sides else width - MARGIN
    top = band if "N" in used_sides else MARGIN
    bottom = height - band if "S" in used_sides else height - MARGIN
    shared = by_seat.get(None, [])
    warnings: list[str] = []
    room_w = right - left - 2 * BOX_PAD
    cols = max(1, min(len(shared), int((room_w - pw) // pitch_u) + 1)) if shared else 0
    rows = math.ceil(len(shared) / cols) if shared else 0
    box_h = (rows - 1) * pitch_v + ph + 2 * BOX_PAD + LABEL_BAND if shared else 0.0
    block_h = TITLE_H + box_h + FOOT_H
    cx = (left + right) / 2
    # Centred on the page when there is room (seat rows are), else in the free middle.
    title_y = max(top, min(height / 2 - block_h / 2, bottom - block_h))
    if block_h > bottom - top:
        warnings.append(
            f"the title and the shared zones need {block_h:.0f} mm between the "
            f"seats, there are {bottom - top:.0f} mm"
        )
    if shared:
        oy = title_y + TITLE_H + LABEL_BAND + BOX_PAD + ph / 2  # centre line of the first row
        pads_s: list[Pad] = []
        for i, (reader, zone) in enumerate(shared):
            row, col = divmod(i, cols)
            in_row = min(cols, len(shared) - row * cols)
            u = (col - (in_row - 1) / 2) * pitch_u
            pads_s.append(_pad(game, reader, zone, None, u, row * pitch_v, cx, oy, 0, pw, ph))
        half = (cols - 1) * pitch_u / 2 + pw / 2 + BOX_PAD
        box = (-half, -ph / 2 - BOX_PAD - LABEL_BAND, 2 * half, box_h)
        groups.append(Group(None, cx, oy, 0, box, tuple(pads_s)))
    foot_y = title_y + TITLE_H + box_h
    warnings.extend(_check(groups, width, height, min_spacing))
    return MatPlan(
        game.id,
        game.name,
        seats,
        paper,
        width,
        height,
        scale,
        min_spacing,
        tuple(groups),
        title_y,
        foot_y,
        tuple(warnings),
        custom,
    )


def _pad(
    game: Game[Any],
    reader: str,
    zone: str,
    seat: int | None,
    u: float,
    v: float,
    ox: float,
    oy: float,
    rot: int,
    pw: float,
    ph: float,
) -> Pad:
    """A pad at (u, v) in a group frame placed at (ox, oy) and turned by ``rot`` degrees."""
    cx, cy = _to_paper(ox, oy, rot, u, v)
    w, h = (pw, ph) if rot in (0, 180) else (ph, pw)
    return Pad(
        reader, zone, zone_words(game, zone), seat, cx, cy, u, v, cx - w / 2, cy - h / 2, w, h
    )


def _to_paper(ox: float, oy: float, rot: int, u: float, v: float) -> tuple[float, float]:
    """Point (u, v) of a frame placed at (ox, oy) and turned by ``rot`` (a multiple of 90)
    degrees clockwise, in paper coordinates; exact, since the sines are 0 or +-1."""
    cos, sin = round(math.cos(math.radians(rot))), round(math.sin(math.radians(rot)))
    return ox + u * cos - v * sin, oy + u * sin + v * cos


def group_bbox(g: Group) -> tuple[float, float, float, float]:
    """A group's outline on the paper: (x, y, width, height)."""
    bx, by, bw, bh = g.box
    corners = [
        _to_paper(g.ox, g.oy, g.rotation, u, v)
        for u, v in ((bx, by), (bx + bw, by), (bx, by + bh), (bx + bw, by + bh))
    ]
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)


def _overlap(
    a: tuple[float, float, float, float],
    b: tuple[float, float, float, float],
    clearance: float = 0.0,
) -> bool:
    """True when two (x, y, w, h) boxes overlap or come closer than ``clearance``."""
    return (
        a[0] < b[0] + b[2] + clearance
        and b[0] < a[0] + a[2] + clearance
        and a[1] < b[1] + b[3] + clearance
        and b[1] < a[1] + a[3] + clearance
    )


def _check(groups: Sequence[Group], width: float, height: float, min_spacing: float) -> list[str]:
    """What is wrong with a placement: pads or groups off the paper, overlapping, or antennas
    closer than ``min_spacing``."""
    problems: list[str] = []
    pads = [p for g in groups for p in g.pads]
    for g in groups:
        x, y, w, h = group_bbox(g)
        name = _group_name(g)
        if x < 0 or y < 0 or x + w > width or y + h > height:
            problems.append(f"{name}: runs off the paper")
    for i, g in enumerate(groups):
        for k in groups[i + 1 :]:
            if _overlap(group_bbox(g), group_bbox(k), GROUP_CLEARANCE):
                problems.append(f"{_group_name(g)} and {_group_name(k)} touch or overlap")
    close: list[str] = []
    for i, a in enumerate(pads):
        for b in pads[i + 1 :]:
            dist = math.hypot(a.cx - b.cx, a.cy - b.cy)
            if _overlap((a.x, a.y, a.w, a.h), (b.x, b.y, b.w, b.h)):
                close.append(f"readers {a.reader} and {b.reader} overlap")
            elif dist < min_spacing - 1e-6:
                close.append(
                    f"antennas of {a.reader} and {b.reader} are {dist:.0f} mm apart "
                    f"(minimum {min_spacing:.0f} mm)"
                )
    if len(close) > MAX_LISTED:
        close = close[:MAX_LISTED] + [f"... and {len(close) - MAX_LISTED} more pairs too close"]
    return problems + close


def _group_name(g: Group) -> str:
    return "the shared zones" if g.seat is None else f"seat {g.seat}"


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
