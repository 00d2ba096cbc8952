"""What the load target of `bench_server.py` leaves for the server to do: the same shape of
traffic with no server work at all.

    python benchmarks/bench_server_floor.py              # 200 and 500 tables, 8 s each

A "server" that only moves bytes (raw TCP on uvloop: no websocket framing, no JSON, no
table, no store) and clients as cheap as Python clients get (one process, one event
loop, frames counted rather than read): each table has four connections, one move in
flight, and every move is one message in and four out, as at a `bluffdice serve` table.
The figures are the floor under `bench_server.py`'s: moves a second, the latency from a
move to its fourth recipient, and each side's CPU a move.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import socket
import time
from functools import partial
from pathlib import Path
from typing import Any

import uvloop

PAYLOAD = b'["update",{"state_id":123,"events":[["announced",1,62]],"view":{"turn":2}}]'
FRAME = bytes((0x81, 126)) + len(PAYLOAD).to_bytes(2, "big") + PAYLOAD
"""What the server sends each seat for a move: one websocket text frame, as bytes."""
TARGET_MS = 100.0


def _cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _server(port: int) -> None:
    """Each connection names its table first; after that, whatever a seat sends goes
    to the table's four connections."""
    tables: dict[bytes, list[asyncio.Transport]] = {}

    class Relay(asyncio.Protocol):
        def connection_made(self, transport: Any) -> None:
            self.transport = transport
            self.table: list[asyncio.Transport] | None = None

        def data_received(self, data: bytes) -> None:
            if self.table is None:
                self.table = tables.setdefault(data[:6], [])
                self.table.append(self.transport)
                return
            for seat in self.table:
                seat.write(FRAME)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        await loop.create_server(Relay, "127.0.0.1", port, backlog=4096)
        await asyncio.Event().wait()

    uvloop.run(main())


async def _measure(port: int, tables: int, seconds: float, server_pid: int) -> dict[str, float]:
    loop = asyncio.get_running_loop()
    latencies: list[float] = []
    moves = [0]

    class Table:
        def __init__(self, number: int) -> None:
            self.name = b"%06d" % number
            self.seats: list[Seat] = []
            self.heard = 0
            self.turn = 0
            self.sent = 0.0

        def move(self) -> None:
            self.sent = time.perf_counter()
            self.seats[self.turn].transport.write(b"move")

    class Seat(asyncio.Protocol):
        def __init__(self, table: Table) -> None:
            self.table = table

        def connection_made(self, transport: Any) -> None:
            self.transport = transport
            transport.write(self.table.name)

        def data_received(self, data: bytes) -> None:
            table = self.table
            table.heard += data.count(b"\x81")
            if table.heard >= 4:  # the fourth seat has the move: the next seat moves
                table.heard -= 4
                moves[0] += 1
                latencies.append(time.perf_counter() - table.sent)
                table.turn = (table.turn + 1) % 4
                table.move()

    everyone = []
    for number in range(tables):
        table = Table(number)
        for _ in range(4):
            _, seat = await loop.create_connection(partial(Seat, table), "127.0.0.1", port)
            table.seats.append(seat)
        everyone.append(table)
    await asyncio.sleep(0.5)
    for table in everyone:
        table.move()
    await asyncio.sleep(1.0)  # warm up
    latencies.clear()
    done, server_cpu, cpu = moves[0], _cpu(server_pid), time.process_time()
    started = time.perf_counter()
    await asyncio.sleep(seconds)
    elapsed = time.perf_counter() - started
    cpu, server_cpu = time.process_time() - cpu, _cpu(server_pid) - server_cpu
    done = moves[0] - done
    latencies.sort()
    for table in everyone:
        for seat in table.seats:
            seat.transport.close()
    return {
        "tables": tables,
        "moves/s": done / elapsed,
        "p50": 1000 * latencies[len(latencies) // 2],
        "p99": 1000 * latencies[int(len(latencies) * 0.99)],
        "server ms": 1000 * server_cpu / done,
        "server %": 100 * server_cpu / elapsed,
        "clients ms": 1000 * cpu / done,
        "clients %": 100 * cpu / elapsed,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[200, 500])
    parser.add_argument("--seconds", type=float, default=8.0)
    args = parser.parse_args()
    print(f"load average {', '.join(f'{x:.1f}' for x in os.getloadavg())}, {os.cpu_count()} CPUs")
    print(
        f"{'tables':>6} {'moves/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'server ms/move':>15} "
        f"{'server CPU':>10} {'clients ms/move':>16} {'clients CPU':>11}"
    )
    for tables in args.tables:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        server = multiprocessing.get_context("spawn").Process(
            target=_server, args=(port,), daemon=True
        )
        server.start()
        time.sleep(1.5)
        try:
            assert server.pid is not None
            row = uvloop.run(_measure(port, tables, args.seconds, server.pid))
        finally:
            server.terminate()
            server.join(5)
        print(
            f"{row['tables']:>6} {row['moves/s']:>8.0f} {row['p50']:>7.1f} {row['p99']:>7.1f} "
            f"{row['server ms']:>15.3f} {row['server %']:>9.0f}% {row['clients ms']:>16.3f} "
            f"{row['clients %']:>10.0f}%"
        )
    print(f"bench_server.py's target: 500 tables with p99 < {TARGET_MS:.0f} ms")


if __name__ == "__main__":
    main()
