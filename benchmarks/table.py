"""Rewrite the table of current figures in benchmarks/README.md from fresh short runs.

    .venv/bin/python benchmarks/table.py           # runs the benchmarks, rewrites the table
    .venv/bin/python benchmarks/table.py --print   # prints the table, writes nothing
    .venv/bin/python benchmarks/table.py --openspiel-sdist DIR  # with OpenSpiel's C++ loop

Each benchmark runs with short settings in a child process (`--json`), and the table
between the BEGIN and END markers of benchmarks/README.md is replaced by one row per
figure, each with the command that produced it. The figures are from this machine at
this time: ratios are measured side by side in interleaved pairs, so they move less
than absolute rates, but a loaded machine still widens their range.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
README = HERE / "README.md"
BEGIN = "<!-- BEGIN table.py -->"
END = "<!-- END table.py -->"

SIM = ("bench_sim.py", "--quick", "--json")
LEAN = ("bench_lean.py", "--games", "1x6,2x4", "--variants", "cfr+,dcfr", "--json")


def run(args: tuple[str, ...]) -> list[dict[str, object]]:
    """The JSON lines a benchmark printed."""
    done = subprocess.run(
        [sys.executable, str(HERE / args[0]), *args[1:]], stdout=subprocess.PIPE, text=True
    )
    if done.returncode != 0:
        raise SystemExit(f"table.py: {' '.join(args)} failed with exit code {done.returncode}")
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def command(args: tuple[str, ...]) -> str:
    """The command a reader runs for the row: the table's own `--json` left out, the
    sdist's folder shown as DIR."""
    shown = [a for a in args if a != "--json"]
    if "--openspiel-sdist" in shown:
        shown[shown.index("--openspiel-sdist") + 1] = "DIR"
    return f"`.venv/bin/python benchmarks/{' '.join(shown)}`"


def sim_rows(sdist: Path | None) -> list[str]:
    rows = []
    extra = () if sdist is None else ("--openspiel-sdist", str(sdist))
    for r in run(SIM + extra):
        if r["note"]:
            figure = str(r["note"])
        elif "ratio" in r:
            figure = f"**{r['ratio']:.2f}×** [{r['ratio_min']:.2f}–{r['ratio_max']:.2f}]"
        else:
            figure = f"{r['ours']:,.0f} {r['unit']} (no reference)"
        reference = r["reference"] or "—"
        rows.append(
            f"| {r['what']} ({r['section']}) | {figure} | {reference} | {command(SIM + extra)} |"
        )
    return rows


def lean_rows() -> list[str]:
    rows = []
    for r in run(LEAN):
        first = "not reached" if r["first"] is None else f"iteration {r['first']}"
        figure = f"{first}, {r['seconds']:.1f} solver s, {r['peak_gb']:.2f} GB peak"
        what = f"{r['solver']} {r['game']} to 10⁻³"
        rows.append(f"| {what} | {figure} | — (first iteration at the target) | {command(LEAN)} |")
    return rows


def table(sdist: Path | None) -> str:
    lines = ["| what | figure: ratio median [range] | reference | command |", "|---|---|---|---|"]
    load = os.getloadavg()[0]
    note = f"\n\nLoad average when written: {load:.1f} (2 cores, shared with other work)."
    return "\n".join(lines + sim_rows(sdist) + lean_rows()) + note


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--print", action="store_true", help="print the table, write nothing")
    parser.add_argument(
        "--openspiel-sdist",
        type=Path,
        metavar="DIR",
        help="passed to bench_sim: the unpacked open_spiel sdist, for the C++ reference",
    )
    args = parser.parse_args()
    text = table(args.openspiel_sdist)
    if args.print:
        print(text)
        return 0
    readme = README.read_text()
    if BEGIN not in readme or END not in readme:
        raise SystemExit(f"table.py: {README} has no {BEGIN} ... {END} markers")
    head, rest = readme.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    README.write_text(f"{head}{BEGIN}\n{text}\n{END}{tail}")
    print(f"rewrote the table in {README}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
