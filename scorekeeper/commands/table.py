"""The organiser's console for a running server: create, start, watch, undo, correct, pair.

It talks HTTP to a running 'scorekeeper serve' (see docs/server.md) with the organiser token:
--token TOKEN, or else the token file next to the server's database (--db, default
var/scorekeeper.db: var/organiser-token). A table is run step by step in docs/tables.md.

examples:
  scorekeeper table list
  scorekeeper table create --game angels-and-demons --seats "Ann,Bea,Cid" \\
                           --layout mat.yaml --kit club-copy --readers serial:/dev/ttyUSB0 --start
  scorekeeper table show t1                      # what it waits for, scores, prompts, feed
  scorekeeper table show t1 --seat 2 --json      # what seat 2's phone sees, as JSON
  scorekeeper table input t1 "+talon H1b1"       # feed an input a reader missed
  scorekeeper table undo t1                      # take back the last accepted input (asks)
  scorekeeper table correct t1 "-talon H2b1"     # replace the last accepted input (a misread)
  scorekeeper table undo t1 --yes                # without asking (a script)
  scorekeeper table decide t1 1 waiting yes      # answer a prompt for seat 1 (or: organiser)
  scorekeeper table pause t1 / start t1 / end t1
  scorekeeper table archive t1 / unarchive t1    # hide a finished table (its log stays)
  scorekeeper table delete t1 --yes              # an ended or archived table, log and all
  scorekeeper table pair t1 2                    # a pairing code for seat 2's phone
  scorekeeper table --server http://192.168.1.20:8000 list

exit status:
  0  done (an input: accepted)
  1  the server said no (its own words are printed), an input was refused (its rule, reason
     and hint are printed), or no server answers at --server
  2  bad arguments, a layout or kit file with an error (file:line), or no organiser token
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from scorekeeper.errors import ScorekeeperError
from scorekeeper.games import game_ids

DEFAULT_SERVER = "http://127.0.0.1:8000"
DEFAULT_DB = "var/scorekeeper.db"
NO_TOKEN = (
    "no organiser token: pass --token, or --db of the server's database so the token "
    "file next to it is read"
)
FEED_LINES = 10
KIT_SUFFIXES = (".yaml", ".yml", ".json")


class ConsoleError(ScorekeeperError, RuntimeError):
    """A problem to print in plain words, with the exit code it ends the command with."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


# -- arguments ---------------------------------------------------------------------------------


def positive_seconds(text: str) -> float:
    """An argparse type: a number of seconds greater than 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"the timeout must be more than 0 seconds, not {text}")
    return value


def _seats(text: str) -> int | list[str]:
    """``--seats``: a player count (``3``) or the players' names (``Ann,Bea,Cid``)."""
    value = text.strip()
    if value.isdigit():
        return int(value)
    names = [name.strip() for name in value.split(",")]
    if not value or any(not name for name in names):
        raise argparse.ArgumentTypeError(
            f"{text!r} is neither a number of players nor names separated by commas "
            '(e.g. 3 or "Ann,Bea,Cid")'
        )
    return names


