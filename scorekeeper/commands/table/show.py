"""Printing for ``scorekeeper table``: table summaries, verdicts and views in readable lines,
and the two actions that only read (``list`` and ``show``).

Feed inputs and prompt answers are printed in the game's words (``Game.describe_input``,
``Game.answer_words``), never as card ids, when this command knows the game.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

from scorekeeper.commands.table.client import Client


def _print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, ensure_ascii=False))


def _seat_scores(seats: Sequence[str], scores: Sequence[Any] | None, private: bool = False) -> str:
    """Each seat with its score; ``private``: the game keeps its scores to the end (none
    given), so it says so instead of a dash per seat."""
    if private:
        return ", ".join(f"{i} {name}" for i, name in enumerate(seats)) + " (scores at the end)"
    scores = list(scores or [])
    return ", ".join(
        f"{i} {name} {scores[i] if i < len(scores) else '-'}" for i, name in enumerate(seats)
    )


def _title(game: str, name: str) -> str:
    """A table's game and name, the game said once (an older table is "<game> table")."""
    return name if name and game.lower() in name.lower() else f"{game} — {name}"


def _print_summary(row: dict[str, Any]) -> None:
    game = row.get("game_name") or row.get("game", "?")
    title = _title(str(game), str(row.get("name", "")))
    archived = " (archived)" if row.get("archived") else ""
    print(f"{row['id']:<6} {row.get('status', '?'):<8} {title}{archived}")
    seats = _seat_scores(row.get("seats", []), row.get("scores"), bool(row.get("scores_private")))
    print(f"       seats: {seats}")
    if row.get("error"):
        print(f"       error: {row['error']}")
    elif row.get("over"):
        print("       the game is over")
    elif row.get("waiting_for"):
        print(f"       waiting for: {row['waiting_for']}")


def _refusal_lines(rejection: dict[str, Any], indent: str) -> list[str]:
    lines = [f"{indent}rule {rejection.get('rule', '?')}: {rejection.get('reason', '')}"]
    if rejection.get("hint"):
        lines.append(f"{indent}hint: {rejection['hint']}")
    return lines


def _print_verdict(verdict: dict[str, Any]) -> int:
    """Print an input's verdict; 0 when accepted, 1 when refused."""
    seq = verdict.get("seq", "?")
    if verdict.get("accepted"):
        print(f"accepted (#{seq})")
        for event in verdict.get("events", []):
            print(f"  {event}")
        return 0
    print(f"refused (#{seq})")
    for line in _refusal_lines(verdict, "  "):
        print(line)
    return 1


def _input_words(view: dict[str, Any], text: str) -> str:
    """A feed entry's input in plain words (``Game.describe_input``: card, zone and seat names,
    never card ids); ``text`` itself when this command cannot read it."""
    from scorekeeper.core.inputs import InputSyntaxError, parse_input
    from scorekeeper.errors import UnknownGame
    from scorekeeper.games import find_game

    raw, _, was = text.partition(" (was: ")  # an undo or correction names what it took back
    seats = [str(s) for s in view.get("seats") or []]
    try:
        game = find_game(str(view.get("game")))
        words = game.describe_input(parse_input(raw), seats)
        if was:
            words += f" (taking back: {game.describe_input(parse_input(was[:-1]), seats)})"
    except (InputSyntaxError, UnknownGame):
        return text
    return words


def _answer_words(view: dict[str, Any], prompt: str, option: str) -> str:
    """An answer in words, with the answer to type after it when they differ
    ("nobody claims it = pass")."""
    from scorekeeper.core.text import render_seats
    from scorekeeper.errors import UnknownGame
    from scorekeeper.games import find_game

    try:
        said = find_game(str(view.get("game"))).answer_words(prompt, option)
    except UnknownGame:
        return option
    said = render_seats(said, [str(s) for s in view.get("seats") or []])
    return option if said == option else f"{said} = {option}"


