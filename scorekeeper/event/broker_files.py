"""An event's broker security: per-table credentials, Mosquitto's password file, ACL and config.

``EventBroker.generate(event, tables)`` draws a random password for each table (user
``sk-<event>-<table>``) and for the hub (user ``sk-hub-<event>`` unless given); from it come

- ``credentials_for(table)``: the JSON a table's Pi keeps (``write_credentials``, mode 0600);
- ``password_file()``: Mosquitto 2's hashed format (PBKDF2-SHA512, ``$7$``, as
  ``mosquitto_passwd`` writes it, computed here with hashlib);
- ``acl_file()``: each table may write only its own log, status, health and reply topics and
  read only its own cmd topic; the hub reads the whole event and writes every table's cmd;
  nobody else anything;
- ``conf()``: the mosquitto.conf lines that use them, with the limits an event needs.

``write(folder)`` writes them all, the secrets 0600; ``EventBroker.load(folder)`` reads them
back, so adding a table later (``with_tables``) keeps every other table's password.

Hazards: the passwords are secrets: the files holding them are written 0600, and as root they
must belong to the broker's user (``owner="mosquitto"``), which reads them again on SIGHUP.
Plain port 1883 sends them in clear: on a network that others share use TLS (docs/events.md).
A running broker takes a changed password file or ACL on SIGHUP (``systemctl reload
mosquitto``), not before.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import os
import re
import secrets
import shutil
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Self

from scorekeeper.errors import ScorekeeperError
from scorekeeper.event.wire import (
    CMD,
    ROOT,
    SHARE_GROUP,
    TABLE_CHANNELS,
    check_id,
    table_client_id,
    topic,
)

PBKDF2_ITERATIONS = 101  # mosquitto_passwd's own; each password is 192 random bits anyway
SALT_BYTES = 12  # as mosquitto_passwd
PASSWORD_BYTES = 24  # secrets.token_urlsafe: 32 characters

PASSWORD_FILE, ACL_FILE, CONF_FILE, SECRETS_FILE = "passwd", "acl", "mosquitto.conf", "event.json"
CREDENTIAL_KEYS = ("event", "table", "host", "port", "username", "password")
_USER = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")  # no space, colon or '#' for the files


class BrokerFilesError(ScorekeeperError, ValueError):
    """An event's broker files or credentials cannot be made or read; the message says why."""


def table_user(event: str, table: str) -> str:
    """A table's broker user, its MQTT client id too: ``sk-<event>-<table>``."""
    return table_client_id(event, table)


def hash_password(password: str, salt: bytes | None = None) -> str:
    """``password`` hashed as Mosquitto 2 stores it: ``$7$101$<salt b64>$<hash b64>``."""
    salt = os.urandom(SALT_BYTES) if salt is None else salt
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, PBKDF2_ITERATIONS)
    b64 = base64.b64encode
    return f"$7${PBKDF2_ITERATIONS}${b64(salt).decode()}${b64(digest).decode()}"


