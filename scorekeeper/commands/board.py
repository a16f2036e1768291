"""List, show, check and enter board profiles: ``scorekeeper data`` for the kind of data whose
command-line alias is ``board`` (a game's board profiles, see ``scorekeeper data list``).

A board profile is a file copied from one physical board: what each location does and shows.
'sample' is a made-up board for demos; 'known' holds only what the rulebook tells and cannot
start a table.

check exits 0 when every file is complete, 1 when one is incomplete (it lists what is
missing), 2 when one cannot be read (it names the file, line and field).

examples:
  scorekeeper board list
  scorekeeper board show sample
  scorekeeper board check my-board.yaml
  scorekeeper board new my-board.yaml --from known
"""

from __future__ import annotations

import argparse

from scorekeeper.commands import data

ALIAS = "board"
HELP = "list, show, check and enter board profiles (scorekeeper data, for boards)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare ``scorekeeper board``'s actions: list, show, check and new."""
    data.add_arguments(parser, alias=ALIAS)


def run(args: argparse.Namespace) -> int:
    """Run ``scorekeeper board ACTION``; returns the exit code."""
    return data.run(args, alias=ALIAS)