def _option(text: str) -> tuple[str, str]:
    """``--option key=value``: one game option (the server converts the value to its type)."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"{text!r} is not key=value (e.g. mode=advanced)")
    return key.strip(), value.strip()


def _who(text: str) -> int | None:
    """The seat a decision is made for: a seat number, or ``organiser`` (None)."""
    if text.strip().lower() in ("organiser", "organizer"):
        return None
    if text.strip().isdigit():
        return int(text)
    raise argparse.ArgumentTypeError(f"{text!r} is neither a seat number nor 'organiser'")


def _add_common(parser: argparse.ArgumentParser, suppress: bool) -> None:
    """The connection options. They are declared twice, on ``table`` with their defaults and on
    each action with none, so that they may be given before or after the action."""
    group = parser.add_argument_group("server")

    def default(value: Any) -> Any:
        return argparse.SUPPRESS if suppress else value

    group.add_argument(
        "--server",
        metavar="URL",
        default=default(DEFAULT_SERVER),
        help=f"the running server (default {DEFAULT_SERVER})",
    )
    group.add_argument(
        "--token",
        metavar="TOKEN",
        default=default(None),
        help="the organiser token (default: read it from the file next to --db)",
    )
    group.add_argument(
        "--db",
        metavar="PATH",
        default=default(DEFAULT_DB),
        help=f"the server's database, to find its organiser token file (default {DEFAULT_DB})",
    )
    group.add_argument(
        "--timeout",
        metavar="SECONDS",
        type=positive_seconds,
        default=default(10.0),
        help="how long to wait for an answer (default 10)",
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the actions of ``scorekeeper table`` and their options."""
    _add_common(parser, suppress=False)
    shared = argparse.ArgumentParser(add_help=False)
    _add_common(shared, suppress=True)
    common = [shared]
    sub = parser.add_subparsers(dest="table_command", metavar="ACTION", required=True)

    def action(name: str, help_text: str, with_json: bool = False) -> argparse.ArgumentParser:
        p = sub.add_parser(name, parents=common, help=help_text, description=help_text)
        if with_json:
            p.add_argument("--json", action="store_true", help="print the server's JSON answer")
        return p

    listing = action(
        "list", "every table: status, seats and scores, what it waits for", with_json=True
    )
    listing.add_argument(
        "--archived", action="store_true", help="archived tables too (hidden by default)"
    )

    create = action("create", "create a table (and start it with --start)", with_json=True)
    create.add_argument("--game", required=True, help=f"the game id: {', '.join(game_ids())}")
    create.add_argument(
        "--seats",
        required=True,
        type=_seats,
        help='a number of players, or their names in turn order: "Ann,Bea,Cid"',
    )
    create.add_argument("--name", default="", help="the table's name (default: the game's)")
    create.add_argument(
        "--option",
        action="append",
        type=_option,
        default=[],
        metavar="KEY=VALUE",
        help="a game option, e.g. mode=advanced (repeat); an option that selects the game's "
        "data (a board profile...) takes an entry's name or a file",
    )
    # An option that selects a game's data (a board profile...) takes an entry's name or a
    # file: --option board=mine.yaml. Options a person must choose are asked on a terminal.
    create.add_argument("--board", metavar="NAME|FILE", help=argparse.SUPPRESS)
    create.add_argument(
        "--layout",
        metavar="FILE",
        help="a zone layout file (reader id: zone), checked here first "
        "(default: the game's default layout)",
    )
    create.add_argument(
        "--kit",
        metavar="NAME",
        help="a kit stored on the server (scorekeeper kit list), or a kit file "
        "(.yaml/.yml/.json) read and checked here",
    )
    create.add_argument(
        "--readers",
        metavar="SPEC",
        help="reader backend: sim, serial:/dev/..., spi:0.0 (default: the server's --readers)",
    )
    create.add_argument("--start", action="store_true", help="start the table at once")

    for name, help_text in (
        ("start", "start or resume a table"),
        ("pause", "pause a running table (inputs are refused meanwhile)"),
        ("end", "end a table for good (undo and corrections still work)"),
    ):
        p = action(name, help_text, with_json=True)
        p.add_argument("table_id", metavar="ID")

    for name, help_text in (
        ("archive", "archive a table that is over: hidden from the lists, log kept"),
        ("unarchive", "list an archived table again"),
    ):
        p = action(name, help_text, with_json=True)
        p.add_argument("table_id", metavar="ID")
    delete = action(
        "delete", "delete an ended or archived table and its log for good (asks)", with_json=True
    )
    delete.add_argument("table_id", metavar="ID")
    delete.add_argument("--yes", action="store_true", help="do not ask (needed without a terminal)")

    undo = action(
        "undo", "take back the last accepted input (shows which, then asks)", with_json=True
    )
    undo.add_argument("table_id", metavar="ID")
    undo.add_argument(
        "--yes",
        action="store_true",
        help="do not ask (needed without a terminal); the server still refuses "
        "if the table moved on since the preview",
    )
    for name, help_text in (
        ("input", 'force-feed one input in its one-line form, e.g. "+talon H1b1"'),
        (
            "correct",
            "replace the last accepted input with this one (a misread fixed; "
            "shows which, then asks)",
        ),
    ):
        p = action(name, help_text, with_json=True)
        p.add_argument("table_id", metavar="ID")
        p.add_argument(
            "line",
            nargs="+",
            metavar="LINE",
            help='the input, quoted: "+talon H1b1", "-meld:0 D4b1", '
            '"tag +talon 04A1B2C3D4E5F6", "decide 1 waiting yes"',
        )
        if name == "correct":
            p.add_argument(
                "--yes", action="store_true", help="do not ask (needed without a terminal)"
            )

    decide = action(
        "decide", "answer a pending prompt for a seat or as the organiser", with_json=True
    )
    decide.add_argument("table_id", metavar="ID")
    decide.add_argument(
        "who",
        metavar="SEAT|organiser",
        type=_who,
        help="the seat number that answers, or 'organiser'",
    )
    decide.add_argument("prompt", metavar="PROMPT", help="the prompt id, e.g. draw_count")
    decide.add_argument("answer", metavar="ANSWER", help="one of the prompt's answers")

    show = action(
        "show", "the organiser view of a table (or a seat's view with --seat)", with_json=True
    )
    show.add_argument("table_id", metavar="ID")
    show.add_argument("--seat", type=int, metavar="N", help="show what seat N sees instead")
    show.add_argument(
        "--feed",
        type=int,
        default=FEED_LINES,
        metavar="N",
        help=f"how many recent feed lines to show (default {FEED_LINES})",
    )

    pair = action("pair", "a single-use pairing code and URL for a seat's phone", with_json=True)
    pair.add_argument("table_id", metavar="ID")
    pair.add_argument("seat", type=int, metavar="SEAT")

    unpair = action("unpair", "withdraw every phone token of a seat (a lost phone)")
    unpair.add_argument("table_id", metavar="ID")
    unpair.add_argument("seat", type=int, metavar="SEAT")


