"""CFR+ on 1-die Liar's Dice: OpenSpiel's C++ solver against bluffdice's, in one run.

    .venv/bin/python benchmarks/bench_cfr.py            # both targets, about 3 minutes
    .venv/bin/python benchmarks/bench_cfr.py --quick    # 1e-3 only

Both run CFR+ with alternating updates and linear averaging on the same game
(OpenSpiel's `liars_dice` defaults = bluffdice's `openspiel` preset), so their
exploitability after n iterations is the same number; the benchmark checks that, then
times each solver for exactly the iterations it needs to reach each target.

How the iteration counts are found: bluffdice's solver is run once, measuring its
exploitability after every iteration (untimed), to find the first iteration at or below
each target. Then each solver runs from scratch under the clock; OpenSpiel's own
`pyspiel.exploitability` confirms that its average policy is at or below the target at
that count and above it one iteration earlier. Measuring is never on the clock.

Needs the bench extra: `pip install -e '.[bench]'` (open-spiel).
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from dataclasses import dataclass

from rich.console import Console
from rich.table import Table

from bluffdice.solve import Solver, problem

TARGETS = (1e-3, 2e-4)


@dataclass
class Row:
    name: str
    seconds: dict[float, float]
    exploitability: dict[float, float]
    before: dict[float, float]
    iterations: dict[float, int]

    def rate(self) -> float:
        last = max(self.iterations, key=lambda t: self.iterations[t])
        return self.iterations[last] / self.seconds[last]


def first_iterations(targets: tuple[float, ...], limit: int = 20_000) -> dict[float, int]:
    """The first CFR+ iteration count at or below each target (bluffdice, untimed)."""
    solver = Solver(problem("liars-dice", "openspiel").public, "cfr+")
    found: dict[float, int] = {}
    while len(found) < len(targets) and solver.iterations < limit:
        solver.iterate(1)
        e = solver.exploitability().exploitability
        for t in targets:
            if t not in found and e <= t:
                found[t] = solver.iterations
    return found


def run_ours(counts: dict[float, int]) -> Row:
    solver = Solver(problem("liars-dice", "openspiel").public, "cfr+")
    row = Row("bluffdice CFR+ (numpy)", {}, {}, {}, {})
    spent = 0.0
    for target in sorted(counts, key=counts.__getitem__):
        n = counts[target]
        t0 = time.perf_counter()
        solver.iterate(n - 1 - solver.iterations)
        spent += time.perf_counter() - t0
        row.before[target] = solver.exploitability().exploitability
        t0 = time.perf_counter()
        solver.iterate(1)
        spent += time.perf_counter() - t0
        row.seconds[target] = spent
        row.exploitability[target] = solver.exploitability().exploitability
        row.iterations[target] = n
    return row


def run_openspiel(counts: dict[float, int]) -> Row:
    import pyspiel

    game = pyspiel.load_game("liars_dice")
    solver = pyspiel.CFRPlusSolver(game)
    row = Row("OpenSpiel C++ CFR+", {}, {}, {}, {})
    done, spent = 0, 0.0
    for target in sorted(counts, key=counts.__getitem__):
        n = counts[target]
        t0 = time.perf_counter()
        for _ in range(n - 1 - done):
            solver.evaluate_and_update_policy()
        spent += time.perf_counter() - t0
        row.before[target] = pyspiel.exploitability(game, solver.average_policy())
        t0 = time.perf_counter()
        solver.evaluate_and_update_policy()
        spent += time.perf_counter() - t0
        done = n
        row.seconds[target] = spent
        row.exploitability[target] = pyspiel.exploitability(game, solver.average_policy())
        row.iterations[target] = n
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="only the 1e-3 target")
    args = parser.parse_args(argv)
    console = Console(width=None if sys.stdout.isatty() else 100)
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        console.print("open-spiel is not installed: pip install -e '.[bench]'", markup=False)
        return 2
    targets = TARGETS[:1] if args.quick else TARGETS
    console.print(
        f"[dim]{platform.processor() or platform.machine()}, Python {sys.version.split()[0]}"
    )
    console.print("[dim]finding the iteration counts (bluffdice, measured every iteration) ...")
    counts = first_iterations(targets)
    console.print("[dim]timing bluffdice ...")
    ours = run_ours(counts)
    console.print("[dim]timing OpenSpiel (this is the slow part) ...")
    theirs = run_openspiel(counts)

    table = Table(title="CFR+ on Liar's Dice, 1 die each, 6 faces (OpenSpiel liars_dice)")
    table.add_column("solver")
    table.add_column("iter/s", justify="right")
    for t in targets:
        table.add_column(f"iter to {t:g}", justify="right")
        table.add_column(f"s to {t:g}", justify="right")
    for row in (theirs, ours):
        cells = [row.name, f"{row.rate():,.1f}"]
        for t in targets:
            cells += [f"{row.iterations[t]:,}", f"{row.seconds[t]:.2f}"]
        table.add_row(*cells)
    ratio = ["ratio (OpenSpiel / bluffdice)", f"{ours.rate() / theirs.rate():.1f}x"]
    for t in targets:
        ratio += ["", f"{theirs.seconds[t] / ours.seconds[t]:.1f}x"]
    table.add_row(*ratio, style="bold")
    console.print(table)

    check = Table(title="exploitability at those counts (each solver measured by its own code)")
    check.add_column("target")
    check.add_column("OpenSpiel: iteration before / at", justify="right")
    check.add_column("bluffdice: iteration before / at", justify="right")
    ok = True
    for t in targets:
        check.add_row(
            f"{t:g}",
            f"{theirs.before[t]:.6e} / {theirs.exploitability[t]:.6e}",
            f"{ours.before[t]:.6e} / {ours.exploitability[t]:.6e}",
        )
        ok &= theirs.exploitability[t] <= t < theirs.before[t]
        ok &= abs(theirs.exploitability[t] - ours.exploitability[t]) < 1e-9
    console.print(check)
    console.print(
        "same trajectory, targets reached at the same iteration: "
        + ("[green]yes[/]" if ok else "[red]NO[/]")
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
