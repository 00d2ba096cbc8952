"""Built-in bots in this process against the same bots as external processes, in pairs.

    .venv/bin/python benchmarks/bench_bots.py                 # 300 games of each game, 3 pairs
    .venv/bin/python benchmarks/bench_bots.py --games 1000 --pairs 5

Each line plays the same games on both sides with the same seeds: the reference is the
bots as objects in this process (how built-in bots play in tournaments); the other side
has every bot in its own child process speaking the protocol (how bot files and programs
play: `python -m bluffdice.protocol.host NAME`, started once and reused for every game of
the line, as a tournament worker does). The games are identical move for move (checked),
so the difference in time is the protocol's cost: encoding each seat's messages, the
pipes, decoding in the child, and the child's answer. The `--games` of a line are cut
into `--pairs` batches; each pair plays its batch on both sides back to back, taking
turns which goes first, after five other games on each side warm both up (imports,
first-use tables, the programs started). For each pair the table prints both sides'
games per second, the ratio (external / in-process) in wall-clock time (what a
tournament waits, including the scheduler's delays on a busy machine) and in CPU time of
this process and the bots' processes together (what the protocol costs in work, steadier
when the machine is shared), and the overhead per move in each; then the median
[min-max] over the pairs.
The start-up of each kind of bot program (to its hello) is timed too: it is why a worker
keeps its programs for the next game instead of starting them per game. One worker, no
store.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import shutil
import statistics
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from bluffdice.bots.base import load_bot
from bluffdice.protocol import pool
from bluffdice.protocol.bot import ProcessBot
from bluffdice.protocol.limits import Limits
from bluffdice.protocol.seats import ProgramSeat
from bluffdice.table import Table as GameTable
from bluffdice.table import seeded
from bluffdice.table.host import Host, Policy, Seat
from bluffdice.table.seats import BotSeat
from bluffdice.tournament.seating import derive_seed, game_seed
from pairs import count, one_pair, slices, spread

SETUPS = (
    ("Mia, classic, 4 players", "mia", ("odds", "adaptive", "honest", "liar")),
    ("Liar's Dice, 2 players", "liars-dice", ("odds", "adaptive")),
)
ROOT = Path(__file__).resolve().parent.parent


def host(name: str) -> tuple[str, ...]:
    return (sys.executable, "-m", "bluffdice.protocol.host", name)


def process_cpu(pids: list[int]) -> float:
    """CPU seconds the running processes `pids` have used so far (Linux /proc)."""
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / os.sysconf("SC_CLK_TCK")


def run(
    rules: str, bots: tuple[str, ...], games: range, external: bool
) -> tuple[float, float, int, list[tuple[str, ...]]]:
    """Wall seconds and CPU seconds (this process and the bots' processes) for the games
    numbered `games`, the moves the bots made, and every game's steps. The programs are
    started (or taken warm from the pool) before the clock starts, and their CPU time is
    read after it stops; `pool.close_all` ends them once the line is done."""
    limits = Limits(move_time=60.0)
    records = []
    moves = 0
    warm = [pool.acquire(host(name), limits) for name in bots] if external else []
    for program in warm:
        pool.release(program)
    pids = [program.process.proc.pid for program in warm]
    cpu = time.process_time() + process_cpu(pids)
    started = time.perf_counter()
    for index in games:
        seed = game_seed(7, index)
        seeds = [derive_seed(seed, "seat", s) for s in range(len(bots))]
        programs: list[ProcessBot] = []
        players: list[Seat | None] = []
        for seat, name in enumerate(bots):
            if external:  # the warm programs, the same processes in every game
                program = pool.acquire(host(name), limits)
                programs.append(program)
                players.append(ProgramSeat(program, seeds[seat]))
            else:
                bot = load_bot(name, rules.split("(")[0], random.Random(seeds[seat]))
                players.append(BotSeat(bot, Policy.FORFEIT, guard=True))
        limit = limits.move_time if external else None
        table = GameTable(rules, len(bots), dice=seeded(derive_seed(seed, "dice")), limits=limit)
        played = Host(table, players)
        played.run()
        assert not played.faults, played.faults
        for program in programs:
            pool.release(program)
        moves += sum(1 for entry in table.log if entry.actor >= 0)
        records.append(table.record.steps)
    wall = time.perf_counter() - started
    cpu = time.process_time() + process_cpu(pids) - cpu
    return wall, cpu, moves, records


def startup(command: tuple[str, ...], tries: int = 3) -> float:
    times = []
    for _ in range(tries):
        started = time.perf_counter()
        ProcessBot(command, Limits()).close()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300, help="games per setup")
    parser.add_argument("--pairs", type=count, default=3, help="pairs per setup (default 3)")
    args = parser.parse_args()
    if args.games < args.pairs:
        parser.error(f"--games ({args.games}) must be at least --pairs ({args.pairs})")
    console = Console(width=120)
    table = Table(
        title=f"bots in this process vs in their own processes ({args.games} games, "
        f"{args.pairs} pairs)"
    )
    for column in (
        "setup",
        "pair",
        "in-process games/s",
        "external games/s",
        "slower (wall)",
        "slower (CPU)",
        "moves",
        "overhead per move",
        "CPU overhead per move",
    ):
        table.add_column(column, justify="right" if column != "setup" else "left")
    for title, rules, bots in SETUPS:
        warm = range(args.games, args.games + 5)  # games no pair plays
        run(rules, bots, warm, external=False)  # imports, first-use tables
        run(rules, bots, warm, external=True)  # starts the programs, kept for the pairs
        batches = slices(args.games, args.pairs)
        walls, cpus, per_move, cpu_per_move = [], [], [], []
        for pair, batch in enumerate(batches):
            (inside, inside_cpu, moves, here), (outside, outside_cpu, moves_out, there) = one_pair(
                pair,  # odd pairs: the external bots first
                lambda _: run(rules, bots, batch, external=False),  # noqa: B023
                lambda _: run(rules, bots, batch, external=True),  # noqa: B023
            )
            assert here == there and moves == moves_out, "the same seeds must give the same games"
            walls.append(outside / inside)
            cpus.append(outside_cpu / inside_cpu)
            per_move.append((outside - inside) / moves * 1e6)
            cpu_per_move.append((outside_cpu - inside_cpu) / moves * 1e6)
            table.add_row(
                title if pair == 0 else "",
                str(pair + 1),
                f"{len(batch) / inside:,.0f}",
                f"{len(batch) / outside:,.0f}",
                f"{walls[-1]:.1f}x",
                f"{cpus[-1]:.1f}x",
                f"{moves:,}",
                f"{per_move[-1]:,.0f} µs",
                f"{cpu_per_move[-1]:,.0f} µs",
            )
        pool.close_all()
        table.add_row(
            "",
            "all",
            "",
            "",
            spread(walls, 1, "x"),
            spread(cpus, 1, "x"),
            "",
            spread(per_move, 0, " µs"),
            spread(cpu_per_move, 0, " µs"),
            end_section=True,
        )
    console.print(table)
    starts = Table(title="start-up of a bot program, to its hello (median of 3)")
    starts.add_column("program")
    starts.add_column("seconds", justify="right")
    programs = [
        (
            "python3 examples/bot.py (standard library only)",
            ("python3", str(ROOT / "examples" / "bot.py")),
        ),
        ("python -m bluffdice.protocol.host odds", host("odds")),
    ]
    if shutil.which("node"):
        programs.append(("node examples/bot.js", ("node", str(ROOT / "examples" / "bot.js"))))
    for name, command in programs:
        starts.add_row(name, f"{startup(command):.3f}")
    console.print(starts)
    console.print(
        f"python {platform.python_version()}, {platform.machine()}; one process plays the "
        "games, the bots' children run beside it"
    )


if __name__ == "__main__":
    main()
