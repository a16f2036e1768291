"""The web page's files under ``/static``: only the assets a browser needs, nothing else.

``webui/`` is also a Python package (``__init__.py``, so it ships with the wheel) and may hold
editor or build leftovers; ``StaticFiles`` alone would serve any of them. ``AssetFiles`` answers
404 for anything that is not an asset by its suffix, for dotfiles and dot-directories, and for
any path that tries to leave the directory.
"""

from __future__ import annotations

from pathlib import PurePosixPath

from starlette.exceptions import HTTPException
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

# What a page may load: scripts, styles, pages, images, fonts, the web manifest.
ASSET_SUFFIXES = frozenset(
    {
        ".js",
        ".mjs",
        ".css",
        ".html",
        ".svg",
        ".png",
        ".jpg",
        ".jpeg",
        ".gif",
        ".webp",
        ".ico",
        ".woff",
        ".woff2",
        ".webmanifest",
        ".map",
    }
)


def is_asset(path: str) -> bool:
    """True when ``path`` (relative to the mount) names a file a browser may be given."""
    parts = path.replace("\\", "/").split("/")
    if not path or any(p.startswith(".") or p == "" for p in parts):
        return False  # dotfiles, "..", empty segments ("a//b", a leading "/")
    return PurePosixPath(parts[-1]).suffix.lower() in ASSET_SUFFIXES


class AssetFiles(StaticFiles):
    """``StaticFiles`` that serves only the web assets (see ``is_asset``); 404 for the rest,
    the same answer as for a file that does not exist, so nothing says what else is there."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        if not is_asset(path):
            raise HTTPException(status_code=404)
        return await super().get_response(path, scope)
