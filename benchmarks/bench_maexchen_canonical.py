"""The Mäxchen server side by side with the canonical contest server, in one run.

    python benchmarks/bench_maexchen_canonical.py --canonical DIR
        [--pairs 3] [--seconds 15] [--json]

DIR is a checkout of the `server/` folder of the original contest's repository
(conradthukral/maexchen on GitHub); without `--canonical` it is read from the environment
variable BLUFFDICE_CANONICAL_MAEXCHEN. When its `node_modules` is missing, `npm ci`
installs the versions its package-lock.json pins. Without node, npm or the folder the
benchmark prints `skipped: ...` and exits 0.

Both servers run in their own process on 127.0.0.1 with the same 4 bots: the example
bot's strategy (examples/maexchen_bot.py) with its answers worked out beforehand, all in
one further process reading raw sockets, so the bots cost as little as a bot can and the
same for both. Both start a round as soon as every invited player joined: bluffdice by
default, the canonical server with its `startRoundsEarly` argument (`lib/index.coffee
PORT true 250`, as its own start script reads it; it logs every message to standard
output, which goes to /dev/null here). The runs alternate, the order swapped every pair
(bluffdice first, then canonical first, ...), so a machine whose speed drifts favours
neither. Rounds are counted as the bots hear them (`PLAYER LOST` lines), the servers'
CPU time is read from /proc of their processes.

With `--json` standard output carries only JSON lines, one a metric (rounds/s, server
CPU per 1,000 rounds): each side's median, the median and range of the per-pair ratios
bluffdice / canonical and the ratio's target; the table and the progress go to standard
error.

Figures depend on the machine and on what else runs on it: the `others` and `steal`
columns say how many cores other processes and the hypervisor took meanwhile; quote them
with the ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import multiprocessing
import os
import selectors
import shutil
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from multiprocessing.sharedctypes import Synchronized
from pathlib import Path
from typing import Any

from bench_maexchen import cpu_seconds, example_bot, machine_cpu
from bluffdice.maexchen.server import MaexchenServer, Options, dice_source, loop_factory

ENVIRONMENT = "BLUFFDICE_CANONICAL_MAEXCHEN"
BOTS = 4
WHAT = f"Mäxchen server against the canonical contest server, {BOTS} bots, early start"
# A measurement's key, the metric's name, its unit, the target of bluffdice / canonical
METRICS = (
    ("rounds/s", "rounds/s", "rounds/s", ">= 2"),
    ("server cpu", "server CPU per 1,000 rounds", "CPU s per 1,000 rounds", "<= 0.5"),
)


# --- the bots ------------------------------------------------------------------------------


def _dice_values() -> dict[bytes, int]:
    """Dice as both servers write them (`5,3`; either order) and their value, 53."""
    return {
        f"{a},{b}".encode(): 10 * max(a, b) + min(a, b) for a in range(1, 7) for b in range(1, 7)
    }


def answer_tables() -> tuple[dict[int, bytes], dict[tuple[int, bytes], bytes]]:
    """The example bot's decisions, worked out for every case beforehand: for each last
    announcement (0: none yet) the answer to `YOUR TURN` (SEE or ROLL), and for each last
    announcement and roll the `ANNOUNCE` it makes (the token is appended)."""
    bot = example_bot()
    ranking: list[int] = bot.RANKING
    see_below = bot.Strategy().see_below
    turn = {0: b"ROLL;"}
    claims: dict[tuple[int, bytes], bytes] = {}
    for last in [0, *ranking]:
        if last:
            turn[last] = b"SEE;" if bot.chance_to_beat(last) < see_below else b"ROLL;"
        for text, value in _dice_values().items():
            claim = value
            if last and bot.rank(claim) <= bot.rank(last):
                claim = ranking[min(bot.rank(last) + 1, len(ranking) - 1)]
            claims[(last, text)] = f"ANNOUNCE;{claim // 10},{claim % 10};".encode()
    return turn, claims


def _register(sock: socket.socket, name: str, deadline: float) -> None:
    """REGISTER until the server answers REGISTERED (it may still be starting)."""
    sock.settimeout(0.2)
    while time.monotonic() < deadline:
        try:
            sock.send(f"REGISTER;{name}".encode())
            while True:
                if sock.recv(1024) == b"REGISTERED":
                    sock.setblocking(False)
                    return
        except (TimeoutError, ConnectionRefusedError):
            continue
    raise RuntimeError(f"{name} could not register")


def bots_process(port: int, seconds: float, rounds: Synchronized[int]) -> None:
    """BOTS bots for at most `seconds`: a blocking select loop over their sockets, each
    datagram answered from `answer_tables`. `rounds`: the rounds bot 0 saw end."""
    turn, claims = answer_tables()
    values = _dice_values()
    selector = selectors.DefaultSelector()
    deadline = time.monotonic() + 60
    for i in range(BOTS):
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.bind(("127.0.0.1", 0))
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 22)
        sock.connect(("127.0.0.1", port))
        _register(sock, f"bench{i}", deadline)
        selector.register(sock, selectors.EVENT_READ, [i, 0])  # [bot, last announcement]
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for key, _ in selector.select(1.0):
            ready, state = key.fileobj, key.data
            assert isinstance(ready, socket.socket)
            while True:
                try:
                    data = ready.recv(1024)
                except BlockingIOError:
                    break
                except OSError:
                    break  # the server went away for a moment: ICMP port unreachable
                if data.startswith(b"ROUND STARTING;"):
                    ready.send(b"JOIN;" + data[15:])
                elif data.startswith(b"YOUR TURN;"):
                    ready.send(turn[state[1]] + data[10:])
                elif data.startswith(b"ROLLED;"):
                    ready.send(claims[(state[1], data[7:10])] + data[11:])
                elif data.startswith(b"ANNOUNCED;"):
                    state[1] = values[data[-3:]]
                elif data.startswith(b"ROUND STARTED;"):
                    state[1] = 0
                elif data.startswith(b"PLAYER LOST;") and state[0] == 0:
                    rounds.value += 1


# --- the servers ---------------------------------------------------------------------------


def bluffdice_process(port: int, spin: float | None) -> None:
    """The bluffdice server as `bluffdice maexchen` plays (its event loop, system dice,
    the early start), without the contest's store and ratings: a bare server, as the
    canonical one is."""
    options = Options(host="127.0.0.1", port=port)
    if spin is not None:
        options = dataclasses.replace(options, spin=spin)
    dice, shuffle = dice_source(None)

    async def serve() -> None:
        server = MaexchenServer(options, dice, shuffle)
        await server.start()
        await server.run()

    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        runner.run(serve())


class Server:
    """One server process: its pid and how to end it."""

    def __init__(self, pid: int, stop: Callable[[], None]) -> None:
        self.pid = pid
        self.stop = stop


def start_bluffdice(port: int, spin: float | None) -> Server:
    child = multiprocessing.get_context("spawn").Process(
        target=bluffdice_process, args=(port, spin), daemon=True
    )
    child.start()
    assert child.pid is not None, "the process has started"

    def stop() -> None:
        child.terminate()
        child.join(5)

    return Server(child.pid, stop)


def coffee(folder: Path) -> Path | None:
    """The CoffeeScript compiler's command the folder's install holds (the package is
    `coffeescript` since 2.0, `coffee-script` before)."""
    for package in ("coffeescript", "coffee-script"):
        command = folder / "node_modules" / package / "bin" / "coffee"
        if command.is_file():
            return command
    return None


def start_canonical(folder: Path, node: str, port: int) -> Server:
    command = coffee(folder)
    assert command is not None, "prepare() found it"
    process = subprocess.Popen(
        [node, str(command), "lib/index.coffee", str(port), "true", "250"],
        cwd=folder,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )

    def stop() -> None:
        process.terminate()
        process.wait(5)

    return Server(process.pid, stop)


def prepare(folder: Path | None) -> tuple[str, str] | str:
    """(node's path, the folder) ready to run, or the line that says why the benchmark
    cannot run. Runs `npm ci` (the pinned install) when node_modules is missing."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        return "skipped: node and npm are needed to run the canonical server"
    if folder is None:
        return f"skipped: no canonical server folder (--canonical DIR or {ENVIRONMENT})"
    if not (folder / "lib" / "index.coffee").is_file() or not (folder / "package.json").is_file():
        return f"skipped: {folder} is not the canonical server/ folder (no lib/index.coffee)"
    if not (folder / "node_modules").is_dir():
        if not (folder / "package-lock.json").is_file():
            return f"skipped: {folder} has no package-lock.json to install from"
        done = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund"], cwd=folder, capture_output=True, text=True
        )
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["no output"])[-1]
            return f"skipped: npm ci failed in {folder}: {last}"
    if coffee(folder) is None:
        return f"skipped: {folder}/node_modules holds no CoffeeScript compiler"
    return node, str(folder)


