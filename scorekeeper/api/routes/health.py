"""Health: the server's liveness, its periodic backup and each table's readers.

- ``GET /healthz`` (anyone): the server answers and knows its tables.
- ``GET /api/backup`` (organiser): the periodic backup's latest round.
- ``GET /api/tables/{id}/readers`` (organiser): each reader's health, with the seconds since
  its last sighting.
"""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter

from scorekeeper.api.auth import ORGANISER
from scorekeeper.service.hub import Hub


def routes(hub: Hub) -> APIRouter:
    """The health routes on ``hub``."""
    router = APIRouter()

    @router.get("/healthz")
    def healthz() -> dict[str, Any]:
        """Liveness: the server answers and knows its tables."""
        return {"ok": True, "tables": len(hub.table_ids())}

    @router.get("/api/backup", dependencies=[ORGANISER])
    def backup_status() -> dict[str, Any]:
        """The periodic backup's latest round (``serve --backup-to``), for the console."""
        backups = getattr(hub, "backups", None)  # set by serve when --backup-to is given
        if backups is None:
            return {
                "configured": False,
                "ok": True,
                "words": "No periodic backup (serve --backup-to FOLDER; docs/backup.md)",
            }
        return {"configured": True, **backups.status()}

    @router.get("/api/tables/{table_id}/readers", dependencies=[ORGANISER])
    def reader_health(table_id: str) -> dict[str, Any]:
        """Organiser: each reader's health, with ``age_s`` since its last sighting."""
        status = hub.status(table_id)
        backend = hub.readers(table_id)
        health = hub.reader_health(table_id)
        now = time.monotonic()  # the backends' clock: last_sighting is on it
        out: dict[str, Any] = {
            "table": table_id,
            "status": status,
            "backend": getattr(backend, "name", None) if backend else None,
            "readers": [],
        }
        if isinstance(health.get("error"), str):
            out["error"] = health["error"]
            return out
        for reader, info in health.items():
            if not isinstance(info, dict):
                continue
            last = info.get("last_sighting")
            age = round(now - last, 1) if isinstance(last, int | float) else None
            out["readers"].append(
                {
                    "reader": reader,
                    "online": bool(info.get("online", True)),
                    "age_s": age,
                    "reads": info.get("reads", 0),
                    "read_rate": round(float(info.get("read_rate") or 0.0), 2),
                    "errors": info.get("errors", 0),
                    "detail": info.get("detail", ""),
                }
            )
        return out

    return router
