"""A person's move latency on `bluffdice serve` while strangers abuse it (issue #31).

    python benchmarks/bench_abuse.py               # 3 pairs: an idle, an abused phase of 8 s
    python benchmarks/bench_abuse.py --pairs 2 --seconds 5

One real `bluffdice serve` process with its default limits (SQLite in a temporary
folder). One person's table of two seats, both played by a scripted websocket client from
127.0.0.1, moves as a person would (a short think, then a legal move); its latency is
from sending a move to both seats having its update. The run is `--pairs` pairs of two
phases, taking turns which goes first: idle (the person alone, the reference) and
abused, where a second process attacks from other loopback
addresses (127.0.0.2 and up) as fast as it can: table creates (people's tables, then
bot-only ones), websocket floods (held open, then churned), bodies over the limit (by
Content-Length and streamed) and reviews of games it finished itself. The attack shares
the machine with the server, as a stranger's script on the same host would (`--decoy`
sends it to a second server instead: the slowdown that remains is the machine's).
Printed: the latency of each phase and of each kind pooled; for each pair both phases'
p99 and their ratio (abused / idle), and the ratios' median [min-max] (target: within
2x); the pooled ratio; what the attacks were answered; and the memory of the server and
of its review workers.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import multiprocessing.synchronize
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

import bench_server
from bench_server import cpu_seconds, rss_mib
from pairs import count, spread

PERSON = "127.0.0.1"
ATTACKERS = [f"127.0.0.{n}" for n in range(2, 250)]
ATTACKS = ["creates", "sockets", "bodies", "reviews"]
THINK = 0.07
"""Seconds the person thinks before each move (two seats stay under the server's
limit of messages a second per connection)."""


def start_server(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    """`bluffdice serve` as served: every limit at its default; its host:port."""
    process, base = bench_server.start_server(folder, as_served=True)
    return process, base.removeprefix("http://")


def client(address: str, source: str) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(local_address=source)
    return httpx.AsyncClient(base_url=f"http://{address}", transport=transport, timeout=30)


# --- the person --------------------------------------------------------------------------


Flight = dict[int, tuple[float, str, set[int]]]
"""One table's moves in flight: the state each was made at, and when, in which phase,
and which seats have heard of it."""


class Person:
    """Plays both seats of a table, table after table (each `play` is one such table at a
    time); keeps each move's latency under the phase it was sent in."""

    def __init__(self, address: str, phase: Callable[[], str]) -> None:
        self.address = address
        self.phase = phase
        self.latencies: dict[str, list[float]] = {}
        self.stopped = False

    async def play(self) -> None:
        async with client(self.address, PERSON) as http:
            while not self.stopped:
                body = {"rules": "mia(lives=99)", "seats": [{"kind": "human"}] * 2, "name": "Ann"}
                made = (await http.post("/api/tables", json=body)).json()
                table = made["id"]
                bob = (await http.post(f"/api/tables/{table}/join", json={"name": "Bob"})).json()
                seats = []
                for token in (made["token"], bob["token"]):
                    ws = await connect(f"ws://{self.address}/ws/{table}", local_addr=(PERSON, 0))
                    await ws.send(json.dumps({"type": "hello", "token": token}))
                    seats.append(ws)
                flight: Flight = {}
                readers = [
                    asyncio.create_task(self.seat(n, ws, flight)) for n, ws in enumerate(seats)
                ]
                await asyncio.wait(readers, return_when=asyncio.FIRST_COMPLETED)
                for task in readers:
                    task.cancel()
                for ws in seats:
                    await ws.close()

    async def seat(self, seat: int, ws: ClientConnection, flight: Flight) -> None:
        """Read one seat's frames until its table ends (the game's length is capped)."""
        while not self.stopped:
            for message in json.loads(await ws.recv()):
                kind = message["type"]
                if kind == "update":
                    self.heard(seat, message["state_id"], flight)
                elif kind == "prompt":
                    asyncio.get_running_loop().call_later(THINK, self.move, ws, message, flight)
                elif kind == "table" and message["status"] in ("finished", "abandoned"):
                    return

    def move(self, ws: ClientConnection, prompt: dict[str, Any], flight: Flight) -> None:
        if self.stopped:
            return
        actions = prompt["view"]["legal_actions"]
        action = next((a for a in actions if a.get("type") != "mia.look"), actions[0])
        flight[prompt["state_id"]] = (time.perf_counter(), self.phase(), set())
        move = {"type": "move", "state_id": prompt["state_id"], "action": action}
        asyncio.ensure_future(ws.send(json.dumps(move)))

    def heard(self, seat: int, state_id: int, flight: Flight) -> None:
        """An update to state U tells a seat of every move made at a state before U."""
        for before, (sent, phase, seen) in list(flight.items()):
            if before < state_id:
                seen.add(seat)
                if len(seen) == 2:
                    del flight[before]
                    self.latencies.setdefault(phase, []).append(time.perf_counter() - sent)


