"""Rewrite the tables of current figures in benchmarks/README.md from fresh short runs.

    .venv/bin/python benchmarks/table.py           # runs the benchmarks, rewrites the tables
    .venv/bin/python benchmarks/table.py --print   # prints the tables, writes nothing
    .venv/bin/python benchmarks/table.py --openspiel-sdist DIR  # with OpenSpiel's C++ loop
    .venv/bin/python benchmarks/table.py --only server          # only bench_server's rows
    .venv/bin/python benchmarks/table.py --only cfr --only startup
    .venv/bin/python benchmarks/table.py --only maexchen --canonical DIR  # against the Node server

Each benchmark runs with short settings in a child process (`--json`), and the text
between the BEGIN and END markers of benchmarks/README.md is replaced by two tables: the
figures against an outside reference, and those without one (bluffdice against an older
bluffdice, or a figure alone). Every row names the command that produces it and the
load average when it ran. `--only NAME` runs one benchmark and keeps the other rows as
they are. The figures are from this machine at this time: ratios are measured side by
side in interleaved pairs, so they move less than absolute rates, but a loaded machine
still widens their range.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
README = HERE / "README.md"
BEGIN = "<!-- BEGIN table.py -->"
END = "<!-- END table.py -->"
OUTSIDE = "Against outside references:"
OTHER = "Without an outside reference (bluffdice against itself, or a figure alone):"
HEADER = "| what | figure | reference | command | load |\n|---|---|---|---|---|"
NOTE = (
    "Figures: ours over the reference, the median [min–max] of the ratios of interleaved "
    "pairs measured in one run, then both sides' medians. Load: the load average (1 "
    "minute) as the benchmark finished, on 2 cores shared with other work."
)

SIM = ("bench_sim.py", "--quick", "--json")
LEAN = ("bench_lean.py", "--games", "1x6,2x4", "--variants", "cfr+,dcfr", "--json")
SERVER = ("bench_server.py", "--tables", "100", "200", "400", "--seconds", "4", "--json")
CFR = ("bench_cfr.py", "--quick", "--pairs", "3", "--json")
STARTUP = ("bench_startup.py", "--runs", "9", "--json")
MAEXCHEN = ("bench_maexchen_canonical.py", "--pairs", "4", "--seconds", "15", "--json")

Row = tuple[str, str]
"""A row of the tables: its section (OUTSIDE or OTHER) and its markdown line."""


def run(args: tuple[str, ...]) -> tuple[list[dict[str, object]], float]:
    """The JSON lines a benchmark printed, and the load average as it finished."""
    done = subprocess.run(
        [sys.executable, str(HERE / args[0]), *args[1:]], stdout=subprocess.PIPE, text=True
    )
    if done.returncode != 0:
        raise SystemExit(f"table.py: {' '.join(args)} failed with exit code {done.returncode}")
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    return lines, os.getloadavg()[0]


def command(args: tuple[str, ...]) -> str:
    """The command a reader runs for the row: the table's own `--json` left out, the
    sdist's or the canonical server's folder shown as DIR."""
    shown = [a for a in args if a != "--json"]
    for option in ("--openspiel-sdist", "--canonical"):
        if option in shown:
            shown[shown.index(option) + 1] = "DIR"
    return f"`.venv/bin/python benchmarks/{' '.join(shown)}`"


def line(what: str, figure: str, reference: str, args: tuple[str, ...], load: float) -> str:
    return f"| {what} | {figure} | {reference} | {command(args)} | {load:.1f} |"


def ratio(r: dict[str, object]) -> str:
    """Median [min–max], with a third decimal for ratios under 0.1."""
    digits = 2 if float(str(r["ratio"])) >= 0.1 else 3
    low, mid, high = (f"{float(str(r[k])):.{digits}f}" for k in ("ratio_min", "ratio", "ratio_max"))
    return f"**{mid}×** [{low}–{high}]"


def sim_rows(sdist: Path | None) -> list[Row]:
    """bench_sim's rows. Only the row against OpenSpiel's C++ loop needs the sdist, so
    only its command names it; the rest come from the same run without it."""
    extra = () if sdist is None else ("--openspiel-sdist", str(sdist))
    found, load = run(SIM + extra)
    rows = []
    for r in found:
        reference = str(r["reference"] or "—")
        args = SIM + extra if "C++" in reference else SIM
        if r["note"]:
            figure = str(r["note"])
        elif "ratio" in r:
            figure = f"{ratio(r)}; {r['ours']:,.0f} against {r['theirs']:,.0f} {r['unit']}"
        else:
            figure = f"{r['ours']:,.0f} {r['unit']}"
        section = OUTSIDE if r["section"] == "outside" else OTHER
        rows.append((section, line(str(r["what"]), figure, reference, args, load)))
    return rows


def lean_rows(sdist: Path | None) -> list[Row]:
    found, load = run(LEAN)
    rows = []
    for r in found:
        first = "not reached" if r["first"] is None else f"iteration {r['first']}"
        figure = f"{first}, {r['seconds']:.1f} solver s, {r['peak_gb']:.2f} GB peak"
        what = f"{r['solver']} {r['game']} to 10⁻³"
        rows.append((OTHER, line(what, figure, "— (first iteration at the target)", LEAN, load)))
    return rows


def server_rows(sdist: Path | None) -> list[Row]:
    """bench_server's pairs against the relay: CPU per move and p99 at each size, each
    with the moves a second both sides made of those offered (a side that fell short
    was not at the offered load, and then its p99 is not like for like)."""
    found, load = run(SERVER)
    reference = "a bare Starlette + uvicorn websocket relay, the same clients and offered load"
    made = {(r["side"], r["tables"]): r for r in found if r["metric"] == "moves/s"}
    units = {"CPU/move": "ms", "p99": "ms"}
    rows = []
    for r in found:
        unit = units.get(str(r["metric"]))
        if unit is None:
            continue
        rate = made[(r["side"], r["tables"])]
        offered = float(str(r["tables"])) * 1000 / float(str(r["interval_ms"]))
        what = (
            f"browser server ({r['side']}), {r['tables']} tables, a move every "
            f"{r['interval_ms']:g} ms a table ({offered:,.0f} moves/s offered): {r['metric']}"
        )
        figure = (
            f"{ratio(r)}; {r['ours']:.2f} against {r['reference']:.2f} {unit}, at "
            f"{rate['ours']:,.0f} against {rate['reference']:,.0f} moves/s"
        )
        rows.append((OUTSIDE, line(what, figure, reference, SERVER, load)))
    return rows


def cfr_rows(sdist: Path | None) -> list[Row]:
    """bench_cfr's pairs: OpenSpiel's C++ CFR+ seconds over each bluffdice solver's, each
    side run for the first iteration that reaches the target (its own count)."""
    found, load = run(CFR)
    reference = "OpenSpiel C++ `CFRPlusSolver` (the open-spiel wheel), liars_dice defaults"
    rows = []
    for r in found:
        figure = (
            f"{ratio(r)}; OpenSpiel {r['theirs']:.2f} CPU s ({r['reference_iterations']} "
            f"iterations) over ours {r['ours']:.2f} CPU s ({r['iterations']} iterations)"
        )
        rows.append((OUTSIDE, line(str(r["what"]), figure, reference, CFR, load)))
    return rows


def startup_rows(sdist: Path | None) -> list[Row]:
    """bench_startup's rounds: each command's CPU seconds over the floor's in its round."""
    found, load = run(STARTUP)
    rows = []
    for r in found:
        target = "" if r["target"] is None else f" (target ≤ {r['target']:g}×)"
        figure = f"{ratio(r)}{target}; {r['ours']:.3f} against {r['theirs']:.3f} CPU s"
        reference = f"Python importing typer and rich: `{r['reference']}`"
        rows.append((OUTSIDE, line(str(r["what"]), figure, reference, STARTUP, load)))
    return rows