# -- talking to the server ---------------------------------------------------------------------


def _server_url(text: str) -> str:
    url = text.strip().rstrip("/")
    if "://" not in url:
        url = f"http://{url}"
    return url


def organiser_token(token: str | None, db: str) -> str:
    """The organiser token: ``token`` if given, else the token file next to database ``db``."""
    if token is not None:
        if not token.strip():
            raise ConsoleError(NO_TOKEN, 2)
        return token.strip()
    from scorekeeper.service.tokens import token_file_for

    path = token_file_for(Path(db.removeprefix("sqlite:///")))
    try:
        text = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        raise ConsoleError(f"{NO_TOKEN} ({path} does not exist)", 2) from None
    except OSError as exc:
        raise ConsoleError(f"{NO_TOKEN} ({path}: {exc.strerror or exc})", 2) from None
    if not text:
        raise ConsoleError(f"{NO_TOKEN} ({path} is empty)", 2)
    return text


class Client:
    """A few HTTP calls to one server; every failure becomes a ``ConsoleError``."""

    def __init__(self, server: str, token: Callable[[], str], timeout: float) -> None:
        import httpx

        self.server = _server_url(server)
        self._token = token
        self._httpx = httpx
        self._http = httpx.Client(base_url=self.server, timeout=timeout)
        self.timeout = timeout

    def close(self) -> None:
        self._http.close()

    def call(
        self, method: str, path: str, body: dict[str, Any] | None = None, organiser: bool = True
    ) -> Any:
        """Send one request and return its JSON answer; ConsoleError for any failure."""
        httpx = self._httpx
        headers = {"Authorization": f"Bearer {self._token()}"} if organiser else {}
        try:
            response = self._http.request(method, path, json=body, headers=headers)
        except httpx.ConnectError:
            raise ConsoleError(
                f"no scorekeeper server at {self.server}: start it with 'scorekeeper serve'"
            ) from None
        except httpx.TimeoutException:
            raise ConsoleError(
                f"the server at {self.server} did not answer within {self.timeout:g} s"
            ) from None
        except (httpx.InvalidURL, httpx.UnsupportedProtocol):
            raise ConsoleError(f"--server {self.server!r} is not an http:// URL", 2) from None
        except httpx.HTTPError as exc:
            raise ConsoleError(f"talking to {self.server} failed: {exc}") from None
        try:
            data = response.json()
        except ValueError:
            data = None
        if response.is_success and data is not None:
            return data
        if isinstance(data, dict) and isinstance(data.get("error"), str):
            raise ConsoleError(data["error"])
        raise ConsoleError(
            f"{self.server} answered HTTP {response.status_code} to {method} "
            f"{path} without a scorekeeper answer: is it a scorekeeper server?"
        )


