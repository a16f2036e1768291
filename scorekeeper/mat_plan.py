"""Placing the pads of a zone mat (the layout maths); ``scorekeeper.mats`` draws the plan.

``plan_mat`` places one pad per layout entry and checks the result; ``MatPlan`` is what it
returns: every pad's box and antenna centre on the paper in mm, and the warnings. Pure (no
files, no clock), like the drawing.

Placement. Seats sit around the edge of the paper in turn order, clockwise seen from above
(seat 0 at the bottom, seat 1 on its left, ...); a seat's pads form a row in front of that
player, turned so the player reads them. Zones that belong to no seat go in the middle, under
the title. The game says which seat a zone belongs to (``Game.seat_of_zone``: by default, the
seat its name ends in, the zone naming rule of docs/kits-and-layouts.md). Pads are card-sized
(a 63 x 88 mm card with a margin); when they do not fit the paper they are shrunk step by step,
down to a pad that still covers an RC522 board (60 x 40 mm). Whatever does not fit even then --
a pad off the paper, two pads overlapping, two antenna centres closer than ``min_spacing`` -- is
reported in ``MatPlan.warnings`` and printed in red on the drawing itself.

Plain words. Each pad's label is the game's ``describe_zone``; this module names no game.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scorekeeper.core.game import Game, seat_in_zone_name
from scorekeeper.errors import ConfigError

PAPERS: dict[str, tuple[float, float]] = {
    "A1": (841.0, 594.0),
    "A2": (594.0, 420.0),
    "A3": (420.0, 297.0),
}
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
