"""How strong is a Liar's Dice bot at the real table: 5 dice each, 2 to 6 players.

    .venv/bin/python benchmarks/strength_liars_dice.py --games 2000 --workers 2   # the record

Tables: `bluffdice tournament --game liars-dice --rules liars-dice --seats N --games G
--seed S` with every built-in Liar's Dice bot (line-ups rotate fairly), for N = 3, 4 and
6. The bot under test (`--bot`, default `bayes`) meets its target at a table when it has
the highest win rate and its 95 % Wilson interval lies above the second best's.

Heads-up: the same tournament with `--bots BOT,OTHER` against every other built-in
bot; the verdict says whether the 95 % interval lies above 50 %.

The tournament runs and the tables are those of `strength_mia.py`, with the game and
rules swapped; every command is printed with its table.
"""

from __future__ import annotations

import argparse
import sys

from rich.console import Console

from strength_mia import heads_up_part, table_part

GAME = "liars-dice"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="bayes")
    parser.add_argument("--rules", default="liars-dice")
    parser.add_argument("--games", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--part", choices=("all", "tables", "heads-up"), default="all")
    parser.add_argument("--seats", default="3,4,6")
    args = parser.parse_args(argv)
    console = Console(width=None if sys.stdout.isatty() else 110)
    ok = True
    if args.part in ("all", "tables"):
        for seats in (int(s) for s in args.seats.split(",")):
            ok = (
                table_part(
                    args.bot, seats, args.games, args.seed, args.workers, console, GAME, args.rules
                )
                and ok
            )
    if args.part in ("all", "heads-up"):
        ok = (
            heads_up_part(args.bot, args.games, args.seed, args.workers, console, GAME, args.rules)
            and ok
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
