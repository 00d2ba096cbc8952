"""OpenSpiel's C++ CFR+ and NashConv on the heads-up `maexchen` round, through the
adapter, against bluffdice's own solver on the same (sub)game, in one run.

    .venv/bin/python benchmarks/openspiel_maexchen.py              # floors 55 and 44, minutes
    .venv/bin/python benchmarks/openspiel_maexchen.py --floors 55  # seconds

OpenSpiel's tabular algorithms walk the game tree: every history is a node. A heads-up
`maexchen` round (no pass, a Mia shown at once) branches 21 ways at every roll and may
climb through every value, so the first table below counts its terminal histories from
each floor (the value the holder must beat) exactly; from the start it has about 1.6e28,
out of reach of any tree walk however fast the game. bluffdice's solver works on the
public tree, where every history that reaches the same (holder, value to beat) shares one
segment, which is why it solves the whole round in seconds.

So OpenSpiel solves the end of the round: the game is loaded with a `prefix` that plays
up to a roll the opener must beat `floor` with, and `pyspiel.CFRPlusSolver` (OpenSpiel's
C++ CFR+, which runs on Python games) iterates on it; `pyspiel.nash_conv` measures its
average policy. bluffdice's solver solves the same subgame (`start_floor`). For a zero-sum
game the value of a profile lies within its NashConv of the game value, so the two values
must differ by at most the sum of the two NashConvs; the table says whether they do.

Needs the bench extra: `pip install -e '.[bench]'` (open-spiel).
"""

from __future__ import annotations

import argparse
import platform
import sys
import time

from rich.console import Console
from rich.table import Table

from bluffdice.games.registry import parse_rules
from bluffdice.rl.tree_size import maexchen_terminal_histories

PREFIX = "roll;dice 31;32;roll;dice 31;{floor};roll"
"""The opener claimed 32, the other player `floor` over it; the opener has rolled again
and must beat `floor`, with the other to answer."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--floors", default="55,44", help="values to beat, comma-separated")
    parser.add_argument("--iterations", type=int, default=40, help="OpenSpiel CFR+ iterations")
    args = parser.parse_args()
    try:
        import pyspiel
    except ImportError:
        sys.exit("needs the bench extra: pip install -e '.[bench]'")
    from bluffdice.rl.openspiel_game import load
    from bluffdice.solve import Solver, mia

    console = Console(width=150)
    rules = parse_rules("maexchen")
    ranking = rules.ranking
    worst_first = ranking.worst_first
    console.print(
        f"python {platform.python_version()}, {platform.machine()}; "
        f"OpenSpiel C++ CFR+ for {args.iterations} iterations"
    )

    sizes = Table(title="heads-up maexchen round: terminal histories (OpenSpiel's tree)")
    sizes.add_column("the holder must beat")
    sizes.add_column("terminal histories", justify="right")
    for label, code in [("nothing (the whole round)", -1)] + [
        (str(v), worst_first.index(v)) for v in (11, 22, 33, 44, 55, 66)
    ]:
        sizes.add_row(label, f"{maexchen_terminal_histories(len(worst_first), code):.3g}")
    console.print(sizes)

    table = Table(title="OpenSpiel CFR+ on the adapter against bluffdice's solver")
    for col in (
        "floor",
        "OpenSpiel s",
        "OpenSpiel value",
        "NashConv",
        "bluffdice value",
        "NashConv",
        "|difference|",
        "bound",
        "within",
    ):
        table.add_column(col, justify="right")
    for text in args.floors.split(","):
        floor = int(text)
        ours = Solver(mia.build(mia.spec_from_rules(rules), start_floor=ranking.rank(floor)))
        ours.iterate(1000)
        e = ours.exploitability()
        game = load("maexchen(rounds=1)", 2, first=0, prefix=PREFIX.format(floor=floor))
        start = time.process_time()
        solver = pyspiel.CFRPlusSolver(game)
        for _ in range(args.iterations):
            solver.evaluate_and_update_policy()
        seconds = time.process_time() - start
        average = solver.average_policy()
        conv = pyspiel.nash_conv(game, average)
        value = pyspiel.expected_returns(game.new_initial_state(), average, -1, True)[0]
        gap = abs(value - e.value)
        bound = conv + e.nash_conv
        table.add_row(
            str(floor),
            f"{seconds:.1f}",
            f"{value:+.4f}",
            f"{conv:.4f}",
            f"{e.value:+.4f}",
            f"{e.nash_conv:.1e}",
            f"{gap:.4f}",
            f"{bound:.4f}",
            "yes" if gap <= bound else "[red]no[/]",
        )
    console.print(table)


if __name__ == "__main__":
    main()
