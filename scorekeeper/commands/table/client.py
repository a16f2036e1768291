"""Talking to a running server for ``scorekeeper table`` (and ``scorekeeper sim``).

The connection options (``--server``, ``--token``, ``--db``, ``--timeout``), the organiser
token, the HTTP ``Client`` and ``ConsoleError``: every failure to reach or satisfy the server
becomes a ConsoleError carrying plain words and the exit code to end with.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scorekeeper.errors import ScorekeeperError

DEFAULT_SERVER = "http://127.0.0.1:8000"
DEFAULT_DB = "var/scorekeeper.db"
NO_TOKEN = (
    "no organiser token: pass --token, or --db of the server's database so the token "
    "file next to it is read"
)


class ConsoleError(ScorekeeperError, RuntimeError):
    """A problem to print in plain words, with the exit code it ends the command with."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def positive_seconds(text: str) -> float:
    """An argparse type: a number of seconds greater than 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"the timeout must be more than 0 seconds, not {text}")
    return value


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
