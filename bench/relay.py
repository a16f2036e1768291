"""A serial -> WebSocket relay, bare or durable: the yardsticks for the sighting latency budget.

It does what the server's path does minus the product: pyserial reads the bridge's frames in a
thread, the shared codec decodes them, and each tag frame is pushed as a small JSON message to
the WebSocket clients of the same stack (uvicorn + FastAPI). No referee, no views.

The durable relay (a database path given) first appends each sighting to a SQLite log in WAL
with ``synchronous=FULL`` and commits it (the fsync invariant 1 requires), then pushes it: the
floor of the product's path. It uses ``sqlite3`` directly, as the store's own hot path does
(``Store._insert_log``: one prepared INSERT and a commit on the driver's connection, no
SQLAlchemy on the way), so the yardstick pays the same fsync and no more.

Run as ``python -m bench.relay PORT SERIAL_PATH [DATABASE]``.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import sys
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import serial
import uvicorn
from fastapi import FastAPI, WebSocket, WebSocketDisconnect

from firmware_bridge import protocol as p


def open_log(path: str) -> sqlite3.Connection:
    """A SQLite log as the store keeps it: WAL, an fsync at every commit, one row per input."""
    db = sqlite3.connect(path, check_same_thread=False)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute(
        "CREATE TABLE IF NOT EXISTS log (table_id TEXT NOT NULL, seq INTEGER NOT NULL, "
        "at TEXT NOT NULL, record TEXT NOT NULL, PRIMARY KEY (table_id, seq))"
    )
    db.commit()
    return db


def make_app(serial_path: str, database: str | None = None) -> FastAPI:
    """The relay's app; with ``database``, each sighting is durable in it before it is pushed."""
    clients: set[asyncio.Queue[str]] = set()
    count = 0
    log = open_log(database) if database else None

    def publish(text: str) -> None:
        for queue in clients:
            queue.put_nowait(text)

    def pump(loop: asyncio.AbstractEventLoop) -> None:
        nonlocal count
        port = serial.Serial(serial_path, 115200, timeout=0.05)
        decoder = p.Decoder()
        while True:
            try:
                data = port.read(max(1, port.in_waiting))
            except serial.SerialException:
                return  # the bridge went away: the run is over
            for frame in decoder.feed(data):
                msg = frame.message
                if isinstance(msg, p.TagPresent | p.TagGone):
                    count += 1
                    text = json.dumps(
                        {
                            "n": count,
                            "reader": msg.reader,
                            "uid": msg.uid.hex(),
                            "present": isinstance(msg, p.TagPresent),
                        }
                    )
                    if log is not None:  # durable before anyone sees it, as invariant 1 asks
                        log.execute(
                            "INSERT INTO log VALUES ('relay', ?, datetime('now'), ?)",
                            (count, text),
                        )
                        log.commit()
                    loop.call_soon_threadsafe(publish, text)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        threading.Thread(target=pump, args=(asyncio.get_running_loop(),), daemon=True).start()
        yield

    app = FastAPI(lifespan=lifespan)

    @app.get("/healthz")
    def healthz() -> dict[str, bool]:
        return {"ok": True}

    @app.websocket("/ws")
    async def socket(ws: WebSocket) -> None:
        await ws.accept()
        queue: asyncio.Queue[str] = asyncio.Queue()
        clients.add(queue)
        try:
            while True:
                await ws.send_text(await queue.get())
        except WebSocketDisconnect:
            pass
        finally:
            clients.discard(queue)

    return app


if __name__ == "__main__":
    uvicorn.run(
        make_app(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None),
        host="127.0.0.1",
        port=int(sys.argv[1]),
        log_level="warning",
        ws="websockets-sansio",
        ws_per_message_deflate=False,
    )
