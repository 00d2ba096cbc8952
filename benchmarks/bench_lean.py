"""The lean Liar's Dice solver (`bluffdice.solve.lean`): how big a cup it solves, how fast.

    .venv/bin/python benchmarks/bench_lean.py                  # 1x6, 2x4, 2x5 to 1e-3
    .venv/bin/python benchmarks/bench_lean.py --games 2x6 --max-seconds 900

For each game (dice x faces per player, sixes-style wild highest face, reset-face raises,
one round, as OpenSpiel's liars_dice): public nodes, the solver's arrays and the
process's peak memory, seconds (wall and CPU) per iteration, and the iterations and
seconds to reach exploitability 1e-3 (solver time; the exact measuring is left out).
For 1x6 the tree solver of `bluffdice.solve.cfr` runs beside it: both are the same
CFR+, so they need the same iterations.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time

from rich.console import Console
from rich.table import Table

from bluffdice.solve.lean import LeanSolver, lean_game, solve_to
from bluffdice.solve.liars_dice import DudoSpec


def peak_gb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6  # Linux: kB


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="1x6,2x4,2x5", help="DICExFACES, comma-separated")
    parser.add_argument("--target", type=float, default=1e-3)
    parser.add_argument("--max-seconds", type=float, default=600.0)
    args = parser.parse_args(argv)
    console = Console(width=None if sys.stdout.isatty() else 120, stderr=False)
    err = Console(stderr=True)
    table = Table(
        title=f"Lean CFR+ on Liar's Dice (2 players, wild highest), target {args.target:g}"
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
        f"s to {args.target:g}",
    ):
        table.add_column(col, justify="left" if col in ("game", "solver") else "right")
    for text in args.games.split(","):
        dice, faces = (int(x) for x in text.split("x"))
        spec = DudoSpec(dice=dice, faces=faces)
        t0 = time.perf_counter()
        solver = LeanSolver(lean_game(spec))
        err.print(f"{text}: {solver.g.n_nodes:,} nodes set up in {time.perf_counter() - t0:.1f} s")

        def show(cp, text=text):  # type: ignore[no-untyped-def]
            err.print(
                f"  {text}: {cp.iterations} it, {cp.seconds:.0f} s, "
                f"exploitability {cp.exploitability:.3e}"
            )

        history = solve_to(solver, args.target, args.max_seconds, on_checkpoint=show)
        last = history[-1]
        reached = last.exploitability <= args.target
        table.add_row(
            text,
            "lean float32",
            f"{solver.g.n_nodes:,}",
            f"{solver.nbytes / 1e9:.2f}",
            f"{peak_gb():.2f}",
            f"{last.seconds / last.iterations:.3f}",
            f"{last.cpu_seconds / last.iterations:.3f}",
            f"{last.iterations:,}",
            f"{last.exploitability:.3e}",
            f"{last.value:+.5f}",
            f"{last.seconds:.1f}" if reached else f"not in {last.seconds:.0f}",
        )
        if text == "1x6":
            from bluffdice.solve import Solver, problem, run

            p = problem("liars-dice", "openspiel")
            tree = Solver(p.public, "cfr+")
            hist = run(tree, target=args.target)
            end = hist[-1]
            table.add_row(
                text,
                "tree float64",
                f"{p.public.n_nodes:,}",
                "",
                "",
                f"{end.seconds / end.iterations:.3f}",
                "",
                f"{end.iterations:,}",
                f"{end.exploitability:.3e}",
                f"{end.value:+.5f}",
                f"{end.seconds:.1f}",
            )
    console.print(table)
    console.print("[dim]the machine is shared: wall seconds include waiting for a core[/]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
