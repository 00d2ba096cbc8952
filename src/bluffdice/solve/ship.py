"""Solve the policies that ship in the package: `python -m bluffdice.solve.ship`.

Each entry names the game, the rule set, the pass cap (Mia with the pass) and the
exploitability to reach; the files land in `bluffdice/solve/data/` with an index. The
figures of the run (iterations, solver seconds, exploitability, value) are saved inside
each file and printed, and docs/solve.md quotes them. The exploitability and value a file
records are those of the strategy as stored (rounded and pruned), measured again after
writing it; the target is met by the stored strategy.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bluffdice.solve.cfr import Checkpoint, Solver, run
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


ENTRIES = (
    Entry("mia-maexchen", "mia", "maexchen", 2e-5, 50_000),
    Entry("mia-classic", "mia", "classic(lives=1)", 2e-4, 4_000, pass_cap=2),
    Entry("mia-doubles-ascending", "mia", "doubles-ascending(lives=1)", 2e-4, 4_000, pass_cap=2),
    Entry("liars-dice-openspiel", "liars-dice", "openspiel", 1e-5, 50_000),
)


def solve_entry(entry: Entry) -> Policy:
    prob = problem(entry.game, entry.rules, pass_cap=entry.pass_cap)
    solver = Solver(prob.public, "cfr+")

    def show(cp: object) -> None:
        print(f"  {entry.name}: {cp}", flush=True)

    history = run(
        solver,
        target=entry.target,
        max_iterations=entry.max_iterations,
        checkpoints=20,
        on_checkpoint=show,
    )

    def info(hist: list[Checkpoint]) -> dict[str, Any]:
        return {
            "algorithm": "cfr+",
            "iterations": hist[-1].iterations,
            "seconds": round(hist[-1].seconds, 2),
            "target": entry.target,
            "tree": prob.public.describe(),
        }

    policy, _ = to_target(
        prob, solver, history, info, entry.target, entry.max_iterations, on_checkpoint=show
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
    for entry in ENTRIES:
        if args.names and entry.name not in args.names:
            continue
        policy = solve_entry(entry)
        policy.save(folder / f"{entry.name}.json.gz")
        index[entry.name] = summary(policy)
        print(json.dumps(index[entry.name]["solver"]), policy.exploitability, policy.value)
        index_path.write_text(json.dumps(index, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