# --- the strangers -----------------------------------------------------------------------


class Attack:
    """The abuses, each a loop that runs while `on` is set; what each was answered is
    counted as "kind: answer"."""

    def __init__(
        self, address: str, on: multiprocessing.synchronize.Event, kinds: list[str]
    ) -> None:
        self.address = address
        self.kinds = kinds
        self.on = on
        self.answers: Counter[str] = Counter()
        self.next_source = 0

    def source(self) -> str:
        self.next_source = (self.next_source + 1) % len(ATTACKERS)
        return ATTACKERS[self.next_source]

    async def active(self) -> None:
        while not self.on.is_set():
            await asyncio.sleep(0.05)

    async def creates(self) -> None:
        people = {"rules": "mia", "seats": [{"kind": "human"}] * 2, "name": "x", "listed": True}
        bots = {"rules": "mia", "seats": [{"kind": "bot", "bot": "honest"}] * 2}
        while True:
            await self.active()
            async with client(self.address, self.source()) as http:
                for body in (people, bots):
                    answer = await http.post("/api/tables", json=body)
                    kind = "create" if body is people else "create bots"
                    self.answers[f"{kind}: {answer.status_code}"] += 1
                self.answers[f"list: {(await http.get('/api/tables')).status_code}"] += 1

    async def sockets(self, table: str) -> None:
        """Connections from one address: up to the cap and one over, held a moment."""
        while True:
            await self.active()
            source = self.source()
            held: list[ClientConnection] = []
            for _ in range(55):  # the default cap per address is 50
                try:
                    # every frame read as it comes (the table's info after each join):
                    # a client that stops reading never sees the server's close
                    ws = await connect(
                        f"ws://{self.address}/ws/{table}", local_addr=(source, 0), max_queue=None
                    )
                except (WebSocketException, OSError) as error:
                    self.answers[f"websocket: {type(error).__name__}"] += 1
                    continue
                held.append(ws)
                try:
                    await ws.send(json.dumps({"type": "hello", "token": None}))
                    first = json.loads(await ws.recv())[0]
                    self.answers[f"websocket: {first.get('code', first['type'])}"] += 1
                except ConnectionClosed:  # refused before the hello got there
                    self.answers[f"websocket: closed {ws.close_code} {ws.close_reason}"] += 1
            await asyncio.sleep(0.2)
            for ws in held:
                await ws.close()

    async def bodies(self) -> None:
        host, port = self.address.split(":")
        heads = [
            "Content-Length: 800000000\r\n",  # 800 MB announced, none sent
            "Transfer-Encoding: chunked\r\n",  # streamed until cut off
        ]
        while True:
            for head in heads:
                await self.active()
                reader, writer = await asyncio.open_connection(
                    host, int(port), local_addr=(self.source(), 0)
                )
                writer.write(
                    f"POST /api/tables HTTP/1.1\r\nHost: {self.address}\r\n{head}\r\n".encode()
                )
                answer = asyncio.ensure_future(reader.readline())
                try:
                    for _ in range(256 if "chunked" in head else 0):  # 4 MiB at most
                        if answer.done():
                            break
                        writer.write(b"4000\r\n" + b"x" * 0x4000 + b"\r\n")
                        await writer.drain()
                except ConnectionError:
                    pass  # the server stopped reading: its answer (or a reset) is below
                try:
                    line = await asyncio.wait_for(answer, 30)
                    status = line.decode().split(" ")[1] if line else "closed unanswered"
                except ConnectionError:
                    status = "reset"
                except TimeoutError:
                    status = "no answer in 30 s"
                finally:
                    writer.close()
                self.answers[f"body: {status}"] += 1

    async def reviews(self) -> None:
        """Finish a short game against a bot, then ask for its review three times at once."""
        body = {
            "rules": "mia(lives=1)",
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "honest"}],
        }
        while True:
            await self.active()
            async with client(self.address, self.source()) as http:
                made = (await http.post("/api/tables", json={**body, "name": "x"})).json()
                if "id" not in made:
                    self.answers["review game: refused"] += 1
                    await asyncio.sleep(0.5)
                    continue
                ws = await connect(f"ws://{self.address}/ws/{made['id']}")
                await ws.send(json.dumps({"type": "hello", "token": made["token"]}))
                over = False
                while not over:
                    for message in json.loads(await ws.recv()):
                        if message["type"] == "prompt":
                            action = message["view"]["legal_actions"][0]
                            move = {
                                "type": "move",
                                "state_id": message["state_id"],
                                "action": action,
                            }
                            await ws.send(json.dumps(move))
                        over = over or (
                            message["type"] == "table" and message["status"] == "finished"
                        )
                await ws.close()
                asked = [http.get(f"/api/replays/{made['id']}/review") for _ in range(3)]
                for answer in await asyncio.gather(*asked):
                    self.answers[f"review: {answer.status_code}"] += 1

    async def run(self, stop: multiprocessing.synchronize.Event) -> Counter[str]:
        async with client(self.address, ATTACKERS[-1]) as http:
            body = {"rules": "mia", "seats": [{"kind": "human"}] * 2, "name": "x"}
            target = (await http.post("/api/tables", json=body)).json()["id"]
        every: dict[str, list[Callable[[], Coroutine[Any, Any, None]]]] = {
            "creates": [self.creates, self.creates],
            "sockets": [lambda: self.sockets(target), lambda: self.sockets("no-such-table")],
            "bodies": [self.bodies],
            "reviews": [self.reviews],
        }
        loops = [loop for kind in self.kinds for loop in every[kind]]
        tasks = [asyncio.ensure_future(loop()) for loop in loops]
        while not stop.is_set():
            await asyncio.sleep(0.1)
            for n, task in enumerate(tasks):
                if task.done():  # an attack that failed is counted and starts over
                    self.answers[f"attack failed: {task.exception()!r}"[:60]] += 1
                    tasks[n] = asyncio.ensure_future(loops[n]())
        for task in tasks:
            task.cancel()
        return self.answers


