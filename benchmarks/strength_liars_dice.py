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

Duels (`--duel`): one bot (default `best`) against each of `--opponents` heads-up in a
single round with wild ones (`liars-dice(dice=N,single_round=on)`) at each of `--dice`,
seats swapped on the same dice: every deal (cups and opener) is played twice, the bot
in each seat once, and the mean reward per round of the bot (+1 won, -1 lost) is given
with its 95 % interval over the deals. Each bot keeps its instance through a duel, so
those that learn from the lifted cups learn.

    .venv/bin/python benchmarks/strength_liars_dice.py --duel --dice 1,2 --deals 2000
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time

from rich.console import Console
from rich.table import Table

from bluffdice.bots.base import Bot, load_bot
from bluffdice.games.base import CHANCE, visible_to
from bluffdice.games.liars_dice.state import LiarsDiceState, new_game
from bluffdice.games.registry import parse_rules
from strength_mia import main


def deal(rules: object, rng: random.Random) -> list[object]:
    """The chance outcomes of one game (the opener and each cup), drawn from `rng`."""
    state = new_game(rules, 2)  # type: ignore[arg-type]
    picks = []
    while state.current_player == CHANCE:
        outcomes = state.chance_outcomes()
        pick = rng.choices([o for o, _ in outcomes], [float(p) for _, p in outcomes])[0]
        picks.append(pick)
        state = state.apply(pick).state
    return picks


def play(rules: object, picks: list[object], seats: tuple[Bot, Bot]) -> tuple[float, ...]:
    """One game on the dealt chance outcomes; every seat hears what it may see."""
    state: LiarsDiceState = new_game(rules, 2)  # type: ignore[arg-type]
    chance = iter(picks)
    while not state.is_terminal:
        player = state.current_player
        move = next(chance) if player == CHANCE else seats[player].act(state.view(player))
        state, events = state.apply(move)
        for seat, bot in enumerate(seats):
            bot.observe([e for e in events if visible_to(e, seat)])
    return state.returns()


def duel(bot: str, other: str, dice: int, deals: int, seed: int) -> tuple[float, float, float]:
    """(mean reward per round of `bot`, 95 % half-width, seconds) over `deals` deals."""
    rules = parse_rules(f"liars-dice(dice={dice},single_round=on)", game="liars-dice")
    rng = random.Random(seed)
    a = load_bot(bot, "liars-dice", random.Random(seed + 1))
    b = load_bot(other, "liars-dice", random.Random(seed + 2))
    started = time.perf_counter()
    rewards = []
    for _ in range(deals):
        picks = deal(rules, rng)
        first = play(rules, picks, (a, b))[0]
        second = play(rules, picks, (b, a))[1]
        rewards.append((first + second) / 2)
    mean = sum(rewards) / deals
    var = sum((r - mean) ** 2 for r in rewards) / (deals - 1)
    return mean, 1.96 * math.sqrt(var / deals), time.perf_counter() - started


def duels(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="seat-swapped heads-up duels")
    parser.add_argument("--duel", action="store_true")
    parser.add_argument("--bot", default="best")
    parser.add_argument("--opponents", default="odds,bayes,adaptive")
    parser.add_argument("--dice", default="1,2")
    parser.add_argument("--deals", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=16)
    args = parser.parse_args(argv)
    console = Console(width=None if sys.stdout.isatty() else 110)
    table = Table(
        title=f"{args.bot} heads-up, one round, wild ones, {args.deals:,} deals x 2 seats, "
        f"seed {args.seed}"
    )
    for col in ("dice each", "opponent", f"{args.bot} reward / round", "95 % interval", "s"):
        table.add_column(col, justify="left" if col == "opponent" else "right")
    for dice in (int(d) for d in args.dice.split(",")):
        for other in args.opponents.split(","):
            mean, half, seconds = duel(args.bot, other, dice, args.deals, args.seed)
            table.add_row(
                str(dice),
                other,
                f"{mean:+.4f}",
                f"{mean - half:+.4f} to {mean + half:+.4f}",
                f"{seconds:.0f}",
            )
    console.print(table)
    return 0


if __name__ == "__main__":
    if "--duel" in sys.argv[1:]:
        sys.exit(duels(sys.argv[1:]))
    sys.exit(main(game="liars-dice", bot="bayes", rules="liars-dice", games=2_000, doc=__doc__))
