"""How fast the CLI starts, next to the floor it stands on: Python importing typer and rich.

    .venv/bin/python benchmarks/bench_startup.py [--runs 15]

    .venv/bin/python benchmarks/bench_startup.py --json   # one JSON line a command

Runs each command in turn (A, B, C, A, B, C, ...) so that a machine whose speed drifts
slows all of them alike. Each round is a set of side-by-side runs: a command's ratio to
the floor (`python -c "import typer, rich"`) is taken within each round, in CPU seconds
(user + system, the process's own accounting), and the table prints both sides'
medians, every round's ratio, and the median [min-max] of those ratios. The targets:
`bluffdice --help` within 2x of the floor, `bluffdice odds mia` within 3x. CPU time is
the figure to quote on a shared machine; wall time is shown too.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

TARGETS = {"bluffdice --help": 2.0, "bluffdice odds mia": 3.0}


def bluffdice_command() -> list[str]:
    """The installed console script next to this Python (what users run), else -m."""
    script = Path(sys.executable).with_name("bluffdice")
    if script.exists():
        return [str(script)]
    found = shutil.which("bluffdice")
    return [found] if found else [sys.executable, "-m", "bluffdice"]


def commands() -> dict[str, list[str]]:
    cli = bluffdice_command()
    return {
        'python -c "import typer, rich"': [sys.executable, "-c", "import typer, rich"],
        "bluffdice --help": [*cli, "--help"],
        "bluffdice rules": [*cli, "rules"],
        "bluffdice odds mia": [*cli, "odds", "mia"],
    }


CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
"""The children may write bytecode, as an installed package has it: with
PYTHONDONTWRITEBYTECODE set (some shells and CI images set it), every run would compile
bluffdice from source while typer and rich load the bytecode pip wrote, and the warm-up
run below would warm nothing."""


def run_once(argv: list[str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one run, from the kernel's accounting of the child."""
    started = time.perf_counter()
    child = subprocess.Popen(
        argv,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=CHILD_ENV,
    )
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited with {child.returncode}")
    return usage.ru_utime + usage.ru_stime, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="timed rounds (default 15)")
    parser.add_argument("--json", action="store_true", help="one JSON line a command, no table")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    todo = commands()
    for argv in todo.values():  # warm the file cache and the bytecode
        run_once(argv)
    cpu: dict[str, list[float]] = {name: [] for name in todo}
    wall: dict[str, list[float]] = {name: [] for name in todo}
    for round_ in range(args.runs):
        for name, argv in todo.items():
            c, w = run_once(argv)
            cpu[name].append(c)
            wall[name].append(w)
        print(f"round {round_ + 1} of {args.runs} done", file=sys.stderr)
    floor_name = next(iter(todo))
    floor_cpu = cpu[floor_name]
    if not args.json:
        print(
            f"{args.runs} rounds, each command once a round, interleaved; Python "
            f"{sys.version.split()[0]}"
        )
        header = (
            f"{'command':34} {'cpu s':>7} {'wall s':>7} {'x floor (cpu), median [range]':>31}"
            "  target"
        )
        print(header)
        print("-" * len(header))
    for name in todo:
        ratios = [c / f for c, f in zip(cpu[name], floor_cpu, strict=True)]
        mid = statistics.median(ratios)
        target = TARGETS.get(name)
        if args.json:
            row = {
                "what": f"startup: {name}",
                "ours": statistics.median(cpu[name]),
                "theirs": statistics.median(floor_cpu),
                "unit": "CPU s",
                "ratio": mid,
                "ratio_min": min(ratios),
                "ratio_max": max(ratios),
                "ratios": ratios,
                "target": target,
                "reference": floor_name,
            }
            if name != floor_name:
                print(json.dumps(row))
            continue
        verdict = ""
        if target is not None:
            verdict = f"<= {target:.0f}x {'met' if mid <= target else 'MISSED'}"
        spread = f"{mid:.2f} [{min(ratios):.2f}-{max(ratios):.2f}]"
        print(
            f"{name:34} {statistics.median(cpu[name]):7.3f} "
            f"{statistics.median(wall[name]):7.3f} {spread:>31}  {verdict}"
        )
    if not args.json:
        print("each round's cpu s, floor first:")
        for i in range(args.runs):
            print(f"  round {i + 1:2}: " + " ".join(f"{cpu[n][i]:.3f}" for n in todo))


if __name__ == "__main__":
    main()
