"""Structured logging for the server: one ``key=value`` line per event, secrets redacted.

``setup_logging`` is called by ``scorekeeper serve`` and ``scorekeeper demo`` before uvicorn
starts (uvicorn is then told not to configure logging itself). Extra fields given with
``log.info("...", extra={"table": "t1"})`` are appended as ``table=t1``. Tokens in request paths
(``?token=...``) never reach the log: the access log would otherwise record seat tokens.
"""

from __future__ import annotations

import logging
import re
import sys
import time
from typing import Any

_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {
    "message",
    "asctime",
    "color_message",
}
_TOKEN = re.compile(r"((?:token|pair|organiser)=)[^&\s\"]+", re.IGNORECASE)


def _quote(value: Any) -> str:
    text = str(value)
    if text and not any(c in text for c in ' "=\n\t'):
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def redact(text: str) -> str:
    """``text`` with every ``token=``, ``pair=`` and ``organiser=`` value replaced by ``***``."""
    return _TOKEN.sub(r"\1***", text)


class KeyValueFormatter(logging.Formatter):
    """``ts=... level=INFO logger=... msg="..." key=value ...`` on one line."""

    def format(self, record: logging.LogRecord) -> str:
        ts = time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(record.created))
        parts = [
            f"ts={ts}.{int(record.msecs):03d}",
            f"level={record.levelname}",
            f"logger={record.name}",
            f"msg={_quote(redact(record.getMessage()))}",
        ]
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_"):
                parts.append(f"{key}={_quote(redact(str(value)))}")
        if record.exc_info:
            parts.append(f"exc={_quote(self.formatException(record.exc_info))}")
        return " ".join(parts)


class RedactTokens(logging.Filter):
    """Remove token values from a record's arguments (uvicorn's access log puts paths there)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        return True


def setup_logging(level: str = "info") -> None:
    """Send every log line to stderr in key=value form at ``level`` (debug, info, warning...)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(KeyValueFormatter())
    handler.addFilter(RedactTokens())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers.clear()
        logger.propagate = True