def maexchen_rows(canonical: Path | None) -> list[Row]:
    """bench_maexchen_canonical's pairs: bluffdice over the canonical Node contest server,
    the same four bots. Without `--canonical` the current rows stay (see main)."""
    if canonical is None:
        raise SystemExit("table.py: --only maexchen needs --canonical DIR (the Node server)")
    args = MAEXCHEN + ("--canonical", str(canonical))
    found, load = run(args)
    if not found:
        raise SystemExit("table.py: bench_maexchen_canonical.py skipped (see its line above)")
    reference = "the canonical Mäxchen contest server (Node, from its source), the same 4 bots"
    rows = []
    for r in found:
        figure = (
            f"{ratio(r)} (target {r['target']}); {r['ours']:,.2f} against "
            f"{r['theirs']:,.2f} {r['unit']}"
        )
        rows.append((OUTSIDE, line(str(r["what"]), figure, reference, args, load)))
    return rows


BENCHMARKS: dict[str, tuple[str, Callable[[Path | None], list[Row]]]] = {
    "sim": (SIM[0], sim_rows),
    "lean": (LEAN[0], lean_rows),
    "server": (SERVER[0], server_rows),
    "cfr": (CFR[0], cfr_rows),
    "startup": (STARTUP[0], startup_rows),
    "maexchen": (MAEXCHEN[0], maexchen_rows),
}
"""Each benchmark by its `--only` name: its script and its rows."""


