"""How fast the Mäxchen server plays, and what hostile datagrams do to it.

    python benchmarks/bench_maexchen.py [--seconds 5] [--fuzz 100000] [--skip-fuzz]

Part 1, rounds per second: the server runs in this process, the bots (the example bot's
strategy, answering at once) in a second process, all over loopback; 4 and 8 bots, with
the early start (a round begins when every player joined) and with the classic full
250 ms join window; the server runs on uvloop's event loop when it is installed, as
`bluffdice maexchen` does (and the 4-bot row once more on asyncio's for comparison). The
target of issue 13 (800 rounds a second with 4 bots) is printed beside the figure, with
what else the machine did meanwhile. That row runs `--repeat` times in pairs with its
no-spin twin (the server sleeping in the event loop at once instead of spinning on its
socket, `--spin 0`: the reference), taking turns which goes first; both sides of each
pair and the ratio's median [min-max] (spin / no spin) are printed. The outside
reference, the canonical contest server, is bench_maexchen_canonical.py's.

Part 2, the fuzz: 4 bots play while hostile datagrams arrive from several loopback
addresses (garbage, huge, wrong encodings, commands with wrong or stolen tokens, name
take-overs, spectator noise) and a flood from one address; afterwards every round must
replay in the engine and every score must be the sum of the rounds.

Figures depend on the machine and its load: say what else ran when you quote them.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import importlib.util
import multiprocessing
import os
import random
import selectors
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, cast

try:
    from bluffdice.maexchen.contest import Contest
    from bluffdice.maexchen.load import check_rounds, check_transcript, fuzz, spectator, swarm
    from bluffdice.maexchen.server import (
        MaexchenServer,
        Options,
        PlayedRound,
        dice_source,
        loop_factory,
    )
except ImportError:  # a tree from before the package moved (bench_host.py's "before")
    from bluffdice.protocol.maexchen_contest import Contest  # type: ignore[no-redef]
    from bluffdice.protocol.maexchen_load import (  # type: ignore[no-redef]
        check_rounds,
        check_transcript,
        fuzz,
        spectator,
        swarm,
    )
    from bluffdice.protocol.maexchen_server import (  # type: ignore[no-redef]
        MaexchenServer,
        Options,
        PlayedRound,
        dice_source,
        loop_factory,
    )
from bluffdice.store import Store
from pairs import count, spread

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "maexchen_bot.py"


def example_bot() -> Any:
    """examples/maexchen_bot.py as a module (examples/ is no package)."""
    spec = importlib.util.spec_from_file_location("maexchen_example_bot", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def example_strategy() -> Any:
    """The example bot's `Strategy` class."""
    return example_bot().Strategy


def _bots_process(port: int, count: int, seconds: float, poll: bool = False) -> None:
    """The bots' process: `count` bots for at most `seconds`, then exit.

    A plain blocking loop over all the bots' sockets, as cheap as a bot can be, so the
    figure measures the server and not an event loop on the bots' side. With `poll` the
    process reads its sockets for up to 0.5 ms before it sleeps, as the server does, so
    the server's lines never have to wake it: what a round costs with no wake-ups on
    either side."""
    strategy = example_strategy()
    server = ("127.0.0.1", port)
    selector = selectors.DefaultSelector()
    for i in range(count):
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.bind(("127.0.0.1", 0))
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 22)
        sock.connect(server)
        sock.send(f"REGISTER;bot{i}".encode())
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ, strategy().reply)
    everybody = [
        (cast(socket.socket, key.fileobj), key.data) for key in selector.get_map().values()
    ]
    end = time.monotonic() + seconds
    idle_since = 0.0
    while (now := time.monotonic()) < end:
        if not poll:
            events = selector.select(1.0)
            ready = [(cast(socket.socket, key.fileobj), key.data) for key, _ in events]
        elif not idle_since or now - idle_since < 0.0005:
            ready = everybody
        else:
            selector.select(1.0)
            idle_since, ready = 0.0, everybody
        heard = False
        for sock, reply in ready:
            while True:
                try:
                    data = sock.recv(1024)
                except BlockingIOError:
                    break
                except OSError:
                    break  # the server is gone for a moment: ICMP port unreachable
                heard = True
                answer = reply(data.decode())
                if answer is not None:
                    sock.send(answer.encode())
        if poll and not heard:
            idle_since = idle_since or now
            os.sched_yield()
        elif heard:
            idle_since = 0.0


