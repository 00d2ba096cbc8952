"""A live server for the tests that need real sockets: uvicorn serving the app on a free
port with the websocket implementation `bluffdice serve` uses, and a websocket client
that keeps every message it received (each frame is a JSON array of messages)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import uvicorn
from websockets.asyncio.client import ClientConnection

from bluffdice.server import Hall, create_app
from bluffdice.server.limits import Limits
from bluffdice.store import Store
from bluffdice.store.tables import TableStore
from bluffdice.table import seeded

Msg = dict[str, Any]


@asynccontextmanager
async def serving(
    tmp_path: Path, limits: Limits | None = None, db: str = "serve.db"
) -> AsyncIterator[tuple[str, uvicorn.Server]]:
    """The server on 127.0.0.1: (host:port, the uvicorn server)."""
    tables = TableStore(Store(str(tmp_path / db)).engine)
    counter = iter(range(1, 1_000_000))
    hall = Hall(tables, dice=lambda: seeded(next(counter)), bot_delay=0, limits=limits)
    config = uvicorn.Config(
        create_app(tables, hall),
        host="127.0.0.1",
        port=0,
        ws="websockets-sansio",
        ws_max_size=64 * 1024,
        ws_per_message_deflate=False,
        log_level="warning",
        lifespan="on",
    )
    server = uvicorn.Server(config)
    running = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"127.0.0.1:{port}", server
    finally:
        server.should_exit = True
        await asyncio.wait_for(running, 20)


class Seat:
    """One client: every message it received, in order."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.messages: list[Msg] = []
        self.waiting: list[Msg] = []

    async def recv(self) -> Msg:
        if not self.waiting:
            frame = json.loads(await asyncio.wait_for(self.ws.recv(), 10))
            assert isinstance(frame, list) and frame, frame
            self.waiting = frame
        message = self.waiting.pop(0)
        self.messages.append(message)
        return message

    async def until(self, test: Callable[[Msg], bool]) -> Msg:
        while not test(message := await self.recv()):
            pass
        return message
