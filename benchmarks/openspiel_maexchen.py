"""OpenSpiel's C++ CFR+ and NashConv on the heads-up `maexchen` round, through the
adapter, against bluffdice's own solver, in one run.

    .venv/bin/python benchmarks/openspiel_maexchen.py                # the round, by segments
    .venv/bin/python benchmarks/openspiel_maexchen.py --floors 55    # whole and by segments
    .venv/bin/python benchmarks/openspiel_maexchen.py --floors 55,44 # minutes

OpenSpiel's tabular algorithms walk the game tree: every history is a node. A heads-up
`maexchen` round (no pass, a Mia shown at once) branches 21 ways at every roll and may
climb through every value, so it has about 1.6e28 terminal histories (the first table
counts them exactly from each value to beat), out of reach of any tree walk.

But the round falls apart exactly at every fresh roll: when the receiver believes and
rolls, the old dice are gone and nobody holds private information, so the rest of the
round is a subgame with a public root whose value depends only on the value to beat
(heads-up and zero-sum, the value is unique; the roller's value V(v) is the whole story).
A *segment* is the roll, the holder's announcement c and the answer: a challenge ends the
round, believing ends the segment with -V(c) for the holder (the roles swap). The adapter
cuts the game there (`cut="roll"` with a table of continuation values), and the round is
solved segment by segment from the highest value to beat down to the round's start, each
segment by `pyspiel.CFRPlusSolver` (OpenSpiel's C++ CFR+, which runs on Python games) and
measured by `pyspiel.nash_conv`.

The bound: a profile's value lies within its NashConv of its game's value, and a
segment's value moves by at most the largest error in its continuation table (the
continuation values are terminal payoffs, reached with total probability at most 1). So
the error of V(v) is at most its segment's NashConv plus the largest error above it,
which is the sum of the NashConvs of v's segment and every segment above. bluffdice's
solver solves the round from each value to beat (`start_floor`); the two values may
differ by at most that bound plus bluffdice's own NashConv. The table says whether they do.

`--floors` solves the end game from a floor whole (a prefix plays up to the roll where
the opener must beat it), as before, and by segments beside it, which checks the
decomposition itself.

Needs the bench extra: `pip install -e '.[bench]'` (open-spiel).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.table import Table

from bluffdice.games.mia.values import MIA
from bluffdice.games.registry import parse_rules
from bluffdice.rl.tree_size import maexchen_terminal_histories

RULES = "maexchen(rounds=1)"

PREFIX = "roll;dice 31;32;roll;dice 31;{floor};roll"
"""The opener claimed 32, the other player `floor` over it; the opener has rolled again
and must beat `floor`, with the other to answer."""

SEGMENT = "roll;dice 31;{floor};roll"
"""The opener claimed `floor` and the other player believed: seat 1 must beat it."""

ROUND = "roll"
"""The opener has rolled: seat 0 must beat nothing."""


@dataclass(frozen=True)
class Effort:
    """How long each solver runs: until its NashConv is at most `tolerance`, measured every
    `block` iterations, or for at most `iterations`."""

    iterations: int
    tolerance: float
    block: int = 20


@dataclass(frozen=True)
class Solved:
    """One solve: the value for the seat that rolled, its NashConv, iterations and CPU
    seconds."""

    value: float
    nash_conv: float
    iterations: int
    seconds: float


def solve(game: Any, seat: int, effort: Effort) -> Solved:
    """OpenSpiel's C++ CFR+ on `game`, its average policy's value for `seat` and NashConv."""
    import pyspiel

    start = time.process_time()
    solver = pyspiel.CFRPlusSolver(game)
    done = 0
    while True:
        for _ in range(min(effort.block, effort.iterations - done)):
            solver.evaluate_and_update_policy()
        done = min(done + effort.block, effort.iterations)
        average = solver.average_policy()
        conv = pyspiel.nash_conv(game, average)
        if conv <= effort.tolerance or done >= effort.iterations:
            break
    value = pyspiel.expected_returns(game.new_initial_state(), average, -1, True)[seat]
    return Solved(value, conv, done, time.process_time() - start)


@dataclass(frozen=True)
class Segment:
    """V(floor) solved by segments: OpenSpiel's value and NashConv, and the bound on its
    error (the NashConvs of this segment and every one above it)."""

    floor: int | None
    solved: Solved
    bound: float


def by_segments(
    rules: str, floors: list[int], effort: Effort, done: Callable[[Segment], None]
) -> dict[int, Segment]:
    """Solve the segments from `floors` (best first: each needs those above it) with
    OpenSpiel, calling `done` after each."""
    from bluffdice.rl.openspiel_game import load

    segments: dict[int, Segment] = {}
    worst = 0.0
    for floor in floors:
        table = {v: s.solved.value for v, s in segments.items()}
        game = load(rules, 2, first=0, prefix=SEGMENT.format(floor=floor), continuation=table)
        solved = solve(game, 1, effort)
        segment = Segment(floor, solved, solved.nash_conv + worst)
        worst = max(worst, segment.bound)
        segments[floor] = segment
        done(segment)
    return segments


def ours(rules: Any, floor: int | None, effort: Effort) -> Solved:
    """bluffdice's solver (CFR+ on the public tree) from a floor (None: the round's
    start): the holder's value and NashConv."""
    from bluffdice.solve import Solver, mia

    start = time.process_time()
    rank = 0 if floor is None else rules.ranking.rank(floor)
    solver = Solver(mia.build(mia.spec_from_rules(rules), start_floor=rank))
    done = 0
    while True:
        solver.iterate(min(effort.block, effort.iterations - done))
        done = min(done + effort.block, effort.iterations)
        e = solver.exploitability()
        if e.nash_conv <= effort.tolerance or done >= effort.iterations:
            return Solved(e.value, e.nash_conv, done, time.process_time() - start)