TARGET = 800.0
"""Rounds per second with 4 bots and the early start (issue 13)."""


def machine_cpu() -> tuple[float, float]:
    """Seconds of busy CPU (all cores) and of steal since boot (Linux /proc), or NaN."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    except OSError:
        return float("nan"), float("nan")
    user, nice, system, _idle, _wait, irq, softirq, steal = (int(f) for f in fields[:8])
    tick = os.sysconf("SC_CLK_TCK")
    return (user + nice + system + irq + softirq) / tick, steal / tick


def _sleeps(pid: int) -> float:
    """How often a process has gone to sleep waiting for something (its voluntary
    context switches, Linux /proc), or NaN: each one costs a wake-up later."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("voluntary_ctxt_switches:"):
                return float(line.split()[1])
    except OSError:
        pass
    return float("nan")


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of another process (Linux /proc), or NaN."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _speed(
    bots: int,
    early: bool,
    seconds: float,
    contest: bool = False,
    spin: bool = True,
    poll: bool = False,
) -> dict[str, Any]:
    """Rounds per second of the bare server, or (`contest`) of the whole contest as
    `bluffdice maexchen` runs it: rounds stored in a SQLite file every half second and
    ranked with openskill, in the server's process. `spin=False`: the server sleeps in
    the event loop as soon as it waits for an answer (`--spin 0`)."""
    options = Options(host="127.0.0.1", port=0, early_start=early, timeout=0.25)
    if not spin:
        options = dataclasses.replace(options, spin=0.0)
    folder = tempfile.TemporaryDirectory()
    if contest:
        database = Store(str(Path(folder.name) / "bench.db"))
        organiser: Contest | None = Contest(options, seed=1, database=database)
        assert organiser is not None
        server = organiser.server
        _, port = await organiser.start()
    else:
        dice, rng = dice_source(1)
        organiser, server = None, MaexchenServer(options, dice, rng)
        _, port = await server.start()
    context = multiprocessing.get_context("spawn")
    child = context.Process(
        target=_bots_process, args=(port, bots, seconds + 30, poll), daemon=True
    )
    child.start()
    try:
        for _ in range(600):  # the bots' process starts within a minute on a loaded machine
            if sum(not c.spectator for c in server.clients.values()) == bots:
                break
            await asyncio.sleep(0.1)
        else:
            raise RuntimeError("the bots did not register")
        running = asyncio.create_task(organiser.run() if organiser else server.run())
        await asyncio.sleep(min(1.0, seconds / 4))  # warm up
        stats = server.stats
        rounds, sent, received = stats.rounds, stats.sent, stats.received
        stalls = stats.timeouts + stats.windows
        waited = stats.spin_waited
        load = os.getloadavg()[0]
        busy, steal = machine_cpu()
        started, cpu = time.perf_counter(), time.process_time()
        pid = child.pid
        assert pid is not None, "the bots' process has started"
        bots_cpu = cpu_seconds(pid)
        sleeps, bots_sleeps = _sleeps(os.getpid()), _sleeps(pid)
        await asyncio.sleep(seconds)
        sleeps, bots_sleeps = _sleeps(os.getpid()) - sleeps, _sleeps(pid) - bots_sleeps
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
        bots_cpu = cpu_seconds(pid) - bots_cpu
        busy_after, steal_after = machine_cpu()
        played = stats.rounds - rounds
        waited = stats.spin_waited - waited
        stalls = stats.timeouts + stats.windows - stalls
        server.stop()
        await asyncio.wait_for(running, 5)
        if organiser is not None:
            stored = (await organiser.close())["rounds"]
            assert stored == server.stats.rounds == organiser.standings.rounds
    finally:
        server.close()
        child.terminate()
        child.join(5)
        if contest:
            database.close()
        folder.cleanup()
    return {
        "bots": bots,
        "start": ("early" if early else "250 ms window")
        + (", stored" if contest else "")
        + ("" if spin else ", no spin")
        + (", polling bots" if poll else ""),
        "rounds": played,
        "seconds": elapsed,
        "rounds/s": played / elapsed,
        "datagrams out/s": (stats.sent - sent) / elapsed,
        "datagrams in/s": (stats.received - received) / elapsed,
        "cpu ms/round": 1000 * cpu / played if played else float("nan"),
        "spin ms/round": 1000 * waited / played if played else float("nan"),
        "bots cpu ms/round": 1000 * bots_cpu / played if played else float("nan"),
        "server busy": cpu / elapsed,
        "sleeps/round": sleeps / played if played else float("nan"),
        "bots sleeps/round": bots_sleeps / played if played else float("nan"),
        "stalls": stalls,
        "load": load,
        "others": (busy_after - busy - cpu - bots_cpu) / elapsed,
        "steal": (steal_after - steal) / elapsed,
    }


