"""The table websocket under uvicorn, as `bluffdice serve` runs it (the sans-I/O
implementation of `websockets`, by uvicorn's public option): a game plays to its end,
messages keep their order, floods are cut off, and frames a client may not send (split
anywhere, fragmented, unmasked, too big) are answered as the protocol says."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from bluffdice.server.connections import BURST, STRIKES
from tests.server_support import Msg, Seat, serving


async def two_seats(address: str) -> tuple[str, list[Seat]]:
    async with httpx.AsyncClient(base_url=f"http://{address}") as http:
        made = (
            await http.post(
                "/api/tables",
                json={"rules": "mia(lives=2)", "seats": [{"kind": "human"}] * 2, "name": "Ann"},
            )
        ).json()
        joined = (await http.post(f"/api/tables/{made['id']}/join", json={"name": "Bob"})).json()
    seats = []
    for token in (made["token"], joined["token"]):
        ws = await connect(f"ws://{address}/ws/{made['id']}")
        await ws.send(json.dumps({"type": "hello", "token": token}))
        seats.append(Seat(ws))
    return made["id"], seats


def test_a_game_plays_to_the_end(tmp_path: Path) -> None:
    async def play() -> None:
        async with serving(tmp_path) as (address, _):
            _, seats = await two_seats(address)
            for seat in seats:
                await seat.until(lambda m: m["type"] == "table")
            rng = random.Random(3)

            async def play_out(seat: Seat) -> Msg:
                while True:
                    message = await seat.recv()
                    if message["type"] == "prompt":
                        action = rng.choice(message["view"]["legal_actions"])
                        await seat.ws.send(
                            json.dumps(
                                {"type": "move", "state_id": message["state_id"], "action": action}
                            )
                        )
                    if message["type"] == "table" and message["status"] == "finished":
                        return message

            ends = await asyncio.gather(*(play_out(s) for s in seats))
            assert all(e["status"] == "finished" for e in ends)
            # both seats heard the same moves, in the same order
            heard = [[m["state_id"] for m in s.messages if m["type"] == "update"] for s in seats]
            assert heard[0] == heard[1] and heard[0] == sorted(heard[0]) and len(heard[0]) > 4
            for seat in seats:
                await seat.ws.close()

    asyncio.run(play())


def test_messages_right_after_hello_keep_their_order(tmp_path: Path) -> None:
    async def play() -> None:
        async with serving(tmp_path) as (address, _):
            _, seats = await two_seats(address)
            first = seats[0]
            # Sent at once after the hello: answered in the order they were sent.
            for text in ("not json", '{"type": "fly"}', '{"type": "hint"}'):
                await first.ws.send(text)
            await first.ws.send(b"\xff\xfe binary garbage")
            answers: list[Msg] = []
            while len(answers) < 4:
                message = await first.recv()
                if message["type"] in ("refused", "hint", "error"):
                    answers.append(message)
            assert [(m["type"], m.get("code")) for m in answers] == [
                ("refused", "malformed"),
                ("refused", "malformed"),
                ("hint", None),
                ("refused", "malformed"),
            ]
            for seat in seats:
                await seat.ws.close()

    asyncio.run(play())


async def quiet(seat: Seat, seconds: float = 0.3) -> int:
    """Read until nothing comes for `seconds`; how many frames came."""
    frames = 0
    while True:
        try:
            await asyncio.wait_for(seat.ws.recv(), seconds)
        except TimeoutError:
            return frames
        frames += 1


def test_a_flood_from_one_connection_is_cut_off_and_the_others_play_on(
    tmp_path: Path,
) -> None:
    async def play() -> None:
        async with serving(tmp_path) as (address, _):
            _, seats = await two_seats(address)
            flooder, other = seats
            await quiet(flooder)
            # Within the limit, each hint is answered.
            for _ in range(3):
                await flooder.ws.send('{"type": "hint"}')
                await flooder.until(lambda m: m["type"] == "hint")
            # Then more than the burst and the strikes allow, in one go: the server reads
            # many of them in one turn and drops the connection at the last strike.
            for _ in range(int(BURST + STRIKES) + 200):
                await flooder.ws.send('{"type": "hint"}')
            answers = {"hint": 0, "error": 0}
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    message = await flooder.recv()
                    if message["type"] in answers:
                        answers[message["type"]] += 1
            received = closed.value.rcvd
            assert received is not None
            assert (received.code, received.reason) == (1008, "too many messages")
            # At most a burst answered: how many of those went out before the
            # drop depends on how the flood was split into reads (all in the turn that
            # drops the connection: none, as the answers of that turn go with the drop).
            assert answers["hint"] <= BURST + 1
            # The other seat plays on.
            await other.ws.send('{"type": "hint"}')
            assert (await other.until(lambda m: m["type"] in ("hint", "error")))["type"]
            await other.ws.close()

    asyncio.run(play())


class RawSeat:
    """A client that writes frames byte for byte as a test needs them (split anywhere,
    fragmented, unmasked, with control frames between) and reads the server's frames."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, address: str, table_id: str, token: str) -> RawSeat:
        host, port = address.split(":")
        reader, writer = await asyncio.open_connection(host, int(port))
        writer.write(
            f"GET /ws/{table_id} HTTP/1.1\r\nHost: {address}\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        head = await reader.readuntil(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 101"), head
        seat = cls(reader, writer)
        seat.writer.write(frame(json.dumps({"type": "hello", "token": token}).encode()))
        return seat

    async def write(self, *parts: bytes, pause: float = 0.0) -> None:
        for part in parts:
            self.writer.write(part)
            await self.writer.drain()
            if pause:
                await asyncio.sleep(pause)

    async def read(self) -> tuple[int, bytes]:
        """The next frame from the server: (opcode, payload)."""
        head = await asyncio.wait_for(self.reader.readexactly(2), 10)
        length = head[1] & 0x7F
        if length == 126:
            length = int.from_bytes(await self.reader.readexactly(2), "big")
        elif length == 127:
            length = int.from_bytes(await self.reader.readexactly(8), "big")
        return head[0] & 0x0F, await self.reader.readexactly(length)

    async def until_closed(self) -> tuple[int, list[Msg]]:
        """Read up to the server's close frame: its code, and the messages before it."""
        seen: list[Msg] = []
        while True:
            opcode, payload = await self.read()
            if opcode == 8:
                return int.from_bytes(payload[:2], "big"), seen
            if opcode == 1:
                seen.extend(json.loads(payload))

    async def messages_until(self, test: Callable[[Msg], bool]) -> list[Msg]:
        """Messages of the text frames to come, up to the first that passes `test`."""
        seen: list[Msg] = []
        while True:
            opcode, payload = await self.read()
            if opcode == 1:
                for message in json.loads(payload):
                    seen.append(message)
                    if test(message):
                        return seen


