"""Solve the policies that ship in the package: `python -m bluffdice.solve.ship`.

Each entry names the game, the rule set, the pass cap (Mia with the pass) and the
exploitability to reach; the files land in `bluffdice/solve/data/` with an index. The
figures of the run (iterations, solver seconds, exploitability, value) are saved inside
each file and printed, and docs/solve.md quotes them. The exploitability and value a file
records are those of the strategy as stored (rounded and pruned), measured again after
writing it; the target is met by the stored strategy, or nothing is written.

The solver runs to `solve_to`, below the target, so that a compact rounding of its
strategy (few digits, rare actions dropped) still meets the target as stored: rounding
costs exploitability, and the finer roundings make bigger files.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bluffdice.solve.cfr import Algorithm, Checkpoint, Solver, run
from bluffdice.solve.policy import INDEX, Policy, summary
from bluffdice.solve.problems import problem
from bluffdice.solve.stored import to_target


@dataclass(frozen=True)
class Entry:
    name: str
    game: str
    rules: str
    target: float
    max_iterations: int
    pass_cap: int | None = None
    solve_to: float | None = None  # the solver's own aim; the target when None
    algorithm: Algorithm = "cfr+"

    @property
    def aim(self) -> float:
        return self.target if self.solve_to is None else self.solve_to


ENTRIES = (
    Entry("mia-maexchen", "mia", "maexchen", 2e-5, 50_000),
    Entry(
        "mia-classic",
        "mia",
        "classic(lives=1)",
        2e-4,
        20_000,
        pass_cap=2,
        solve_to=1e-4,
        algorithm="dcfr",
    ),
    Entry(
        "mia-doubles-ascending",
        "mia",
        "doubles-ascending(lives=1)",
        2e-4,
        20_000,
        pass_cap=2,
        solve_to=1e-4,
        algorithm="dcfr",
    ),
    Entry("liars-dice-openspiel", "liars-dice", "openspiel", 1e-5, 50_000),
)


class ShipError(RuntimeError):
    """A shipped file would miss its target: the run writes nothing instead."""


def solve_entry(entry: Entry) -> Policy:
    prob = problem(entry.game, entry.rules, pass_cap=entry.pass_cap)
    solver = Solver(prob.public, entry.algorithm)

    def show(cp: object) -> None:
        print(f"  {entry.name}: {cp}", flush=True)

    history = run(
        solver,
        target=entry.aim,
        max_iterations=entry.max_iterations,
        checkpoints=60,
        on_checkpoint=show,
    )

    def info(hist: list[Checkpoint]) -> dict[str, Any]:
        return {
            "algorithm": entry.algorithm,
            "iterations": hist[-1].iterations,
            "seconds": round(hist[-1].seconds, 2),
            "target": entry.target,
            "solve_to": entry.aim,
            "tree": prob.public.describe(),
        }

    policy, _ = to_target(
        prob, solver, history, info, entry.target, entry.max_iterations, on_checkpoint=show
    )
    stored = policy.exploitability
    if stored is None or stored > entry.target:
        raise ShipError(
            f"{entry.name}: the stored policy is exploitable by {stored} "
            f"after {solver.iterations:,} iterations (the cap), above the target "
            f"{entry.target:g}; nothing written"
        )
    return policy


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("names", nargs="*", help="entries to solve (default: all)")
    parser.add_argument("--out", default=str(Path(__file__).parent / "data"))
    args = parser.parse_args(argv)
    folder = Path(args.out)
    index_path = folder / INDEX
    index = json.loads(index_path.read_text()) if index_path.exists() else {}
    unknown = set(args.names) - {e.name for e in ENTRIES}
    if unknown:
        raise SystemExit(f"unknown entries: {', '.join(sorted(unknown))}")
    for entry in ENTRIES:
        if args.names and entry.name not in args.names:
            continue
        try:
            policy = solve_entry(entry)
        except ShipError as exc:
            raise SystemExit(str(exc)) from None
        policy.save(folder / f"{entry.name}.json.gz")
        index[entry.name] = summary(policy)
        print(json.dumps(index[entry.name]["solver"]), policy.exploitability, policy.value)
        index_path.write_text(json.dumps(index, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
