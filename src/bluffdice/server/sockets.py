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

When the client negotiated no extension (`bluffdice serve` offers no compression, so
that is every client; with permessage-deflate on, a client using it keeps the general
path), an adopted connection's frames are also framed and parsed here: a server text
frame is a two-to-ten-byte header and the payload, and a client's complete, final,
masked text frame is unmasked and handed on. Every other frame (pings, pongs, close,
fragments, anything malformed or too big) is given whole to `websockets`' parser, which
thus always starts at a frame boundary and answers it as before. At 500 tables that took
a sixth off the event loop's CPU per move (`websockets`' generator-based parser was the
larger part of it).

`bluffdice serve` passes this class as uvicorn's `ws` protocol; it relies on the sans-I/O
implementation's attributes (`conn`, `transport`, `writable`, `queue`, `frames`), which is
why pyproject pins uvicorn to the minor versions it was checked against.
"""

from __future__ import annotations

from collections.abc import Callable

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State

try:
    from websockets.speedups import apply_mask
except ImportError:  # websockets without its C extension
    from websockets.utils import apply_mask


class DirectSocket(WebSocketsSansIOProtocol):
    on_message: Callable[[bytes], None] | None = None
    """Set by `adopt`: where inbound messages go instead of the ASGI queue."""
    plain = False
    """No extension was negotiated: text frames are framed by hand (`write`)."""
    reading = False
    """Inbound frames are parsed here (`_read`), not by `websockets`."""
    rest = b""
    """The start of an inbound frame not complete yet (while `reading`)."""

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
        self.plain = not self.conn.extensions
        self.reading = self.plain and self._at_frame_start()
        if self.read_paused:
            self.read_paused = False
            self.transport.resume_reading()
        for data in pending:
            on_message(data)
        return self.write

    def _at_frame_start(self) -> bool:
        """Whether `websockets`' parser holds no part of a frame: its buffer is empty and
        its innermost generator waits in `at_eof`, between frames (once it has read a
        header it waits in `read_exact` instead, with the buffer empty too). Anything
        unexpected, such as another version of `websockets`, answers False: its parser
        reads on."""
        conn = self.conn
        if conn.reader.buffer or conn.parser_exc is not None:
            return False
        if not (hasattr(conn, "current_size") and hasattr(conn, "max_message_size")):
            return False
        waiting = conn.parser  # follow `yield from` down to the generator that waits
        while (inner := getattr(waiting, "gi_yieldfrom", None)) is not None:
            waiting = inner
        return getattr(getattr(waiting, "gi_code", None), "co_name", "") == "at_eof"

    def data_received(self, data: bytes) -> None:
        if self.reading:
            self._read(data)
            return
        super().data_received(data)
        if self.plain and self.on_message is not None and self._at_frame_start():
            self.reading = True  # adopted mid-frame: the parser has finished it now

    def _read(self, data: bytes) -> None:
        """Hand complete final text frames to `on_message`; give every other complete
        frame to `websockets`; keep an incomplete one for the next data. A frame that is
        unmasked (a protocol error) or larger than the limit goes to `websockets` with
        all that follows it, which then reads on by itself."""
        if self.rest:
            data, self.rest = self.rest + data, b""
        conn = self.conn
        limit = conn.max_message_size
        at, n = 0, len(data)
        while n - at >= 2:
            head, size = data[at], data[at + 1]
            length, start = size & 0x7F, at + 2
            if length == 126:
                if n - at < 4:
                    break
                length, start = int.from_bytes(data[at + 2 : at + 4], "big"), at + 4
            elif length == 127:
                if n - at < 10:
                    break
                length, start = int.from_bytes(data[at + 2 : at + 10], "big"), at + 10
            if not size & 0x80 or (limit is not None and length > limit):
                self.reading = False
                super().data_received(data[at:])
                return
            end = start + 4 + length
            if end > n:
                break
            deliver = self.on_message
            if (
                head == 0x81  # FIN, no reserved bits, text
                and deliver is not None
                and conn.current_size is None  # not inside a fragmented message
                and conn.state is State.OPEN
                and not self.close_sent
            ):
                deliver(apply_mask(data[start + 4 : end], data[start : start + 4]))
            else:
                super().data_received(data[at:end])
                if conn.parser_exc is not None or self.on_message is None:
                    self.reading = False  # failed (and closing) or gone: the rest is moot
                    return
            at = end
        if at < n:
            self.rest = data[at:]

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
        if not self.plain:
            self.conn.send_text(frame)
            self.transport.write(b"".join(self.conn.data_to_send()))
            return True
        n = len(frame)
        if n < 126:
            header = bytes((0x81, n))
        elif n < 65536:
            header = b"\x81\x7e" + n.to_bytes(2, "big")
        else:
            header = b"\x81\x7f" + n.to_bytes(8, "big")
        self.transport.write(header + frame)
        return True

    def connection_lost(self, exc: Exception | None) -> None:
        self.on_message = None
        super().connection_lost(exc)


def direct_socket(send: object) -> DirectSocket | None:
    """The protocol behind an ASGI `send`, when it is a `DirectSocket` (served by
    `bluffdice serve`); None under any other server."""
    protocol = getattr(send, "__self__", None)
    return protocol if isinstance(protocol, DirectSocket) else None
