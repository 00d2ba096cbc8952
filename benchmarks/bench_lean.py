"""The lean Liar's Dice solver (`bluffdice.solve.lean`): how big a cup it solves, how fast.

    .venv/bin/python benchmarks/bench_lean.py            # 1x6, 2x4, 2x5 to 1e-3, cfr+ and dcfr
    .venv/bin/python benchmarks/bench_lean.py --games 2x4 --variants cfr+,cfr+quadratic,dcfr,dcfr+
    nohup nice -n 19 .venv/bin/python benchmarks/bench_lean.py --games 2x6 --variants cfr+ \
        --minutes 60 --first 16 --growth 1.5 --log runs/2x6.jsonl --save runs/2x6 &

`--minutes` limits each game's wall time (the last measurement included): "how far in an
hour" is one command. `--log FILE` appends a JSON line for every iteration (wall and CPU
seconds, peak memory) and every measurement, flushed at once, so a long run's progress
survives it being stopped; `--save DIR` keeps the solver's state at the end and
`--resume DIR` goes on from it.

For each game (dice x faces per player, sixes-style wild highest face, reset-face raises,
one round, as OpenSpiel's liars_dice) and each variant, in a fresh process of its own
(so that its peak memory is its own): public nodes, the solver's arrays, the peak
memory, seconds (wall and CPU) per iteration, and the FIRST iteration at which the
exploitability is at most the target, with the solver seconds to it. The run measures
at iteration counts growing by a quarter, as `solve_to` does; once a measurement is at
or under the target, the iterations after the last measurement above it are measured
one by one (from a state kept near the target, or by running again from the start: the
solver is deterministic), so the count is exact, not the next measuring point's. The
measured run's own iterations and wall time (measuring included) are shown beside it,
and the last column checks the issue's budget on them: the target within
`--budget-seconds` of wall time and `--budget-gb` of peak memory. For 1x6 the tree
solver of `bluffdice.solve.cfr` (CFR+, float64) runs beside it, measured the same way.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, TextIO

from rich.console import Console
from rich.table import Table

from bluffdice.solve.lean import VARIANTS, LeanCheckpoint, LeanSolver, lean_game, solve_to
from bluffdice.solve.liars_dice import DudoSpec

TREE = "tree"
"""The variant name that stands for the tree solver's CFR+ (1x6 only)."""

NEAR = 2.0
"""Keep the lean solver's state at a measurement at most this many times the target:
the first iteration at the target is then stepped to from there, not from the start."""


@dataclass
class Row:
    """One game and solver, as its own process measured it."""

    game: str
    solver: str
    nodes: int
    arrays_gb: float | None
    peak_gb: float
    wall_per_it: float
    cpu_per_it: float | None
    first: int | None
    """The first iteration at or under the target; None when not reached."""
    exploitability: float
    value: float
    seconds: float
    """Solver seconds (wall) to `first`, or of the whole run when it missed."""
    run_iterations: int | None
    run_wall: float | None
    """The measured run as it ended: iterations, wall seconds with measuring."""


@dataclass
class Reached:
    """The first iteration at the target, found by stepping one iteration at a time."""

    iterations: int
    seconds: float
    exploitability: float
    value: float


def peak_gb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6  # Linux: kB


def load_average() -> float:
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def log_line(log: TextIO | None, **fields: Any) -> None:
    if log is not None:
        fields |= {"time": time.time(), "peak_gb": round(peak_gb(), 3), "load": load_average()}
        log.write(json.dumps(fields) + "\n")
        log.flush()


def step_to(
    target: float,
    done: int,
    seconds: float,
    limit: int,
    iterate: Callable[[], None],
    measure: Callable[[], tuple[float, float]],
) -> Reached:
    """Iterate once at a time from iteration `done` (reached in `seconds` of solver time)
    and measure after each, up to `limit`, where a measurement was at the target.
    `measure` gives (exploitability, value); only the iterations are timed."""
    for n in range(done + 1, limit + 1):
        t0 = time.perf_counter()
        iterate()
        seconds += time.perf_counter() - t0
        expl, value = measure()
        if expl <= target:
            return Reached(n, seconds, expl, value)
    raise RuntimeError(f"iteration {limit} measured at the target but not when stepped to")


