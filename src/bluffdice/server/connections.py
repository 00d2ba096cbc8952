"""One client connection of the hall: its seat, its send queue and its message budget.

A connection never touches a table: the table's front end (`tables.LiveTable`) sends it
encoded messages, and the server's writer task drains its queue. Everything sent during
one turn of the event loop goes out as one websocket frame, after the turn's steps are
stored (`Hall.end_turn`).
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import TYPE_CHECKING, Any, Final

import msgspec

from bluffdice.ratelimit import TokenBucket

if TYPE_CHECKING:
    from bluffdice.server.hall import Hall

MAX_MESSAGE: Final = 4096
"""Bytes: the longest message a browser may send (a move is under 200)."""
QUEUE_SIZE: Final = 512
"""Frames (each one turn's messages) waiting for one connection; a client this far
behind is dropped."""
RATE: Final = 10.0
"""Messages per second a connection may send, on average..."""
BURST: Final = 20.0
"""...and in one burst."""
STRIKES: Final = 50
"""Messages over the rate before the connection is closed."""


class Connection:
    """One client connection: its seat (None for a spectator), a bounded send queue and
    a budget of messages per second. The server's writer task drains `queue` (`get`);
    None in the queue means: close.

    Everything sent to a connection during one turn of the event loop goes out as one
    websocket frame, a JSON array of the messages in order (`send` collects them in
    `outbox`; the hall's end of the turn, `Hall.end_turn`, commits the turn's steps and
    only then frames each outbox). A move costs one frame per recipient, not one per
    message. Without a hall each message is framed at once."""

    def __init__(
        self,
        seat: int | None = None,
        queue_size: int = QUEUE_SIZE,
        hall: Hall | None = None,
        address: str = "",
    ) -> None:
        self.seat = seat
        self.address = address
        """The client's address (connections per address are capped)."""
        self.queue: deque[bytes | None] = deque()
        self.queue_size = queue_size
        self.hall = hall
        self.outbox: list[bytes] = []
        """This turn's messages, framed together at its end."""
        self.dropped = False
        self.reason = ""
        self.strikes = 0
        self.budget = TokenBucket(RATE, BURST)
        """RATE messages a second, BURST at once (`allow`)."""
        self._waiter: asyncio.Future[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        """The writer's loop, asked for once: on Python 3.11 every `get_running_loop`
        is a `getpid` system call, and a writer waits once per frame."""

    def send(self, data: bytes) -> None:
        """Add one encoded message to this turn's frame."""
        if self.dropped:
            return
        self.outbox.append(data)
        if len(self.outbox) == 1:
            if self.hall is not None:
                self.hall.outgoing(self)
            else:
                self.flush()

    def flush(self) -> None:
        """Queue this turn's messages as one frame."""
        frame = self.take_frame()
        if frame is not None:
            self.put(frame)

    def take_frame(self) -> bytes | None:
        """This turn's messages as one frame (None if there are none); the outbox starts
        again empty."""
        messages, self.outbox = self.outbox, []
        return b"[" + b",".join(messages) + b"]" if messages else None

    def put(self, frame: bytes) -> None:
        """Queue a frame now (`send` gathers messages into one frame per turn)."""
        if self.dropped:
            return
        if len(self.queue) >= self.queue_size:
            self.drop("too slow: messages piled up")
            return
        self.queue.append(frame)
        self._wake()

    def drop(self, reason: str) -> None:
        """Stop sending and close; the queued messages are thrown away."""
        if self.dropped:
            return
        self.dropped = True
        self.reason = reason
        self.outbox.clear()
        self.queue.clear()
        self.queue.append(None)
        self._wake()

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None:
            self._waiter = None
            if not waiter.done():
                waiter.set_result(None)

    async def get(self) -> bytes | None:
        """The next frame to send (None: close); waits only when the queue is empty,
        so a writer drains a burst without a task switch per frame."""
        while not self.queue:
            if self._loop is None:
                self._loop = asyncio.get_running_loop()
            self._waiter = self._loop.create_future()
            await self._waiter
        return self.queue.popleft()

    def allow(self) -> bool:
        """Whether one more message from the client is within its budget."""
        return self.budget.allow()


def message(kind: str, **fields: Any) -> bytes:
    """A server message that is not a table message (table info, turn, hint, error)."""
    return msgspec.json.encode({"type": kind, **fields, "v": 1})