async def _fuzz(count: int, flood: int) -> dict[str, Any]:
    dice, rng = dice_source(2)
    server = MaexchenServer(Options(host="127.0.0.1", port=0), dice, rng)
    rounds: list[PlayedRound] = []
    server.listeners.append(rounds.append)
    address = await server.start()
    watcher = await spectator(address)
    strategy = example_strategy()
    bots = await swarm(address, 4, lambda: strategy().reply, secret="bench")
    names = {b.name for b in bots}
    addresses = {b.name: server.clients[b.name].address for b in bots}
    running = asyncio.create_task(server.run())
    await asyncio.sleep(0.5)
    before = len(rounds)
    started = time.perf_counter()
    report = await fuzz(address, count, bots, random.Random(7), flood=flood)
    elapsed = time.perf_counter() - started
    during = len(rounds) - before
    reasons: dict[str, int] = {}
    for r in rounds[before:]:
        reasons[r.reason] = reasons.get(r.reason, 0) + 1
    await asyncio.sleep(0.5)
    alive = not running.done()
    server.stop()
    await asyncio.wait_for(running, 5)
    server.close()
    taken = [b.name for b in bots if server.clients[b.name].address != addresses[b.name]]
    for b in bots:
        b.close()
    players = names | {n for r in rounds for n in r.order}
    problems = check_rounds(rounds, server.scores, players)
    problems += check_transcript(watcher.lines, players)
    problems += [f"a round with strangers: {r.order}" for r in rounds if not set(r.order) <= names]
    return {
        "report": report,
        "stats": server.stats,
        "seconds": elapsed,
        "rounds during": during,
        "reasons during": reasons,
        "rounds checked": len(rounds),
        "server alive": alive,
        "names taken": taken,
        "problems": problems,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="measuring time per run")
    parser.add_argument("--fuzz", type=int, default=100_000, help="hostile datagrams")
    parser.add_argument("--flood", type=int, default=20_000, help="flood from one address")
    parser.add_argument("--skip-fuzz", action="store_true")
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument(
        "--repeat",
        type=count,
        default=3,
        help="pairs of the target row and its no-spin twin, taking turns which goes first "
        "(this machine's hypervisor sometimes steals most of a core for seconds)",
    )
    args = parser.parse_args()
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    if not args.skip_speed:
        rows = []
        factory = loop_factory()
        loops = [("uvloop", factory), ("asyncio", asyncio.new_event_loop)]
        if factory is asyncio.new_event_loop:
            loops = loops[1:]
        first = loops[0][0]
        window = max(2.0, args.seconds / 2)
        target_row = (first, factory, 4, True, args.seconds, False, True, False)
        no_spin = (first, factory, 4, True, args.seconds, False, False, False)
        runs: list[tuple[str, Any, int, bool, float, bool, bool, bool]] = [
            *(  # pairs, taking turns which goes first
                row
                for n in range(args.repeat)
                for row in ((target_row, no_spin) if n % 2 == 0 else (no_spin, target_row))
            ),
            *((name, make, 4, True, args.seconds, False, True, False) for name, make in loops[1:]),
            (first, factory, 4, True, args.seconds, False, True, True),
            (first, factory, 4, False, window, False, True, False),
            (first, factory, 8, True, args.seconds, False, True, False),
            (first, factory, 8, False, window, False, True, False),
            (first, factory, 4, True, args.seconds, True, True, False),
        ]
        for name, make, bots, early, seconds, contest, spin, poll in runs:
            with asyncio.Runner(loop_factory=make) as runner:
                row = runner.run(_speed(bots, early, seconds, contest, spin, poll))
            rows.append({**row, "loop": name})
        print("\nRounds per second, bots in another process, loopback, answers at once;")
        print(f"the server on {loops[0][0]}'s event loop as `bluffdice maexchen` runs it")
        print(f"(load average before: {load}, {os.cpu_count()} CPUs)")
        print(
            f"{'bots':>4}  {'start':<30} {'loop':<7} {'rounds':>7} {'s':>5} {'rounds/s':>9} "
            f"{'target':>7} {'dgrams out':>10} {'dgrams in':>9} {'server ms':>9} "
            f"{'spin wait':>9} {'bots ms':>7} {'busy':>5} {'sleeps':>6} {'bots sleeps':>11} "
            f"{'stalls':>6} "
            f"{'load':>5} {'others':>6} {'steal':>5}"
        )
        for r in rows:
            target = f">={TARGET:.0f}" if r["bots"] == 4 and r["start"] == "early" else "-"
            print(
                f"{r['bots']:>4}  {r['start']:<30} {r['loop']:<7} {r['rounds']:>7} "
                f"{r['seconds']:>5.1f} "
                f"{r['rounds/s']:>9.1f} {target:>7} "
                f"{r['datagrams out/s'] / max(r['rounds/s'], 1e-9):>10.1f} "
                f"{r['datagrams in/s'] / max(r['rounds/s'], 1e-9):>9.1f} "
                f"{r['cpu ms/round']:>9.2f} {r['spin ms/round']:>9.2f} "
                f"{r['bots cpu ms/round']:>7.2f} "
                f"{r['server busy']:>5.0%} {r['sleeps/round']:>6.1f} "
                f"{r['bots sleeps/round']:>11.1f} {r['stalls']:>6} {r['load']:>5.1f} "
                f"{r['others']:>6.2f} {r['steal']:>5.2f}"
            )
        for label, spin in (("4 bots, early start", True), ("the same, no spin", False)):
            figures = sorted(
                r["rounds/s"]
                for r in rows
                if r["loop"] == first
                and r["bots"] == 4
                and r["start"] == "early" + ("" if spin else ", no spin")
            )
            print(
                f"{label}, {first}: median {statistics.median(figures):.0f} rounds/s over "
                f"{len(figures)} runs ({', '.join(f'{f:.0f}' for f in figures)})"
                + (f"; target {TARGET:.0f}" if spin else "")
            )
        spun, plain = (
            [r["rounds/s"] for r in rows[: 2 * args.repeat] if r["start"] == start]
            for start in ("early", "early, no spin")
        )
        print(
            "spin / no spin, each pair: "
            + ", ".join(f"{a:.0f}/{b:.0f}" for a, b in zip(spun, plain, strict=True))
            + f"; ratio {spread([a / b for a, b in zip(spun, plain, strict=True)])}"
        )
        print(
            "dgrams out/in: datagrams per round; server/bots ms: CPU per round of the "
            "server's and the bots' process; spin wait: ms per round the server waited on its "
            "socket for an answer (wall time: CPU time only while no other process wanted "
            "the CPU); busy: the server's CPU share of the wall time; "
            "sleeps, bots sleeps: how often a process waited (and later had to be woken) "
            "per round; "
            "stalls: questions and join windows that ran out; load: load average at the "
            "start of the row; others, steal: cores that other processes used and the "
            "hypervisor stole meanwhile"
        )
    if not args.skip_fuzz:
        with asyncio.Runner(loop_factory=loop_factory()) as runner:
            result = runner.run(_fuzz(args.fuzz, args.flood))
        report, stats = result["report"], result["stats"]
        print(
            f"\nFuzz: {report.sent} hostile datagrams sent in {result['seconds']:.1f} s "
            f"while 4 bots played"
        )
        print("  by kind: " + ", ".join(f"{k} {v}" for k, v in sorted(report.kinds.items())))
        print(
            f"  server received {stats.received} (the kernel drops what overflows its "
            f"buffer): too big {stats.too_big}, rate-limited {stats.rate_limited}, "
            f"malformed {stats.malformed}, ignored {stats.ignored}"
        )
        print(
            f"  rounds played during the fuzz {result['rounds during']}, rounds checked "
            f"{result['rounds checked']}; server alive: {result['server alive']}; names "
            f"taken over: {result['names taken'] or 'none'}"
        )
        print(
            "  how those rounds were lost: "
            + (", ".join(f"{k} {v}" for k, v in sorted(result["reasons during"].items())) or "-")
        )
        problems = result["problems"]
        print(f"  problems (corrupted rounds, wrong scores): {len(problems)}")
        for p in problems[:10]:
            print("   ", p)
        if problems or not result["server alive"] or result["names taken"]:
            sys.exit(1)


if __name__ == "__main__":
    main()
