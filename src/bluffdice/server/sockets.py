"""uvicorn's websocket protocol with a short path for table connections.

Under load the table websocket spent about a fifth of the server's CPU on ASGI's
plumbing rather than on games: every inbound frame went through uvicorn's queue, paused
and resumed reading (two system calls) and woke a reader task; every outbound frame woke
a writer task, built an ASGI message and decoded the frame to text only for uvicorn to
encode it again. Once a table has taken a connection (`adopt`), `DirectSocket` hands
each inbound message straight to the table's callback from `data_received` and lets the
table write frames itself (`write`). The handshake, the hello, keepalive pings, closing
and the slow-client path still go through ASGI as before, so the endpoint keeps working
unchanged on any other ASGI server (the tests' in-process client included).

`bluffdice serve` passes this class as uvicorn's `ws` protocol; it relies on the sans-I/O
implementation's attributes (`conn`, `transport`, `writable`, `queue`, `frames`), which is
why pyproject pins uvicorn to the minor versions it was checked against.
"""

from __future__ import annotations

from collections.abc import Callable

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State


class DirectSocket(WebSocketsSansIOProtocol):
    on_message: Callable[[bytes], None] | None = None
    """Set by `adopt`: where inbound messages go instead of the ASGI queue."""

    def adopt(self, on_message: Callable[[bytes], None]) -> Callable[[bytes], bool]:
        """From now on give every inbound message to `on_message` as it arrives, and
        return the writer: a function that frames and writes one text message now, or
        returns False when it cannot (closing, or the client's buffer is full: then the
        caller queues the frame for the ASGI path, which waits until it can write).

        Messages already queued for the application are handed over first, in order; a
        disconnect stays queued for the endpoint, which waits for it in `receive`."""
        pending: list[bytes] = []
        left = []
        while not self.queue.empty():
            event = self.queue.get_nowait()
            if event["type"] == "websocket.receive":
                text = event.get("text")
                pending.append(text.encode() if text is not None else event.get("bytes") or b"")
            else:
                left.append(event)
        for kept in left:
            self.queue.put_nowait(kept)
        self.on_message = on_message
        if self.read_paused:
            self.read_paused = False
            self.transport.resume_reading()
        for data in pending:
            on_message(data)
        return self.write

    def send_receive_event_to_app(self) -> None:
        deliver = self.on_message
        if deliver is None:
            super().send_receive_event_to_app()
            return
        data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
        self.frames = []
        if self.close_sent:
            return
        # Text frames are passed on as their bytes: the table decodes JSON from bytes and
        # answers invalid UTF-8 as it answers any malformed message.
        deliver(data)

    def write(self, frame: bytes) -> bool:
        """Frame `frame` (UTF-8 JSON) as a text message and write it now, if the
        connection is open and its write buffer below uvicorn's high-water mark."""
        if (
            self.conn.state is not State.OPEN  # closing: we or the client began it
            or not self.writable.is_set()
            or self.transport.is_closing()  # lost, or closed after the client's close
        ):
            return False
        self.conn.send_text(frame)
        self.transport.write(b"".join(self.conn.data_to_send()))
        return True

    def connection_lost(self, exc: Exception | None) -> None:
        self.on_message = None
        super().connection_lost(exc)


def direct_socket(send: object) -> DirectSocket | None:
    """The protocol behind an ASGI `send`, when it is a `DirectSocket` (served by
    `bluffdice serve`); None under any other server."""
    protocol = getattr(send, "__self__", None)
    return protocol if isinstance(protocol, DirectSocket) else None