# -- printing ----------------------------------------------------------------------------------


def _print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, ensure_ascii=False))


def _seat_scores(seats: Sequence[str], scores: Sequence[Any] | None) -> str:
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
    print(f"       seats: {_seat_scores(row.get('seats', []), row.get('scores'))}")
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
    print(f"seats and scores: {_seat_scores(view.get('seats', []), view.get('scores'))}")
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


# -- actions -----------------------------------------------------------------------------------


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


def _local_layout(path: str, game_id: str, seats: int | list[str]) -> dict[str, str]:
    """Read and check a layout file here, so that its errors name the file and the line."""
    from scorekeeper.core.layout import load_layout
    from scorekeeper.games import find_game

    count = seats if isinstance(seats, int) else len(seats)
    return load_layout(path, find_game(game_id), count)


def _kit(value: str, game_id: str) -> str | dict[str, str]:
    """A stored kit's name as is, or a kit file's tags (checked here) as an inline mapping."""
    if not (value.lower().endswith(KIT_SUFFIXES) and Path(value).is_file()):
        return value
    from scorekeeper.core.kit import load_kit
    from scorekeeper.games import find_game

    return dict(load_kit(value, find_game(game_id)).entries)


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
            words.append("a sample, made up: for tries only")
        if not entry.get("complete"):
            words.append(
                f"incomplete ({len(entry.get('problems') or [])} gaps): cannot start "
                f"a table yet; fill it in with '{_new_command(kind)}'"
            )
        out.append((str(entry.get("name")), "; ".join(words) or "complete"))
    return out


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
            f"({kind.title.lower()}: {named}; a sample is made up, for tries only; "
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
        body["kit"] = _kit(args.kit, args.game)
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


def _status(client: Client, args: argparse.Namespace) -> int:
    action = args.table_command
    row = client.call("POST", f"/api/tables/{args.table_id}/{action}")
    if args.json:
        _print_json(row)
        return 0
    _print_summary(row)
    if action == "end":
        print(
            f"export it: curl -H 'Authorization: Bearer ...' {client.server}/api/tables/"
            f"{args.table_id}/export, or scorekeeper export {args.table_id} --organiser"
        )
    return 0


def _after_verdict(client: Client, args: argparse.Namespace, verdict: dict[str, Any]) -> int:
    if args.json:
        _print_json(verdict)
        return 0 if verdict.get("accepted") else 1
    code = _print_verdict(verdict)
    try:
        view = client.call("GET", f"/api/tables/{args.table_id}", organiser=False)
    except ConsoleError:
        return code
    put_back = view.get("put_back")
    if (
        verdict.get("accepted")
        and isinstance(put_back, dict)
        and put_back.get("seq") == verdict.get("seq")
    ):
        print(f"at the table: {put_back.get('text')}")
    if view.get("waiting_for"):
        print(f"now waiting for: {view['waiting_for']}")
    return code


