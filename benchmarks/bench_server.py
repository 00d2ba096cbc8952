"""Load benchmark of `bluffdice serve`: N tables of 4 websocket clients each.

    python benchmarks/bench_server.py                 # 50, 200 and 500 tables
    python benchmarks/bench_server.py --tables 50 --seconds 5

The server runs as its own process (`bluffdice serve`, SQLite in a temporary folder, every
step committed before it is sent). All clients run in this process on one asyncio loop:
each answers its prompt at once with a random legal move (never a blind `look`, so every
move is news for all four seats). Latency is measured from sending a move to the moment
the last of the table's four clients has received its update. CPU and memory are the
server process's (from /proc). The clients share the machine with the server, so on a
small machine the figures include their load too.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

RULES = "mia(lives=99)"
"""Long games: no table finishes while it is measured."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


@dataclass
class TableLoad:
    """One table's clients and the move in flight (sent at `sent`, seen by `seen`)."""

    id: str
    sent: float | None = None
    seen: set[int] = field(default_factory=set)


@dataclass
class Totals:
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    measuring: bool = False
    errors: int = 0
    warm: int = 0
    """Moves completed before measuring (the warm-up waits for one per table)."""


async def client(
    url: str,
    token: str,
    seat: int,
    table: TableLoad,
    totals: Totals,
    stop: asyncio.Event,
    ready: asyncio.Event,
) -> None:
    rng = random.Random(hash((table.id, seat)))
    async with connect(url, max_size=2**22, open_timeout=120) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        ready.set()
        async for raw in ws:
            if stop.is_set():
                break
            message = json.loads(raw)
            kind = message["type"]
            if kind == "update" and table.sent is not None:
                table.seen.add(seat)
                if len(table.seen) == 4:
                    totals.warm += 1
                    if totals.measuring:
                        totals.latencies.append(time.perf_counter() - table.sent)
                        totals.moves += 1
                    table.sent = None
            elif kind == "prompt":
                legal = [a for a in message["view"]["legal_actions"] if a["type"] != "mia.look"]
                if not legal:
                    legal = message["view"]["legal_actions"]
                table.sent = time.perf_counter()
                table.seen = set()
                await ws.send(
                    json.dumps(
                        {
                            "type": "move",
                            "state_id": message["state_id"],
                            "action": rng.choice(legal),
                        }
                    )
                )
            elif kind in ("refused", "error"):
                totals.errors += 1


async def open_tables(base: str, count: int) -> list[tuple[str, list[str]]]:
    """Create `count` tables of four people; their ids and the four seat tokens."""
    limits = httpx.Limits(max_connections=16)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=120) as http:

        async def one(n: int) -> tuple[str, list[str]]:
            made = (
                await http.post(
                    "/api/tables",
                    json={"rules": RULES, "seats": [{"kind": "human"}] * 4, "name": f"p{n}a"},
                )
            ).json()
            tokens = [made["token"]]
            for who in "bcd":
                joined = await http.post(
                    f"/api/tables/{made['id']}/join", json={"name": f"p{n}{who}"}
                )
                tokens.append(joined.json()["token"])
            return made["id"], tokens

        return list(await asyncio.gather(*(one(n) for n in range(count))))


async def measure(base: str, pid: int, count: int, seconds: float) -> dict[str, Any]:
    tables = await open_tables(base, count)
    totals = Totals()
    stop = asyncio.Event()
    ws_base = base.replace("http://", "ws://")
    tasks = []
    readies = []
    for table_id, tokens in tables:
        load = TableLoad(table_id)
        for seat, token in enumerate(tokens):
            ready = asyncio.Event()
            readies.append(ready)
            tasks.append(
                asyncio.create_task(
                    client(f"{ws_base}/ws/{table_id}", token, seat, load, totals, stop, ready)
                )
            )
    await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 300)
    # Warm up: every connection greeted and, on average, one move per table made, so
    # that the measured seconds are play, not the storm of connections.
    warm_until = time.monotonic() + 120
    while totals.warm < count and time.monotonic() < warm_until:
        await asyncio.sleep(0.2)
    cpu0, wall0, mine0 = cpu_seconds(pid), time.perf_counter(), time.process_time()
    totals.measuring = True
    await asyncio.sleep(seconds)
    totals.measuring = False
    cpu1, wall1, mine1 = cpu_seconds(pid), time.perf_counter(), time.process_time()
    memory = rss_mib(pid)
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    lat = sorted(totals.latencies)

    def pct(q: float) -> float:
        return lat[min(len(lat) - 1, int(q * len(lat)))] * 1000 if lat else float("nan")

    return {
        "tables": count,
        "clients": 4 * count,
        "moves_per_s": totals.moves / (wall1 - wall0),
        "p50_ms": pct(0.50),
        "p99_ms": pct(0.99),
        "mean_ms": statistics.fmean(lat) * 1000 if lat else float("nan"),
        "server_cpu_pct": 100 * (cpu1 - cpu0) / (wall1 - wall0),
        "server_rss_mib": memory,
        "clients_cpu_pct": 100 * (mine1 - mine0) / (wall1 - wall0),
        "refusals": totals.errors,
    }


def start_server(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    command = [
        sys.executable,
        "-c",
        "from bluffdice.cli import main; main()",
        "serve",
        "--port",
        str(port),
        "--db",
        str(folder / "bench.db"),
        "--bot-delay",
        "0",
    ]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        try:
            httpx.get(f"{base}/api/tables", timeout=1)
            return process, base
        except httpx.HTTPError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit("the server did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[50, 200, 500])
    parser.add_argument("--seconds", type=float, default=10.0, help="measured seconds per size")
    args = parser.parse_args()
    rows = []
    for count in args.tables:
        folder = Path(tempfile.mkdtemp(prefix="bench-server-"))
        process, base = start_server(folder)
        try:
            rows.append(asyncio.run(measure(base, process.pid, count, args.seconds)))
        finally:
            process.terminate()
            process.wait(10)
            shutil.rmtree(folder, ignore_errors=True)
        print(f"... {count} tables: {rows[-1]}", file=sys.stderr)
    print(f"machine: {os.cpu_count()} CPUs (shared with the clients and other work)")
    header = (
        f"{'tables':>6} {'clients':>7} {'moves/s':>8} {'p50 ms':>7} {'p99 ms':>7} "
        f"{'server CPU':>10} {'server RSS':>10} {'clients CPU':>11} {'refused':>7}"
    )
    print(header)
    for r in rows:
        print(
            f"{r['tables']:>6} {r['clients']:>7} {r['moves_per_s']:>8.0f} {r['p50_ms']:>7.1f} "
            f"{r['p99_ms']:>7.1f} {r['server_cpu_pct']:>9.0f}% {r['server_rss_mib']:>7.0f} MiB "
            f"{r['clients_cpu_pct']:>10.0f}% {r['refusals']:>7}"
        )
    print("target: 500 tables with p99 < 100 ms")


if __name__ == "__main__":
    main()
