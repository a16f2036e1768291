"""List, show, export and import kits (the tag registries made by 'scorekeeper enroll').

A kit file is YAML (.yaml/.yml) or JSON (.json) with game, name and tags (tag uid: piece id);
see docs/kits-and-layouts.md.

examples:
  scorekeeper kit list
  scorekeeper kit show club-copy
  scorekeeper kit export club-copy club-copy.yaml
  scorekeeper kit import club-copy.yaml [--name other-name] [--replace]
  scorekeeper kit fake --game angels-and-demons --kit dry-run
  scorekeeper kit fake --game GAME --kit big-dry --option deck=big   (that deck's pieces)

'kit fake' makes a kit with a made-up uid on every piece (FA4E..., a kind no real tag has), for
dry runs with simulated readers before the cards are tagged; 'kit list' and 'kit show' say which
kits are made up.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from scorekeeper.core.game import Game
from scorekeeper.core.kit import (
    Kit,
    check_kit_name,
    copy_options,
    fake_kit,
    is_made_up,
    kit_file_game,
    load_kit,
    made_up_count,
    option_pairs,
    save_kit,
)
from scorekeeper.errors import ConfigError, NotFound, UnknownGame
from scorekeeper.games import find_game, game_ids
from scorekeeper.store import Store, sqlite_url

DEFAULT_DB = "var/scorekeeper.db"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the sub-commands of ``scorekeeper kit``."""
    db = argparse.ArgumentParser(add_help=False)
    db.add_argument(
        "--db", default=DEFAULT_DB, help=f"database file or URL (default: {DEFAULT_DB})"
    )
    sub = parser.add_subparsers(dest="kit_command", metavar="ACTION", required=True)
    sub.add_parser("list", parents=[db], help="list the stored kits")
    show = sub.add_parser("show", parents=[db], help="show every tag of a kit")
    show.add_argument("name")
    export = sub.add_parser("export", parents=[db], help="write a kit to a .yaml or .json file")
    export.add_argument("name")
    export.add_argument("file")
    export.add_argument("--force", action="store_true", help="overwrite FILE if it exists")
    imp = sub.add_parser("import", parents=[db], help="read a kit file into the store")
    imp.add_argument("file")
    imp.add_argument("--name", help="store it under this name (default: the file's name:)")
    imp.add_argument("--replace", action="store_true", help="replace a stored kit of the same name")
    imp.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a table option naming the copy (repeat), e.g. deck=my-deck: its pieces are known",
    )
    fake = sub.add_parser(
        "fake", parents=[db], help="make a kit of made-up uids, one per piece, for dry runs"
    )
    fake.add_argument("--game", required=True, help=f"id of the game: {', '.join(game_ids())}")
    fake.add_argument("--kit", required=True, help="name of the kit to make")
    fake.add_argument(
        "--replace",
        action="store_true",
        help="replace a stored kit of the same name (made up or not)",
    )
    fake.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a table option naming the copy (repeat), e.g. deck=my-deck: a tag for each of "
        "its pieces",
    )


def _game_or_none(game_id: str) -> Game[Any] | None:
    try:
        return find_game(game_id)
    except UnknownGame:
        return None


def run(args: argparse.Namespace) -> int:
    """Run ``scorekeeper kit ACTION``; returns the exit code."""
    with Store(sqlite_url(args.db)) as store:
        action = args.kit_command
        if action == "list":
            return _list(store)
        if action == "show":
            return _show(store, args.name)
        if action == "export":
            return _export(store, args.name, args.file, args.force)
        if action == "fake":
            return _fake(store, args.game, args.kit, args.replace, option_pairs(args.option))
        return _import(store, args.file, args.name, args.replace, option_pairs(args.option))


def _list(store: Store) -> int:
    names = store.kits()
    if not names:
        print("no kits yet: make one with 'scorekeeper enroll --game GAME --kit NAME'")
    for name in names:
        kit = store.kit(name)
        game = _game_or_none(kit.game)
        count = (
            f"{kit.progress(game)[0]}/{kit.progress(game)[1]} tagged"
            if game
            else f"{len(kit.entries)} tags"
        )
        print(f"{name:<24} {kit.game:<24} {count}{_made_up_words(kit)}")
    return 0


def _show(store: Store, name: str) -> int:
    kit = store.kit(name)
    game = _game_or_none(kit.game)
    done = (
        f"{kit.progress(game)[0]}/{kit.progress(game)[1]} tagged"
        if game
        else f"{len(kit.entries)} tags"
    )
    print(f"kit {kit.name}: {kit.game}, {done}{_made_up_words(kit)}")
    for uid, piece in kit.entries.items():
        about = game.describe_piece(piece) if game else ""
        mark = "  (made up)" if is_made_up(uid) else ""
        print(f"  {uid:<20} {piece:<8} {about}{mark}".rstrip())
    return 0


def _export(store: Store, name: str, file: str, force: bool) -> int:
    kit = store.kit(name)
    if Path(file).exists() and not force:
        raise ConfigError("the file exists already; use --force to overwrite it", file)
    try:
        save_kit(kit, file)
    except OSError as exc:
        raise ConfigError(f"cannot write it: {exc.strerror or exc}", file) from None
    print(f"kit {name} ({len(kit.entries)} tags) written to {file}")
    return 0


def _import(
    store: Store, file: str, name: str | None, replace: bool, given: dict[str, str] | None = None
) -> int:
    game = find_game(kit_file_game(file))
    options = copy_options(game, given, store)
    kit = load_kit(file, game, options)
    if name is not None:
        kit = Kit(check_kit_name(name), kit.game, kit.entries)
    try:
        old = store.kit(kit.name)
    except NotFound:
        old = None
    if old is not None and (old.game, old.entries) == (kit.game, kit.entries):
        print(f"kit {kit.name} is already stored with the same tags")
        return 0
    if old is not None and not replace:
        raise ConfigError(
            f"a different kit called {kit.name!r} is stored already; use "
            "--replace to replace it or --name to store this one apart",
            file,
        )
    store.save_kit(kit.name, kit.game, kit.entries)
    done, total = kit.progress(game, options)
    print(f"kit {kit.name} imported from {file}: {done}/{total} tagged")
    return 0


def _made_up_words(kit: Kit) -> str:
    """``"  MADE UP: no real tags"`` for a kit of made-up uids (some: how many), else ``""``."""
    count = made_up_count(kit)
    if not count:
        return ""
    if count == len(kit.entries):
        return "  MADE UP: no real tags (for dry runs)"
    return f"  {count} made-up tag(s)"


def _fake(
    store: Store, game_id: str, name: str, replace: bool, given: dict[str, str] | None = None
) -> int:
    game = find_game(game_id)
    kit = fake_kit(game, name, copy_options(game, given, store))
    try:
        old = store.kit(name)
    except NotFound:
        old = None
    if old is not None and not replace:
        raise ConfigError(
            f"a kit called {name!r} is stored already; use --replace to replace "
            "it, or choose another name"
        )
    store.save_kit(kit.name, kit.game, kit.entries)
    first, last = next(iter(kit.entries)), next(reversed(kit.entries))
    print(
        f"kit {name}: {len(kit.entries)} MADE-UP tags for {game.name} ({first} to {last}), "
        "one per piece. No real tag has these uids: use the kit for dry runs with simulated "
        "readers, and tag the real cards with 'scorekeeper enroll' into another kit."
    )
    return 0
