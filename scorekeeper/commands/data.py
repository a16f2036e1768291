"""List, show, check, import, export, save and delete the games' data (board profiles...).

Some games need data a person copies from their own copy of the game, e.g. what each location
of a board does. Each kind has samples shipped with scorekeeper (made up, labelled sample) and
entries saved in the server's database (--db), which a table chooses by name. A file is YAML,
or CSV for kinds that have a flat form (a .csv file).

--game may be left out while one game keeps data, --kind while the game has one kind.
check exits 0 when every entry is complete, 1 when one is incomplete (it lists what is
missing), 2 when one cannot be read (it names the file, line and field).

examples:
  scorekeeper data list
  scorekeeper data show sample
  scorekeeper data check my-board.yaml
  scorekeeper data import my-board.csv --name club --db var/scorekeeper.db
  scorekeeper data export club --format csv --output club.csv
  scorekeeper data save club-copy --from club
  scorekeeper data delete club-copy
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

from scorekeeper.core import data
from scorekeeper.core.data import DataKind, Entry
from scorekeeper.errors import ConfigError, NotFound

HELP = "list, show, check, import, export, save and delete game data (board profiles...)"
DEFAULT_DB = "var/scorekeeper.db"


def _common(alias: str | None) -> argparse.ArgumentParser:
    """The options every action takes: which kind (unless an alias fixed it) and the database."""
    common = argparse.ArgumentParser(add_help=False)
    if alias is None:
        common.add_argument("--game", help="the id of the game whose data it is")
        common.add_argument("--kind", help="the kind of data (e.g. board)")
    common.add_argument(
        "--db",
        default=DEFAULT_DB,
        help=f"the server's database, for the entries saved there (default: {DEFAULT_DB})",
    )
    return common


def add_arguments(parser: argparse.ArgumentParser, alias: str | None = None) -> None:
    """Declare the actions of ``scorekeeper data`` (or of an alias such as ``board``, which has
    list, show, check and new)."""
    common = [_common(alias)]
    sub = parser.add_subparsers(dest="data_command", metavar="ACTION", required=True)
    sub.add_parser("list", parents=common, help="list the samples and the saved entries")
    show = sub.add_parser("show", parents=common, help="show an entry")
    show.add_argument("entry", metavar="NAME|FILE", help="a sample, a saved entry or a file")
    check = sub.add_parser(
        "check", parents=common, help="check entries (exit 0 complete, 1 incomplete, 2 unreadable)"
    )
    check.add_argument("files", metavar="NAME|FILE", nargs="+", help="files, samples or entries")
    new = sub.add_parser(
        "new",
        parents=common,
        help="enter an entry at the terminal, step by step (run it again to go on after a "
        "stop); for kinds that have such an entry",
    )
    new.add_argument("file", metavar="FILE", help="the file to write (.yaml)")
    new.add_argument(
        "--from",
        dest="source",
        metavar="NAME|FILE",
        help="start from this entry: a sample, a file (NAME or NAME.yaml) or an entry saved in "
        "the database (--db); its values are offered as defaults, and what a real entry (not "
        "a sample) knows is copied into FILE at once",
    )
    if alias is not None:
        return
    imp = sub.add_parser("import", parents=common, help="check a file and save it in the database")
    imp.add_argument("file", metavar="FILE", help="a YAML file, or a .csv file")
    imp.add_argument("--name", help="save it under this name (default: its name: or file name)")
    exp = sub.add_parser("export", parents=common, help="write an entry as YAML or CSV")
    exp.add_argument("entry", metavar="NAME|FILE", help="a sample, a saved entry or a file")
    exp.add_argument("--format", choices=data.FORMATS, default="yaml", help="default: yaml")
    exp.add_argument("--output", "-o", metavar="FILE", help="write to FILE (default: print it)")
    save = sub.add_parser(
        "save", parents=common, help="save a copy of a sample, entry or file under a new name"
    )
    save.add_argument("name", metavar="NAME", help="the name to save it under")
    save.add_argument(
        "--from", dest="source", metavar="NAME|FILE", required=True, help="what to copy"
    )
    delete = sub.add_parser("delete", parents=common, help="delete an entry saved in the database")
    delete.add_argument("name", metavar="NAME", help="the saved entry's name")


def _kind(args: argparse.Namespace, alias: str | None) -> DataKind:
    if alias is not None:
        kinds = [k for k in data.all_kinds() if k.cli_alias == alias]
        if len(kinds) != 1:  # a programming error: an alias names exactly one kind
            raise NotFound(f"no kind of data answers to {alias!r}")
        return kinds[0]
    return data.find_kind(args.game, args.kind)


@contextmanager
def _store(db: str, create: bool = False) -> Iterator[Any]:
    """The database at ``db``, or None when it does not exist and ``create`` is false (never
    create an empty database just to look)."""
    from scorekeeper.store import Store, sqlite_url

    if not create and "://" not in db and not Path(db).is_file():
        with nullcontext(None) as nothing:
            yield nothing
        return
    with Store(sqlite_url(db)) as store:
        yield store


def find(kind: DataKind, source: str, store: Any) -> Entry:
    """The entry ``source`` names: a sample, a file (``NAME`` or ``NAME.yaml``/``.csv``) or an
    entry saved in ``store``. ConfigError saying where it looked when it is none of them."""
    if source in data.sample_files(kind):
        return data.sample(kind, source)
    for candidate in (Path(source), Path(f"{source}.yaml"), Path(f"{source}.yml")):
        if candidate.is_file():
            mapping = data.from_file(kind, candidate)
            return Entry(kind, str(mapping.get("name") or candidate.stem), mapping, stored=False)
    if store is not None:
        try:
            return data.find_entry(kind, source, store)
        except NotFound:
            pass
    saved = ", ".join(n for n in data.names(kind, store) if n not in data.sample_files(kind))
    raise ConfigError(
        f"no {kind.noun} called {source!r}: it is not a sample "
        f"({', '.join(data.sample_files(kind))}), there is no file {source} or {source}.yaml "
        f"here, and {f'the saved ones are {saved}' if saved else 'none is saved'} in the "
        "database; give a file's path, or --db the server's database"
    )


def _status(entry: Entry) -> str:
    problems = entry.problems()
    if not problems:
        return "complete"
    return f"incomplete ({len(problems)} {'gap' if len(problems) == 1 else 'gaps'})"


def _list(kind: DataKind, store: Any) -> int:
    for entry in data.entries(kind, store):
        kind_ = entry.kind
        flag = (
            f"{kind_.sample_word} ({kind_.shipped_note})"
            if entry.sample
            else "saved"
            if entry.stored
            else ""
        )
        print(f"{entry.name:<12} {_status(entry):<20} {flag}".rstrip())
    return 0


def _show(entry: Entry) -> int:
    if entry.kind.show is not None:
        print(entry.kind.show(entry), end="")
        return 0
    if entry.sample:
        print(f"{entry.kind.sample_word.upper()} {entry.kind.noun}: {entry.kind.shipped_note}")
    print(f"{entry.label}: {_status(entry)}")
    print(data.to_yaml(entry.kind, entry.data), end="")
    return 0


def _check(kind: DataKind, files: list[str], store: Any) -> int:
    worst = 0
    for file in files:
        try:
            entry = find(kind, file, store)
        except ConfigError as exc:
            print(f"{exc if exc.path else f'{file}: {exc}'}", file=sys.stderr)
            worst = 2
            continue
        problems = entry.problems()
        if problems:
            print(f"{file}: {entry.label} is incomplete:")
            for problem in problems:
                print(f"  - {problem}")
            worst = max(worst, 1)
        else:
            word, note = entry.kind.sample_word, entry.kind.shipped_note
            sample = f" ({word}: {note})" if entry.sample else ""
            print(f"{file}: {entry.label} is complete{sample}")
    return worst


def _saved(entry: Entry, db: str) -> int:
    problems = entry.problems()
    said = "complete" if not problems else f"incomplete: {'; '.join(problems)}"
    print(f"saved {entry.label} in {db} ({said})")
    return 0


def run(args: argparse.Namespace, alias: str | None = None) -> int:
    """Run ``scorekeeper data ACTION`` (or the alias's); returns the exit code."""
    kind = _kind(args, alias)
    action = args.data_command
    writes = action in ("import", "save", "delete")
    with _store(args.db, create=writes) as store:
        if action == "list":
            return _list(kind, store)
        if action == "show":
            return _show(find(kind, args.entry, store))
        if action == "check":
            return _check(kind, args.files, store)
        if action == "new":
            if kind.enter is None:
                raise ConfigError(f"{kind.title} have no step-by-step entry; write a file")
            template = find(kind, args.source, store).data if args.source else None
            return kind.enter(Path(args.file), template)
        if action == "export":
            text = data.export(kind, find(kind, args.entry, store).data, args.format)
            if args.output is None:
                print(text, end="")
            else:
                Path(args.output).write_text(text, encoding="utf-8", newline="")
                print(f"wrote {args.output}")
            return 0
        if action == "import":
            mapping = data.from_file(kind, args.file, args.name)
            return _saved(data.save(kind, store, str(mapping["name"]), mapping), args.db)
        if action == "save":
            source = find(kind, args.source, store)
            return _saved(data.save(kind, store, args.name, source.data), args.db)
        data.delete(kind, store, args.name)
        print(f"deleted the {kind.noun} {args.name!r} from {args.db}")
        return 0
