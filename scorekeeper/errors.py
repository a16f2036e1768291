"""The one exception root of scorekeeper and its specific subclasses.

Every specific error also subclasses a built-in, so callers that do not know scorekeeper can still
catch ``ValueError``, ``KeyError``, ``PermissionError`` or ``OSError`` as they would expect.
Classes that belong to one module (the tokens' refusals, the store's) are defined there, under
this root; tests/test_errors.py checks every exception class in the package.

A refused play is not an exception: the referee returns it as an outcome (``core.outcomes``),
which the table logs and shows. A bad serial frame is not one either: the host's decoder
(``firmware_bridge.protocol.Decoder``) counts and drops it.
"""

from __future__ import annotations


class ScorekeeperError(Exception):
    """Root of every error scorekeeper raises on purpose."""


class ConfigError(ScorekeeperError, ValueError):
    """A file a person wrote (zone layout, kit, board profile, options) is malformed.

    ``path`` and ``line`` point at the place to fix when they are known; ``str()`` names both.
    """

    def __init__(self, message: str, path: str | None = None, line: int | None = None) -> None:
        self.message = message
        self.path = path
        self.line = line
        where = path or ""
        if line is not None:
            where = f"{where}:{line}" if where else f"line {line}"
        super().__init__(f"{where}: {message}" if where else message)


class ScriptError(ConfigError):
    """A table script is invalid (``scorekeeper replay`` exits 2 on it)."""


class UnknownGame(ScorekeeperError, KeyError):
    """No registered game has that id."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown game"


class UnknownTag(ScorekeeperError, KeyError):
    """A tag uid is not in the table's kit (tag registry)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown tag"


class UnknownReader(ScorekeeperError, KeyError):
    """A reader id is not in the table's zone layout."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown reader"


class EnrollmentError(ScorekeeperError, ValueError):
    """A tag cannot be enrolled (already registered, duplicate card, unknown card)."""


class ReaderError(ScorekeeperError, OSError):
    """A reader backend cannot reach its hardware (unplugged, wrong port, no SPI)."""


class AuthError(ScorekeeperError, PermissionError):
    """A request lacks the token its audience needs (organiser or the right seat)."""


class NotFound(ScorekeeperError, LookupError):
    """A table, seat or prompt that does not exist."""


class StoreError(ScorekeeperError, OSError):
    """The event log cannot be written or read."""


class TableStateError(ScorekeeperError, ValueError):
    """An action that the table's status does not allow (HTTP 409)."""


class NotRunning(TableStateError):
    """An input for a table that is not running: logged as refused, never applied."""


class MovedOn(TableStateError):
    """An undo or a correction whose preview is out of date: the table took other inputs since
    (HTTP 409). Nothing was logged or changed."""