async def raw_seat_with_a_bot(address: str) -> RawSeat:
    """A new Mia table against a bot, its human seat taken by a `RawSeat` and greeted."""
    async with httpx.AsyncClient(base_url=f"http://{address}") as http:
        body = {"rules": "mia", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "honest"}]}
        made = (await http.post("/api/tables", json={**body, "name": "Ann"})).json()
    seat = await RawSeat.open(address, made["id"], made["token"])
    await seat.messages_until(lambda m: m["type"] == "table")
    return seat


def frame(payload: bytes, opcode: int = 1, fin: bool = True, mask: bool = True) -> bytes:
    """A client frame (RFC 6455 5.2), masked unless told otherwise."""
    n = len(payload)
    first = (0x80 if fin else 0) | opcode
    if n < 126:
        head = bytes((first, (0x80 if mask else 0) | n))
    else:
        head = bytes((first, (0x80 if mask else 0) | 126)) + n.to_bytes(2, "big")
    if not mask:
        return head + payload
    key = bytes(random.randrange(256) for _ in range(4))
    return head + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


def test_frames_split_anywhere_with_control_frames_between(
    tmp_path: Path,
) -> None:
    hint = b'{"type": "hint"}'

    async def play() -> None:
        async with serving(tmp_path) as (address, _):
            seat = await raw_seat_with_a_bot(address)

            whole = frame(hint)
            await seat.write(*(whole[i : i + 1] for i in range(len(whole))), pause=0.002)
            await seat.write(frame(hint) + frame(b"p1", opcode=9) + frame(hint))
            half = len(hint) // 2
            await seat.write(
                frame(hint[:half], fin=False)
                + frame(b"p2", opcode=9)
                + frame(hint[half:], opcode=0)
            )
            two = frame(hint) + frame(hint)
            await seat.write(two[:-5], pause=0.05)
            await seat.write(two[-5:])

            hints = 0
            pongs: list[bytes] = []
            while hints < 6 or len(pongs) < 2:
                opcode, payload = await seat.read()
                if opcode == 10:
                    pongs.append(payload)
                elif opcode == 1:
                    hints += sum(m["type"] == "hint" for m in json.loads(payload))
            assert (hints, pongs) == (6, [b"p1", b"p2"])

            # A frame a client must not send (unmasked) is answered as websockets does.
            await seat.write(frame(hint, mask=False))
            assert (await seat.until_closed())[0] == 1002  # protocol error
            seat.writer.close()

    asyncio.run(play())


def test_a_bad_frame_closes_the_connection_and_what_follows_it_is_not_read(
    tmp_path: Path,
) -> None:
    async def play() -> None:
        async with serving(tmp_path) as (address, _):
            seat = await raw_seat_with_a_bot(address)
            # A masked frame with a reserved opcode, then a hint, in one write.
            await seat.write(frame(b"x", opcode=3) + frame(b'{"type": "hint"}'))
            code, messages = await seat.until_closed()
            assert code == 1002  # protocol error
            assert not any(m["type"] == "hint" for m in messages)
            seat.writer.close()

    asyncio.run(play())


def test_a_frame_over_the_size_limit_is_refused_before_it_arrives(tmp_path: Path) -> None:
    async def play() -> None:
        async with serving(tmp_path) as (address, _):
            seat = await raw_seat_with_a_bot(address)
            # The header announces 2**40 bytes; only the header and the mask are sent.
            await seat.write(bytes((0x81, 0x80 | 127)) + (2**40).to_bytes(8, "big") + b"abcd")
            assert (await seat.until_closed())[0] == 1009  # message too big
            seat.writer.close()

    asyncio.run(play())
