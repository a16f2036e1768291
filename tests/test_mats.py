"""Zone mats (``scorekeeper.mats``): real size, one pad per reader, spacing, committed drawings.

The committed mats under hardware/mats/ are compared byte for byte with what the generator
draws now, so the printed mat and the software's layout can never disagree. After a deliberate
change to the drawing, regenerate them with::

    for n in 2 3 4; do scorekeeper mat --game angels-and-demons --seats $n --force \\
        --out hardware/mats/angels-and-demons-${n}p-A2.svg; done
    scorekeeper mat --game angels-and-demons --seats 2 --force \\
        --layout hardware/layouts/angels-and-demons-2p-one-bridge.yaml \\
        --out hardware/mats/angels-and-demons-2p-A2-one-bridge.svg
    for n in 3 4 5; do scorekeeper mat --game arcanum --seats $n --force \
        --out hardware/mats/arcanum-${n}p-A2.svg; done
    scorekeeper mat --game arcanum --seats 5 --force \
        --layout hardware/layouts/arcanum-5p-three-bridges.yaml \
        --out hardware/mats/arcanum-5p-A2-three-bridges.svg
    for n in 2 3 4; do scorekeeper mat --game king-of-the-elves --seats $n --force \
        --out hardware/mats/king-of-the-elves-${n}p-A2.svg; done
    for n in 5 6; do scorekeeper mat --game king-of-the-elves --seats $n --paper A1 --force \
        --out hardware/mats/king-of-the-elves-${n}p-A1.svg; done
    for n in 2 3 4; do scorekeeper mat --game arcana --seats $n --force \
        --out hardware/mats/arcana-${n}p-A2.svg; done
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from scorekeeper.cli import main
from scorekeeper.core.layout import load_layout
from scorekeeper.errors import ConfigError
from scorekeeper.games import find_game
from scorekeeper.mats import (
    MIN_SPACING_MM,
    PAPERS,
    mat_filename,
    mat_svg,
    plan_mat,
    zone_seat,
    zone_words,
)
from tests.fakes import FakeGame

ROOT = Path(__file__).resolve().parents[1]
MATS = ROOT / "hardware" / "mats"
SVG = "{http://www.w3.org/2000/svg}"
GAME = find_game("angels-and-demons")


def zone_rects(svg: str) -> list[ET.Element]:
    """Every pad rectangle of a mat (``<rect class="zone">``)."""
    root = ET.fromstring(svg)
    return [r for r in root.iter(f"{SVG}rect") if r.get("class") == "zone"]


def fl(el: ET.Element, name: str) -> float:
    value = el.get(name)
    assert value is not None, f"missing {name}"
    return float(value)


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_svg_is_xml_at_real_size(paper: str) -> None:
    root = ET.fromstring(mat_svg(GAME, 4, paper=paper))
    width, height = PAPERS[paper]
    assert root.tag == f"{SVG}svg"
    assert root.get("width") == f"{width:.0f}mm"
    assert root.get("height") == f"{height:.0f}mm"
    assert root.get("viewBox") == f"0 0 {width:.0f} {height:.0f}"
    assert (width, height) == {
        "A1": (841.0, 594.0),
        "A2": (594.0, 420.0),
        "A3": (420.0, 297.0),
    }[paper]


@pytest.mark.parametrize("paper", sorted(PAPERS))
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_one_pad_per_reader_on_the_paper_and_far_enough_apart(seats: int, paper: str) -> None:
    svg = mat_svg(GAME, seats, paper=paper)
    layout = GAME.default_layout(seats)
    rects = zone_rects(svg)
    assert sorted((r.get("data-reader"), r.get("data-zone")) for r in rects) == sorted(
        layout.items()
    )
    width, height = PAPERS[paper]
    for r in rects:
        x, y, w, h = (fl(r, f"data-{k}") for k in ("x", "y", "width", "height"))
        assert x >= 0 and x + w <= width and y >= 0 and y + h <= height, r.get("data-reader")
        assert w >= 45 and h >= 45  # still covers an RC522 antenna
    centres = [(fl(r, "data-cx"), fl(r, "data-cy")) for r in rects]
    for i, a in enumerate(centres):
        for b in centres[i + 1 :]:
            assert math.dist(a, b) >= MIN_SPACING_MM
    plan = plan_mat(GAME, seats, paper=paper)
    assert plan.warnings == ()
    assert 'class="warning"' not in svg


def test_labels_name_zone_reader_and_plain_words() -> None:
    svg = mat_svg(GAME, 4)
    texts = [t.text or "" for t in ET.fromstring(svg).iter(f"{SVG}text")]
    assert "meld:2  ·  reader meld-2" in texts
    assert "Going out" in texts and "Talon" in texts and "Seat 3" in texts
    assert texts.count("centre the card on the circle") == 15
    assert "Angels & Demons: zone mat" in texts
    assert any("4 players · A2" in t for t in texts)
    assert len([c for c in ET.fromstring(svg).iter(f"{SVG}circle")]) == 15


def test_seat_zones_sit_at_their_edge_and_shared_ones_in_the_middle() -> None:
    plan = plan_mat(GAME, 4)
    by_zone = {p.zone: p for p in plan.pads}
    assert by_zone["meld:0"].cy > 300  # bottom edge
    assert by_zone["meld:1"].cx < 120  # left
    assert by_zone["meld:2"].cy < 120  # top
    assert by_zone["meld:3"].cx > 474  # right
    for zone in ("talon", "out", "flip"):
        assert 150 < by_zone[zone].cx < 450 and 120 < by_zone[zone].cy < 300
        assert by_zone[zone].seat is None
    # seat 0 reads its pads left to right in the data order; seat 2 faces it
    assert by_zone["meld:0"].cx < by_zone["discard:0"].cx < by_zone["wait:0"].cx
    assert by_zone["meld:2"].cx > by_zone["discard:2"].cx > by_zone["wait:2"].cx


def test_custom_layout_is_honoured() -> None:
    layout = {
        "r0": "talon",
        "r1": "meld:0",
        "r2": "meld:1",
        "r3": "discard:0",
        "r4": "discard:0",
        "r5": "out",
    }
    svg = mat_svg(GAME, 2, layout, paper="A3")
    rects = zone_rects(svg)
    assert sorted((r.get("data-reader"), r.get("data-zone")) for r in rects) == sorted(
        layout.items()
    )
    assert [r.get("data-seat") for r in rects if r.get("data-reader") in ("r3", "r4")] == ["0", "0"]
    assert "reader r4" in svg and "flip" not in {r.get("data-zone") for r in rects}


def test_unknown_zone_in_a_layout_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="no zone 'meld:3' at 3 players"):
        mat_svg(GAME, 3, {"r0": "talon", "r1": "meld:3"})
    with pytest.raises(ConfigError, match="lists no reader"):
        mat_svg(GAME, 3, {})


def test_bad_paper_and_player_count_are_config_errors() -> None:
    with pytest.raises(ConfigError, match="unknown paper 'A4'"):
        mat_svg(GAME, 4, paper="A4")
    with pytest.raises(ConfigError, match="2-4 players, not 5"):
        mat_svg(GAME, 5)
    with pytest.raises(ConfigError, match="positive"):
        mat_svg(GAME, 4, min_spacing=0)


def test_crowded_mat_is_warned_in_the_plan_and_on_the_drawing() -> None:
    plan = plan_mat(GAME, 4, paper="A3", min_spacing=120)
    assert plan.warnings
    assert any("apart (minimum 120 mm)" in w or "overlap" in w for w in plan.warnings)
    svg = mat_svg(GAME, 4, paper="A3", min_spacing=120)
    warned = [t.text for t in ET.fromstring(svg).iter(f"{SVG}text") if t.get("class") == "warning"]
    assert warned[0].startswith("WARNING") and warned[1:] == list(plan.warnings)


def test_pads_shrink_before_they_are_warned_about() -> None:
    assert plan_mat(GAME, 4, paper="A2").scale == 1.0
    assert 0.7 <= plan_mat(GAME, 4, paper="A3").scale < 1.0


def test_a_game_without_seat_zones_and_its_plain_words() -> None:
    game = FakeGame()
    plan = plan_mat(game, 2)
    assert [(p.reader, p.zone, p.seat, p.label) for p in plan.pads] == [
        ("r1", "hand", None, "Hand"),
        ("r2", "play", None, "Play"),
    ]
    assert zone_words(game, "big_pile") == "Big pile"
    assert zone_seat("meld:3", 4) == 3 and zone_seat("meld:3", 3) is None
    assert zone_seat("talon", 4) is None


def test_generation_is_deterministic() -> None:
    assert mat_svg(GAME, 3) == mat_svg(GAME, 3)


ONE_BRIDGE = ROOT / "hardware" / "layouts" / "angels-and-demons-2p-one-bridge.yaml"
THREE_BRIDGES = ROOT / "hardware" / "layouts" / "arcanum-5p-three-bridges.yaml"
ELVES = "king-of-the-elves"
# file under hardware/mats -> (game, seats, layout file or None for the default, paper)
COMMITTED = {
    mat_filename(GAME.id, 2, "A2"): (GAME.id, 2, None, "A2"),
    mat_filename(GAME.id, 3, "A2"): (GAME.id, 3, None, "A2"),
    mat_filename(GAME.id, 4, "A2"): (GAME.id, 4, None, "A2"),
    "angels-and-demons-2p-A2-one-bridge.svg": (GAME.id, 2, ONE_BRIDGE, "A2"),
    mat_filename("arcanum", 3, "A2"): ("arcanum", 3, None, "A2"),
    mat_filename("arcanum", 4, "A2"): ("arcanum", 4, None, "A2"),
    mat_filename("arcanum", 5, "A2"): ("arcanum", 5, None, "A2"),
    "arcanum-5p-A2-three-bridges.svg": ("arcanum", 5, THREE_BRIDGES, "A2"),
    **{
        mat_filename(ELVES, n, paper): (ELVES, n, None, paper)
        for n, paper in ((2, "A2"), (3, "A2"), (4, "A2"), (5, "A1"), (6, "A1"))
    },
    **{mat_filename("arcana", n, "A2"): ("arcana", n, None, "A2") for n in (2, 3, 4)},
}


def test_every_committed_mat_is_checked() -> None:
    assert sorted(p.name for p in MATS.glob("*.svg")) == sorted(COMMITTED)


@pytest.mark.parametrize("name", sorted(COMMITTED))
def test_committed_mats_match_the_generator(name: str) -> None:
    game_id, seats, layout_file, paper = COMMITTED[name]
    game = find_game(game_id)
    layout = load_layout(layout_file, game, seats) if layout_file else None
    path = MATS / name
    assert path.exists(), f"{path} is missing: regenerate it (see this module's docstring)"
    assert path.read_text(encoding="utf-8") == mat_svg(game, seats, layout, paper=paper), (
        f"{path.name} differs from the generator: regenerate it (see this module's docstring)"
    )


def test_arcanum_locations_are_shared_and_hide_strips_are_the_seats() -> None:
    """Arcanum's ``loc:2`` is a city location, not seat 2's: only hide strips go to the seats."""
    plan = plan_mat(find_game("arcanum"), 5)
    by_zone = {p.zone: p for p in plan.pads}
    assert all(by_zone[f"loc:{k}"].seat is None for k in range(1, 11))
    assert [by_zone[f"hide:{s}"].seat for s in range(5)] == [0, 1, 2, 3, 4]
    assert by_zone["loc:3"].label == "Location 3" and by_zone["tray"].label.startswith("Pawn")
    assert plan.warnings == ()


def test_three_bridge_layout_fits_three_bridges() -> None:
    layout = load_layout(THREE_BRIDGES, find_game("arcanum"))
    parts: dict[str, int] = {}
    for reader in layout:
        part, _, index = reader.partition("/r")
        assert index.isdigit() and int(index) < 8, reader
        parts[part] = parts.get(part, 0) + 1
    assert sorted(parts) == ["0", "1", "2"] and set(layout.values()) == set(
        find_game("arcanum").zones(5)
    )


def test_one_bridge_layout_fits_one_bridge() -> None:
    layout = load_layout(ONE_BRIDGE, GAME)
    assert len(layout) <= 8 and set(layout) <= {f"r{i}" for i in range(8)}
    plan = plan_mat(GAME, 2, layout)
    assert plan.warnings == () and plan.custom_layout
    assert "--layout FILE" in mat_svg(GAME, 2, layout)
    assert "--layout FILE" not in mat_svg(GAME, 2)


def test_a_mat_too_small_for_its_seats_names_the_paper_that_fits(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """King of the Elves: four pads a seat, and from five players two seats share an edge. Two
    to four players fit on A2, five and six on A1; on A2 the command says which paper fits."""
    game = find_game(ELVES)
    for seats, paper in ((2, "A2"), (3, "A2"), (4, "A2"), (5, "A1"), (6, "A1")):
        assert plan_mat(game, seats, paper=paper).warnings == (), (seats, paper)
    assert plan_mat(game, 6, paper="A2").warnings
    out = tmp_path / "six.svg"
    assert main(["mat", "--game", ELVES, "--seats", "6", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "overlap" in err and "add --paper A1" in err
    assert main(["mat", "--game", ELVES, "--seats", "4", "--out", str(tmp_path / "4.svg")]) == 0
    assert "--paper" not in capsys.readouterr().err
