"""Non-interference, measured: 10,000 seeded games, each replayed once per seat with
everything that seat may not see swapped (other players' dice, hidden moves such as a
blind look), and every encoded message to that seat compared byte for byte.

    .venv/bin/python benchmarks/secrecy.py                 # 10,000 games (a few minutes)
    .venv/bin/python benchmarks/secrecy.py --games 1000

It prints one line per rule set: games, seats compared, messages found identical, and how
the comparisons ended (at a reveal of swapped dice, or where a swapped die made a later
move illegal). A leak stops the run with the seed and the two differing messages.
"""

from __future__ import annotations

import argparse
import time

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from bluffdice.testing import check_secrecy

CASES = (
    ("classic", 3),
    ("mia(lives=3,doubles_ascending=on)", 4),
    ("meyer", 4),
    ("maexchen", 3),
    ("mia(beat_mia=on,mia_doubled=on,blind=off)", 3),
    ("dudo", 3),
    ("perudo", 4),
    ("openspiel", 2),
    ("common-hand", 2),
    ("common-hand(straights=off,lives=1)", 2),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="games in all (default 10,000)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    per_case = [args.games // len(CASES) + (i < args.games % len(CASES)) for i in range(len(CASES))]
    table = Table(title=f"Secrecy of encoded messages: {args.games:,} games")
    for column in (
        "rules",
        "players",
        "games",
        "seats",
        "identical messages",
        "cut at reveal",
        "cut at illegal",
    ):
        table.add_column(column, justify="left" if column == "rules" else "right")
    totals = [0, 0, 0]
    start = time.perf_counter()
    with Progress(console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("games", total=args.games)
        for (rules, players), games in zip(CASES, per_case, strict=True):
            done = 0
            report = None
            while done < games:
                chunk = min(100, games - done)
                part = check_secrecy(rules, players, games=chunk, seed=args.seed * 7919 + done)
                if report is None:
                    report = part
                else:
                    report.games += part.games
                    report.seats += part.seats
                    report.messages += part.messages
                    report.cut_at_reveal += part.cut_at_reveal
                    report.cut_at_illegal += part.cut_at_illegal
                done += chunk
                progress.advance(task, chunk)
            assert report is not None
            table.add_row(
                report.rules,
                str(players),
                f"{report.games:,}",
                f"{report.seats:,}",
                f"{report.messages:,}",
                f"{report.cut_at_reveal:,}",
                f"{report.cut_at_illegal:,}",
            )
            totals[0] += report.games
            totals[1] += report.seats
            totals[2] += report.messages
    table.add_row("all", "", f"{totals[0]:,}", f"{totals[1]:,}", f"{totals[2]:,}", "", "")
    Console(width=140).print(table)
    print(f"no leak in {totals[2]:,} messages; {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
