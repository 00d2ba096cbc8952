"""Every dice source side by side: speed and a chi-square test of equal odds per face count.

    .venv/bin/python benchmarks/bench_dice.py                  # 10 million rolls a row
    .venv/bin/python benchmarks/bench_dice.py --rolls 1000000  # a quick look

Each source rolls a die of f faces through its `draw(state)`, the way a table asks it,
on a chance node with f equally likely outcomes (physically: one die of f faces). The
fair source is also shown through `FairStream.many`, the bulk read of the same stream
that the test suite checks over 10 million rolls (tests/test_fair.py).

The p-value is exact (the chi-square survival function in closed form for whole degrees
of freedom, bluffdice.chisquare): under equal odds it is uniform on [0, 1], so a single
row below 0.001 happens once in a thousand; a biased source gives values near 0 every
time at this many rolls. The last rows show one: bytes mapped with `b % f + 1` and no
rejection, the bias that rejection sampling removes.
"""

from __future__ import annotations

import argparse
import platform
import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from rich.console import Console
from rich.table import Table

from bluffdice.chisquare import uniformity
from bluffdice.table.dice import seeded, system
from bluffdice.table.fair import FairDice, FairStream, server_seed_from


class OneDie:
    """The smallest chance node: one die of `faces` faces, outcome = the face."""

    current_player = -1

    def __init__(self, faces: int) -> None:
        self.faces = faces
        self.outcomes = tuple((face, Fraction(1, faces)) for face in range(1, faces + 1))

    def chance_outcomes(self) -> Sequence[tuple[int, Fraction]]:
        return self.outcomes

    def physical_roll(self) -> tuple[int, int]:
        return 1, self.faces

    def outcome_of_roll(self, dice: Sequence[int]) -> int:
        return dice[0]


def through_draw(make: Callable[[], Any]) -> Callable[[int, int], list[int]]:
    def roll(faces: int, rolls: int) -> list[int]:
        source, state = make(), OneDie(faces)
        draw = source.draw
        kept = getattr(source, "rolls", None)  # the fair source's log for its record
        counts = [0] * faces
        for done in range(rolls):
            counts[draw(state) - 1] += 1
            if kept is not None and done % 65536 == 0:
                kept.clear()  # a game keeps every roll; ten million would only fill memory
        return counts

    return roll


def fair_bulk(faces: int, rolls: int) -> list[int]:
    made = FairStream(server_seed_from(1), ["bench"]).many(rolls, faces)
    return [made.count(face) for face in range(faces)]


def no_rejection(faces: int, rolls: int) -> list[int]:
    """The mistake rejection sampling prevents: every byte used, b % faces + 1."""
    made = FairStream(server_seed_from(1), ["bench"]).many(rolls, 256)
    return [sum(made.count(b) for b in range(face, 256, faces)) for face in range(faces)]


SOURCES: dict[str, Callable[[int, int], list[int]]] = {
    "fair": through_draw(lambda: FairDice(server_seed_from(1), ["bench"])),
    "seeded": through_draw(lambda: seeded(1)),
    "system": through_draw(system),
    "fair-bulk": fair_bulk,
    "biased-no-rejection": no_rejection,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=10_000_000, help="rolls per row")
    parser.add_argument("--faces", default="2,5,6,10", help="face counts, comma-separated")
    parser.add_argument(
        "--sources",
        default=",".join(SOURCES),
        help="sources, comma-separated: " + ", ".join(SOURCES),
    )
    args = parser.parse_args()
    faces = [int(f) for f in args.faces.split(",")]
    names = [s.strip() for s in args.sources.split(",")]
    console = Console()
    table = Table(
        title=f"Dice sources, {args.rolls:,} rolls a row (Python {platform.python_version()})",
        title_style="bold",
    )
    for column in ("source", "faces", "rolls/s", "chi-square", "df", "p-value"):
        table.add_column(column, justify="left" if column == "source" else "right")
    for name in names:
        roll = SOURCES[name]
        for f in faces:
            start = time.perf_counter()
            counts = roll(f, args.rolls)
            seconds = time.perf_counter() - start
            assert sum(counts) == args.rolls
            statistic, df, p = uniformity(counts)
            table.add_row(
                name,
                str(f),
                f"{args.rolls / seconds:,.0f}",
                f"{statistic:.2f}",
                str(df),
                f"{p:.4g}",
            )
            console.print(f"[dim]{name}, d{f}: {seconds:.1f} s[/]", highlight=False)
    console.print(table)


if __name__ == "__main__":
    main()