def _confirm(args: argparse.Namespace, preview: dict[str, Any]) -> int | None:
    """Show what the previewed undo or correction would take back and ask; the seq to send,
    or None when it is not confirmed (or would be refused: the refusal is printed)."""
    action = preview.get("action", "undo")
    seq = preview.get("input_seq")
    out = sys.stderr if args.json else sys.stdout  # --json prints only the server's answer

    def say(text: str) -> None:
        print(text, file=out)

    if not preview.get("accepted") or seq is None:
        lines = _refusal_lines(preview.get("rejection") or {}, "  ")
        say(f"nothing to {action}:" if seq is None else f"the {action} would be refused:")
        say("\n".join(lines))
        return None
    words = preview.get("words") or preview.get("input")
    if action == "undo":
        say(f"undo would take back #{seq}: {words}")
    else:
        say(f"the correction would replace #{seq}: {words}")
        say(f"  with: {preview.get('replacement_words') or preview.get('replacement')}")
    seats = preview.get("seats", [])
    say(f"  scores now: {_seat_scores(seats, preview.get('scores_before'))}")
    say(f"  afterwards: {_seat_scores(seats, preview.get('scores_after'))}")
    if args.yes:
        return int(seq)
    if not sys.stdin.isatty():
        raise ConsoleError(
            f"not confirmed: there is no terminal to ask on; add --yes to "
            f"{action} #{seq} without asking",
            2,
        )
    answer = input(f"{action} #{seq}? [y/N] ").strip().lower()
    if answer in ("y", "yes"):
        return int(seq)
    say("nothing changed")
    return None


def _undo(client: Client, args: argparse.Namespace) -> int:
    path = f"/api/tables/{args.table_id}"
    seq = _confirm(args, client.call("GET", f"{path}/undo-preview"))
    if seq is None:
        return 1
    verdict = client.call("POST", f"{path}/undo", {"seq": seq})
    return _after_verdict(client, args, verdict)


def _input(client: Client, args: argparse.Namespace) -> int:
    line = " ".join(args.line).strip()
    path = f"/api/tables/{args.table_id}"
    if args.table_command == "input":
        return _after_verdict(client, args, client.call("POST", f"{path}/inputs", {"input": line}))
    seq = _confirm(args, client.call("POST", f"{path}/correct-preview", {"input": line}))
    if seq is None:
        return 1
    verdict = client.call("POST", f"{path}/correct", {"input": line, "seq": seq})
    return _after_verdict(client, args, verdict)


def _decide(client: Client, args: argparse.Namespace) -> int:
    body: dict[str, Any] = {"prompt": args.prompt, "answer": args.answer}
    if args.who is not None:
        body["seat"] = args.who
    verdict = client.call("POST", f"/api/tables/{args.table_id}/decisions", body)
    return _after_verdict(client, args, verdict)


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


def _pair(client: Client, args: argparse.Namespace) -> int:
    answer = client.call("POST", f"/api/tables/{args.table_id}/seats/{args.seat}/pair")
    if args.json:
        _print_json(answer)
        return 0
    minutes = int(answer.get("expires_in", 600)) // 60
    url = answer.get("url") or (
        f"{client.server}{answer.get('pair_url') or '/?pair=' + answer['code']}"
    )
    print(
        f"pairing code for seat {answer.get('seat')} ({answer.get('seat_name')}) of "
        f"{answer.get('table')}: {answer['code']}"
    )
    print(f"open on the phone: {url}")
    print(f"single use, expires in {minutes} min")
    host = client.server.split("://", 1)[-1].split("/", 1)[0].rsplit(":", 1)[0]
    if answer.get("hint"):  # the server listens where no phone can reach it
        print(f"note: {answer['hint']}")
    elif not answer.get("url") and host in ("127.0.0.1", "localhost", "[::1]"):
        print(
            f"note: a phone cannot open {host}; run the server with --host 0.0.0.0 and use "
            "the Pi's LAN address in --server (e.g. http://192.168.1.20:8000)"
        )
    return 0


