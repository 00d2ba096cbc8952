"""The lean Liar's Dice solver (`bluffdice.solve.lean`): how big a cup it solves, how fast.

    .venv/bin/python benchmarks/bench_lean.py            # 1x6, 2x4, 2x5 to 1e-3, cfr+ and dcfr
    .venv/bin/python benchmarks/bench_lean.py --games 2x4 --variants cfr+,cfr+quadratic,dcfr,dcfr+

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
import resource
import sys
import time

from rich.console import Console
from rich.table import Table

from bluffdice.solve.lean import VARIANTS, LeanCheckpoint, LeanSolver, lean_game, solve_to
from bluffdice.solve.liars_dice import DudoSpec


def peak_gb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6  # Linux: kB


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="1x6,2x4,2x5", help="DICExFACES, comma-separated")
    parser.add_argument(
        "--variants", default="cfr+,dcfr", help=f"comma-separated, of {', '.join(VARIANTS)}"
    )
    parser.add_argument("--target", type=float, default=1e-3)
    parser.add_argument("--max-seconds", type=float, default=900.0, help="solver seconds")
    parser.add_argument("--budget-seconds", type=float, default=600.0)
    parser.add_argument("--budget-gb", type=float, default=4.0)
    args = parser.parse_args(argv)
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
            setup = time.perf_counter() - t0
            err.print(f"{text} {variant}: {solver.g.n_nodes:,} nodes set up in {setup:.1f} s")

            def show(cp: LeanCheckpoint, text: str = text, variant: str = variant) -> None:
                err.print(
                    f"  {text} {variant}: {cp.iterations} it, {cp.seconds:.0f} s, "
                    f"exploitability {cp.exploitability:.3e}"
                )

            history = solve_to(solver, args.target, args.max_seconds, on_checkpoint=show)
            last = history[-1]
            wall = setup + last.seconds + last.measure_seconds
            reached = last.exploitability <= args.target
            peak = peak_gb()
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
                f"{last.seconds / last.iterations:.3f}",
                f"{last.cpu_seconds / last.iterations:.3f}",
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
    console.print("[dim]the machine is shared: wall seconds include waiting for a core[/]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