@dataclass(frozen=True)
class EventBroker:
    """An event's broker address and its users' passwords (tables' and hub's)."""

    event: str
    tables: tuple[str, ...]
    hub_user: str
    passwords: Mapping[str, str] = field(repr=False)  # user -> password: never logged
    host: str = "localhost"
    port: int = 1883

    def __post_init__(self) -> None:
        check_id("event", self.event)
        for table in self.tables:
            check_id("table", table)
        if len(set(self.tables)) != len(self.tables):
            raise BrokerFilesError(f"event {self.event}: a table is named twice")
        if not _USER.fullmatch(self.hub_user):
            raise BrokerFilesError(
                f"the hub's user {self.hub_user!r} is not a valid broker user name: use up to "
                "64 letters, digits, '.', '_' and '-'"
            )
        users = [table_user(self.event, t) for t in self.tables]
        if self.hub_user in users:
            raise BrokerFilesError(f"the hub's user {self.hub_user} is also a table's user")
        missing = [u for u in (*users, self.hub_user) if not self.passwords.get(u)]
        if missing:
            raise BrokerFilesError(f"no password for {', '.join(missing)}")
        object.__setattr__(self, "passwords", MappingProxyType(dict(self.passwords)))

    @classmethod
    def generate(
        cls,
        event: str,
        tables: Iterable[str],
        *,
        hub_user: str | None = None,
        host: str = "localhost",
        port: int = 1883,
    ) -> Self:
        """New random passwords for every table of ``event`` and for its hub."""
        tables = tuple(tables)
        hub = hub_user or f"sk-hub-{check_id('event', event)}"
        users = [table_user(event, t) for t in tables] + [hub]
        passwords = {u: secrets.token_urlsafe(PASSWORD_BYTES) for u in users}
        return cls(event, tables, hub, passwords, host, port)

    def with_tables(self, tables: Iterable[str]) -> Self:
        """This event with ``tables`` added (new passwords for them; the others are kept)."""
        added = [t for t in dict.fromkeys(tables) if t not in self.tables]
        fresh = {table_user(self.event, t): secrets.token_urlsafe(PASSWORD_BYTES) for t in added}
        return type(self)(
            self.event,
            (*self.tables, *added),
            self.hub_user,
            {**self.passwords, **fresh},
            self.host,
            self.port,
        )

    # -- what each client keeps -----------------------------------------------------------

    def credentials_for(self, table: str) -> dict[str, Any]:
        """What table ``table``'s Pi needs to join: event, table, host, port, username,
        password (write it with ``write_credentials``: it holds a secret)."""
        if table not in self.tables:
            raise BrokerFilesError(
                f"table {table!r} is not in event {self.event}: add it to the event first"
            )
        user = table_user(self.event, table)
        return dict(
            zip(
                CREDENTIAL_KEYS,
                (self.event, table, self.host, self.port, user, self.passwords[user]),
                strict=True,
            )
        )

    def hub_credentials(self) -> dict[str, Any]:
        """The hub's: as a table's, with ``table`` None."""
        values = (self.event, None, self.host, self.port, self.hub_user)
        return {
            **dict(zip(CREDENTIAL_KEYS, values, strict=False)),
            "password": self.passwords[self.hub_user],
        }

    # -- the broker's files ---------------------------------------------------------------

    def password_file(self) -> str:
        """Mosquitto's password file: one ``user:$7$...`` line per user, fresh salts."""
        users = [table_user(self.event, t) for t in self.tables] + [self.hub_user]
        return "".join(f"{u}:{hash_password(self.passwords[u])}\n" for u in users)

    def acl_file(self) -> str:
        """Mosquitto's ACL: a user may do only what is listed under its own ``user`` line."""
        ev = self.event
        lines = [
            f"# ACL of scorekeeper event {ev}, written by scorekeeper: regenerate it from the",
            "# event, do not edit it. A user may do only what its own 'user' block lists; a",
            "# user with no block may do nothing.",
            "",
            "# the hub (every hub process logs in as this user): reads the whole event, also",
            "# through its shared subscriptions, and sends any table a command",
            f"user {self.hub_user}",
            f"topic read {ROOT}/{ev}/#",
            f"topic read $share/{SHARE_GROUP}/{ROOT}/{ev}/#",
            f"topic write {ROOT}/{ev}/+/{CMD}",
        ]
        for table in self.tables:
            lines += ["", f"# table {table}: its own topics only", f"user {table_user(ev, table)}"]
            lines += [f"topic write {topic(ev, table, ch)}" for ch in TABLE_CHANNELS]
            lines.append(f"topic read {topic(ev, table, CMD)}")
        return "\n".join(lines) + "\n"

    def conf(self, folder: Path | str, *, listener: bool = True, persistence: bool = True) -> str:
        """mosquitto.conf lines for this event, naming the files ``write(folder)`` writes.

        ``listener``: a plain listener on this event's port, every interface; ``persistence``:
        the ``persistence true`` line. A private test broker writes both itself (False).
        Made to sit in Debian's /etc/mosquitto/conf.d/, whose main file names the
        persistence folder (Mosquitto refuses a folder named twice)."""
        folder = Path(folder).resolve()
        lines = [
            f"# Mosquitto for scorekeeper event {self.event}, written by scorekeeper:",
            "# regenerate it from the event, do not edit it (docs/events.md).",
            "",
        ]
        if listener:
            lines += [
                "# Tables and hubs connect here. Passwords cross it in clear: on a network",
                "# that others share, use a TLS listener (certfile, keyfile) instead.",
                f"listener {self.port}",
                "",
            ]
        lines += [
            "# Nobody without a password: each table and the hub has its own user, and the",
            "# ACL lets a table publish only on its own topics. Both files must belong to the",
            "# broker's user (mosquitto): it reads them after dropping root, and on SIGHUP.",
            "allow_anonymous false",
            f"password_file {folder / PASSWORD_FILE}",
            f"acl_file {folder / ACL_FILE}",
            "",
            "# A client that is away keeps its session and its messages wait for it. The",
            "# default limit of 1000 waiting messages drops the rest SILENTLY: a hub away for",
            "# a minute in a 100-table event misses more than that.",
            "max_queued_messages 100000",
            "# QoS 1 messages a client may have unacknowledged: the default 20 makes a hub",
            "# that takes bursts from many tables wait a round trip every 20 messages.",
            "max_inflight_messages 1000",
            "# Small QoS 1 messages leave at once instead of waiting to be batched (Nagle).",
            "set_tcp_nodelay true",
            "",
        ]
        if persistence:
            lines += [
                "# Sessions and waiting messages survive a broker restart.",
                "persistence true",
            ]
        lines += [
            "# A table away for up to two weeks keeps its session (the clients ask for one",
            "# week); after that the broker forgets it.",
            "persistent_client_expiration 14d",
        ]
        return "\n".join(lines) + "\n"

    # -- files on disk --------------------------------------------------------------------

    def write(self, folder: Path | str, *, owner: str | None = None) -> dict[str, Path]:
        """Write the password file, ACL, conf snippet, this event (``event.json``) and each
        client's credentials (``tables/<table>.json``, ``hub.json``) into ``folder``.

        Secrets are written 0600, the ACL and conf 0644; ``owner`` (a user name, as root):
        the broker's user, who must read the password file and ACL. Returns the paths by name.
        """
        root = Path(folder)
        (root / "tables").mkdir(parents=True, exist_ok=True)
        paths = {
            PASSWORD_FILE: _write(root / PASSWORD_FILE, self.password_file(), 0o600, owner),
            ACL_FILE: _write(root / ACL_FILE, self.acl_file(), 0o644, owner),
            CONF_FILE: _write(root / CONF_FILE, self.conf(root), 0o644, None),
            SECRETS_FILE: _write(root / SECRETS_FILE, _dumps(self._to_dict()), 0o600, None),
            "hub": write_credentials(root / "hub.json", self.hub_credentials()),
        }
        for table in self.tables:
            path = root / "tables" / f"{table}.json"
            paths[f"table:{table}"] = write_credentials(path, self.credentials_for(table))
        return paths

    def _to_dict(self) -> dict[str, Any]:
        return {
            "event": self.event,
            "tables": list(self.tables),
            "hub_user": self.hub_user,
            "passwords": dict(self.passwords),
            "host": self.host,
            "port": self.port,
        }

    @classmethod
    def load(cls, folder: Path | str) -> Self:
        """The event ``write(folder)`` wrote (its ``event.json``)."""
        path = Path(folder) / SECRETS_FILE
        obj = _read_json(path)
        try:
            return cls(
                obj["event"],
                tuple(obj["tables"]),
                obj["hub_user"],
                obj["passwords"],
                obj["host"],
                int(obj["port"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise BrokerFilesError(f"{path}: not an event's broker file ({exc})") from exc


def write_credentials(path: Path | str, credentials: Mapping[str, Any]) -> Path:
    """Write a client's credentials as JSON, readable by its owner only (0600)."""
    return _write(Path(path), _dumps(dict(credentials)), 0o600, None)


def read_credentials(path: Path | str) -> dict[str, Any]:
    """A client's credentials, checked: BrokerFilesError saying what is wrong with the file."""
    obj = _read_json(Path(path))
    missing = [k for k in CREDENTIAL_KEYS if k not in obj]
    if missing:
        raise BrokerFilesError(
            f"{path}: credentials without {', '.join(missing)}: ask the organiser for the "
            "table's credentials file again"
        )
    return obj


def _dumps(obj: Mapping[str, Any]) -> str:
    return json.dumps(obj, indent=2, sort_keys=False) + "\n"


def _read_json(path: Path) -> dict[str, Any]:
    try:
        obj = json.loads(path.read_text())
    except OSError as exc:
        raise BrokerFilesError(f"cannot read {path}: {exc.strerror or exc}") from exc
    except ValueError as exc:
        raise BrokerFilesError(f"{path} is not JSON: {exc}") from exc
    if not isinstance(obj, dict):
        raise BrokerFilesError(f"{path} does not hold a JSON object")
    return obj


def _write(path: Path, text: str, mode: int, owner: str | None) -> Path:
    """Write ``text`` to ``path`` whole or not at all, with ``mode`` from the first byte (a
    secret is never readable by others, not even while it is being written)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        if owner is not None:
            shutil.chown(tmp, owner)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return path