def columns(table: Table, *names: str) -> None:
    for name in names:
        table.add_column(name, justify="right")


def verdict(gap: float, bound: float) -> str:
    """Whether a difference is within its bound (up to rounding in the last bits)."""
    return "yes" if gap <= bound + 1e-12 else "[red]no[/]"


def round_by_segments(console: Console, effort: Effort, ours_effort: Effort) -> None:
    """The whole round: every segment, best value to beat first, then the round's start."""
    from bluffdice.rl.openspiel_game import load

    rules = parse_rules(RULES)
    floors = [v for v in rules.ranking.best_first if v != MIA]
    table = Table(title="heads-up maexchen round by segments: V(v), the roller's value")
    columns(
        table,
        "must beat",
        "OpenSpiel CFR+",
        "s",
        "OpenSpiel V",
        "NashConv",
        "bound",
        "bluffdice V",
        "NashConv",
        "|difference|",
        "within",
    )
    wall = time.perf_counter()
    theirs: dict[int | None, Solved] = {}

    def row(segment: Segment) -> None:
        label = "nothing" if segment.floor is None else str(segment.floor)
        mine = theirs[segment.floor] = ours(rules, segment.floor, ours_effort)
        gap = abs(segment.solved.value - mine.value)
        table.add_row(
            label,
            str(segment.solved.iterations),
            f"{segment.solved.seconds:.1f}",
            f"{segment.solved.value:+.5f}",
            f"{segment.solved.nash_conv:.1e}",
            f"{segment.bound:.5f}",
            f"{mine.value:+.5f}",
            f"{mine.nash_conv:.1e}",
            f"{gap:.5f}",
            verdict(gap, segment.bound + mine.nash_conv),
        )
        print(f"must beat {label}: done", file=sys.stderr)

    segments = by_segments(RULES, floors, effort, row)
    top = {v: s.solved.value for v, s in segments.items()}
    game = load(RULES, 2, first=0, prefix=ROUND, continuation=top)
    whole = solve(game, 0, effort)
    bound = whole.nash_conv + max(s.bound for s in segments.values())
    row(Segment(None, whole, bound))
    console.print(table)
    spent = time.perf_counter() - wall
    cpu = sum(s.solved.seconds for s in segments.values()) + whole.seconds
    mine = theirs[None]
    gap = abs(whole.value - mine.value)
    console.print(
        f"the whole round: OpenSpiel {whole.value:+.5f} for the opener (error at most "
        f"{bound:.5f}), bluffdice {mine.value:+.5f} (NashConv {mine.nash_conv:.1e}): "
        f"difference {gap:.5f}, target: within {bound + mine.nash_conv:.5f} "
        f"({verdict(gap, bound + mine.nash_conv)}); OpenSpiel {cpu:.0f} CPU s for "
        f"{len(segments) + 1} segments, {spent:.0f} s wall in all"
    )


