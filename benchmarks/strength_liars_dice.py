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

import sys

from strength_mia import main

if __name__ == "__main__":
    sys.exit(main(game="liars-dice", bot="bayes", rules="liars-dice", games=2_000, doc=__doc__))
