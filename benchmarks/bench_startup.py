"""How fast the CLI starts, next to the floor it stands on: Python importing typer and rich.

    .venv/bin/python benchmarks/bench_startup.py [--runs 15]

Runs each command in turn (A, B, C, A, B, C, ...) so that a machine whose speed drifts
slows all of them alike, and prints the median CPU seconds (user + system, the process's
own accounting) and wall seconds of each, with its ratio to the floor. The targets:
`bluffdice --help` within 2x of `python -c "import typer, rich"`, `bluffdice odds mia`
within 3x. CPU time is the figure to quote on a shared machine; wall time is shown too.
"""

from __future__ import annotations

import argparse
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
    parser.add_argument("--runs", type=int, default=15, help="timed runs of each (default 15)")
    args = parser.parse_args()
    todo = commands()
    for argv in todo.values():  # warm the file cache and the bytecode
        run_once(argv)
    cpu: dict[str, list[float]] = {name: [] for name in todo}
    wall: dict[str, list[float]] = {name: [] for name in todo}
    for _ in range(args.runs):
        for name, argv in todo.items():
            c, w = run_once(argv)
            cpu[name].append(c)
            wall[name].append(w)
    floor_name = next(iter(todo))
    floor_cpu = statistics.median(cpu[floor_name])
    floor_wall = statistics.median(wall[floor_name])
    print(f"median of {args.runs} runs each, interleaved; Python {sys.version.split()[0]}")
    header = f"{'command':34} {'cpu s':>7} {'x floor':>8} {'wall s':>7} {'x floor':>8}  target"
    print(header)
    print("-" * len(header))
    for name in todo:
        c, w = statistics.median(cpu[name]), statistics.median(wall[name])
        ratio = c / floor_cpu
        target = TARGETS.get(name)
        verdict = ""
        if target is not None:
            verdict = f"<= {target:.0f}x {'met' if ratio <= target else 'MISSED'}"
        print(f"{name:34} {c:7.3f} {ratio:8.2f} {w:7.3f} {w / floor_wall:8.2f}  {verdict}")


if __name__ == "__main__":
    main()
