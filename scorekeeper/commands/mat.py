"""Draw a printable zone mat: an SVG at real size (mm) with one pad per reader of the layout.

Each pad names its zone in plain words, the zone and the reader id under it, and marks the
centre of that reader's antenna with a circle. Seats sit round the edge in turn order, shared
zones in the middle. Print at 100 % (actual size); see hardware/placement.md.

examples:
  scorekeeper mat --game angels-and-demons --seats 4
  scorekeeper mat --game angels-and-demons --seats 3 --paper A3 --out mat3.svg
  scorekeeper mat --game angels-and-demons --seats 4 --layout mat.yaml --force
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from scorekeeper.core.game import Game
from scorekeeper.core.layout import load_layout, write_atomically
from scorekeeper.errors import ConfigError
from scorekeeper.games import find_game, game_ids
from scorekeeper.mats import MIN_SPACING_MM, PAPERS, mat_filename, plan_mat, render_svg

HELP = "draw a printable zone mat (SVG at real size) from a game's zone layout"


def _paper(text: str) -> str:
    """``--paper`` value, case-insensitive (``a3`` -> ``A3``)."""
    return text.strip().upper()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the options of ``scorekeeper mat``."""
    parser.add_argument("--game", required=True, help=f"id of the game: {', '.join(game_ids())}")
    parser.add_argument("--seats", required=True, type=int, help="number of players")
    parser.add_argument(
        "--layout",
        metavar="FILE",
        help="zone layout file (reader id: zone); default: the game's layout",
    )
    parser.add_argument(
        "--paper",
        type=_paper,
        choices=tuple(PAPERS),
        default="A2",
        help="paper size, landscape (default: A2)",
    )
    parser.add_argument(
        "--out",
        metavar="FILE.svg",
        help="where to write it (default: ./<game>-<seats>p-<paper>.svg)",
    )
    parser.add_argument(
        "--min-spacing",
        type=float,
        default=MIN_SPACING_MM,
        metavar="MM",
        help="warn when two antenna centres are closer than this "
        f"(default: {MIN_SPACING_MM:.0f} mm)",
    )
    parser.add_argument("--force", action="store_true", help="overwrite FILE if it exists")


def run(args: argparse.Namespace) -> int:
    """Write the mat; print its path (and any placement warnings on stderr). Returns 0."""
    game = find_game(args.game)
    layout = load_layout(args.layout, game, args.seats) if args.layout else None
    plan = plan_mat(game, args.seats, layout, args.paper, args.min_spacing)
    out = Path(args.out) if args.out else Path.cwd() / mat_filename(game.id, args.seats, args.paper)
    if out.exists() and not args.force:
        raise ConfigError("the file exists; add --force to overwrite it", str(out))
    if not out.parent.is_dir():
        raise ConfigError("no such folder", str(out.parent))
    write_atomically(out, render_svg(plan))
    out.chmod(0o644)  # a drawing to share and print; the temporary file was private (0600)
    print(
        f"wrote {out} ({plan.paper}, {plan.width:.0f} x {plan.height:.0f} mm, "
        f"{len(plan.pads)} readers)"
    )
    for warning in plan.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if plan.warnings:
        bigger = _fitting_paper(game, args.seats, layout, args.paper, args.min_spacing)
        if bigger is not None:
            print(
                f"the pads fit on {bigger} paper: add --paper {bigger}, or print the seats' "
                "pads on separate sheets",
                file=sys.stderr,
            )
    return 0


def _fitting_paper(
    game: Game[Any],
    seats: int,
    layout: dict[str, str] | None,
    paper: str,
    min_spacing: float,
) -> str | None:
    """The smallest paper larger than ``paper`` on which the mat fits without a warning."""
    width, height = PAPERS[paper]
    for name, (w, h) in sorted(PAPERS.items(), key=lambda item: item[1][0]):
        if (
            w > width
            and h > height
            and not plan_mat(game, seats, layout, name, min_spacing).warnings
        ):
            return name
    return None
