"""Heads-up, seat-balanced tournaments of the `cfr` bot against every other built-in bot.

    .venv/bin/python benchmarks/tournament_cfr.py                  # about 3 minutes
    .venv/bin/python benchmarks/tournament_cfr.py --games 2000     # quicker, wider intervals

Each match is `bluffdice tournament --bots cfr,OTHER --games N --seed S` (two seats,
every bot in every seat equally often). A game that both win (a tie on score in the
maexchen preset) decides nothing, so the share of *decisive* games that cfr wins is what
is tested: with its 95 % Wilson interval, cfr "beats" the other bot when the interval
lies above 50 %, is "not beaten" when it contains 50 %, and "loses" below.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
from pathlib import Path

from rich.console import Console
from rich.table import Table

from bluffdice.bots.base import available_bots

MATCHES = (("mia", "maexchen"), ("mia", "classic"), ("liars-dice", "openspiel"))
CLI = str(Path(sys.executable).with_name("bluffdice"))


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def match(game: str, rules: str, other: str, games: int, seed: int) -> dict[str, float]:
    cmd = [CLI, "tournament", "--game", game, "--rules", rules, "--bots", f"cfr,{other}"]
    cmd += ["--games", str(games), "--seed", str(seed), "--no-store", "--json"]
    doc = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    bots = doc["bots"]
    n = doc["tournament"]["games"]
    cfr_only = n - bots[other]["wins"]  # games the other bot did not win
    other_only = n - bots["cfr"]["wins"]
    decisive = cfr_only + other_only
    low, high = wilson(cfr_only, decisive)
    return {
        "games": n,
        "cfr_wins": cfr_only,
        "other_wins": other_only,
        "ties": n - decisive,
        "share": cfr_only / decisive if decisive else 0.5,
        "low": low,
        "high": high,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=6)
    args = parser.parse_args(argv)
    console = Console(width=None if sys.stdout.isatty() else 100)
    table = Table(
        title=f"cfr heads-up, seat-balanced, {args.games:,} games per match; cfr %: its share "
        "of the decisive games"
    )
    for col in ("game", "rules", "opponent"):
        table.add_column(col)
    for col in ("cfr wins", "opp. wins", "ties", "cfr %", "95 % CI"):
        table.add_column(col, justify="right")
    table.add_column("verdict")
    worst = "beats"
    for game, rules in MATCHES:
        for other in available_bots(game):
            if other == "cfr":
                continue
            r = match(game, rules, other, args.games, args.seed)
            verdict = "beats" if r["low"] > 0.5 else "LOSES" if r["high"] < 0.5 else "not beaten"
            if verdict == "LOSES" or (verdict == "not beaten" and worst == "beats"):
                worst = verdict
            table.add_row(
                game,
                rules,
                other,
                f"{r['cfr_wins']:,}",
                f"{r['other_wins']:,}",
                f"{r['ties']:,}",
                f"{r['share'] * 100:.1f}",
                f"{r['low'] * 100:.1f}-{r['high'] * 100:.1f}",
                verdict,
            )
    console.print(table)
    return 1 if worst == "LOSES" else 0


if __name__ == "__main__":
    sys.exit(main())