def current_rows(text: str) -> list[Row]:
    """The rows of the tables now between the markers, with their sections."""
    rows = []
    section = OUTSIDE
    for text_line in text.splitlines():
        if text_line in (OUTSIDE, OTHER):
            section = text_line
        elif text_line.startswith("| ") and not text_line.startswith("| what "):
            rows.append((section, text_line))
    return rows


def tables(rows: list[Row]) -> str:
    parts = []
    for section in (OUTSIDE, OTHER):
        lines = [text for kind, text in rows if kind == section]
        parts.append(f"{section}\n\n{HEADER}\n" + "\n".join(lines))
    return "\n\n".join(parts) + f"\n\n{NOTE}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--print", action="store_true", help="print the tables, write nothing")
    parser.add_argument(
        "--only",
        choices=sorted(BENCHMARKS),
        action="append",
        help="run only this benchmark (again for more) and keep the other rows as they are",
    )
    parser.add_argument(
        "--canonical",
        type=Path,
        metavar="DIR",
        help="the canonical Mäxchen server's folder, for bench_maexchen_canonical "
        "(without it the Mäxchen rows stay as they are)",
    )
    parser.add_argument(
        "--openspiel-sdist",
        type=Path,
        metavar="DIR",
        help="passed to bench_sim: the unpacked open_spiel sdist, for the C++ reference",
    )
    args = parser.parse_args()
    readme = README.read_text()
    if BEGIN not in readme or END not in readme:
        raise SystemExit(f"table.py: {README} has no {BEGIN} ... {END} markers")
    head, rest = readme.split(BEGIN, 1)
    block, tail = rest.split(END, 1)
    kept = current_rows(block)
    rows: list[Row] = []
    for name, (script, rows_of) in BENCHMARKS.items():
        folder = args.canonical if name == "maexchen" else args.openspiel_sdist
        wanted = args.only is None or name in args.only
        if name == "maexchen" and args.only is None and args.canonical is None:
            wanted = False  # no Node server at hand: keep its rows
        if wanted:
            rows += rows_of(folder)
        else:
            rows += [row for row in kept if f"benchmarks/{script} " in row[1]]
    text = tables(rows)
    if args.print:
        print(text)
        return 0
    README.write_text(f"{head}{BEGIN}\n{text}\n{END}{tail}")
    print(f"rewrote the tables in {README}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
