"""What the sandbox costs: one tournament with a bot file in-process, as a plain child
process, and in the bubblewrap sandbox, side by side in one run.

    .venv/bin/python benchmarks/bench_sandbox.py                  # 3 rounds of 400 games
    .venv/bin/python benchmarks/bench_sandbox.py --games 1000 --rounds 5

The bot is docs/examples/cautious_bot.py against three built-in bots at a 4-player Mia
table (classic rules), one worker, no store; every mode plays the same games with the
same seeds (checked). The three modes run interleaved, round after round, so a change
in the machine's speed touches all three alike. The figures:

- games/s for each mode (median and range over the rounds);
- the overhead per table move against in-process: (time of the mode - time in-process)
  / moves made at the table (the bot hears of every move and answers its own); its
  start-up included once per run, as a tournament starts each program once per worker;
- the ratio sandboxed / plain child of the whole run, per round, median and range: the
  sandbox's cost per move is what that ratio shows (the pipes and the protocol are the
  same in both).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from bluffdice.protocol.limits import Limits
from bluffdice.sandbox import probe
from bluffdice.tournament.runner import make_config, run_tournament

ROOT = Path(__file__).resolve().parent.parent
BOT = str(ROOT / "docs" / "examples" / "cautious_bot.py")
OTHERS = ["odds", "honest", "liar"]
MODES = ("in-process", "plain child", "sandboxed")


def run(mode: str, games: int, seed: int) -> tuple[float, int, tuple[object, ...]]:
    """Seconds, the moves made at the table, and the games (to check they are the same)."""
    isolation = "sandbox" if mode == "sandboxed" else "process"
    config = make_config(
        "classic",
        [BOT, *OTHERS],
        games,
        seed,
        seats=4,
        limits=Limits(isolation=isolation),
        trust=mode == "in-process",
    )
    started = time.perf_counter()
    moves = 0
    outcome: list[object] = []

    def count(results: list, _standings: object) -> None:  # type: ignore[type-arg]
        nonlocal moves
        for result in results:
            seat = result.entrants.index(0)
            moves += sum(1 for step in result.steps[1:] if not step.startswith(("dice", "first")))
            outcome.append((result.index, result.places[seat]))

    run_tournament(config, on_results=count)
    seconds = time.perf_counter() - started
    return seconds, moves, tuple(outcome)


def spread(values: list[float], digits: int = 2) -> str:
    return (
        f"{statistics.median(values):.{digits}f} [{min(values):.{digits}f}-"
        f"{max(values):.{digits}f}]"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    console = Console()
    found = probe()
    if not found.ok:
        console.print(f"no sandbox on this machine ({found.reason}): nothing to compare")
        sys.exit(0)
    times: dict[str, list[float]] = {m: [] for m in MODES}
    moves: dict[str, int] = {}
    games_seen: dict[str, tuple[object, ...]] = {}
    for round_ in range(args.rounds):
        order = MODES if round_ % 2 == 0 else tuple(reversed(MODES))
        for mode in order:
            seconds, made, outcome = run(mode, args.games, args.seed)
            times[mode].append(seconds)
            moves[mode] = made
            games_seen[mode] = outcome
            print(f"round {round_ + 1} {mode}: {seconds:.2f} s", file=sys.stderr)
    same = len({games_seen[m] for m in MODES}) == 1
    table = Table(
        title=f"{args.games} games of Mia (classic, 4 players) a run, {args.rounds} rounds",
        caption=f"sandbox: {found.version}, tree bounds: {found.tree}; the same games in "
        f"every mode: {'yes' if same else 'NO'}",
    )
    for column in ("mode", "games/s", "overhead a table move vs in-process (µs)"):
        table.add_column(column)
    base = times["in-process"]
    for mode in MODES:
        rates = [args.games / t for t in times[mode]]
        if mode == "in-process":
            over = "-"
        else:
            per = [(t - b) / moves[mode] * 1e6 for t, b in zip(times[mode], base, strict=True)]
            over = spread(per, 0)
        table.add_row(mode, spread(rates, 0), over)
    console.print(table)
    ratios = [s / p for s, p in zip(times["sandboxed"], times["plain child"], strict=True)]
    console.print(f"sandboxed / plain child, whole run: {spread(ratios)} (1.00: no cost)")


if __name__ == "__main__":
    main()