def lean_row(args: argparse.Namespace, text: str, variant: str, log: TextIO | None) -> Row:
    """Run one lean solver to the target, then step to the first iteration at it."""
    err = Console(stderr=True)
    dice, faces = (int(x) for x in text.split("x"))
    name = f"{text}-{variant}"

    def fresh() -> LeanSolver:
        solver = LeanSolver(lean_game(DudoSpec(dice=dice, faces=faces)), variant=variant)
        if args.resume is not None and (args.resume / name).exists():
            solver.load(args.resume / name)
        return solver

    t0 = time.perf_counter()
    solver = fresh()
    setup = time.perf_counter() - t0
    resumed = solver.iterations
    nodes, arrays = solver.g.n_nodes, solver.nbytes / 1e9
    err.print(
        f"{text} {variant}: {nodes:,} nodes, {arrays:.2f} GB of arrays, "
        f"set up in {setup:.1f} s at iteration {solver.iterations}"
    )
    log_line(log, event="start", game=text, variant=variant, nodes=nodes, arrays_gb=arrays,
             iterations=solver.iterations, setup_s=setup)  # fmt: skip
    keep = Path(tempfile.mkdtemp(prefix="bench_lean-"))
    kept: list[LeanCheckpoint] = []  # the measurement whose state is in `keep`

    def show(cp: LeanCheckpoint) -> None:
        err.print(
            f"  {text} {variant}: {cp.iterations} it, {cp.seconds:.0f} s, "
            f"exploitability {cp.exploitability:.3e}, value {cp.value:+.5f}"
        )
        log_line(log, event="measure", game=text, variant=variant, **vars(cp))
        if args.target < cp.exploitability <= NEAR * args.target:
            solver.save(keep)
            kept[:] = [cp]

    def tick(n: int, wall: float, cpu: float) -> None:
        log_line(log, event="iteration", game=text, iterations=n, wall_s=wall, cpu_s=cpu)

    history = solve_to(
        solver,
        args.target,
        args.max_seconds,
        args.growth,
        show,
        first=args.first,
        wall_seconds=None if args.minutes is None else args.minutes * 60 - setup,
        on_iteration=tick if log is not None else None,
    )
    if args.save is not None:
        t1 = time.perf_counter()
        solver.save(args.save / name)
        err.print(f"  state saved in {args.save / name} in {time.perf_counter() - t1:.0f} s")
    last = history[-1]
    wall = setup + last.seconds + last.measure_seconds
    log_line(log, event="end", game=text, variant=variant, wall_s=wall,
             reached=last.exploitability <= args.target)  # fmt: skip
    per_it = max(1, last.iterations - resumed)
    row = Row(
        text, f"lean float32 {variant}", nodes, arrays, 0.0, last.seconds / per_it,
        last.cpu_seconds / per_it, None, last.exploitability, last.value, last.seconds,
        last.iterations, wall,
    )  # fmt: skip
    if last.exploitability <= args.target:
        above = [cp for cp in history if cp.exploitability > args.target]
        start = kept[0] if kept else (above[-1] if above else None)
        del solver  # at most one solver's arrays at a time: the peak stays the run's
        stepper = fresh()
        if kept:
            stepper.load(keep)
        elif start is not None:
            stepper.iterate(start.iterations - stepper.iterations)  # deterministic rerun
        done = stepper.iterations
        spent = start.seconds if start is not None else 0.0

        def measure() -> tuple[float, float]:
            expl, _, value = stepper.exploitability()
            return expl, value

        found = step_to(args.target, done, spent, last.iterations, stepper.iterate, measure)
        err.print(f"  {text} {variant}: first at {args.target:g}: iteration {found.iterations}")
        row.first, row.seconds = found.iterations, found.seconds
        row.exploitability, row.value = found.exploitability, found.value
    for path in keep.iterdir():
        path.unlink()
    keep.rmdir()
    row.peak_gb = peak_gb()
    return row


def tree_row(args: argparse.Namespace) -> Row:
    """The tree solver's CFR+ on 1x6, to the first iteration at the target."""
    from bluffdice.solve import Solver, problem, run

    p = problem("liars-dice", "openspiel")
    tree = Solver(p.public, "cfr+")
    hist = run(tree, target=args.target)
    end = hist[-1]
    row = Row("1x6", "tree float64 cfr+", p.public.n_nodes, None, 0.0,
              end.seconds / end.iterations, None, None, end.exploitability, end.value,
              end.seconds, end.iterations, None)  # fmt: skip
    if end.exploitability <= args.target:
        above = [cp for cp in hist if cp.exploitability > args.target]
        start = above[-1] if above else None
        again = Solver(p.public, "cfr+")
        if start is not None:
            again.iterate(start.iterations)  # deterministic: the same state as then

        def measure() -> tuple[float, float]:
            e = again.exploitability()
            return e.exploitability, e.value

        spent = start.seconds if start is not None else 0.0
        done = start.iterations if start is not None else 0
        found = step_to(args.target, done, spent, end.iterations, again.iterate, measure)
        row.first, row.seconds = found.iterations, found.seconds
        row.exploitability, row.value = found.exploitability, found.value
    row.peak_gb = peak_gb()
    return row


