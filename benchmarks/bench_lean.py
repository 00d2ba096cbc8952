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
one round, as OpenSpiel's liars_dice) and each variant: public nodes, the solver's arrays
and the process's peak memory so far, seconds (wall and CPU) per iteration, and the
iterations and seconds to reach the target exploitability, both solver time alone and
wall time with the exact measuring included (measured at iteration counts growing by a
quarter). The last column checks the issue's budget: the target within `--budget-seconds`
of wall time (measuring included) and `--budget-gb` of peak memory. For 1x6 the tree
solver of `bluffdice.solve.cfr` runs beside it (CFR+, float64).
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from rich.console import Console
from rich.table import Table

from bluffdice.solve.lean import VARIANTS, LeanCheckpoint, LeanSolver, lean_game, solve_to
from bluffdice.solve.liars_dice import DudoSpec


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


def main(argv: list[str] | None = None) -> int:
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
    args = parser.parse_args(argv)
    if args.growth <= 1 or args.first < 1:
        parser.error("--growth must exceed 1 and --first be at least 1")
    if args.minutes is not None and args.minutes <= 0:
        parser.error("--minutes must be positive")
    if args.max_seconds is None:
        args.max_seconds = float("inf") if args.minutes is not None else 900.0
    log = None
    if args.log is not None:
        args.log.parent.mkdir(parents=True, exist_ok=True)
        log = args.log.open("a")
    variants = args.variants.split(",")
    for v in variants:
        if v not in VARIANTS:
            parser.error(f"unknown variant {v!r}: one of {', '.join(VARIANTS)}")
    console = Console(width=None if sys.stdout.isatty() else 220, stderr=False)
    err = Console(stderr=True)
    table = Table(
        title=f"Lean CFR on Liar's Dice (2 players, wild highest), target {args.target:g}"
    )
    for col in (
        "game",
        "solver",
        "public nodes",
        "arrays GB",
        "peak GB",
        "s/it wall",
        "s/it CPU",
        "iterations",
        "exploitability",
        "value",
        f"solver s to {args.target:g}",
        "wall s, measuring incl.",
        f"budget {args.budget_seconds:g} s, {args.budget_gb:g} GB",
    ):
        table.add_column(col, justify="left" if col in ("game", "solver") else "right")
    for text in args.games.split(","):
        dice, faces = (int(x) for x in text.split("x"))
        spec = DudoSpec(dice=dice, faces=faces)
        for variant in variants:
            t0 = time.perf_counter()
            solver = LeanSolver(lean_game(spec), variant=variant)
            name = f"{text}-{variant}"
            if args.resume is not None and (args.resume / name).exists():
                solver.load(args.resume / name)
            setup = time.perf_counter() - t0
            resumed = solver.iterations
            err.print(
                f"{text} {variant}: {solver.g.n_nodes:,} nodes, {solver.nbytes / 1e9:.2f} GB "
                f"of arrays, set up in {setup:.1f} s at iteration {solver.iterations}"
            )
            log_line(
                log,
                event="start",
                game=text,
                variant=variant,
                nodes=solver.g.n_nodes,
                arrays_gb=solver.nbytes / 1e9,
                iterations=solver.iterations,
                setup_s=setup,
            )

            def show(cp: LeanCheckpoint, text: str = text, variant: str = variant) -> None:
                err.print(
                    f"  {text} {variant}: {cp.iterations} it, {cp.seconds:.0f} s, "
                    f"exploitability {cp.exploitability:.3e}, value {cp.value:+.5f}"
                )
                log_line(log, event="measure", game=text, variant=variant, **vars(cp))

            def tick(n: int, wall: float, cpu: float, text: str = text) -> None:
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
                err.print(
                    f"  state saved in {args.save / name} in {time.perf_counter() - t1:.0f} s"
                )
            last = history[-1]
            wall = setup + last.seconds + last.measure_seconds
            reached = last.exploitability <= args.target
            peak = peak_gb()
            log_line(log, event="end", game=text, variant=variant, wall_s=wall, reached=reached)
            if not reached:
                verdict = f"missed: {last.exploitability:.2e}"
            elif wall > args.budget_seconds or peak > args.budget_gb:
                verdict = f"missed: {wall:.0f} s, {peak:.2f} GB"
            else:
                verdict = "met"
            table.add_row(
                text,
                f"lean float32 {variant}",
                f"{solver.g.n_nodes:,}",
                f"{solver.nbytes / 1e9:.2f}",
                f"{peak:.2f}",
                f"{last.seconds / max(1, last.iterations - resumed):.3f}",
                f"{last.cpu_seconds / max(1, last.iterations - resumed):.3f}",
                f"{last.iterations:,}",
                f"{last.exploitability:.3e}",
                f"{last.value:+.5f}",
                f"{last.seconds:.1f}" if reached else f"not in {last.seconds:.0f}",
                f"{wall:.1f}",
                verdict,
            )
            del solver
        if text == "1x6":
            from bluffdice.solve import Solver, problem, run

            p = problem("liars-dice", "openspiel")
            tree = Solver(p.public, "cfr+")
            hist = run(tree, target=args.target)
            end = hist[-1]
            table.add_row(
                text,
                "tree float64 cfr+",
                f"{p.public.n_nodes:,}",
                "",
                "",
                f"{end.seconds / end.iterations:.3f}",
                "",
                f"{end.iterations:,}",
                f"{end.exploitability:.3e}",
                f"{end.value:+.5f}",
                f"{end.seconds:.1f}",
                "",
                "",
            )
    console.print(table)
    console.print(
        "[dim]the machine is shared: wall seconds include waiting for a core "
        f"(load average now {load_average():.1f})[/]"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
