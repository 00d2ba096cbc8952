"""Scripted UDP clients and a scripted dice source for the Mäxchen server tests."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from bluffdice.games.mia.actions import Dice, FirstPlayer
from bluffdice.maexchen.server import MaexchenServer, Options, loop_factory

LOOPBACK = "127.0.0.1"


class ScriptedDice:
    """Seat `first` starts (the first, by default); rolls come from the list, in order."""

    def __init__(self, rolls: Iterable[int] = (), first: int = 0) -> None:
        self.rolls = list(rolls)
        self.first = first

    def draw(self, state: Any) -> Any:
        if state.phase == "seat":
            return FirstPlayer(self.first)
        return Dice(self.rolls.pop(0))


class NoShuffle(random.Random):
    """Seats in the order the players joined (scripted tests know who plays first)."""

    def shuffle(self, x: Any, *args: Any, **kwargs: Any) -> None:
        return None


class Client(asyncio.DatagramProtocol):
    """A scripted bot: sends what the test says, keeps every line it receives."""

    def __init__(self) -> None:
        self.lines: asyncio.Queue[str] = asyncio.Queue()
        self.seen: list[str] = []
        self.transport: Any = None

    def connection_made(self, transport: Any) -> None:
        self.transport = transport

    def datagram_received(self, data: bytes, addr: Any) -> None:
        line = data.decode("utf-8")
        self.seen.append(line)
        self.lines.put_nowait(line)

    def send(self, text: str | bytes) -> None:
        self.transport.sendto(text.encode() if isinstance(text, str) else text)

    async def recv(self, timeout: float = 2.0) -> str:
        return await asyncio.wait_for(self.lines.get(), timeout)

    async def expect(self, *lines: str) -> None:
        """The next lines are exactly these (`*` at the end of one: a token follows)."""
        for want in lines:
            got = await self.recv()
            if want.endswith("*"):
                assert got.startswith(want[:-1]), f"expected {want!r}, got {got!r}"
            else:
                assert got == want, f"expected {want!r}, got {got!r}"

    async def token(self, prefix: str) -> str:
        """Read on to the line that starts with `prefix`; returns its last field (the
        token). The lines skipped are public ones that tests check on another client."""
        got = await self.recv()
        while not got.startswith(prefix):
            assert not got.startswith(("YOUR TURN", "ROLLED")), f"{got!r} before {prefix}"
            got = await self.recv()
        return got.rsplit(";", 1)[1]

    async def quiet(self, seconds: float = 0.05) -> None:
        """Nothing arrives for a while."""
        await asyncio.sleep(seconds)
        assert self.lines.empty(), f"unexpected {self.lines.get_nowait()!r}"

    def close(self) -> None:
        self.transport.close()


async def client(server: tuple[str, int], host: str = LOOPBACK) -> Client:
    loop = asyncio.get_running_loop()
    _, protocol = await loop.create_datagram_endpoint(
        Client, local_addr=(host, 0), remote_addr=server
    )
    return protocol


async def registered(
    server: tuple[str, int], name: str, spectator: bool = False, host: str = LOOPBACK
) -> Client:
    c = await client(server, host)
    c.send(f"{'REGISTER_SPECTATOR' if spectator else 'REGISTER'};{name}")
    await c.expect("REGISTERED")
    return c


def serve(
    test: Callable[[MaexchenServer, tuple[str, int]], Awaitable[None]],
    rolls: Iterable[int] = (),
    timeout: float = 1.0,
    loop: Callable[[], asyncio.AbstractEventLoop] | None = None,
    first: int = 0,
    **options: Any,
) -> None:
    """Run `test` against a fresh server on an ephemeral loopback port (on the event
    loop `loop` makes, asyncio's by default)."""

    async def main() -> None:
        server = MaexchenServer(
            Options(host=LOOPBACK, port=0, timeout=timeout, **options),
            dice=ScriptedDice(rolls, first),
            shuffle=NoShuffle(),
        )
        address = await server.start()
        try:
            await asyncio.wait_for(test(server, address), 30)
        finally:
            server.close()

    with asyncio.Runner(loop_factory=loop) as runner:
        runner.run(main())


def loops() -> list[Any]:
    """asyncio's event loop, and uvloop's when it is installed (`bluffdice maexchen`
    runs on it then): for `pytest.mark.parametrize`."""
    import pytest

    factory = loop_factory()
    if factory is asyncio.new_event_loop:
        return [None, pytest.param(None, marks=pytest.mark.skip(reason="uvloop not installed"))]
    return [None, factory]


async def start_round(server: MaexchenServer, *players: Client) -> asyncio.Task[Any]:
    """Play one round in the background; every player joins, in the order given."""
    task = asyncio.create_task(server.play_round())
    for p in players:
        token = await p.token("ROUND STARTING;")
        p.send(f"JOIN;{token}")
    return task