def in_own_process(argv: list[str], job: str) -> Row:
    """Run one game and solver in a fresh interpreter; its peak memory is its own."""
    command = [sys.executable, __file__, *argv, "--job", job]
    done = subprocess.run(command, stdout=subprocess.PIPE, text=True)
    if done.returncode != 0:
        raise SystemExit(f"bench_lean: {job} failed with exit code {done.returncode}")
    return Row(**json.loads(done.stdout.strip().splitlines()[-1]))


def budget(row: Row, args: argparse.Namespace) -> str:
    if row.first is None:
        return f"missed: {row.exploitability:.2e}"
    if row.run_wall is None:
        return ""
    if row.run_wall > args.budget_seconds or row.peak_gb > args.budget_gb:
        return f"missed: {row.run_wall:.0f} s, {row.peak_gb:.2f} GB"
    return "met"


def show_table(rows: list[Row], args: argparse.Namespace) -> None:
    console = Console(width=None if sys.stdout.isatty() else 240, stderr=False)
    t = f"{args.target:g}"
    table = Table(title=f"Lean CFR on Liar's Dice (2 players, wild highest), target {t}")
    for col in (
        "game", "solver", "public nodes", "arrays GB", "peak GB (own process)",
        "s/it wall", "s/it CPU", f"first iteration at {t}", "exploitability there",
        "value", f"solver s to {t}", "measured run: iterations", "wall s, measuring incl.",
        f"budget {args.budget_seconds:g} s, {args.budget_gb:g} GB",
    ):  # fmt: skip
        table.add_column(col, justify="left" if col in ("game", "solver") else "right")
    for r in rows:
        table.add_row(
            r.game,
            r.solver,
            f"{r.nodes:,}",
            "" if r.arrays_gb is None else f"{r.arrays_gb:.2f}",
            f"{r.peak_gb:.2f}",
            f"{r.wall_per_it:.3f}",
            "" if r.cpu_per_it is None else f"{r.cpu_per_it:.3f}",
            "not reached" if r.first is None else f"{r.first:,}",
            f"{r.exploitability:.3e}",
            f"{r.value:+.5f}",
            f"{r.seconds:.1f}" if r.first is not None else f"not in {r.seconds:.0f}",
            "" if r.run_iterations is None else f"{r.run_iterations:,}",
            "" if r.run_wall is None else f"{r.run_wall:.1f}",
            budget(r, args),
        )
    console.print(table)
    console.print(
        "[dim]each row ran in a process of its own; the machine is shared: wall seconds "
        f"include waiting for a core (load average now {load_average():.1f})[/]"
    )


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="1x6,2x4,2x5", help="DICExFACES, comma-separated")
    parser.add_argument(
        "--variants", default="cfr+,dcfr", help=f"comma-separated, of {', '.join(VARIANTS)}"
    )
    parser.add_argument("--target", type=float, default=1e-3)
    parser.add_argument(
        "--max-seconds", type=float, help="solver seconds (default 900, none with --minutes)"
    )
    parser.add_argument("--budget-seconds", type=float, default=600.0)
    parser.add_argument("--budget-gb", type=float, default=4.0)
    parser.add_argument(
        "--minutes", type=float, help="wall-time limit per game and variant, measuring included"
    )
    parser.add_argument("--first", type=int, default=8, help="first measuring point")
    parser.add_argument("--growth", type=float, default=1.25, help="of the measuring points")
    parser.add_argument("--log", type=Path, help="append JSON lines of progress here")
    parser.add_argument(
        "--save", type=Path, help="keep the state at the end under DIR/GAME-VARIANT"
    )
    parser.add_argument("--resume", type=Path, help="start from a state --save kept in DIR")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON lines")
    parser.add_argument("--job", help=argparse.SUPPRESS)  # GAME:VARIANT, in its own process
    args = parser.parse_args(argv)
    if args.growth <= 1 or args.first < 1:
        parser.error("--growth must exceed 1 and --first be at least 1")
    if args.minutes is not None and args.minutes <= 0:
        parser.error("--minutes must be positive")
    if args.max_seconds is None:
        args.max_seconds = float("inf") if args.minutes is not None else 900.0
    variants = args.variants.split(",")
    for v in variants:
        if v not in VARIANTS:
            parser.error(f"unknown variant {v!r}: one of {', '.join(VARIANTS)}")
    if args.job is not None:
        game, variant = args.job.split(":")
        log = None
        if args.log is not None:
            args.log.parent.mkdir(parents=True, exist_ok=True)
            log = args.log.open("a")
        row = tree_row(args) if variant == TREE else lean_row(args, game, variant, log)
        print(json.dumps(asdict(row)))
        return 0
    rows: list[Row] = []
    for text in args.games.split(","):
        jobs = [f"{text}:{v}" for v in variants] + ([f"{text}:{TREE}"] if text == "1x6" else [])
        for job in jobs:
            rows.append(in_own_process(argv, job))
            if args.json:
                print(json.dumps(asdict(rows[-1])), flush=True)
    if not args.json:
        show_table(rows, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
