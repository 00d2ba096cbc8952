"""CFR on 1-die Liar's Dice: OpenSpiel's C++ CFR+ against bluffdice, in interleaved pairs.

    .venv/bin/python benchmarks/bench_cfr.py              # 1e-3 and 2e-4, 3 pairs: ~5 min
    .venv/bin/python benchmarks/bench_cfr.py --quick      # 1e-3 only, 3 pairs: ~2 min
    .venv/bin/python benchmarks/bench_cfr.py --pairs 5
    .venv/bin/python benchmarks/bench_cfr.py --quick --json   # JSON lines, tables on stderr

The reference is OpenSpiel's C++ `CFRPlusSolver` (the `open-spiel` wheel) on its
`liars_dice` defaults, which are bluffdice's `openspiel` preset. Two bluffdice solvers
race it to the same exploitability: CFR+ (`cfr+`, the same algorithm, so the same
exploitability at every iteration: the benchmark checks it) and DCFR (`dcfr`, the
default of `Solver` and `bluffdice solve`, which needs fewer iterations).

The iteration counts are found first, untimed: each bluffdice solver is measured after
every iteration to find the first at or below each target, and OpenSpiel's own
`pyspiel.exploitability` confirms that its policy crosses each target at CFR+'s count.
Then each pair runs every solver from scratch for exactly those counts (taking turns
which goes first), timed in CPU seconds of this process, measuring never on the clock.
The table shows each pair's seconds, and the median [min-max] over the pairs of the
ratio OpenSpiel seconds / bluffdice seconds.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from collections.abc import Callable

from rich.console import Console
from rich.table import Table

from bluffdice.solve import Solver, problem

TARGETS = (1e-3, 2e-4)
OURS = ("cfr+", "dcfr")


def first_iterations(
    algorithm: str, targets: tuple[float, ...], limit: int = 20_000
) -> dict[float, int]:
    """The first iteration count at or below each target (bluffdice, untimed)."""
    solver = Solver(problem("liars-dice", "openspiel").public, algorithm)  # type: ignore[arg-type]
    found: dict[float, int] = {}
    while len(found) < len(targets) and solver.iterations < limit:
        solver.iterate(1)
        e = solver.exploitability().exploitability
        for t in targets:
            if t not in found and e <= t:
                found[t] = solver.iterations
    return found


def time_ours(algorithm: str, counts: dict[float, int]) -> dict[float, float]:
    """CPU seconds to reach each count, from scratch, measuring nothing."""
    solver = Solver(problem("liars-dice", "openspiel").public, algorithm)  # type: ignore[arg-type]
    seconds: dict[float, float] = {}
    start = time.process_time()
    for target in sorted(counts, key=counts.__getitem__):
        solver.iterate(counts[target] - solver.iterations)
        seconds[target] = time.process_time() - start
    return seconds


def time_openspiel(counts: dict[float, int]) -> dict[float, float]:
    import pyspiel

    solver = pyspiel.CFRPlusSolver(pyspiel.load_game("liars_dice"))
    seconds: dict[float, float] = {}
    done = 0
    start = time.process_time()
    for target in sorted(counts, key=counts.__getitem__):
        for _ in range(counts[target] - done):
            solver.evaluate_and_update_policy()
        done = counts[target]
        seconds[target] = time.process_time() - start
    return seconds


def openspiel_crossings(counts: dict[float, int]) -> dict[float, tuple[float, float]]:
    """OpenSpiel's exploitability one iteration before and at each count (untimed)."""
    import pyspiel

    game = pyspiel.load_game("liars_dice")
    solver = pyspiel.CFRPlusSolver(game)
    found: dict[float, tuple[float, float]] = {}
    done = 0
    for target in sorted(counts, key=counts.__getitem__):
        for _ in range(counts[target] - 1 - done):
            solver.evaluate_and_update_policy()
        before = pyspiel.exploitability(game, solver.average_policy())
        solver.evaluate_and_update_policy()
        done = counts[target]
        found[target] = (before, pyspiel.exploitability(game, solver.average_policy()))
    return found