def attacker(
    address: str,
    on: multiprocessing.synchronize.Event,
    stop: multiprocessing.synchronize.Event,
    out: Any,
    kinds: list[str],
) -> None:
    answers = asyncio.run(Attack(address, on, kinds).run(stop))
    out.put(dict(answers))


# --- the run -----------------------------------------------------------------------------


def children_rss_mib(pid: int) -> float:
    """The memory of a process's children: the server's review workers (they start with
    its first review) and multiprocessing's resource tracker."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return sum(rss_mib(int(child)) for child in children)


def percentile_ms(values: list[float], q: float) -> float:
    return bench_server.percentile_ms(sorted(values), q)


def pair_p99s(latencies: dict[str, list[float]], pairs: int) -> list[tuple[float, float]]:
    """(idle p99 ms, abused p99 ms) of each pair, from the phases named `idle N` and
    `abused N` (N from 1): the ratio is read within a pair, not across the run."""
    return [
        (percentile_ms(latencies[f"idle {n}"], 0.99), percentile_ms(latencies[f"abused {n}"], 0.99))
        for n in range(1, pairs + 1)
    ]


async def phases(
    address: str,
    pid: int,
    pairs: int,
    seconds: float,
    people: int,
    on: multiprocessing.synchronize.Event,
) -> tuple[Person, list[tuple[str, float]], dict[str, float]]:
    current = ["warm-up"]
    person = Person(address, lambda: current[0])
    playing = [asyncio.ensure_future(person.play()) for _ in range(people)]
    await asyncio.sleep(3.0)
    memory = [("start", rss_mib(pid))]
    busy: dict[str, float] = {}
    for n in range(pairs):
        for phase in ("idle", "abused") if n % 2 == 0 else ("abused", "idle"):
            if phase == "abused":
                on.set()
            print(f"... pair {n + 1}/{pairs}: {phase}", file=sys.stderr, flush=True)
            name = current[0] = f"{phase} {n + 1}"
            cpu = cpu_seconds(pid)
            await asyncio.sleep(seconds)
            busy[name] = 100 * (cpu_seconds(pid) - cpu) / seconds
            current[0] = "between"
            on.clear()
            memory.append((f"after {phase} {n + 1}", rss_mib(pid)))
            await asyncio.sleep(1.0)  # the attack's last requests drain
    person.stopped = True
    for task in playing:
        task.cancel()
    return person, memory, busy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--pairs", type=count, default=3, help="pairs of an idle and an abused phase"
    )
    parser.add_argument("--seconds", type=float, default=8.0, help="seconds of each phase")
    parser.add_argument(
        "--people", type=int, default=3, help="tables of one person (two seats) each"
    )
    parser.add_argument(
        "--decoy",
        action="store_true",
        help="the control: the strangers attack a second server process instead, so what "
        "remains of the slowdown is the machine's (its CPUs shared), not the server's",
    )
    parser.add_argument(
        "--attacks",
        nargs="+",
        choices=ATTACKS,
        default=ATTACKS,
        help="the abuses of the abused phases (default: all at once)",
    )
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-abuse-"))
    process, address = start_server(folder)
    decoy = start_server(folder / "decoy") if args.decoy else None
    target = address if decoy is None else decoy[1]
    context = multiprocessing.get_context("spawn")
    on, stop, out = context.Event(), context.Event(), context.Queue()
    strangers = context.Process(target=attacker, args=(target, on, stop, out, args.attacks))
    strangers.start()
    try:
        person, memory, busy = asyncio.run(
            phases(address, process.pid, args.pairs, args.seconds, args.people, on)
        )
        stop.set()
        answers: dict[str, int] = out.get(timeout=60)
        strangers.join(30)
        with httpx.Client(base_url=f"http://{address}") as http:
            alive = http.get("/api/tables").status_code
        workers = children_rss_mib(process.pid)
    finally:
        stop.set()
        if strangers.is_alive():
            strangers.kill()
        for server in (process, *([] if decoy is None else [decoy[0]])):
            server.terminate()
            server.wait(10)
        shutil.rmtree(folder, ignore_errors=True)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"machine: {os.cpu_count()} CPUs (shared with the clients), load average {load}")
    print(
        f"{'phase':>10} {'moves':>6} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} {'server CPU':>10}"
    )
    by_kind: dict[str, list[float]] = {"idle": [], "abused": []}
    rows = [(name, lat) for name, lat in person.latencies.items() if name.split()[0] in by_kind]
    for name, lat in rows:
        by_kind[name.split()[0]] += lat
    p99 = {kind: percentile_ms(lat, 0.99) for kind, lat in by_kind.items()}
    for name, lat in [*rows, *by_kind.items()]:
        print(
            f"{name:>10} {len(lat):>6} {percentile_ms(lat, 0.5):>7.1f} "
            f"{percentile_ms(lat, 0.99):>7.1f} {max(lat, default=float('nan')) * 1000:>7.1f} "
            + (f"{busy[name]:>9.0f}%" if name in busy else "")
        )
    print(f"{'pair':>10} {'idle p99':>9} {'abused p99':>11} {'abused / idle':>14}")
    ratios = []
    for n, (idle, abused) in enumerate(pair_p99s(person.latencies, args.pairs), 1):
        ratios.append(abused / idle)
        print(f"{n:>10} {idle:>9.1f} {abused:>11.1f} {ratios[-1]:>13.2f}x")
    print(f"p99 abused / idle over the pairs: {spread(ratios, 2, 'x')} (target: within 2x)")
    print(f"p99 abused / idle, all phases pooled: {p99['abused'] / p99['idle']:.2f}x")
    print("the attacks were answered:")
    for kind, answered in sorted(answers.items()):
        print(f"  {kind:<40} {answered:>7}")
    print("server RSS: " + ", ".join(f"{name} {mib:.0f} MiB" for name, mib in memory))
    print(f"its review workers' RSS at the end: {workers:.0f} MiB")
    print(f"the server answers /api/tables afterwards: {alive}")
    if decoy is not None:
        print("(--decoy: the attacks went to a second server; the person's did not see them)")


if __name__ == "__main__":
    main()
