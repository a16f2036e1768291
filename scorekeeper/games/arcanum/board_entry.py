"""Entering an Arcanum board profile at a terminal, location by location, and showing one.

``scorekeeper board new FILE`` (or ``scorekeeper data new FILE --game arcanum``) reaches
``enter`` through the board kind's ``enter`` hook (scorekeeper/games/arcanum/board_data.py): it
asks each location's effect, printed name and icons, saving the file after every location, so a
stop (Ctrl-C, end of input) keeps what was typed and the same command goes on later. ``show``
is the kind's ``show`` hook: the 10 locations as a table, what is missing, and a sample's banner.

Hazard: it reads ``input()`` and prints; only the command line calls it.
"""

from __future__ import annotations

import textwrap
from dataclasses import replace
from pathlib import Path

from scorekeeper.errors import ConfigError
from scorekeeper.games.arcanum.board_data import dump_profile, icon_label, load_profile
from scorekeeper.games.arcanum.boards import (
    EFFECT_NAMES,
    EFFECTS,
    ICON_KINDS,
    BoardProfile,
    Icons,
    Location,
    empty_profile,
    normal_icons,
)

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


# --- words ------------------------------------------------------------------------------------


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


# --- show ---------------------------------------------------------------------------------


def show(profile: BoardProfile) -> str:
    """The profile for a terminal: a sample's banner, its status, the 10 locations as a table,
    the Cathedral's gain and what is missing before it can start a table."""
    lines: list[str] = []
    out = lines.append
    if profile.sample:
        out(SAMPLE_BANNER)
    out(f"{profile.label}: {_status(profile)}")
    if profile.description:
        out(textwrap.fill(profile.description, width=96))
    out("")
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
        out(f"{row[0]:>{widths[0]}}  {row[1]:<{widths[1]}}  {row[2]:<{widths[2]}}  {row[3]}")
    gain = profile.cathedral_gain_vp
    out("")
    out(f"Cathedral gain: {'unknown' if gain is None else f'{gain} VP'}")
    problems = profile.problems()
    if problems:
        out("missing before it can start a table:")
        for problem in problems:
            out(f"  - {problem}")
    return "\n".join(lines) + "\n"


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


def _start(path: Path, template: BoardProfile | None) -> BoardProfile:
    """The profile being entered (read back when resuming).

    A new file starts with what a real board's template knows (``known``: location 10's
    icons), so stopping early keeps it; a sample's made-up entries are only offered."""
    if path.exists():
        profile = load_profile(path)
        print(f"going on with {path}: what is in it stays; the gaps are asked")
        return profile
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
    return profile


def enter(path: Path, template: BoardProfile | None = None) -> int:
    """Ask for what ``path``'s profile does not know yet, saving after each location; the
    ``template``'s entries are offered as defaults. Returns the exit code: 0 complete, 1
    incomplete or stopped, 130 after Ctrl-C."""
    profile = _start(path, template)
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
    if profile.problems():
        print(f"{path}: {profile.label} is incomplete:")
        for problem in profile.problems():
            print(f"  - {problem}")
        return 1
    sample = " (a sample board, not the printed one)" if profile.sample else ""
    print(f"{path}: {profile.label} is complete{sample}")
    return 0
