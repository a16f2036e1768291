"""``scorekeeper table create``: a layout or kit file read and checked here, the options that
select a game's data (a file read and sent whole, or an entry's name), and the options a person
must choose, asked on a terminal with no default (a real table must never get a made-up sample
by a stray Enter).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scorekeeper.commands.table.client import Client, ConsoleError
from scorekeeper.commands.table.show import _print_json, _print_summary

KIT_SUFFIXES = (".yaml", ".yml", ".json")


def _local_layout(path: str, game_id: str, seats: int | list[str]) -> dict[str, str]:
    """Read and check a layout file here, so that its errors name the file and the line."""
    from scorekeeper.core.layout import load_layout
    from scorekeeper.games import find_game

    count = seats if isinstance(seats, int) else len(seats)
    return load_layout(path, find_game(game_id), count)


def _kit(value: str, game_id: str, options: dict[str, Any] | None = None) -> str | dict[str, str]:
    """A stored kit's name as is, or a kit file's tags (checked here) as an inline mapping.
    Its pieces are those of the copy ``options`` name (a deck manifest's); a copy named by an
    entry only the server has is not checked here: the server checks the table's kit."""
    if not (value.lower().endswith(KIT_SUFFIXES) and Path(value).is_file()):
        return value
    from scorekeeper.core.kit import copy_options, load_kit
    from scorekeeper.errors import ScorekeeperError
    from scorekeeper.games import find_game

    game = find_game(game_id)
    try:
        resolved = copy_options(game, options)
    except ScorekeeperError:
        resolved = None
    unknown = resolved is None and bool(options)
    return dict(load_kit(value, game, resolved, any_piece=unknown).entries)


def _data_kind(game_id: str, option: str) -> Any:
    """The data kind that selects ``option`` of ``game_id`` (a board profile...), or None."""
    from scorekeeper.core.data import kind_for_option
    from scorekeeper.errors import UnknownGame
    from scorekeeper.games import find_game

    try:
        return kind_for_option(find_game(game_id), option)
    except UnknownGame:
        return None  # the server answers with the known games


def _data_value(game_id: str, option: str, text: str) -> Any:
    """An option that selects a game's data entry, as given on the command line: a file is
    read, checked and sent whole (the table keeps the entry it was created with, whatever
    happens to the file later); anything else is an entry's name for the server to resolve.
    Any other option is returned as it is."""
    from scorekeeper.core import data
    from scorekeeper.errors import ConfigError

    kind = _data_kind(game_id, option)
    path = Path(text).expanduser()
    if kind is None or not path.is_file():
        return text
    try:
        return data.from_file(kind, path)
    except ConfigError as exc:
        # The error names the file and the line.
        raise ConsoleError(f"this {kind.noun} is not valid: {exc}", 2) from None


Entries = Callable[[Any], list[dict[str, Any]]]


def _ask_options(game_id: str, options: dict[str, Any], entries: Entries | None = None) -> None:
    """Ask, on a terminal, for each option a person creating a table must choose (such as the
    profile of the board a group owns). There is no default: a real table must never get a
    made-up sample by a stray Enter, so the choices are listed and an answer is required.
    Without a terminal, ConsoleError names the flag to give. ``entries(kind)`` lists the
    server's entries of a data kind."""
    from scorekeeper.errors import UnknownGame
    from scorekeeper.games import find_game

    try:
        game = find_game(game_id)
    except UnknownGame:
        return  # the server answers with the known games
    for opt in game.options:
        if not opt.ask or opt.name in options:
            continue
        kind = _data_kind(game_id, opt.name)
        choices = _option_choices(opt, kind, entries)
        label = opt.label or opt.name
        if not sys.stdin.isatty():
            raise ConsoleError(_missing_option(opt.name, label, choices, kind), 2)
        print(f"{label}: {opt.help}")
        for value, words in choices:
            print(f"  {value:<12} {words}".rstrip())
        hint = (
            f"one of the names above or a {kind.noun} file"
            if kind is not None
            else "one of the values above"
            if choices
            else "a value"
        )
        while True:
            try:
                answer = input(f"{opt.name} ({hint}; no default): ").strip()
            except EOFError:
                raise ConsoleError(_missing_option(opt.name, label, choices, kind), 2) from None
            if answer:
                break
            print(f"  there is no default: type {hint}")
        options[opt.name] = _data_value(game_id, opt.name, answer)


def _option_choices(opt: Any, kind: Any, entries: Entries | None) -> list[tuple[str, str]]:
    """(value, words) for each choice of an asked option; for an option that selects a data
    entry, the server's entries of that kind (or the shipped samples when the server cannot be
    asked)."""
    if kind is None:
        return [(str(c.value), c.label) for c in opt.choice_list()]
    from scorekeeper.core import data

    found: list[dict[str, Any]] = []
    if entries is not None:
        try:
            found = entries(kind)
        except ConsoleError:
            found = []
    if not found:
        found = [entry.summary() for entry in data.entries(kind)]
    out = []
    for entry in found:
        words = []
        if entry.get("sample"):
            word, note = kind.sample_word, kind.shipped_note
            words.append(
                "a sample, made up: for tries only" if word == "sample" else f"{word}: {note}"
            )
        if not entry.get("complete"):
            words.append(
                f"incomplete ({len(entry.get('problems') or [])} gaps): cannot start "
                f"a table yet; fill it in with '{_new_command(kind)}'"
            )
        out.append((str(entry.get("name")), "; ".join(words) or "complete"))
    return out


def _shipped_words(kind: Any) -> str:
    """What the shipped entries of ``kind`` are, for the list of choices."""
    if kind.sample_word == "sample":
        return "a sample is made up, for tries only"
    return f"one marked {kind.sample_word} is {kind.shipped_note}"


def _new_command(kind: Any) -> str:
    """The command that enters a new entry of ``kind`` at a terminal."""
    if kind.cli_alias:
        return f"scorekeeper {kind.cli_alias} new"
    return f"scorekeeper data new --game {kind.game} --kind {kind.kind}"


def _missing_option(name: str, label: str, choices: list[tuple[str, str]], kind: Any) -> str:
    """What to type when an option a person must choose was not given (no terminal to ask)."""
    named = ", ".join(v for v, _ in choices)
    if kind is not None:
        return (
            f"choose the {label} with --option {name}=NAME or --option {name}=FILE "
            f"({kind.title.lower()}: {named}; {_shipped_words(kind)}; "
            f"'scorekeeper data list --game {kind.game}' shows them)"
        )
    listed = f" (one of: {named})" if named else ""
    return f"choose the {label} with --option {name}=VALUE{listed}"


def _create(client: Client, args: argparse.Namespace) -> int:
    options: dict[str, Any] = dict(args.option)
    if args.board:  # the older spelling of --option board=...
        options["board"] = args.board
    for name, value in options.items():
        if isinstance(value, str):
            options[name] = _data_value(args.game, name, value)

    def entries(kind: Any) -> list[dict[str, Any]]:
        path = f"/api/data/{kind.game}/{kind.kind}"
        return list(client.call("GET", path, organiser=False))

    _ask_options(args.game, options, entries)
    body: dict[str, Any] = {
        "game": args.game,
        "seats": args.seats,
        "options": options,
        "name": args.name,
        "start": args.start,
    }
    if args.layout:
        body["layout"] = _local_layout(args.layout, args.game, args.seats)
    if args.kit:
        body["kit"] = _kit(args.kit, args.game, options)
    if args.readers:
        body["readers"] = args.readers
    row = client.call("POST", "/api/tables", body)
    if args.json:
        _print_json(row)
        return 0
    table_id = row["id"]
    print(f"created table {table_id} ({row.get('status')})")
    _print_summary(row)
    print(f"watch it: {client.server}/#{table_id}")
    if row.get("status") != "running":
        print(f"start it: scorekeeper table start {table_id}")
    return 0