def _print_view(view: dict[str, Any], feed_lines: int) -> None:
    """A table view (organiser or seat) in a few readable lines."""
    audience = view.get("audience")
    who = (
        "organiser view"
        if audience == "organiser"
        else (f"seat {audience} view" if isinstance(audience, int) else f"{audience} view")
    )
    game = view.get("game_name") or view.get("game", "?")
    title = _title(str(game), str(view.get("name", "")))
    print(f"{view.get('id')} — {title} — {view.get('status')} ({who})")
    print(f"accepted inputs: {view.get('accepted', 0)} of {view.get('inputs', 0)}")
    scored = _seat_scores(
        view.get("seats", []), view.get("scores"), bool(view.get("scores_private"))
    )
    print(f"seats and scores: {scored}")
    state = view.get("state")
    if isinstance(state, dict):
        facts = [
            f"{k}={'-' if v is None else v}"
            for k, v in state.items()
            if isinstance(v, str | int | float | bool) or v is None
        ]
        if facts:
            print(f"state: {' '.join(facts)}")
    if view.get("over"):
        print("the game is over")
    if view.get("waiting_for"):
        print(f"waiting for: {view['waiting_for']}")
    pending = view.get("pending") or []
    seats = list(view.get("seats") or [])
    if pending:
        print("pending prompts:")
    for prompt in pending:
        seat = prompt.get("seat")
        whom = "organiser" if seat is None else str(seat)
        name = seats[seat] if isinstance(seat, int) and 0 <= seat < len(seats) else ""
        label = "the table" if seat is None else f"seat {seat}" + (f" ({name})" if name else "")
        options = [str(o) for o in prompt.get("options", [])]
        private = ", private" if prompt.get("private") else ""
        print(f"  {prompt.get('id')} — {label}{private}: {prompt.get('question', '')}")
        answer = options[0] if len(options) == 1 else "ANSWER"
        said = [_answer_words(view, str(prompt.get("id")), o) for o in options]
        print(
            f"      answers: {' | '.join(said) or '-'}   → scorekeeper table decide "
            f"{view.get('id')} {whom} {prompt.get('id')} {answer}"
        )
    for notice in view.get("notices") or []:
        rule = f"{notice['rule']}: " if notice.get("rule") else ""
        print(f"notice: {rule}{notice.get('text', '')}")
    readers = view.get("readers")
    if isinstance(readers, dict) and readers:
        if "error" in readers and not isinstance(readers["error"], dict):
            print(f"readers: error: {readers['error']}")
        else:
            online = [
                r
                for r, info in readers.items()
                if not isinstance(info, dict) or info.get("online", True)
            ]
            offline = [
                f"{r} ({info.get('detail') or 'offline'})"
                for r, info in readers.items()
                if isinstance(info, dict) and not info.get("online", True)
            ]
            print(f"readers online: {', '.join(online) or 'none'}")
            if offline:
                print(f"readers OFFLINE: {', '.join(offline)}")
    if "watchers" in view:
        print(f"watching: {view['watchers']}")
    feed = list(view.get("feed") or [])[-feed_lines:] if feed_lines > 0 else []
    if feed:
        print(f"recent plays (last {len(feed)}):")
    for entry in feed:
        mark = "ok " if entry.get("accepted") else "REFUSED"
        text = entry.get("input") or entry.get("text") or ""
        print(f"  #{entry.get('seq', '?'):<4} {mark:<7} {_input_words(view, text)}".rstrip())
        for event in entry.get("events") or []:
            print(f"         {event}")
        if entry.get("rejection"):
            for line in _refusal_lines(entry["rejection"], "         "):
                print(line)


def _list(client: Client, args: argparse.Namespace) -> int:
    rows = client.call(
        "GET", "/api/tables?archived=1" if args.archived else "/api/tables", organiser=False
    )
    if args.json:
        _print_json(rows)
        return 0
    if not rows:
        print("no tables yet: create one with 'scorekeeper table create --game GAME --seats N'")
    for row in rows:
        _print_summary(row)
    return 0


def _show(client: Client, args: argparse.Namespace) -> int:
    path = (
        f"/api/tables/{args.table_id}/organiser"
        if args.seat is None
        else f"/api/tables/{args.table_id}/seat/{args.seat}"
    )
    view = client.call("GET", path)
    if args.json:
        _print_json(view)
    else:
        _print_view(view, args.feed)
    return 0
