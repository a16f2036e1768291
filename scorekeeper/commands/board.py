"""List, show, check and enter Arcanum board profiles (what each city location does).

A board profile is a YAML file copied from one physical board: for each of the 10 locations its
effect, its printed name and its icons, and what the Cathedral gives (see docs/games/arcanum.md,
"Board profiles"). 'sample' is a made-up board for demos; 'known' holds only what the rulebook
tells and cannot start a table.

check exits 0 when every file is complete, 1 when one is incomplete (it lists what is
missing), 2 when one cannot be read (it names the file and line).

examples:
  scorekeeper board list
  scorekeeper board show sample
  scorekeeper board check my-board.yaml
  scorekeeper board new my-board.yaml --from known
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from dataclasses import replace
from pathlib import Path

from scorekeeper.errors import ConfigError
from scorekeeper.games.arcanum.boards import (
    EFFECT_NAMES,
    EFFECTS,
    ICON_KINDS,
    BoardProfile,
    Icons,
    Location,
    dump_profile,
    empty_profile,
    find_profile,
    load_profile,
    normal_icons,
    shipped_profiles,
)
from scorekeeper.games.arcanum.cards import FAMILY_SYMBOL

HELP = "list, show, check and enter Arcanum board profiles"
DEFAULT_DB = "var/scorekeeper.db"
SAMPLE_BANNER = "SAMPLE board: not the printed board"
ICON_EXAMPLE = "knight 2, wands 1, swords -1"
_SINGULAR = {"sword": "swords", "coin": "coins", "wand": "wands", "cup": "cups"}
# What each location effect does (rules §5), in the words the table view uses (webui/games/
# arcanum.js), so that whoever copies a board can match the text printed on it.
EFFECT_WORDS: dict[str, str] = {
    "wizard_tower": "+1 VP, draw a major",
    "artists_quarter": "draw a major or 2 minors",
    "harbor": "draw a minor; the others may draw",
    "throne_room": "draw 2 minors",
    "market": "+2 VP, one exchange",
    "fields": "+1 VP, adjust reputation",
    "treasury": "draw a minor and hide it",
    "cathedral": "gain VP, then hide a card or draw 2",
    "ballroom": "may hide a card",
    "castle": "the others discard 1",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the sub-commands of ``scorekeeper board``."""
    sub = parser.add_subparsers(dest="board_command", metavar="ACTION", required=True)
    sub.add_parser("list", help="list the board profiles shipped with scorekeeper")
    show = sub.add_parser("show", help="show the 10 locations of a profile")
    show.add_argument("profile", metavar="NAME|FILE", help="a shipped profile name or a file")
    check = sub.add_parser(
        "check", help="check profile files (exit 0 complete, 1 incomplete, 2 unreadable)"
    )
    check.add_argument("files", metavar="FILE", nargs="+", help="profile files or shipped names")
    new = sub.add_parser(
        "new",
        help="enter a profile from your board, location by location "
        "(run it again to go on after a stop)",
    )
    new.add_argument("file", metavar="FILE", help="the profile file to write (.yaml)")
    new.add_argument(
        "--from",
        dest="source",
        metavar="NAME|FILE",
        help="start from this profile: a shipped name (known, sample), a profile file "
        "(NAME or NAME.yaml), or a profile saved in the console (--db); its entries are "
        "offered as defaults, and what a real board's profile (not a sample) knows is "
        "copied into FILE at once",
    )
    new.add_argument(
        "--db",
        default=DEFAULT_DB,
        help=f"the server's database, for profiles saved in the console (default: {DEFAULT_DB})",
    )


def run(args: argparse.Namespace) -> int:
    """Run ``scorekeeper board ACTION``; returns the exit code."""
    action = args.board_command
    if action == "list":
        return _list()
    if action == "show":
        return _show(find_profile(args.profile))
    if action == "check":
        return _check(args.files)
    return _new(Path(args.file), args.source, args.db)


# --- words ------------------------------------------------------------------------------------


def icon_label(kind: str) -> str:
    """An icon kind in texts: families carry their symbol (``wands ⚚``), figures do not."""
    return f"{kind} {FAMILY_SYMBOL[kind]}" if kind in FAMILY_SYMBOL else kind


def format_icons(icons: Icons | None) -> str:
    """Icons in plain words: ``"knight 2, wands ⚚ 1, swords ⚔ -1"``; "unknown"; "none"."""
    if icons is None:
        return "unknown"
    if not icons:
        return "none"
    return ", ".join(f"{icon_label(kind)} {count}" for kind, count in icons)