def _unpair(client: Client, args: argparse.Namespace) -> int:
    answer = client.call("DELETE", f"/api/tables/{args.table_id}/seats/{args.seat}/tokens")
    print(
        f"withdrew {answer.get('revoked', 0)} token(s) and {answer.get('codes_revoked', 0)} "
        f"unused pairing code(s) of seat {args.seat} of {args.table_id}; pair the new phone "
        f"with: scorekeeper table pair {args.table_id} {args.seat}"
    )
    return 0


def _archive(client: Client, args: argparse.Namespace) -> int:
    archived = args.table_command == "archive"
    row = client.call("POST", f"/api/tables/{args.table_id}/archive", {"archived": archived})
    if args.json:
        _print_json(row)
        return 0
    _print_summary(row)
    print(
        f"archived: hidden from 'table list' (see it with 'table list --archived'); its log "
        f"stays: scorekeeper export {args.table_id} --organiser"
        if archived
        else "listed again"
    )
    return 0


def _delete(client: Client, args: argparse.Namespace) -> int:
    if not args.yes:
        if not sys.stdin.isatty():
            raise ConsoleError(
                "not confirmed: there is no terminal to ask on; add --yes to "
                f"delete {args.table_id} and its log for good",
                2,
            )
        answer = input(f"delete {args.table_id} and its whole log for good? [y/N] ")
        if answer.strip().lower() not in ("y", "yes"):
            print("nothing changed")
            return 1
    done = client.call("DELETE", f"/api/tables/{args.table_id}")
    if args.json:
        _print_json(done)
        return 0
    print(f"deleted table {args.table_id} and its {done.get('records', 0)} log records")
    return 0


ACTIONS: dict[str, Callable[[Client, argparse.Namespace], int]] = {
    "list": _list,
    "create": _create,
    "start": _status,
    "pause": _status,
    "end": _status,
    "undo": _undo,
    "input": _input,
    "correct": _input,
    "decide": _decide,
    "show": _show,
    "pair": _pair,
    "unpair": _unpair,
    "archive": _archive,
    "unarchive": _archive,
    "delete": _delete,
}


def connect(args: argparse.Namespace) -> Client:
    """A client for the server the common options name (``--server``, ``--token``, ``--db``,
    ``--timeout``). The organiser token is looked up only when a call first needs it, so that
    a command the server refuses for another reason says that reason. ConsoleError (exit 2)
    when the server's address is not a URL."""
    token_value: list[str] = []

    def token() -> str:
        if not token_value:
            token_value.append(organiser_token(args.token, args.db))
        return token_value[0]

    try:
        return Client(args.server, token, args.timeout)
    except ValueError as exc:  # httpx refuses the base URL itself
        raise ConsoleError(f"--server {args.server!r}: {exc}", 2) from None


def with_client(args: argparse.Namespace, command: str, work: Callable[[Client], int]) -> int:
    """Run ``work`` with a client for the server the options name, and return its exit code;
    a ConsoleError on the way is printed as ``scorekeeper COMMAND: ...`` with its code."""
    try:
        client = connect(args)
    except ConsoleError as exc:
        print(f"scorekeeper {command}: {exc.message}", file=sys.stderr)
        return exc.code
    try:
        return work(client)
    except ConsoleError as exc:
        print(f"scorekeeper {command}: {exc.message}", file=sys.stderr)
        return exc.code
    finally:
        client.close()


def run(args: argparse.Namespace) -> int:
    """Run ``scorekeeper table ACTION``; returns the exit code (see the module docstring)."""
    return with_client(args, "table", lambda client: ACTIONS[args.table_command](client, args))