# --- measuring -----------------------------------------------------------------------------


def free_udp_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def measure(start: Callable[[int], Server], seconds: float, warmup: float) -> dict[str, float]:
    """Start a server and the bots, let them warm up, then count `seconds` of play."""
    port = free_udp_port()
    server = start(port)
    context = multiprocessing.get_context("spawn")
    rounds = context.Value("q", 0, lock=False)
    bots = context.Process(
        target=bots_process, args=(port, warmup + seconds + 120, rounds), daemon=True
    )
    bots.start()
    try:
        for _ in range(600):
            if rounds.value > 0:
                break
            time.sleep(0.1)
        else:
            raise RuntimeError("no round was played within a minute")
        time.sleep(warmup)
        assert bots.pid is not None, "the bots' process has started"
        before = (rounds.value, cpu_seconds(server.pid), cpu_seconds(bots.pid))
        busy, steal = machine_cpu()
        started = time.perf_counter()
        time.sleep(seconds)
        after = (rounds.value, cpu_seconds(server.pid), cpu_seconds(bots.pid))
        elapsed = time.perf_counter() - started
        busy_after, steal_after = machine_cpu()
    finally:
        bots.terminate()
        bots.join(5)
        server.stop()
    played = after[0] - before[0]
    server_cpu, bots_cpu = after[1] - before[1], after[2] - before[2]
    return {
        "rounds": played,
        "rounds/s": played / elapsed,
        "server cpu": 1000 * server_cpu / played if played else float("nan"),
        "bots cpu": 1000 * bots_cpu / played if played else float("nan"),
        "server busy": server_cpu / elapsed,
        "others": (busy_after - busy - server_cpu - bots_cpu) / elapsed,
        "steal": (steal_after - steal) / elapsed,
    }


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} [{min(values):.2f}-{max(values):.2f}]"