def parse_icons(text: str) -> Icons:
    """Icons typed as ``"knight 2, wands 1, swords -1"`` (or ``none``).

    ValueError with a plain message for anything else: an unknown icon, a count that is not a
    whole number, an icon named twice.
    """
    text = text.strip()
    if text.lower() in ("none", "no", "0", "-"):
        return ()
    counts: dict[str, int] = {}
    for part in text.replace(";", ",").split(","):
        words = part.split()
        if not words:
            continue
        if len(words) == 1:
            word = _SINGULAR.get(words[0].lower(), words[0].lower())
            if word in ICON_KINDS:
                raise ValueError(f"how many {word} icons? write e.g. '{word} 1'")
            raise ValueError(f"{words[0]!r} is not an icon; icons are {', '.join(ICON_KINDS)}")
        if len(words) != 2:
            raise ValueError(f"{part.strip()!r}: write an icon and its count, e.g. 'knight 2'")
        first, second = words
        kind_word, count_word = (second, first) if _is_int(first) else (first, second)
        kind = _SINGULAR.get(kind_word.lower(), kind_word.lower())
        if kind not in ICON_KINDS:
            raise ValueError(f"{kind_word!r} is not an icon; icons are {', '.join(ICON_KINDS)}")
        if not _is_int(count_word):
            raise ValueError(f"the count of {kind} must be a whole number, not {count_word!r}")
        if kind in counts:
            raise ValueError(f"{kind} is named twice")
        counts[kind] = int(count_word)
    if not counts:
        raise ValueError(f"type the icons, e.g. '{ICON_EXAMPLE}', or 'none'")
    return normal_icons(counts)


def _is_int(text: str) -> bool:
    try:
        int(text)
    except ValueError:
        return False
    return True


def _status(profile: BoardProfile) -> str:
    problems = profile.problems()
    if not problems:
        return "complete"
    return f"incomplete ({len(problems)} {'gap' if len(problems) == 1 else 'gaps'})"


# --- list, show, check ------------------------------------------------------------------------


def _list() -> int:
    for name, path in shipped_profiles().items():
        profile = load_profile(path)
        flag = "sample (made up, not the printed board)" if profile.sample else ""
        print(f"{name:<12} {_status(profile):<20} {flag}".rstrip())
    return 0


