"""Check the readers: open the backend, test it, show live read rates, and say what to fix.

It opens the reader backend (nothing else: no database, no server; stop the service first if it
holds the bridge, `sudo systemctl stop scorekeeper`), checks it (serial: the port exists, the
bridge says HELLO, heartbeats arrive, every reader answers; spi: each device opens and each chip
answers; sim: nothing to check), then prints read rates per reader (and per zone with a layout)
once a second while someone taps cards, and ends with findings in plain words. While watching
it also counts the tags lying on each reader ("on N" in the running lines; the most at once in
the findings) and times the poll cycle (how often each reader is polled), so that at bring-up
you can measure how many tags one reader resolves and how fast the readers go.

Simulated readers (`--readers sim`) cannot be tapped by a hand: doctor taps a made-up tag on
each of them itself, says so, and watches for one second unless told otherwise. A bare `sim`
has the readers of the shipped bridge (r0 to r3), or those of the layout given.

examples:
  scorekeeper doctor                                     # serial:/dev/scorekeeper-bridge
  scorekeeper doctor --readers serial:/dev/ttyACM0 --seconds 30
  scorekeeper doctor --readers spi:0.0,0.1
  scorekeeper doctor --layout my-mat.yaml               # the file names its game and seats
  scorekeeper doctor --readers sim                       # no hardware: simulated taps

exit status:
  0  everything checked is fine
  1  a problem was found (the findings say what to fix)
  2  bad arguments (an unknown reader spec, a layout file with an error)
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import Any

from scorekeeper.commands.doctor.checks import Finding
from scorekeeper.commands.doctor.hardware import bridge_pins, poll_interval_ms
from scorekeeper.commands.doctor.watch import Doctor
from scorekeeper.errors import ConfigError

# What tests import from ``scorekeeper.commands.doctor`` (the command is a package: hardware,
# checks, watch; these names stay importable from here).
__all__ = ["Doctor", "Finding", "add_arguments", "bridge_pins", "poll_interval_ms", "run"]

DEFAULT_READERS = "serial:/dev/scorekeeper-bridge"
SIM_SECONDS = 1.0  # how long doctor watches simulated readers when --seconds is not given


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``scorekeeper doctor``."""
    parser.add_argument(
        "--readers",
        default=DEFAULT_READERS,
        metavar="SPEC",
        help="reader backend: serial:PORT, spi:0.0,0.1, mfrc522: or sim "
        "(default %(default)s, the udev name from systemd/)",
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=None,
        metavar="N",
        help="watch read rates for N seconds (default: until Ctrl-C)",
    )
    parser.add_argument("--layout", metavar="FILE", help="a zone layout file: rates per zone too")
    parser.add_argument(
        "--game", metavar="ID", help="the game the layout is for (default: the layout's game:)"
    )
    parser.add_argument(
        "--seats",
        type=int,
        metavar="N",
        help="player count of the layout (default: the layout's seats:)",
    )
    parser.add_argument(
        "--bridge-config",
        metavar="FILE",
        help="the bridge's config.json, to name chip-select pins "
        "(default: firmware_bridge/config.json as shipped)",
    )
    parser.add_argument(
        "--wait",
        type=float,
        default=4.0,
        metavar="S",
        help="how long to wait for the bridge to answer (default %(default)s)",
    )


def _layout(args: argparse.Namespace) -> dict[str, str] | None:
    if args.layout is None:
        if args.game is not None or args.seats is not None:
            raise ConfigError("--game and --seats go with --layout FILE")
        return None
    from scorekeeper.core.layout import load_layout
    from scorekeeper.games import find_game

    game_id = args.game if args.game is not None else layout_game(args.layout)
    return load_layout(args.layout, find_game(game_id), args.seats)


def layout_game(path: str) -> str:
    """The ``game:`` a layout file names (so ``--game`` need not repeat it); ConfigError if none.

    Only the game is read here; ``load_layout`` then checks the whole file against that game.
    """
    from scorekeeper.core.layout import layout_file_game

    game_id = layout_file_game(path)
    if game_id is not None:
        return game_id
    raise ConfigError("the layout names no game: add 'game: ID' to it, or give --game ID", path)


def default_sim_readers() -> tuple[str, ...]:
    """The readers a bare ``sim`` stands in for: the shipped bridge's, named as it names them."""
    count = len(bridge_pins(None)) or 2
    return tuple(f"r{i}" for i in range(count))


def open_backend(spec: str, layout: Mapping[str, str] | None) -> Any:
    """The backend for ``spec``; a bare ``sim`` gets the layout's readers (or the shipped
    bridge's: r0, r1, ...). ConfigError if bad."""
    from scorekeeper.readers.base import open_readers

    if spec.strip().lower() == "sim":
        return open_readers(spec, reader_ids=tuple(layout or default_sim_readers()))
    return open_readers(spec)


def run(args: argparse.Namespace) -> int:
    """Check the readers and print the findings; 0 healthy, 1 a problem, 2 bad arguments."""
    if args.seconds is not None and args.seconds < 0:
        raise ConfigError("--seconds must be 0 or more")
    import logging

    layout = _layout(args)
    backend = open_backend(args.readers, layout)
    pins = bridge_pins(args.bridge_config) if backend.name == "serial" else []
    simulated = backend.name == "sim"
    doctor = Doctor(
        args.readers, backend, layout=layout, pins=pins, wait=args.wait, simulate_taps=simulated
    )
    seconds = args.seconds
    if simulated and seconds is None:
        seconds = SIM_SECONDS  # nothing will tap a simulated reader: do not wait for Ctrl-C
    # The findings say in plain words what the backend's warnings say in log lines; the level
    # is restored afterwards (tests run this in-process).
    readers_log = logging.getLogger("scorekeeper.readers")
    level = readers_log.level
    readers_log.setLevel(logging.ERROR)
    try:
        return doctor.run(seconds)
    finally:
        readers_log.setLevel(level)
