"""Contest day: clients that never answer, and floods of names, cost the honest bots
(next to) nothing."""

from __future__ import annotations

import asyncio
import socket
import time
from typing import Any

from bluffdice.maexchen.load import swarm
from bluffdice.maexchen.server import MaexchenServer, Options, dice_source
from tests.test_maexchen_contest import example_strategy


def _contest(test: Any, **options: Any) -> None:
    async def main() -> None:
        dice, rng = dice_source(5)
        server = MaexchenServer(Options(host="127.0.0.1", port=0, **options), dice, rng)
        address = await server.start()
        strategy = example_strategy()
        bots = await swarm(address, 4, lambda: strategy().reply)
        running = asyncio.create_task(server.run())
        try:
            await asyncio.wait_for(test(server, address, strategy), 30)
        finally:
            server.stop()
            await asyncio.wait_for(running, 5)
            server.close()
            for b in bots:
                b.close()

    asyncio.run(main())


async def _rate(server: MaexchenServer, seconds: float) -> float:
    before, started = server.stats.rounds, time.perf_counter()
    await asyncio.sleep(seconds)
    return (server.stats.rounds - before) / (time.perf_counter() - started)


def _silent(address: tuple[str, int], name: str) -> socket.socket:
    """A client that registers and never reads or answers again."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", 0))
    sock.sendto(f"REGISTER;{name}".encode(), address)
    return sock


def test_two_silent_players_cost_the_honest_bots_nothing() -> None:
    """Two contests of four honest bots side by side in one process (so the machine's
    drifting speed hits both alike), one with two silent registered players: once they
    have missed `idle_after` invitations no round waits for them, the honest bots there
    keep >= 90 % of the other contest's rounds per second, and no join window runs out."""

    async def main() -> tuple[float, float, int]:
        strategy = example_strategy()
        servers, bots = [], []
        for seed in (1, 2):
            dice, rng = dice_source(seed)
            server = MaexchenServer(Options(host="127.0.0.1", port=0), dice, rng)
            address = await server.start()
            bots += await swarm(address, 4, lambda: strategy().reply)
            servers.append(server)
        haunted = servers[1]
        ghosts = [_silent(address, f"ghost{i}") for i in range(2)]
        runs = [asyncio.create_task(s.run()) for s in servers]
        try:
            while any(haunted._missed.get(f"ghost{i}", 0) < 2 for i in range(2)):
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.1)
            before = [s.stats.rounds for s in servers]
            windows = haunted.stats.windows
            await asyncio.sleep(1.0)
            after = [s.stats.rounds for s in servers]
            return after[0] - before[0], after[1] - before[1], haunted.stats.windows - windows
        finally:
            for s in servers:
                s.stop()
            await asyncio.gather(*runs)
            for s in servers:
                s.close()
            for b in bots:
                b.close()
            for g in ghosts:
                g.close()

    plain_rounds, haunted_rounds, windows = asyncio.run(main())
    assert windows == 0  # not one round waited for them
    assert plain_rounds > 50 and haunted_rounds >= 0.9 * plain_rounds, (
        plain_rounds,
        haunted_rounds,
    )


def test_silent_players_are_dropped_and_may_come_back() -> None:
    async def test(server: MaexchenServer, address: tuple[str, int], _: Any) -> None:
        ghost = _silent(address, "ghost")
        ghost.setblocking(False)
        loop = asyncio.get_running_loop()

        async def recv() -> bytes:
            return await asyncio.wait_for(loop.sock_recv(ghost, 1024), 5.0)

        try:
            lines: list[str] = []
            while not lines or lines[-1] != "UNREGISTERED":
                lines.append((await recv()).decode())
            assert lines[0] == "REGISTERED" and "ghost" not in server.clients
            starts = [line for line in lines if line.startswith("ROUND STARTING;")]
            assert len(starts) == server.options.drop_after  # invited, with back-off
            ghost.sendto(b"REGISTER;ghost", address)  # it may register again
            assert await recv() == b"REGISTERED"
        finally:
            ghost.close()

    _contest(test, drop_after=5, idle_retry=4)


def test_a_flood_of_names_leaves_room_for_new_bots() -> None:
    """500 names from 500 sockets of one host: the host holds at most `max_per_host`
    names, a new name replaces the oldest that never joined, so bots that come right
    after the flood register at once and play."""

    async def test(server: MaexchenServer, address: tuple[str, int], strategy: Any) -> None:
        while server.stats.rounds < 5:  # the bots have joined rounds: no ghosts
            await asyncio.sleep(0.01)
        for i in range(500):
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
                sock.sendto(f"REGISTER;flood{i}".encode(), address)
            if i % 50 == 0:
                await asyncio.sleep(0)  # the server reads meanwhile
        await asyncio.sleep(0.05)
        assert len(server.clients) <= server.options.max_per_host
        assert all(f"bot{i}" in server.clients for i in range(4))  # the players kept
        late = await asyncio.wait_for(swarm(address, 4, lambda: strategy().reply, "late"), 1.0)
        try:
            while not all(server.scores.get(b.name) is not None for b in late):
                await asyncio.sleep(0.05)
        finally:
            for b in late:
                b.close()

    _contest(test)
