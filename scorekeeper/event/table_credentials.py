"""A table's credentials for joining an event: which event, which table, which broker, which user.

``scorekeeper serve --event FILE`` reads them from a JSON file written for that table when the
organiser sets up the event (docs/events.md): ``{"event", "table", "host", "port",
"username", "password"}``. The password is the table's own broker password; the file should be
readable by the table's service account only.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scorekeeper.errors import ConfigError
from scorekeeper.event.wire import WireError, check_id


@dataclass(frozen=True, slots=True)
class TableCredentials:
    """Where and as whom a table connects to its event's broker (``repr`` hides the password)."""

    event: str
    table: str
    host: str
    port: int
    username: str = ""
    password: str = ""

    def __repr__(self) -> str:
        return (
            f"TableCredentials(event={self.event!r}, table={self.table!r}, host={self.host!r}, "
            f"port={self.port}, username={self.username!r}, password=...)"
        )

    @classmethod
    def from_dict(
        cls, data: Mapping[str, Any], where: str = "table credentials"
    ) -> TableCredentials:
        """Check and build them from a mapping; ConfigError saying what is wrong."""
        if not isinstance(data, Mapping):
            raise ConfigError("not a JSON object", path=where)
        try:
            event = check_id("event", data.get("event"))
            table = check_id("table", data.get("table"))
        except WireError as exc:
            raise ConfigError(str(exc), path=where) from None
        host = data.get("host")
        if not isinstance(host, str) or not host:
            raise ConfigError("'host' must name the event's MQTT broker", path=where)
        port = data.get("port", 1883)
        if isinstance(port, bool) or not isinstance(port, int) or not 1 <= port <= 65535:
            raise ConfigError(f"'port' must be a port number (1 to 65535), not {port!r}", where)
        username, password = data.get("username", ""), data.get("password", "")
        if not isinstance(username, str) or not isinstance(password, str):
            raise ConfigError("'username' and 'password' must be texts", path=where)
        return cls(event, table, host, port, username, password)

    @classmethod
    def read(cls, path: str | Path) -> TableCredentials:
        """Read them from a JSON file; ConfigError naming the file when it cannot be used."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise ConfigError(
                f"cannot read the table's event credentials: {exc.strerror or exc}", path=str(path)
            ) from None
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise ConfigError(f"not JSON: {exc}", path=str(path)) from None
        return cls.from_dict(data, str(path))
