"""Load benchmark of `bluffdice serve` against a bare websocket relay: N tables of 4 clients.

    python benchmarks/bench_server.py        # 100, 300 and 500 tables, 3 pairs each
    python benchmarks/bench_server.py --tables 100 --seconds 5 --repeat 1
    python benchmarks/bench_server.py --reference none --interval-ms 0   # as fast as it goes
    python benchmarks/bench_server.py --tables 500 --plot timeline.png   # over time, too

The server runs as its own process (`bluffdice serve`, SQLite in a temporary folder, every
step committed before it is sent). All clients run in this process on one event loop: a
client answers its prompt with a random legal move (never a blind `look`, so every move
is news for all four seats). The load is open loop: each table offers a move every
`--interval-ms` (250), whatever the server does, so both sides of a pair get the same
offered load; a side that cannot keep up makes fewer moves a second than offered, and
`--interval-ms 0` answers every prompt at once instead. Latency is measured from sending
a move to the moment the last of the table's four clients has received its update. CPU
and memory are the server process's (from /proc). The clients share the machine with the
server, so on a small machine the figures include their load too.

The reference (`--reference relay`, the default) is a bare Starlette + uvicorn websocket
relay in its own process (`relay_app`): the same lobby calls, websocket handshake and
hello, uvicorn's websocket settings as `bluffdice serve` uses them, and per move one JSON
message in and four frames out, JSON arrays of messages about the size of the server's
(an update and whose turn it is, and the next seat's prompt), but no game, no store and
no limits. Each run of a server is paired with a run of the relay at the same size, the
order swapped each pair, and the pairs' ratios (server over relay: CPU per move, p50,
p99, moves a second) are printed as median [min-max].

The clients read the frames of the current server (a JSON array of messages each) and of
servers before it (one message a frame), so `PYTHONPATH=<an older src>` measures an
older server side by side, and `--server PYTHON...` runs the server of each interpreter
given (e.g. a venv with the compiled build beside the development one), their runs
alternating.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import gc
import json
import math
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
from typing import Any, cast

import httpx
import msgspec

from bluffdice.errors import BluffdiceError
from bluffdice.plotting import check_plot_path, save_figure

try:
    from bluffdice.server.connections import BURST, RATE
except ImportError:  # a tree from before the hall was split (bench_host.py's "before")
    from bluffdice.server.hall import BURST, RATE  # type: ignore[no-redef,attr-defined]

RULES = "mia(lives=99)"
"""Long games: no table finishes while it is measured."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def cpu_seconds(pid: int, thread: int | None = None) -> float:
    """CPU seconds of a process, or of one of its threads (`thread`: its id; the main
    thread's is the process id)."""
    stat = Path(f"/proc/{pid}/stat" if thread is None else f"/proc/{pid}/task/{thread}/stat")
    fields = stat.read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def steal_seconds() -> float:
    """CPU time the hypervisor gave to other machines since boot (/proc/stat), or NaN:
    a figure measured while it stole is not this machine's."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()
        return int(fields[8]) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


def runqueue_seconds(pid: int) -> float:
    """Seconds the server's threads were ready to run but waited for a CPU (a machine
    busy with other work): /proc/PID/task/*/schedstat, second field, in nanoseconds."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[1])
        except (OSError, IndexError, ValueError):
            continue
    return total / 1e9


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


@dataclass
class TableLoad:
    """One table's moves in flight: by the state id each answers, when it was sent and
    which seats have seen it. (The next seat may move before the last seat has heard of
    the move before, so there can be two.)

    With `interval` (seconds) the table offers a move every `interval`, open loop: a
    tick owes a move, a prompt pays it at once if one is owed, else its move is held
    until the next tick. A server that falls behind owes more and more moves, each sent
    as soon as its prompt comes, so it runs as fast as it can and its moves a second
    fall short of the offered rate; without `interval` every prompt is answered at once."""

    id: str
    flight: dict[int, tuple[float, set[int]]] = field(default_factory=dict)
    interval: float = 0.0
    owed: int = 0
    held: tuple[Client, int, bytes] | None = None
    """A prompt's answer waiting for its tick: the client, the state id and the move."""

    def due(self, client: Client, state_id: int, move: bytes) -> bool:
        """Whether a move may go now; if not, it is held for the next tick."""
        if self.interval <= 0.0:
            return True
        if self.owed > 0:
            self.owed -= 1
            return True
        self.held = (client, state_id, move)
        return False

    def tick(self) -> None:
        self.owed += 1
        if self.held is not None:
            client, state_id, move = self.held
            self.held = None
            self.owed -= 1
            client.release(state_id, move)


@dataclass
class Totals:
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    measuring: bool = False
    errors: int = 0
    playing: bool = False
    """False while connections open: prompts wait, so the handshakes are not queued
    behind the moves of the tables already seated."""
    lost: int = 0
    """Connections the server closed (a client it found too slow or too eager)."""
    warm: int = 0
    """Moves completed before measuring (the warm-up waits for one per table)."""
    frames: int = 0
    """Frames the clients received while measuring."""
    received: int = 0
    """Bytes the clients received while measuring (frame headers included)."""
    finished: list[float] = field(default_factory=list)
    """When each measured move reached its last seat (perf_counter), beside `latencies`."""


class Message(msgspec.Struct):
    """What a client reads of a message: its type, state id and (raw) view; msgspec
    skips every other field without building it."""

    type: str
    state_id: int = -1
    view: msgspec.Raw = msgspec.Raw(b"null")


class View(msgspec.Struct):
    legal_actions: list[msgspec.Raw]


_frame = msgspec.json.Decoder(list[Message])
_message = msgspec.json.Decoder(Message)
_view = msgspec.json.Decoder(View)
LOOK = b'"mia.look"'


class Client(asyncio.Protocol):
    """One seat's websocket, written for a cheap client rather than a general one: the
    handshake and frames by hand (RFC 6455), each frame (a JSON array of messages)
    decoded by msgspec into the three fields a client reads, the legal actions of a
    prompt kept as raw JSON and the move written around the one picked. The clients of
    2000 seats share one process with one core, so the figures measure the server, not
    the clients' websocket library."""

    def __init__(
        self, path: str, host: str, token: str, seat: int, table: TableLoad, totals: Totals
    ) -> None:
        self.path, self.host, self.token = path, host, token
        self.seat, self.table, self.totals = seat, table, totals
        self.rng = random.Random(hash((table.id, seat)))
        self.rest = b""
        """Bytes of a frame not complete yet."""
        self.upgraded = False
        self.loop = asyncio.get_running_loop()
        self.ready: asyncio.Future[None] = self.loop.create_future()
        self.allowance = BURST - 2.0  # a margin, as the server counts at arrival
        self.last = time.monotonic()
        self.transport: asyncio.Transport | None = None
        self.stopped = False
        self.waiting: list[bytes] = []
        """Frames that came before play began (their prompts wait for it)."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass
        key = base64.b64encode(os.urandom(16)).decode()
        self.transport.write(
            f"GET {self.path} HTTP/1.1\r\nHost: {self.host}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.stopped:
            self.stopped = True
            self.totals.lost += 1
        if not self.ready.done():
            self.ready.set_exception(ConnectionError("closed during the handshake"))

    def send(self, payload: bytes, opcode: int = 1) -> None:
        """One frame (text unless told). Clients must mask; an all-zero key is a valid
        mask that leaves the payload as it is, which spares the client the XOR."""
        assert self.transport is not None
        n = len(payload)
        if n < 126:
            header = bytes((0x80 | opcode, 0x80 | n))
        else:
            header = bytes((0x80 | opcode, 0x80 | 126)) + n.to_bytes(2, "big")
        self.transport.write(header + b"\0\0\0\0" + payload)

    def data_received(self, data: bytes) -> None:
        if self.totals.measuring:
            self.totals.received += len(data)
        if self.rest:
            data, self.rest = self.rest + data, b""
        if not self.upgraded:
            end = data.find(b"\r\n\r\n")
            if end < 0:
                self.rest = data
                return
            if not data.startswith(b"HTTP/1.1 101"):
                self.ready.set_exception(ConnectionError(data[:end].decode()))
                return
            data = data[end + 4 :]
            self.upgraded = True
            self.pace()
            self.send(msgspec.json.encode({"type": "hello", "token": self.token}))
            self.ready.set_result(None)
        at, n = 0, len(data)
        while n - at >= 2:
            size = data[at + 1] & 0x7F
            start = at + 2
            if size == 126:
                size, start = int.from_bytes(data[at + 2 : at + 4], "big"), at + 4
            elif size == 127:
                size, start = int.from_bytes(data[at + 2 : at + 10], "big"), at + 10
            end = start + size
            if end > n:
                break
            opcode = data[at] & 0x0F
            if opcode == 1 and not self.stopped:
                self.frame(data[start:end])
            elif opcode == 9 and not self.stopped:
                self.send(data[start:end], opcode=10)  # the server's keepalive ping
            at = end
        if at < n:
            self.rest = data[at:]

    def pace(self) -> float:
        """Seconds to wait so as to stay within the server's limit of messages per second
        per connection (a small table on a fast server would otherwise exceed it)."""
        now = time.monotonic()
        rate = 0.9 * RATE
        self.allowance = min(BURST - 2.0, self.allowance + (now - self.last) * rate)
        self.last = now
        self.allowance -= 1.0
        return 0.0 if self.allowance >= 0.0 else -self.allowance / rate

    def move(self, state_id: int, move: bytes) -> None:
        if self.stopped:
            return
        self.table.flight[state_id] = (time.perf_counter(), set())
        self.send(move)

    def frame(self, raw: bytes) -> None:
        """One frame: the messages of one turn of the server, in order."""
        if not self.totals.playing:
            self.waiting.append(raw)
            return
        # a frame of a server before frames were batched holds one message
        messages = _frame.decode(raw) if raw[:1] == b"[" else [_message.decode(raw)]
        if self.totals.measuring:
            self.totals.frames += 1
        for message in messages:
            kind = message.type
            if kind == "update":
                self.update(message.state_id)
            elif kind == "prompt":
                self.answer(message)
            elif kind in ("refused", "error"):
                self.totals.errors += 1

    def update(self, state_id: int) -> None:
        """An update to state U tells this seat of every move made at a state before U."""
        table, totals = self.table, self.totals
        for after, (sent, seen) in list(table.flight.items()):
            if after < state_id:
                seen.add(self.seat)
                if len(seen) == 4:
                    del table.flight[after]
                    totals.warm += 1
                    if totals.measuring:
                        now = time.perf_counter()
                        totals.latencies.append(now - sent)
                        totals.finished.append(now)
                        totals.moves += 1

    def answer(self, prompt: Message) -> None:
        """A random legal move (never a blind look), sent as it is written in the prompt."""
        actions = [bytes(a) for a in _view.decode(prompt.view).legal_actions]
        legal = [a for a in actions if LOOK not in a] or actions
        move = b'{"type":"move","state_id":%d,"action":%s}' % (
            prompt.state_id,
            self.rng.choice(legal),
        )
        if self.table.due(self, prompt.state_id, move):
            self.release(prompt.state_id, move)

    def release(self, state_id: int, move: bytes) -> None:
        """Send a move, later if the server's rate limit asks for it."""
        wait = self.pace()
        if wait > 0:
            self.loop.call_later(wait, self.move, state_id, move)
        else:
            self.move(state_id, move)


async def open_tables(base: str, count: int) -> list[tuple[str, list[str]]]:
    """Create `count` tables of four people; their ids and the four seat tokens."""
    limits = httpx.Limits(max_connections=64)
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


def start_ticks(loads: list[TableLoad], totals: Totals) -> None:
    """Each table's ticks, one every `interval`, at fixed times (a late tick does not
    shift the next), the tables' phases spread evenly over an interval, until play
    stops."""
    loop = asyncio.get_running_loop()
    start = loop.time()

    def tick(load: TableLoad, at: float) -> None:
        if totals.playing:
            load.tick()
            loop.call_at(at + load.interval, tick, load, at + load.interval)

    for n, load in enumerate(loads):
        first = start + load.interval * n / len(loads)
        loop.call_at(first, tick, load, first)


async def measure(
    base: str, pid: int, count: int, seconds: float, interval_ms: float = 0.0
) -> dict[str, Any]:
    """One run against the server at `base` (process `pid`): `count` tables, each
    offering a move every `interval_ms` (0: every prompt answered at once)."""
    tables = await open_tables(base, count)
    totals = Totals()
    loop = asyncio.get_running_loop()
    host, port = base.removeprefix("http://").split(":")
    clients: list[Client] = []
    loads: list[TableLoad] = []
    for table_id, tokens in tables:
        load = TableLoad(table_id, interval=interval_ms / 1000)
        loads.append(load)
        for seat, token in enumerate(tokens):
            clients.append(Client(f"/ws/{table_id}", f"{host}:{port}", token, seat, load, totals))
    opening = asyncio.Semaphore(64)

    async def open_one(client: Client) -> None:
        async with opening:
            await loop.create_connection(lambda: client, host, int(port))
            await client.ready

    await asyncio.wait_for(asyncio.gather(*(open_one(c) for c in clients)), 900)
    totals.playing = True
    if interval_ms > 0:
        start_ticks(loads, totals)
    for client in clients:
        waiting, client.waiting = client.waiting, []
        for frame in waiting:
            client.frame(frame)
    # Warm up: every connection greeted and, on average, one move per table made, so
    # that the measured seconds are play, not the storm of connections.
    warm_until = time.monotonic() + 120
    while totals.warm < count and time.monotonic() < warm_until:
        await asyncio.sleep(0.2)
    # The clients' own cyclic garbage collector stays off while measuring: a full
    # collection in this process (about 70 ms at 500 tables, with the 2,000 clients'
    # objects) stalls every client at once and was measured as the server's latency,
    # several hundred moves' worth, enough to set the p99 alone. What the clients make
    # while playing (frames, decoded messages, the moves in flight) holds no cycles, so
    # reference counting frees it as before. (Not a collection first: its pause would
    # land on the moves in flight as measuring starts.)
    gc.disable()
    cpu0, wall0, mine0 = cpu_seconds(pid), time.perf_counter(), time.process_time()
    loop0 = cpu_seconds(pid, pid)
    waited0, steal0 = runqueue_seconds(pid), steal_seconds()
    totals.measuring = True
    print(f"... {count} tables: measuring", file=sys.stderr, flush=True)
    # The event loop's CPU, read every half second for the timeline (`--plot`).
    # (Each sample aims at its own multiple of the window, so that one sample's lateness
    # does not shift the rest; only seconds that are not a multiple of the window leave a
    # shorter last piece.)
    samples = [(wall0, loop0)]
    try:
        for k in range(1, max(1, math.ceil(seconds / WINDOW)) + 1):
            aim = wall0 + min(k * WINDOW, seconds)
            await asyncio.sleep(max(0.0, aim - time.perf_counter()))
            samples.append((time.perf_counter(), cpu_seconds(pid, pid)))
    finally:
        gc.enable()
    totals.measuring = False
    cpu1, wall1, mine1 = cpu_seconds(pid), time.perf_counter(), time.process_time()
    loop1 = cpu_seconds(pid, pid)
    waited1, steal1 = runqueue_seconds(pid), steal_seconds()
    memory = rss_mib(pid)
    totals.playing = False  # the ticks stop
    for client in clients:
        client.stopped = True
        if client.transport is not None:
            client.transport.close()
    lat = sorted(totals.latencies)

    return {
        "tables": count,
        "clients": 4 * count,
        "offered_per_s": count * 1000 / interval_ms if interval_ms > 0 else math.nan,
        "moves_per_s": totals.moves / (wall1 - wall0),
        "p50_ms": percentile_ms(lat, 0.50),
        "p99_ms": percentile_ms(lat, 0.99),
        "mean_ms": statistics.fmean(lat) * 1000 if lat else float("nan"),
        "server_cpu_pct": 100 * (cpu1 - cpu0) / (wall1 - wall0),
        "server_waited_pct": 100 * (waited1 - waited0) / (wall1 - wall0),
        "steal_pct": 100 * (steal1 - steal0) / (wall1 - wall0),
        "server_ms_per_move": 1000 * (cpu1 - cpu0) / max(1, totals.moves),
        "loop_ms_per_move": 1000 * (loop1 - loop0) / max(1, totals.moves),
        "server_rss_mib": memory,
        "clients_cpu_pct": 100 * (mine1 - mine0) / (wall1 - wall0),
        "frames_per_move": totals.frames / max(1, totals.moves),
        "bytes_per_move": totals.received / max(1, totals.moves),
        "refusals": totals.errors,
        "lost": totals.lost,
        "timeline": timeline(samples, totals.finished, totals.latencies),
    }


WINDOW = 0.5
"""Seconds per point of the timeline."""


def percentile_ms(ordered: list[float], q: float) -> float:
    """The q-quantile of sorted latencies in seconds, in ms (NaN for none)."""
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else math.nan


def timeline(
    samples: list[tuple[float, float]], finished: list[float], latencies: list[float]
) -> list[dict[str, float]]:
    """The measured seconds cut at the samples of the event loop's CPU (about every
    `WINDOW` seconds): per piece, moves a second, p50 and p99 of the moves that reached
    their last seat in it, and the share of a core the server's event loop used. A run's
    p99 can come from a few slow seconds; this shows which."""
    points = []
    moves = sorted(zip(finished, latencies, strict=True))
    i = 0
    for (t0, cpu0), (t1, cpu1) in zip(samples, samples[1:], strict=False):
        if t1 <= t0:
            continue
        piece = []
        while i < len(moves) and moves[i][0] < t1:
            if moves[i][0] >= t0:
                piece.append(moves[i][1])
            i += 1
        piece.sort()
        points.append(
            {
                "t": (t0 + t1) / 2 - samples[0][0],
                "moves_per_s": len(piece) / (t1 - t0),
                "p50_ms": percentile_ms(piece, 0.50),
                "p99_ms": percentile_ms(piece, 0.99),
                "loop_cpu_pct": 100 * (cpu1 - cpu0) / (t1 - t0),
            }
        )
    return points


def plot_timelines(rows: list[dict[str, Any]], path: Path) -> None:
    """Three panels over the measured seconds, a line per run: moves a second, the
    event loop's CPU, and p99 (p50 pale) against the target. If the loop stays at a
    full core while moves a second fall, each move cost more CPU: the machine, not a
    pause of the server."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(10, 8), layout="constrained")
    rate, cpu, latency = fig.subplots(3, 1, sharex=True)
    colours: dict[str, str] = {}
    runs: dict[str, int] = {}
    for row in rows:
        build = str(row["server"])
        colour = colours.setdefault(build, f"C{len(colours)}")
        runs[build] = runs.get(build, 0) + 1
        style = ("-", "--", ":", "-.")[(runs[build] - 1) % 4]
        points = row["timeline"]
        t = [p["t"] for p in points]
        label = f"{build}, run {runs[build]}"
        rate.plot(t, [p["moves_per_s"] for p in points], style, color=colour, label=label)
        cpu.plot(t, [p["loop_cpu_pct"] for p in points], style, color=colour)
        latency.plot(t, [p["p99_ms"] for p in points], style, color=colour)
        latency.plot(t, [p["p50_ms"] for p in points], style, color=colour, alpha=0.35)
    latency.axhline(100, color="black", linewidth=1, linestyle="--")
    latency.text(
        0.01,
        101,
        "target: p99 100 ms",
        fontsize=8,
        va="bottom",
        transform=latency.get_yaxis_transform(),
    )
    rate.set_ylabel("moves a second")
    rate.set_ylim(bottom=0)
    rate.legend(fontsize=8, ncols=3, loc="lower right")
    cpu.set_ylabel("server event loop,\n% of a core")
    cpu.set_ylim(0, 110)
    latency.set_ylabel("latency, ms\n(p99; p50 pale)")
    latency.set_ylim(bottom=0)
    latency.set_xlabel(f"seconds into the measured time ({WINDOW:g} s a point)")
    for axes in (rate, cpu, latency):
        axes.grid(alpha=0.3)
    fig.suptitle(f"bluffdice serve, {rows[0]['tables']} tables of 4 websocket clients")
    save_figure(fig, path)


def loop_factory() -> Any:
    """uvloop for the clients when it is installed (the `fast` extra), as the server
    uses it then too; else asyncio's own loop."""
    try:
        import uvloop
    except ImportError:
        return asyncio.new_event_loop
    return uvloop.new_event_loop


def loop_name() -> str:
    return "uvloop" if loop_factory() is not asyncio.new_event_loop else "asyncio"


def server_build(python: str) -> str:
    """`mypyc` when that interpreter's bluffdice has its per-move path compiled (the
    optional build, docs/web.md), else `pure`; an error if it has no bluffdice."""
    probe = (
        "try:\n import bluffdice.server.tables as h\n"
        "except ImportError:\n import bluffdice.server.hall as h\n"
        "print(h.__file__)"
    )
    try:
        found = subprocess.run([python, "-c", probe], capture_output=True, text=True)
    except OSError as error:
        sys.exit(f"error: --server {python}: {error.strerror}")
    if found.returncode != 0:
        sys.exit(f"error: {python} cannot import bluffdice: {found.stderr.strip()[-300:]}")
    return "pure" if found.stdout.strip().endswith(".py") else "mypyc"


def start_server(
    folder: Path, python: str = sys.executable, limits: bool = True, as_served: bool = False
) -> tuple[subprocess.Popen[bytes], str]:
    """`bluffdice serve` in its own process and its base URL, once it answers. Its limits
    are on, but for the per-address caps (every client here is 127.0.0.1); `as_served`
    keeps those too (bench_abuse.py), `limits=False` drops them all."""
    port = free_port()
    folder.mkdir(parents=True, exist_ok=True)
    command = [
        python,
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
    if not as_served:
        # Every client comes from 127.0.0.1 here: the per-address caps would stop the
        # benchmark at 10 tables; every other limit stays on, as served.
        for cap in ("tables_per_address", "connections_per_address", "tables"):
            command += ["--limit", f"{cap}=1000000"]
        command += ["--limit", "connections_per_table=1000000"]
    if not limits:
        command.append("--no-limits")
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return process, answering(process, port, "the server")


def answering(process: subprocess.Popen[bytes], port: int, what: str) -> str:
    """The base URL of a server just started, once it answers; it is killed if it does
    not within three minutes."""
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and process.poll() is None:
        try:
            httpx.get(f"{base}/api/tables", timeout=1)
            return base
        except httpx.HTTPError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit(f"{what} did not start")


RELAY = "relay"
"""The reference's name in the table."""


class RelayMove(msgspec.Struct):
    """What the relay reads of a move: the state it answers and the action, kept raw."""

    type: str
    state_id: int
    action: msgspec.Raw


_relay_move = msgspec.json.Decoder(RelayMove)
MIA_VALUES = (31, 32, 41, 42, 43, 51, 52, 53, 54, 61, 62, 63, 64, 65, 11, 22, 33, 44, 55, 66, 21)
RELAY_ACTIONS = [{"type": "mia.announce", "value": v} for v in MIA_VALUES] + [
    {"type": "mia.challenge"},
    {"type": "mia.give-up"},
]
"""The legal actions of every prompt the relay sends: a Mia announcer's after a roll."""


@dataclass
class RelayTable:
    """A relay table: four seat tokens, the websockets of the seats that said hello, the
    state id and whose turn it is. No game: any move of the seat to move, at the current
    state, is the next state."""

    id: str
    tokens: list[str] = field(default_factory=list)
    sockets: dict[int, Any] = field(default_factory=dict)
    state_id: int = 1
    turn: int = 0

    def view(self, seat: int, legal: bool) -> dict[str, Any]:
        """A view about the size of a Mia seat's (the fields of a game, canned values)."""
        return {
            "type": "relay.view",
            "rules": "mia(lives=99)",
            "player": seat,
            "players": 4,
            "state_id": self.state_id,
            "phase": "announce",
            "turn": self.turn,
            "round": 1,
            "lives": [99, 99, 99, 99],
            "score": [99, 99, 99, 99],
            "drinks": [0, 0, 0, 0],
            "out": [False, False, False, False],
            "announced": 31,
            "announcer": (self.turn - 1) % 4,
            "calls": [
                {"player": (self.turn - n) % 4, "kind": "announce", "value": 31} for n in (3, 2, 1)
            ],
            "my_dice": None,
            "looked": False,
            "legal_actions": RELAY_ACTIONS if legal else [],
            "last_round": None,
            "result": None,
            "game": "mia",
        }

    def prompt(self) -> dict[str, Any]:
        state, seat = self.state_id, self.turn
        view = self.view(seat, True)
        return {
            "type": "prompt",
            "seat": seat,
            "state_id": state,
            "time_left": None,
            "view": view,
            "v": 1,
        }

    def moved(self, mover: int, action: msgspec.Raw) -> list[tuple[Any, str]]:
        """After a move: each seat's websocket and its frame (a JSON array: the update
        and whose turn it is, and for the seat to move next its prompt), as the server
        writes one frame per seat per turn of its loop."""
        self.state_id += 1
        self.turn = (mover + 1) % 4
        # the move and, as after most Mia moves, the roll that follows it
        events = [
            {"type": "relay.moved", "player": mover, "action": action},
            {"type": "relay.rolled", "player": self.turn},
        ]
        turn = {
            "type": "turn",
            "seat": self.turn,
            "state_id": self.state_id,
            "time_left": None,
            "v": 1,
        }
        frames = []
        for seat, websocket in self.sockets.items():
            update = {
                "type": "update",
                "recipient": seat,
                "state_id": self.state_id,
                "events": events,
                "view": self.view(seat, False),
                "chance": None,
                "v": 1,
            }
            messages = [update, turn, self.prompt()] if seat == self.turn else [update, turn]
            frames.append((websocket, msgspec.json.encode(messages).decode()))
        return frames


def relay_app() -> Any:
    """The reference: a bare Starlette application with the lobby calls the clients make
    (create a table, join it) and a websocket route that relays. A seat's first message
    is the hello with its token (answered with a welcome, and the prompt if it is that
    seat's turn); each move of the seat to move is one message in and four frames out.
    Written the ordinary Starlette way (a routed endpoint, `receive_text`, `send_text`):
    no game, no store, no limits."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    tables: dict[str, RelayTable] = {}

    def seat_token(table: RelayTable) -> str:
        table.tokens.append(base64.urlsafe_b64encode(os.urandom(12)).decode())
        return table.tokens[-1]

    async def listing(request: Request) -> JSONResponse:
        return JSONResponse([])

    async def create(request: Request) -> JSONResponse:
        table = RelayTable(base64.urlsafe_b64encode(os.urandom(12)).decode())
        tables[table.id] = table
        return JSONResponse({"id": table.id, "token": seat_token(table)})

    async def join(request: Request) -> JSONResponse:
        table = tables[request.path_params["id"]]
        return JSONResponse({"token": seat_token(table)})

    async def seat(websocket: WebSocket) -> None:
        await websocket.accept()
        table = tables[websocket.path_params["id"]]
        hello = msgspec.json.decode(await websocket.receive_text())
        me = table.tokens.index(hello["token"])
        table.sockets[me] = websocket
        welcome: list[dict[str, Any]] = [{"type": "welcome", "recipient": me, "v": 1}]
        if me == table.turn:
            welcome.append(table.prompt())
        await websocket.send_text(msgspec.json.encode(welcome).decode())
        try:
            while True:
                move = _relay_move.decode(await websocket.receive_text())
                if me == table.turn and move.state_id == table.state_id:
                    for other, frame in table.moved(me, move.action):
                        await other.send_text(frame)
        except WebSocketDisconnect:
            table.sockets.pop(me, None)

    return Starlette(
        routes=[
            Route("/api/tables", listing, methods=["GET"]),
            Route("/api/tables", create, methods=["POST"]),
            Route("/api/tables/{id}/join", join, methods=["POST"]),
            WebSocketRoute("/ws/{id}", seat),
        ]
    )


def serve_relay(port: int) -> None:
    """Run the relay under uvicorn with the websocket settings `bluffdice serve` uses."""
    import uvicorn

    uvicorn.run(
        relay_app(),
        host="127.0.0.1",
        port=port,
        ws="websockets-sansio",
        ws_max_size=64 * 1024,
        ws_per_message_deflate=False,
        log_level="warning",
    )


def start_relay(python: str = sys.executable) -> tuple[subprocess.Popen[bytes], str]:
    """The relay in its own process (this script, `--serve-relay PORT`) and its base URL."""
    port = free_port()
    command = [python, str(Path(__file__).resolve()), "--serve-relay", str(port)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return process, answering(process, port, "the relay")


def split(moves: int = 20_000, tables: int = 100) -> list[tuple[str, float]]:
    """Server CPU per move (ms) of the work a move causes without the network, in
    layers: the table alone (the move, its four per-seat updates, the next prompt),
    then encoded, then the hall's whole path (decode, table, encode, one frame per
    seat, no store), then with the SQLite store committing once per move and once per
    ten (the server commits once per turn of its loop, which holds one move when idle
    and many when busy). What the full benchmark's CPU/move has beyond that is the
    websocket and the event loop."""
    from bluffdice.server import Connection, Hall
    from bluffdice.store import Store
    from bluffdice.store.tables import TableStore
    from bluffdice.table import Table, encode, seeded

    gc.freeze()
    gc.set_threshold(20_000, 10, 10)  # as `bluffdice serve` runs
    rng = random.Random(1)

    def pick(view: Any) -> Any:
        legal = [a for a in view.legal_actions if type(a).__name__ != "Look"]
        return rng.choice(legal or list(view.legal_actions))

    def table_only(encoded: bool) -> float:
        boards = [Table(RULES, 4, dice=seeded(n)) for n in range(tables)]
        start = time.process_time()
        for n in range(moves):
            table = boards[n % tables]
            pending = table.pending()
            assert pending is not None
            before = len(table.log)
            table.submit(pending.seat, pending.state_id, pick(pending.view))
            for entry in table.log[before:]:
                for seat in range(4):
                    update = table.update_for(entry, seat)
                    if encoded and update is not None:
                        encode(update)
            prompt = table.prompt()
            if encoded and prompt is not None:
                encode(prompt)
                msgspec.json.encode({"type": "turn", "seat": prompt.seat, "v": 1})
        return (time.process_time() - start) * 1000 / moves

    async def hall_path(store: TableStore | None, per_commit: int = 1) -> float:
        hall = Hall(store, dice=lambda: seeded(rng.randrange(1 << 30)))
        # the end of a turn of the loop (servers before frames were batched: commit)
        end_turn = getattr(hall, "end_turn", hall.commit)
        seated = []
        for _ in range(tables):
            made = hall.create({"rules": RULES, "seats": [{"kind": "human"}] * 4, "name": "a"})
            live = hall.tables[made["id"]]
            for name in "bcd":
                live.claim(name)
            connections = [Connection(seat, hall=hall) for seat in range(4)]
            for connection in connections:
                live.connect(connection)
            seated.append((live, connections))
        end_turn()
        touched: list[list[Connection]] = []
        start = time.process_time()
        for n in range(moves):
            live, connections = seated[n % tables]
            assert live.table is not None
            pending = live.table.pending()
            assert pending is not None
            move = {"type": "move", "state_id": pending.state_id, "action": pick(pending.view)}
            live.receive(connections[pending.seat], msgspec.json.encode(move))
            touched.append(connections)
            if len(touched) == per_commit:
                end_turn()
                for told in touched:
                    for connection in told:
                        connection.queue.clear()
                touched.clear()
        return (time.process_time() - start) * 1000 / moves

    folder = Path(tempfile.mkdtemp(prefix="bench-split-"))
    try:
        store = TableStore(Store(str(folder / "split.db")).engine)
        return [
            ("table", table_only(False)),
            ("table + encode", table_only(True)),
            ("hall, no store", asyncio.run(hall_path(None))),
            ("hall + SQLite, a commit per move", asyncio.run(hall_path(store))),
            ("... a commit per 10 moves", asyncio.run(hall_path(store, 10))),
        ]
    finally:
        shutil.rmtree(folder, ignore_errors=True)


METRICS = (
    ("server_ms_per_move", "CPU/move"),
    ("p50_ms", "p50"),
    ("p99_ms", "p99"),
    ("moves_per_s", "moves/s"),
)
"""What each pair compares, server over relay, and its name in the summary."""


def run_once(python: str, side: str, limited: bool, count: int, args: Any) -> dict[str, Any]:
    """One run of one side (a server, or the relay) at `count` tables, in a fresh process."""
    folder = Path(tempfile.mkdtemp(prefix="bench-server-"))
    if side == RELAY:
        process, base = start_relay(python)
    else:
        process, base = start_server(folder, python, limited)
    try:
        with asyncio.Runner(loop_factory=loop_factory()) as runner:
            row = runner.run(measure(base, process.pid, count, args.seconds, args.interval_ms))
    finally:
        process.terminate()
        process.wait(10)
        shutil.rmtree(folder, ignore_errors=True)
    return {"server": side, **row}


def compared(rows: list[dict[str, Any]], side: str, count: int) -> dict[str, list[float]]:
    """The pairs' ratios, `side` over the relay, at one size, by metric: the n-th run of
    each side makes the n-th pair. A pair whose relay figure is 0 has no ratio: in a
    short run the relay's CPU can stay under one tick of the kernel's CPU clock (10 ms)."""
    ours = [r for r in rows if r["server"] == side and r["tables"] == count]
    theirs = [r for r in rows if r["server"] == RELAY and r["tables"] == count]
    pairs = list(zip(ours, theirs, strict=True))
    return {key: [a[key] / b[key] for a, b in pairs if b[key] > 0] for key, _ in METRICS}


def spread(values: list[float]) -> str:
    if not values:
        return "n/a (the reference measured 0)"
    return f"{statistics.median(values):.2f} [{min(values):.2f}-{max(values):.2f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[100, 300, 500])
    parser.add_argument("--seconds", type=float, default=10.0, help="measured seconds per run")
    parser.add_argument(
        "--interval-ms",
        type=float,
        default=250.0,
        help="each table offers a move every this many ms, open loop, the same for every "
        "side (default 250); 0: every prompt is answered at once, as fast as each side goes",
    )
    parser.add_argument(
        "--reference",
        choices=(RELAY, "none"),
        default=RELAY,
        help="relay (default): each run of a server is paired with a run of a bare "
        "Starlette + uvicorn websocket relay, the same clients at the same offered load, "
        "the order swapped each pair; none: the server alone",
    )
    parser.add_argument(
        "--split",
        action="store_true",
        help="only the server's CPU per move without the network, layer by layer",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=3,
        help="runs of each size and side (with the relay: pairs); the median p99 of the "
        "largest size is held against the target (the same code on this machine varies by "
        "a fifth from one run to the next)",
    )
    parser.add_argument(
        "--server",
        nargs="+",
        default=[sys.executable],
        metavar="PYTHON",
        help="run the server with these interpreters' bluffdice (default: this one), e.g. "
        "a venv with the compiled build beside one without: their runs alternate, one "
        "size at a time, so both meet the machine in the same state",
    )
    parser.add_argument(
        "--limits",
        choices=("on", "off", "both"),
        default="on",
        help="the server's limits on (all but the per-address caps, since every client "
        "here is 127.0.0.1), off (--no-limits), or both, alternating one size at a time, "
        "with the ratio of CPU per move, on / off",
    )
    parser.add_argument(
        "--plot",
        metavar="FILE",
        help="also draw the runs of the largest size over their measured seconds (moves a "
        "second, the event loop's CPU, p50 and p99 per half second) as a PNG or SVG",
    )
    parser.add_argument(
        "--json", action="store_true", help="also one JSON line per size and metric compared"
    )
    parser.add_argument("--serve-relay", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_relay is not None:
        serve_relay(args.serve_relay)
        return
    if args.reference == RELAY and args.interval_ms <= 0 and not args.split:
        sys.exit(
            "error: --reference relay compares at one paced load: give --interval-ms above 0 "
            "or --reference none"
        )
    if args.plot is not None:
        try:
            check_plot_path(args.plot)  # before minutes of load, not after
        except BluffdiceError as error:
            sys.exit(f"error: --plot: {error}")
    if args.split:
        print("server CPU per move without the network (in this process):")
        for name, ms in split():
            print(f"{name:>32} {ms:6.3f} ms")
        return
    servers: list[tuple[str, str, bool]] = []
    modes = {"on": [True], "off": [False], "both": [True, False]}[args.limits]
    for python in args.server:
        build = server_build(python)
        taken = [b for _, b, _ in servers if b.split("#")[0] == build]
        name = f"{build}#{len(taken) + 1}" if taken else build
        for limited in modes:
            shown = name if args.limits != "both" else f"{name}{'+lim' if limited else '-lim'}"
            servers.append((python, shown, limited))
    sides = servers + ([(sys.executable, RELAY, False)] if args.reference == RELAY else [])
    rows = []
    for count in args.tables:
        for run in range(max(1, args.repeat)):
            for python, side, limited in sides if run % 2 == 0 else sides[::-1]:
                rows.append(run_once(python, side, limited, count, args))
                summary = {k: v for k, v in rows[-1].items() if k != "timeline"}
                print(f"... {count} tables, {side}: {summary}", file=sys.stderr)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    pacing = (
        f"each table offers a move every {args.interval_ms:g} ms"
        if args.interval_ms > 0
        else "every prompt answered at once"
    )
    print(
        f"machine: {os.cpu_count()} CPUs (shared with the clients and other work), "
        f"load average {load}; event loop: {loop_name()}; {pacing}"
    )
    header = (
        f"{'server':>10} {'tables':>6} {'clients':>7} {'offered':>7} {'moves/s':>8} "
        f"{'p50 ms':>7} {'p99 ms':>7} {'server CPU':>10} {'CPU/move':>8} {'loop':>7} "
        f"{'waited':>6} {'server RSS':>10} {'clients CPU':>11} {'frames/move':>11} "
        f"{'bytes/move':>10} {'refused':>7} {'lost':>4} {'steal':>5}"
    )
    print(header)
    for r in rows:
        print(
            f"{r['server']:>10} {r['tables']:>6} {r['clients']:>7} {r['offered_per_s']:>7.0f} "
            f"{r['moves_per_s']:>8.0f} {r['p50_ms']:>7.1f} {r['p99_ms']:>7.1f} "
            f"{r['server_cpu_pct']:>9.0f}% {r['server_ms_per_move']:>5.2f} ms "
            f"{r['loop_ms_per_move']:>4.3f} {r['server_waited_pct']:>5.0f}% "
            f"{r['server_rss_mib']:>7.0f} MiB {r['clients_cpu_pct']:>10.0f}% "
            f"{r['frames_per_move']:>11.1f} {r['bytes_per_move']:>10.0f} "
            f"{r['refusals']:>7} {r['lost']:>4} {r['steal_pct']:>4.0f}%"
        )
    if args.limits == "both":
        on = [r for r in rows if r["server"].endswith("+lim")]
        off = [r for r in rows if r["server"].endswith("-lim")]
        pairs = zip(on, off, strict=True)
        ratios = [a["server_ms_per_move"] / b["server_ms_per_move"] for a, b in pairs]
        if ratios:
            print(f"limits on / off, CPU per move: {spread(ratios)} over {len(ratios)} pairs")
    if args.reference == RELAY:
        print("server / relay, median [min-max] of the pairs' ratios:")
        for _, side, _ in servers:
            for count in args.tables:
                by_metric = compared(rows, side, count)
                shown = ", ".join(f"{name} {spread(by_metric[key])}" for key, name in METRICS)
                print(f"  {side}, {count} tables: {shown} ({len(by_metric['p99_ms'])} pairs)")
                if args.json and all(by_metric.values()):
                    print_json(rows, side, count, by_metric, args.interval_ms)
    for _, side, _ in sides:
        largest = [r for r in rows if r["tables"] == max(args.tables) and r["server"] == side]
        p99s = sorted(r["p99_ms"] for r in largest)
        print(
            f"{side}, {largest[0]['tables']} tables: median p99 "
            f"{statistics.median(p99s):.1f} ms over {len(p99s)} runs "
            f"({', '.join(f'{p:.1f}' for p in p99s)}); median "
            f"{statistics.median(r['moves_per_s'] for r in largest):.0f} moves/s"
        )
    if args.plot is not None:
        try:
            plot_timelines([r for r in rows if r["tables"] == max(args.tables)], Path(args.plot))
        except BluffdiceError as error:  # the table above is printed all the same
            sys.exit(f"error: --plot: {error}")
        print(f"plot: {args.plot}")
    print(
        "target: 500 tables with p99 < 100 ms; server: pure Python, or mypyc (the "
        "optional compiled build), or relay (the reference: a bare Starlette + uvicorn "
        "websocket relay, no game, no store); offered: moves a second the tables offer; "
        "loop: the CPU per move (ms) of the server's event-loop thread alone, the one that "
        "every move waits for; waited: the server ready to run but without a CPU; steal: a "
        "core's time the hypervisor gave elsewhere"
    )


def print_json(
    rows: list[dict[str, Any]],
    side: str,
    count: int,
    ratios: dict[str, list[float]],
    interval_ms: float,
) -> None:
    """One line per metric for benchmarks/table.py: both sides' medians and the ratio's."""
    for key, name in METRICS:
        ours = [r[key] for r in rows if r["server"] == side and r["tables"] == count]
        theirs = [r[key] for r in rows if r["server"] == RELAY and r["tables"] == count]
        print(
            json.dumps(
                {
                    "side": side,
                    "tables": count,
                    "interval_ms": interval_ms,
                    "metric": name,
                    "ours": statistics.median(ours),
                    "reference": statistics.median(theirs),
                    "ratio": statistics.median(ratios[key]),
                    "ratio_min": min(ratios[key]),
                    "ratio_max": max(ratios[key]),
                    "pairs": len(ratios[key]),
                }
            )
        )


if __name__ == "__main__":
    main()