def spread(ratios: list[float]) -> str:
    return f"{statistics.median(ratios):.1f}x [{min(ratios):.1f}-{max(ratios):.1f}]"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="only the 1e-3 target")
    parser.add_argument("--pairs", type=int, default=3, help="timed pairs (default 3)")
    parser.add_argument(
        "--json",
        action="store_true",
        help="one JSON line a bluffdice solver and target on stdout; the tables go to stderr",
    )
    args = parser.parse_args(argv)
    if args.pairs < 1:
        parser.error("--pairs must be at least 1")
    console = Console(stderr=args.json, width=None if sys.stdout.isatty() else 110)
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        console.print("open-spiel is not installed: pip install -e '.[bench]'", markup=False)
        return 2
    targets = TARGETS[:1] if args.quick else TARGETS
    console.print(
        f"[dim]{platform.processor() or platform.machine()}, Python {sys.version.split()[0]}, "
        "CPU seconds of this process"
    )
    console.print("[dim]finding the iteration counts (measured every iteration, untimed) ...")
    counts = {a: first_iterations(a, targets) for a in OURS}
    crossings = openspiel_crossings(counts["cfr+"])
    runs: dict[str, Callable[[], dict[float, float]]] = {
        "OpenSpiel C++ CFR+": lambda: time_openspiel(counts["cfr+"])
    }
    for a in OURS:
        runs[f"bluffdice {a}"] = lambda a=a: time_ours(a, counts[a])  # type: ignore[misc]
    seconds: dict[str, list[dict[float, float]]] = {name: [] for name in runs}
    for pair in range(args.pairs):
        order = list(runs) if pair % 2 == 0 else list(reversed(runs))
        for name in order:
            seconds[name].append(runs[name]())
        console.print(f"[dim]pair {pair + 1} of {args.pairs} done")

    reference = "OpenSpiel C++ CFR+"
    table = Table(title="CFR on Liar's Dice, 1 die each, 6 faces (OpenSpiel liars_dice)")
    table.add_column("solver")
    table.add_column("target", justify="right")
    table.add_column("iterations", justify="right")
    table.add_column("CPU s per pair", justify="right")
    table.add_column("OpenSpiel / this, median [range]", justify="right")
    rows: list[dict[str, object]] = []
    for t in targets:
        for name in runs:
            algorithm = "cfr+" if name == reference else name.split()[-1]
            own = [s[t] for s in seconds[name]]
            ratios = [r[t] / s[t] for r, s in zip(seconds[reference], seconds[name], strict=True)]
            if args.json and name != reference:
                rows.append(
                    {
                        "what": f"CFR {algorithm}, 1-die Liar's Dice to {t:g} exploitability",
                        "solver": algorithm,
                        "target": t,
                        "iterations": counts[algorithm][t],
                        "reference_iterations": counts["cfr+"][t],
                        "ours": statistics.median(own),
                        "theirs": statistics.median(s[t] for s in seconds[reference]),
                        "unit": "CPU s",
                        "ratio": statistics.median(ratios),
                        "ratio_min": min(ratios),
                        "ratio_max": max(ratios),
                        "ratios": ratios,
                    }
                )
            table.add_row(
                name,
                f"{t:g}",
                f"{counts[algorithm][t]:,}",
                " ".join(f"{s:.2f}" for s in own),
                "-" if name == reference else spread(ratios),
            )
    console.print(table)

    ok = True
    check = Table(title="the same trajectory: exploitability one iteration before / at the count")
    check.add_column("target")
    check.add_column("OpenSpiel CFR+", justify="right")
    check.add_column("bluffdice cfr+", justify="right")
    same = Solver(problem("liars-dice", "openspiel").public, "cfr+")
    for t in targets:
        n = counts["cfr+"][t]
        same.iterate(n - 1 - same.iterations)
        before = same.exploitability().exploitability
        same.iterate(1)
        at = same.exploitability().exploitability
        theirs = crossings[t]
        check.add_row(f"{t:g}", f"{theirs[0]:.6e} / {theirs[1]:.6e}", f"{before:.6e} / {at:.6e}")
        ok &= theirs[1] <= t < theirs[0] and abs(theirs[1] - at) < 1e-9
    console.print(check)
    console.print(
        "same trajectory, targets reached at the same iteration: "
        + ("[green]yes[/]" if ok else "[red]NO[/]")
    )
    for row in rows:
        print(json.dumps({**row, "same_trajectory": ok}))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