def comparisons(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One summary a metric from the runs' rows (each with "pair", "server" and the
    metrics' keys): both sides' medians and every pair's ratio bluffdice / canonical.
    The ratio is taken within a pair, whose two runs ran back to back, so a machine
    whose speed drifts between pairs moves both sides of a ratio alike."""
    pairs = sorted({int(r["pair"]) for r in rows})

    def run(pair: int, server: str) -> dict[str, Any]:
        return next(r for r in rows if r["pair"] == pair and r["server"] == server)

    summaries = []
    for key, metric, unit, target in METRICS:
        ours = [float(run(pair, "bluffdice")[key]) for pair in pairs]
        theirs = [float(run(pair, "canonical")[key]) for pair in pairs]
        ratios = [a / b for a, b in zip(ours, theirs, strict=True)]
        summaries.append(
            {
                "what": f"{WHAT}: {metric}",
                "metric": metric,
                "ours": statistics.median(ours),
                "theirs": statistics.median(theirs),
                "unit": unit,
                "ratio": statistics.median(ratios),
                "ratio_min": min(ratios),
                "ratio_max": max(ratios),
                "ratios": ratios,
                "pairs": len(pairs),
                "target": target,
            }
        )
    return summaries


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--canonical",
        type=Path,
        default=os.environ.get(ENVIRONMENT) or None,
        help=f"the canonical server/ folder (default: ${ENVIRONMENT})",
    )
    parser.add_argument("--pairs", type=int, default=3, help="runs of each server, alternating")
    parser.add_argument("--seconds", type=float, default=15.0, help="measured seconds a run")
    parser.add_argument("--warmup", type=float, default=2.0, help="seconds before measuring")
    parser.add_argument(
        "--spin", type=float, default=None, help="bluffdice's --spin (default: its own)"
    )
    parser.add_argument(
        "--json", action="store_true", help="JSON lines on stdout, the table on stderr"
    )
    args = parser.parse_args()
    out = sys.stderr if args.json else sys.stdout
    ready = prepare(args.canonical)
    if isinstance(ready, str):
        print(ready, file=out)
        return
    node, folder = ready
    servers: dict[str, Callable[[int], Server]] = {
        "bluffdice": lambda port: start_bluffdice(port, args.spin),
        "canonical": lambda port: start_canonical(Path(folder), node, port),
    }
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    rows: list[dict[str, Any]] = []
    for pair in range(max(1, args.pairs)):
        order = ["bluffdice", "canonical"] if pair % 2 == 0 else ["canonical", "bluffdice"]
        for name in order:
            row = measure(servers[name], args.seconds, args.warmup)
            rows.append({"pair": pair + 1, "server": name, **row})
            print(
                f"pair {pair + 1} {name:<9} {row['rounds/s']:8.1f} rounds/s "
                f"{row['server cpu']:6.3f} server CPU s/1000 rounds",
                file=sys.stderr,
                flush=True,
            )
    print(
        f"\n{BOTS} bots (the example bot's strategy, precomputed, one process), early start, "
        f"127.0.0.1; bluffdice on {loop_factory().__module__.split('.')[0]}'s event loop; "
        f"{args.pairs} pairs of {args.seconds:.0f} s, alternating; load average before: "
        f"{load}, {os.cpu_count()} CPUs",
        file=out,
    )
    print(
        f"{'pair':>4}  {'server':<9} {'rounds':>7} {'rounds/s':>9} {'server CPU s':>12} "
        f"{'bots CPU s':>10} {'busy':>5} {'others':>6} {'steal':>5}",
        file=out,
    )
    for r in rows:
        print(
            f"{r['pair']:>4}  {r['server']:<9} {r['rounds']:>7} {r['rounds/s']:>9.1f} "
            f"{r['server cpu']:>12.3f} {r['bots cpu']:>10.3f} {r['server busy']:>5.0%} "
            f"{r['others']:>6.2f} {r['steal']:>5.2f}",
            file=out,
        )
    summaries = comparisons(rows)
    print(
        f"bluffdice / canonical, median [min-max] over {summaries[0]['pairs']} pairs: "
        + ", ".join(
            f"{s['metric']} {spread(s['ratios'])} (target {s['target']})" for s in summaries
        ),
        file=out,
    )
    print(
        "server/bots CPU s: CPU seconds per 1,000 rounds of the server's and of the bots' "
        "process; busy: the server's CPU over the wall time; others: cores that other "
        "processes used meanwhile; steal: cores the hypervisor took meanwhile",
        file=out,
    )
    if args.json:
        for summary in summaries:
            print(json.dumps(summary), flush=True)


if __name__ == "__main__":
    main()