def _show(profile: BoardProfile) -> int:
    if profile.sample:
        print(SAMPLE_BANNER)
    print(f"{profile.label}: {_status(profile)}")
    if profile.description:
        print(textwrap.fill(profile.description, width=96))
    print()
    rows = [("no.", "name", "effect", "icons")]
    for loc in profile.locations:
        rows.append(
            (
                str(loc.number),
                loc.name if loc.name is not None else "unknown",
                loc.effect if loc.effect is not None else "unknown",
                format_icons(loc.icons),
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    for row in rows:
        print(f"{row[0]:>{widths[0]}}  {row[1]:<{widths[1]}}  {row[2]:<{widths[2]}}  {row[3]}")
    gain = profile.cathedral_gain_vp
    print()
    print(f"Cathedral gain: {'unknown' if gain is None else f'{gain} VP'}")
    problems = profile.problems()
    if problems:
        print("missing before it can start a table:")
        for problem in problems:
            print(f"  - {problem}")
    return 0


def _check(files: list[str]) -> int:
    worst = 0
    for file in files:
        try:
            profile = find_profile(file)
        except ConfigError as exc:
            print(f"{exc if exc.path else f'{file}: {exc}'}", file=sys.stderr)
            worst = 2
            continue
        problems = profile.problems()
        if problems:
            print(f"{file}: {profile.label} is incomplete:")
            for problem in problems:
                print(f"  - {problem}")
            worst = max(worst, 1)
        else:
            sample = " (a sample board, not the printed one)" if profile.sample else ""
            print(f"{file}: {profile.label} is complete{sample}")
    return worst


# --- new --------------------------------------------------------------------------------------


def _ask(prompt: str, default: str | None = None) -> str:
    """One answer; Enter gives ``default`` when there is one (shown in brackets)."""
    shown = f"{prompt} [{default}]: " if default else f"{prompt}: "
    answer = input(shown).strip()
    return answer if answer or default is None else default


def _ask_effect(number: int, used: dict[str, int], default: str | None) -> str:
    """Ask which effect location ``number`` has. Every effect keeps its number (its place in
    the rules' list) from one location to the next; those on another location are marked."""
    print("  effects (the numbers stay the same; those already placed are marked):")
    for index, effect in enumerate(EFFECTS, start=1):
        where = used.get(effect)
        said = f"{EFFECT_NAMES[effect]}: {EFFECT_WORDS[effect]}"
        mark = f"  (on location {where} already)" if where is not None else ""
        print(f"  {index:>4}) {effect:<16} {said}{mark}")
    remaining = [e for e in EFFECTS if e not in used]
    if default not in remaining:
        default = remaining[0] if len(remaining) == 1 else None
    while True:
        answer = _ask(f"  location {number}: effect (number or id)", default)
        word = answer.lower().replace(" ", "_").replace("'", "")
        if answer.isdigit() and 1 <= int(answer) <= len(EFFECTS):
            word = EFFECTS[int(answer) - 1]
        if word in remaining:
            return word
        if word in EFFECTS:
            print(f"  {word} is on location {used[word]} already; choose one not placed yet")
        else:
            print(f"  {answer!r} is not one of the effects listed; type its number or id")


def _ask_name(number: int, default: str) -> str:
    while True:
        answer = _ask(f"  location {number}: name printed on the board", default)
        if answer:
            return answer
        print("  type the name printed on the board")


def _ask_icons(number: int, default: Icons | None) -> Icons:
    shown = None if default is None else format_icons(default)
    while True:
        answer = input(
            f"  location {number}: icons, e.g. '{ICON_EXAMPLE}', or 'none'"
            + (f" [{shown}]: " if shown else ": ")
        ).strip()
        if not answer and default is not None:
            return default
        try:
            return parse_icons(answer)
        except ValueError as exc:
            print(f"  {exc}")


def _ask_gain(default: int | None) -> int:
    while True:
        answer = _ask(
            "Cathedral: VP it gives before its choice (0 if none)",
            None if default is None else str(default),
        )
        if answer.isdigit():
            return int(answer)
        print("  type a whole number of VP, 0 or more")


def find_template(source: str, db: str = DEFAULT_DB) -> BoardProfile:
    """The profile ``--from`` names: a shipped name, a file (``NAME`` or ``NAME.yaml``), or a
    profile saved in the console under that name in the database ``db``. ConfigError saying
    where it looked when it is none of them."""
    try:
        return find_profile(source)
    except ConfigError:
        pass
    for candidate in (Path(f"{source}.yaml"), Path(f"{source}.yml")):
        if candidate.is_file():
            return load_profile(candidate)
    stored = _stored_profile(source, db)
    if stored is not None:
        return stored
    raise ConfigError(
        f"no board profile called {source!r}: it is not shipped ({', '.join(shipped_profiles())})"
        f", there is no file {source} or {source}.yaml here, and no profile of that name is "
        f"saved in {db}; give a profile file's path, or --db the server's database"
    )


def _stored_profile(name: str, db: str) -> BoardProfile | None:
    """A profile saved in the console (``PUT /api/boards/NAME``), when ``db`` exists."""
    if "://" not in db and not Path(db).is_file():
        return None  # never create an empty database just to look
    from scorekeeper.api.routes.boards import stored_board
    from scorekeeper.games.arcanum.boards import profile_from_mapping
    from scorekeeper.store import Store, sqlite_url

    with Store(sqlite_url(db)) as store:
        data = stored_board(store, name)
    if data is None:
        return None
    return profile_from_mapping(data, f"the profile {name!r} saved in {db}")


def _start(
    path: Path, source: str | None, db: str = DEFAULT_DB
) -> tuple[BoardProfile, BoardProfile | None]:
    """The profile being entered (read back when resuming) and the template for defaults.

    A new file starts with what a real board's template knows (``known``: location 10's
    icons), so stopping early keeps it; a sample's made-up entries are only offered."""
    template = find_template(source, db) if source else None
    if path.exists():
        profile = load_profile(path)
        print(f"going on with {path}: what is in it stays; the gaps are asked")
        return profile, template
    if not path.parent.is_dir():
        raise ConfigError("no such folder", str(path.parent))
    description = _ask("A few words about this board (Enter for none)", "")
    profile = empty_profile(path.stem, description)
    if template is not None and not template.sample:
        profile = replace(
            profile, locations=template.locations, cathedral_gain_vp=template.cathedral_gain_vp
        )
    dump_profile(profile, path)
    print(f"entering {path}; it is saved after every location, so you can stop and go on later")
    return profile, template


def _new(path: Path, source: str | None, db: str = DEFAULT_DB) -> int:
    profile, template = _start(path, source, db)
    try:
        for loc in profile.locations:
            if loc.known:
                continue
            base = template.location(loc.number) if template else Location(loc.number)
            print(f"location {loc.number} of 10")
            used = {
                other.effect: other.number
                for other in profile.locations
                if other.number != loc.number and other.effect is not None
            }
            remaining = [e for e in EFFECTS if e not in used]
            if not remaining:
                raise ConfigError(
                    "every effect is already on another location; fix the file by hand",
                    str(path),
                )
            effect = loc.effect if loc.effect in remaining else None
            effect = _ask_effect(loc.number, used, effect or base.effect)
            name_default = loc.name or (base.name if base.effect == effect else None)
            name = _ask_name(loc.number, name_default or EFFECT_NAMES[effect])
            icons = _ask_icons(loc.number, loc.icons if loc.icons is not None else base.icons)
            locations = list(profile.locations)
            locations[loc.number - 1] = Location(loc.number, effect, name, icons)
            profile = replace(profile, locations=tuple(locations))
            dump_profile(profile, path)
        if profile.cathedral_gain_vp is None:
            default = template.cathedral_gain_vp if template else None
            profile = replace(profile, cathedral_gain_vp=_ask_gain(default))
            dump_profile(profile, path)
    except (EOFError, KeyboardInterrupt) as exc:
        print()
        print(f"stopped; what you entered is saved in {path}. Run the same command again to go on.")
        return 130 if isinstance(exc, KeyboardInterrupt) else 1
    print(f"saved {path}")
    return _check([str(path)])
