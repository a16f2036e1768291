"""A bare serial -> WebSocket relay: the yardstick for the sighting latency budget.

It does what the server's path does minus the product: pyserial reads the bridge's frames in a
thread, the shared codec decodes them, and each tag frame is pushed as a small JSON message to
the WebSocket clients of the same stack (uvicorn + FastAPI). No log, no referee, no views.
Run as ``python -m bench.relay PORT SERIAL_PATH``.
"""

from __future__ import annotations

import asyncio
import json
import sys
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import serial
import uvicorn
from fastapi import FastAPI, WebSocket, WebSocketDisconnect

from firmware_bridge import protocol as p


def make_app(serial_path: str) -> FastAPI:
    clients: set[asyncio.Queue[str]] = set()
    count = 0

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
        make_app(sys.argv[2]),
        host="127.0.0.1",
        port=int(sys.argv[1]),
        log_level="warning",
        ws="websockets-sansio",
        ws_per_message_deflate=False,
    )
