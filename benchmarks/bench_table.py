"""The tournament path on the `Table` against the dealer loop it replaced, in pairs.

    .venv/bin/python benchmarks/bench_table.py               # 600 games a line, 6 pairs
    .venv/bin/python benchmarks/bench_table.py --games 3000 --pairs 10

Each line plays the same seeded games of built-in bots on both sides in this process:
once through `play_game` (the tournament's worker function, now on `Table` + `run_sync`),
once through the reference, a copy of the dealer loop that tournaments used before
(`dealer_game`, kept here, and only here, as the baseline). The games are cut into
`--pairs` batches; each pair plays its batch once untimed (the bots cache what they work
out, and without this whichever side went first would pay for both), then on both sides
back to back, taking turns which goes first; both must produce the same records. The
table prints, for each pair, both sides' games per CPU-second of this process (so other
work on the machine does not tilt the comparison) and the ratio (table / dealer loop),
then the ratios' median [min-max].
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table as RichTable

from bluffdice.dealer import Game
from bluffdice.games import game_of, parse_rules, visible_to
from bluffdice.games.base import CHANCE
from bluffdice.table.dice import sample
from bluffdice.tournament.play import GameJob, bot_class, play_game
from bluffdice.tournament.seating import derive_seed
from pairs import count, one_pair, slices, spread

CASES = (
    ("classic", ("odds", "adaptive", "liar", "honest")),
    ("maexchen", ("odds", "honest", "random")),
    ("dudo", ("odds", "adaptive", "random")),
    ("common-hand", ("random", "honest")),
)


def dealer_game(job: GameJob, rules_text: str) -> tuple[str, ...]:
    """The loop tournaments ran before the table (dealer.play), for comparison."""
    rules = parse_rules(rules_text)
    spec = game_of(rules)
    agents = [
        bot_class(bot, spec.name)(random.Random(derive_seed(job.seed, "seat", seat)))
        for seat, bot in enumerate(job.bots)
    ]
    rng = random.Random(derive_seed(job.seed, "dice"))
    game = Game.new(rules, len(agents))
    out_round: list[int | None] = [None] * len(agents)
    round_ = 0
    while not game.state.is_terminal:
        state = game.state
        player = state.current_player
        if player == CHANCE:
            action = sample(state.chance_outcomes(), rng)
        else:
            action = agents[player].act(state.view(player))
        events = game.step(action)
        for event in events:  # what the old runner tracked for places, by class name
            tag = type(event).__name__
            if tag == "RoundStarted":
                round_ = event.round  # type: ignore[attr-defined]
            elif tag == "Eliminated":
                out_round[event.player] = round_  # type: ignore[attr-defined]
        for seat, agent in enumerate(agents):
            seen = [e for e in events if visible_to(e, seat)]
            if seen:
                agent.observe(seen)
    game.state.view(None)  # the old runner read the result from a spectator's view
    game.state.outcome()  # and ranked the seats (now the game's own outcome())
    return game.record.steps


def timed(run: Any, jobs: Sequence[GameJob], rules: str) -> tuple[float, list[tuple[str, ...]]]:
    start = time.process_time()  # CPU time: fair when other work shares the machine
    records = [run(job, rules) for job in jobs]
    return time.process_time() - start, records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=600, help="games per line (default 600)")
    parser.add_argument("--pairs", type=count, default=6, help="pairs per line (default 6)")
    args = parser.parse_args()
    if args.games < args.pairs:
        parser.error(f"--games ({args.games}) must be at least --pairs ({args.pairs})")
    console = Console()
    table = RichTable(
        title="Tournament games per CPU-second: Table vs the old dealer loop (same games, in pairs)"
    )
    for column in ("rules", "bots", "pair", "games", "dealer loop", "table", "table / dealer"):
        table.add_column(column, justify="left" if column in ("rules", "bots") else "right")
    for rules, bots in CASES:
        jobs = [
            GameJob(index=i, seed=1000 + i, entrants=tuple(range(len(bots))), bots=bots)
            for i in range(args.games)
        ]
        timed(dealer_game, jobs[:5], rules)  # warm both up: imports, first-use tables
        batches = [jobs[s.start : s.stop] for s in slices(len(jobs), args.pairs)]
        ratios = []
        for pair, batch in enumerate(batches):
            # The bots' caches keep what they worked out for these games: play the batch
            # once untimed, or whichever side went first would pay for both.
            timed(play_game, batch, rules)
            (t_old, old), (t_new, new) = one_pair(
                pair,  # odd pairs: the table first
                lambda _: timed(dealer_game, batch, rules),  # noqa: B023 - called at once
                lambda _: timed(lambda job, r: play_game(job, r).steps, batch, rules),  # noqa: B023
            )
            if old != new:
                raise SystemExit(f"{rules}: the table played different games than the dealer")
            games = len(batch)
            ratios.append(t_old / t_new)
            table.add_row(
                rules if pair == 0 else "",
                ",".join(bots) if pair == 0 else "",
                str(pair + 1),
                str(games),
                f"{games / t_old:,.0f}",
                f"{games / t_new:,.0f}",
                f"{t_old / t_new:.2f}×",
            )
        table.add_row("", "", "all", str(len(jobs)), "", "", spread(ratios), end_section=True)
    console.print(table)


if __name__ == "__main__":
    main()
