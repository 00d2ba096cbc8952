"""Before and after the one host: three speed figures of two source trees, side by side.

    .venv/bin/python benchmarks/bench_host.py                  # against 6c70178, 3 to 4 minutes
    .venv/bin/python benchmarks/bench_host.py --quick          # fewer, shorter runs, < 1 min
    .venv/bin/python benchmarks/bench_host.py --baseline REV   # another "before"
    .venv/bin/python benchmarks/bench_host.py --baseline-path /tmp/old --json

Issue 30 asks that the rewrite onto `table.host.Host` leave the speed unchanged or
better. "Before" is a git worktree of --baseline (default 6c70178, the last commit
before the host) made in a temporary folder and removed afterwards, or a tree given by
--baseline-path; "after" is the tree this file is in. The figures:

- tournament games/s: `bluffdice tournament` of four built-in bots (--games N --seed 1
  --workers 1 --no-store --json), run through the CLI inside the child after a short
  warm-up game set (so neither start-up nor the bots' caches are counted), as games per
  CPU-second of that process: other work on a shared machine tilts it less than wall time.
- server CPU per move: `bluffdice serve` as its own process under the websocket load of
  benchmarks/bench_server.py (its `measure`), the server's CPU time over the moves made.
- Mäxchen rounds/s: benchmarks/bench_maexchen.py's measurement of the bare server with 4
  bots and the early start (its target row), in wall-clock time.

Every run is a child process of the same interpreter with PYTHONPATH=<tree>/src, running
this file's measuring code, so both sides are measured by the same commands; each child
reports the `bluffdice` it imported and the run counts only if that lies in its tree.
Runs alternate in pairs (before after, after before, ...) so that both sides meet the
machine in the same states, and the ratio of each pair is taken: the table shows each
side's median [min-max] and the median [min-max] of the pairs' ratios. A side that fails
(another helper's rewrite not landed yet, a server that does not start) is not run again
for that figure; its cell holds the error's last line instead.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "6c70178"
"""The last commit before the host (table/host.py)."""

BOTS = "odds,adaptive,liar,honest"
"""A fixed line-up: the default (every built-in bot) may differ between the trees."""

TABLES = 10
"""Tables of 4 clients for the server: the most one address may create (Limits)."""


# --- the children: one measurement each, run under the tree's PYTHONPATH ------------------


def child_tournament(size: float) -> dict[str, Any]:
    """Games per CPU-second of a tournament through the CLI, in this process."""
    from bluffdice.cli import main as cli

    def tournament(games: int) -> tuple[float, float, dict[str, Any]]:
        argv = ["bluffdice", "tournament", "mia", "--rules", "classic", "--bots", BOTS]
        argv += ["--games", str(games), "--seed", "1", "--workers", "1", "--no-store", "--json"]
        out = io.StringIO()
        saved, sys.argv = sys.argv, argv
        cpu, wall = time.process_time(), time.perf_counter()
        try:
            with contextlib.redirect_stdout(out):
                cli()
        except SystemExit as stop:
            if stop.code not in (None, 0):
                raise RuntimeError(f"bluffdice tournament exited with {stop.code}") from None
        finally:
            sys.argv = saved
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        return cpu, wall, json.loads(out.getvalue())

    tournament(10)  # warm-up: imports, the bots' caches
    games = int(size)
    cpu, wall, result = tournament(games)
    if result["tournament"]["games"] != games:
        raise RuntimeError(f"asked for {games} games, the tournament played a different number")
    wins = {name: bot["wins"] for name, bot in sorted(result["bots"].items())}
    return {"value": games / cpu, "wall_games_per_s": games / wall, "wins": wins}


def child_server(size: float, seconds: float) -> dict[str, Any]:
    """The server's CPU milliseconds per move under bench_server's load."""
    import bench_server

    folder = Path(tempfile.mkdtemp(prefix="bench-host-server-"))
    log = (folder / "server.log").open("wb")
    port = bench_server.free_port()
    command = [sys.executable, "-c", "from bluffdice.cli import main; main()", "serve"]
    command += ["--port", str(port), "--db", str(folder / "bench.db"), "--bot-delay", "0"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log)
    try:
        base = wait_for_server(process, port, folder / "server.log")
        with asyncio.Runner(loop_factory=bench_server.loop_factory()) as runner:
            row = runner.run(bench_server.measure(base, process.pid, int(size), seconds))
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()
        shutil.rmtree(folder, ignore_errors=True)
    if not row["moves_per_s"]:
        raise RuntimeError("no move was completed while measuring")
    keep = ("moves_per_s", "p50_ms", "p99_ms", "refusals", "lost")
    return {"value": row["server_ms_per_move"], **{k: row[k] for k in keep}}


def wait_for_server(process: subprocess.Popen[bytes], port: int, log: Path) -> str:
    """The server's address once it answers; its last line of stderr as the error if it
    exits first (bench_server's own start would wait three minutes for a dead server)."""
    import httpx

    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            lines = log.read_text(errors="replace").strip().splitlines() or ["(nothing)"]
            raise RuntimeError(f"the server exited with {process.returncode}: {lines[-1].strip()}")
        try:
            httpx.get(f"{base}/api/tables", timeout=1)
            return base
        except httpx.HTTPError:
            time.sleep(0.2)
    raise RuntimeError("the server did not answer within 60 s")


def child_maexchen(size: float, seconds: float) -> dict[str, Any]:
    """Rounds per second of the bare Mäxchen server, 4 bots, early start."""
    import bench_maexchen
    from bench_maexchen import loop_factory  # the tree's own, old or new

    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        row = runner.run(bench_maexchen._speed(int(size), True, seconds))
    if not row["rounds"]:
        raise RuntimeError("no round was played while measuring")
    return {"value": row["rounds/s"], "cpu_ms_per_round": row["cpu ms/round"]}


def child(figure: str, size: float, seconds: float) -> None:
    """One measurement: its figures as the last line of stdout, or the error on stderr."""
    import bluffdice

    where = str(Path(bluffdice.__file__).resolve())
    if figure == "tournament":
        result = child_tournament(size)
    elif figure == "server":
        result = child_server(size, seconds)
    else:
        result = child_maexchen(size, seconds)
    print(json.dumps({**result, "bluffdice": where}))


# --- the parent: the runs in pairs, the table ----------------------------------------------


@dataclass(frozen=True)
class Figure:
    key: str
    title: str
    unit: str
    higher_is_better: bool
    size: float
    """Games, tables or bots."""
    seconds: float
    """Measured seconds (unused by the tournament, which counts games)."""


def figures(quick: bool) -> list[Figure]:
    return [
        Figure(
            "tournament", "tournament games/s (CPU time)", "games/s", True, 150 if quick else 600, 0
        ),
        Figure("server", "server CPU ms per move", "ms", False, TABLES, 2 if quick else 5),
        Figure("maexchen", "Mäxchen rounds/s (4 bots)", "rounds/s", True, 4, 2 if quick else 5),
    ]


@dataclass
class Side:
    tree: Path
    values: list[float] = field(default_factory=list)
    details: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None


def measure_once(figure: Figure, tree: Path, timeout: float) -> dict[str, Any]:
    """One child run against `tree`: its result, or RuntimeError with one line."""
    command = [sys.executable, str(Path(__file__).resolve()), "--child", figure.key]
    command += ["--size", str(figure.size), "--seconds", str(figure.seconds)]
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    env.pop("PYTHONHOME", None)
    # its own session, so that a run past its time is ended with the server or bots it began
    process = subprocess.Popen(
        command,
        cwd=tree,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        raise RuntimeError(f"no result within {timeout:.0f} s") from None
    except BaseException:  # Ctrl-C does not reach a child in its own session
        os.killpg(process.pid, signal.SIGKILL)
        raise
    lines = out.strip().splitlines()
    if process.returncode != 0 or not lines:
        said = [line for line in err.strip().splitlines() if line.strip()] or ["(no output)"]
        raise RuntimeError(f"exit {process.returncode}: {shorten(said[-1].strip())}")
    try:
        result: dict[str, Any] = json.loads(lines[-1])
        float(result["value"])
        where = Path(result["bluffdice"])
    except (ValueError, TypeError, KeyError):
        raise RuntimeError(f"no result in its last line: {shorten(lines[-1])}") from None
    if not where.is_relative_to((tree / "src").resolve()):
        raise RuntimeError(f"imported bluffdice from {where}, not from {tree}")
    return result


def shorten(line: str, width: int = 100) -> str:
    """A child's last line of error, cut for a table cell."""
    return line if len(line) <= width else line[: width - 1] + "…"


def run_pairs(
    figure: Figure, trees: dict[str, Path], pairs: int, timeout: float, say: Callable[[str], None]
) -> dict[str, Side]:
    """`pairs` pairs of runs, before-after then after-before, and so on."""
    sides = {name: Side(tree) for name, tree in trees.items()}
    for pair in range(pairs):
        order = ("before", "after") if pair % 2 == 0 else ("after", "before")
        for name in order:
            side = sides[name]
            if side.error is not None:
                continue
            started = time.perf_counter()
            try:
                result = measure_once(figure, side.tree, timeout)
            except RuntimeError as error:
                side.error = str(error)
                say(f"{figure.key} {name}: failed: {error}")
                continue
            side.values.append(float(result["value"]))
            side.details.append(result)
            say(
                f"{figure.key} {name} {pair + 1}/{pairs}: {result['value']:.3f} {figure.unit} "
                f"({time.perf_counter() - started:.0f} s)"
            )
    return sides


def spread(values: list[float]) -> dict[str, float] | None:
    """Median, min and max (None for no runs: a side that failed at once)."""
    if not values:
        return None
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def summarise(figure: Figure, sides: dict[str, Side]) -> dict[str, Any]:
    """One row: each side's spread, and the spread of after/before over the pairs in
    which both sides ran (the n-th run of each side belongs to the n-th pair)."""
    before, after = sides["before"], sides["after"]
    ratios = [a / b for b, a in zip(before.values, after.values, strict=False) if b]
    row: dict[str, Any] = {
        "figure": figure.title,
        "unit": figure.unit,
        "better": "higher" if figure.higher_is_better else "lower",
        "ratio": spread(ratios),
    }
    for name, side in sides.items():
        row[name] = {"runs": side.values, "error": side.error, **(spread(side.values) or {})}
    if figure.key == "tournament":
        wins = {json.dumps(d["wins"], sort_keys=True) for s in sides.values() for d in s.details}
        row["same_games"] = len(wins) <= 1
    return row


def cell(side: dict[str, Any], digits: int) -> str:
    """A side's figures, its error instead when it has none, or both."""
    if "median" not in side:
        return f"error: {side['error']}"
    text = f"{side['median']:.{digits}f} [{side['min']:.{digits}f}–{side['max']:.{digits}f}]"
    if side["error"]:
        text += f" (then failed: {side['error']})"
    return text


def print_table(rows: list[dict[str, Any]], revisions: dict[str, str], pairs: int) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    table = Table(
        title=escape(
            f"before {revisions['before']}, after {revisions['after']}: "
            f"median [min–max] of {pairs} interleaved pairs"
        )
    )
    for column in ("figure", "better", "before", "after", "after / before"):
        table.add_column(column, justify="left" if column == "figure" else "right")
    for row in rows:
        digits = 3 if row["unit"] == "ms" else 0
        ratio = row["ratio"]
        table.add_row(
            row["figure"],
            row["better"],
            escape(cell(row["before"], digits)),
            escape(cell(row["after"], digits)),
            "-"
            if ratio is None
            else escape(f"{ratio['median']:.2f} [{ratio['min']:.2f}–{ratio['max']:.2f}]"),
        )
    console = Console(width=160)
    console.print(table)
    for row in rows:
        if row.get("same_games") is False:
            console.print(f"warning: {row['figure']}: the two trees played different games")
    console.print(
        f"machine: {os.cpu_count()} CPUs, load average "
        + ", ".join(f"{x:.1f}" for x in os.getloadavg())
        + "; tournament: CPU time of the child; server: the server process's CPU; "
        "Mäxchen: wall-clock rounds (other work on the machine lowers it)"
    )


def describe(tree: Path) -> str:
    """The tree's commit, and `+changes` when it has uncommitted ones."""

    def git(*args: str) -> str:
        done = subprocess.run(["git", "-C", str(tree), *args], capture_output=True, text=True)
        return done.stdout.strip()

    commit = git("rev-parse", "--short", "HEAD") or str(tree)
    return commit + ("+changes" if git("status", "--porcelain", "--untracked-files=no") else "")


@contextlib.contextmanager
def baseline_tree(revision: str, path: str | None) -> Any:
    """The "before" tree: `path` as it is, or a temporary git worktree of `revision`."""
    if path is not None:
        tree = Path(path).resolve()
        if not (tree / "src" / "bluffdice").is_dir():
            sys.exit(f"error: --baseline-path {path}: no src/bluffdice there")
        yield tree
        return
    folder = Path(tempfile.mkdtemp(prefix="bench-host-baseline-"))
    tree = folder / "tree"
    made = subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), revision],
        capture_output=True,
        text=True,
    )
    if made.returncode != 0:
        folder.rmdir()
        lines = made.stderr.strip().splitlines() or ["git worktree add failed"]
        sys.exit(f"error: --baseline {revision}: {lines[-1]}")
    try:
        yield tree
    finally:
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
            capture_output=True,
        )
        with contextlib.suppress(OSError):
            folder.rmdir()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--baseline", default=BASELINE, help=f"the commit before (default {BASELINE})"
    )
    parser.add_argument("--baseline-path", help="an existing tree to use as before instead")
    parser.add_argument("--quick", action="store_true", help="fewer and shorter runs (< 1 min)")
    parser.add_argument("--pairs", type=int, help="pairs of runs per figure (default 4, quick 2)")
    parser.add_argument("--only", nargs="+", choices=("tournament", "server", "maexchen"))
    parser.add_argument("--json", action="store_true", help="print the table as JSON only")
    parser.add_argument(
        "--child", choices=("tournament", "server", "maexchen"), help=argparse.SUPPRESS
    )
    parser.add_argument("--size", type=float, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--seconds", type=float, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        child(args.child, args.size, args.seconds)
        return
    pairs = args.pairs if args.pairs is not None else 2 if args.quick else 4
    if pairs < 1:
        sys.exit("error: --pairs must be at least 1")
    timeout = 45.0 if args.quick else 90.0

    def say(line: str) -> None:
        print(f"... {line}", file=sys.stderr, flush=True)

    with baseline_tree(args.baseline, args.baseline_path) as before:
        trees = {"before": before, "after": ROOT}
        revisions = {name: describe(tree) for name, tree in trees.items()}
        rows = []
        for figure in figures(args.quick):
            if args.only and figure.key not in args.only:
                continue
            rows.append(summarise(figure, run_pairs(figure, trees, pairs, timeout, say)))
    if args.json:
        print(json.dumps({"revisions": revisions, "pairs": pairs, "rows": rows}, indent=2))
    else:
        print_table(rows, revisions, pairs)


if __name__ == "__main__":
    main()