def floors_whole_and_by_segments(
    console: Console, floors: list[int], effort: Effort, ours_effort: Effort
) -> None:
    """End games solved whole (the prefix plays up to the floor) and by segments."""
    from bluffdice.rl.openspiel_game import load

    rules = parse_rules(RULES)
    above = [v for v in rules.ranking.best_first if v != MIA]
    table = Table(title="OpenSpiel CFR+ on the adapter against bluffdice's solver")
    columns(
        table,
        "floor",
        "OpenSpiel CFR+",
        "s",
        "OpenSpiel value",
        "NashConv",
        "by segments",
        "bound",
        "within",
        "bluffdice value",
        "NashConv",
        "|difference|",
        "within",
    )
    for floor in floors:
        mine = ours(rules, floor, ours_effort)
        game = load(RULES, 2, first=0, prefix=PREFIX.format(floor=floor))
        whole = solve(game, 0, effort)
        chain = above[: above.index(floor) + 1]
        segment = by_segments(RULES, chain, effort, lambda s: None)[floor]
        seg_gap = abs(segment.solved.value - whole.value)
        gap = abs(whole.value - mine.value)
        table.add_row(
            str(floor),
            str(whole.iterations),
            f"{whole.seconds:.1f}",
            f"{whole.value:+.5f}",
            f"{whole.nash_conv:.1e}",
            f"{segment.solved.value:+.5f}",
            f"{segment.bound + whole.nash_conv:.5f}",
            verdict(seg_gap, segment.bound + whole.nash_conv),
            f"{mine.value:+.5f}",
            f"{mine.nash_conv:.1e}",
            f"{gap:.5f}",
            verdict(gap, whole.nash_conv + mine.nash_conv),
        )
    console.print(table)
    console.print(
        "by segments: V(floor) solved segment by segment, within the sum of the NashConvs "
        "of the segments and of the whole solve of the whole solve's value"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--floors", default="", help="values to beat, comma-separated: end games solved whole"
    )
    parser.add_argument(
        "--tolerance",
        type=float,
        default=1e-3,
        help="each OpenSpiel solve stops at this NashConv (measured every 20 iterations)",
    )
    parser.add_argument(
        "--iterations", type=int, default=500, help="at most this many OpenSpiel CFR+ iterations"
    )
    parser.add_argument(
        "--ours",
        type=int,
        default=1000,
        help="at most this many iterations of bluffdice's solver per value to beat",
    )
    args = parser.parse_args()
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        sys.exit("needs the bench extra: pip install -e '.[bench]'")

    effort = Effort(args.iterations, args.tolerance)
    ours_effort = Effort(args.ours, min(1e-5, args.tolerance / 10), block=200)
    console = Console(width=150)
    worst_first = parse_rules(RULES).ranking.worst_first
    console.print(
        f"python {platform.python_version()}, {platform.machine()}, load average "
        f"{os.getloadavg()[0]:.1f}; OpenSpiel C++ CFR+ until NashConv <= {effort.tolerance:g} "
        f"(at most {effort.iterations} iterations), bluffdice's solver until "
        f"{ours_effort.tolerance:g} (at most {ours_effort.iterations})"
    )
    sizes = Table(title="heads-up maexchen round: terminal histories (OpenSpiel's tree)")
    sizes.add_column("the holder must beat")
    sizes.add_column("terminal histories", justify="right")
    for label, code in [("nothing (the whole round)", -1)] + [
        (str(v), worst_first.index(v)) for v in (11, 22, 33, 44, 55, 66)
    ]:
        sizes.add_row(label, f"{maexchen_terminal_histories(len(worst_first), code):.3g}")
    console.print(sizes)
    if args.floors:
        floors = [int(text) for text in args.floors.split(",")]
        floors_whole_and_by_segments(console, floors, effort, ours_effort)
    else:
        round_by_segments(console, effort, ours_effort)


if __name__ == "__main__":
    main()
