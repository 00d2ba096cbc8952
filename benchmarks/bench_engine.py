"""The engine's Python API against pyspiel from Python: random Liar's Dice playouts, paired.

    .venv/bin/python benchmarks/bench_engine.py              # 7 pairs a row, ~1 minute
    .venv/bin/python benchmarks/bench_engine.py --pairs 3 --games 2000

Both sides run the same driver loop: ask whether the game is over and whose turn it is,
pick a chance outcome or a legal action with `random.Random.choice`, apply it. The
reference is pyspiel's `liars_dice` (the `open-spiel` wheel) with its defaults, 1 die
each (bluffdice's `openspiel` preset), and with 5 dice each (`numdice=5`,
`openspiel(dice=5)`). Each pair times a batch of games on each side in CPU seconds of
this process, taking turns which goes first; the table shows both sides' games per
second, every pair's ratio (bluffdice / pyspiel) and their median [min-max].

The last table splits one bluffdice playout of the 1-die game into its steps (the
driver's calls and `apply` of each kind of step), timed one call at a time: it shows
what a step costs and so what bounds the ratio.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.table import Table

from bluffdice.games.base import CHANCE
from bluffdice.games.liars_dice.actions import Bid
from bluffdice.games.liars_dice.state import new_game
from bluffdice.games.registry import parse_rules

ROWS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("openspiel", {}),
    ("openspiel(dice=5)", {"numdice": 5}),
)


def ours(rules_text: str, games: int) -> Callable[[int], None]:
    rules = parse_rules(rules_text)

    def run(seed: int) -> None:
        choice = random.Random(seed).choice
        for _ in range(games):
            state = new_game(rules, 2)
            while not state.is_terminal:
                if state.current_player == CHANCE:
                    state = state.apply(choice(state.chance_outcomes())[0]).state
                else:
                    state = state.apply(choice(state.legal_actions())).state

    return run


def theirs(params: dict[str, Any], games: int) -> Callable[[int], None]:
    import pyspiel

    game = pyspiel.load_game("liars_dice", params)

    def run(seed: int) -> None:
        play_pyspiel(game, games, random.Random(seed).choice)

    return run


def play_pyspiel(game: Any, games: int, choice: Callable[[Any], Any]) -> None:
    """`games` random playouts of a pyspiel game through its Python API."""
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(choice(state.chance_outcomes())[0])
            else:
                state.apply_action(choice(state.legal_actions()))


def cpu(run: Callable[[int], None], seed: int) -> float:
    start = time.process_time()
    run(seed)
    return time.process_time() - start


def steps(games: int) -> dict[str, tuple[int, float]]:
    """Calls and seconds per kind of step over `games` 1-die playouts, one call timed
    at a time (the clock's own cost taken off)."""
    rules = parse_rules("openspiel")
    choice = random.Random(1).choice
    clock = time.perf_counter
    empty = min(-clock() + clock() for _ in range(1000))
    seen: dict[str, list[float]] = {}

    def add(kind: str, seconds: float) -> None:
        seen.setdefault(kind, []).append(seconds - empty)

    for _ in range(games):
        state = new_game(rules, 2)
        while True:
            t0 = clock()
            over = state.is_terminal
            t1 = clock()
            add("is_terminal", t1 - t0)
            if over:
                break
            t0 = clock()
            player = state.current_player
            t1 = clock()
            add("current_player", t1 - t0)
            action: Any
            if player == CHANCE:
                t0 = clock()
                outcomes = state.chance_outcomes()
                t1 = clock()
                add("chance_outcomes()", t1 - t0)
                t0 = clock()
                action = choice(outcomes)[0]
                t1 = clock()
                kind = "apply, a roll"
            else:
                t0 = clock()
                legal = state.legal_actions()
                t1 = clock()
                add("legal_actions()", t1 - t0)
                t0 = clock()
                action = choice(legal)
                t1 = clock()
                kind = "apply, a bid" if type(action) is Bid else "apply, liar"
            add("random.choice", t1 - t0)
            t0 = clock()
            state = state.apply(action).state
            t1 = clock()
            add(kind, t1 - t0)
    return {k: (len(v), sum(v)) for k, v in seen.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=7, help="timed pairs a row (default 7)")
    parser.add_argument("--games", type=int, default=5_000, help="games per side and pair")
    args = parser.parse_args(argv)
    console = Console(width=None if sys.stdout.isatty() else 120)
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        console.print("open-spiel is not installed: pip install -e '.[openspiel]'", markup=False)
        return 2
    console.print(
        f"[dim]{platform.machine()}, Python {platform.python_version()}, {args.pairs} pairs "
        f"of {args.games:,} games a side, CPU seconds of this process"
    )
    table = Table(title="Random Liar's Dice playouts from Python, 2 players (games/s)")
    for column in ("bluffdice rules", "pyspiel", "bluffdice", "pyspiel", "pairs", "ratio"):
        table.add_column(column, justify="left" if column == "bluffdice rules" else "right")
    for text, params in ROWS:
        games = args.games if not params else max(1, args.games // 5)
        a, b = ours(text, games), theirs(params, games)
        a(0), b(0)  # warm up: tables built on first use, imports
        mine: list[float] = []
        ref: list[float] = []
        for pair in range(args.pairs):
            if pair % 2:
                ref.append(cpu(b, pair + 1))
                mine.append(cpu(a, pair + 1))
            else:
                mine.append(cpu(a, pair + 1))
                ref.append(cpu(b, pair + 1))
        ratios = [r / m for m, r in zip(mine, ref, strict=True)]
        table.add_row(
            text,
            "liars_dice" + (f"({', '.join(f'{k}={v}' for k, v in params.items())})"),
            f"{games / statistics.median(mine):,.0f}",
            f"{games / statistics.median(ref):,.0f}",
            " ".join(f"{r:.2f}" for r in ratios),
            f"{statistics.median(ratios):.2f}x [{min(ratios):.2f}-{max(ratios):.2f}]",
        )
    console.print(table)

    games = args.games
    split = steps(games)
    parts = Table(title=f"One bluffdice 1-die playout, step by step ({games:,} games)")
    for column in ("call", "per game", "ns a call", "µs a game"):
        parts.add_column(column, justify="left" if column == "call" else "right")
    total = 0.0
    for kind, (calls, seconds) in split.items():
        total += seconds
        parts.add_row(
            kind,
            f"{calls / games:.2f}",
            f"{seconds / calls * 1e9:,.0f}",
            f"{seconds / games * 1e6:.2f}",
        )
    parts.add_row("all", "", "", f"{total / games * 1e6:.2f}", style="bold")
    console.print(parts)
    return 0


if __name__ == "__main__":
    sys.exit(main())
