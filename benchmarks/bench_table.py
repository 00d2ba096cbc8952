"""The tournament path on the `Table` against the dealer loop it replaced, side by side.

    .venv/bin/python benchmarks/bench_table.py               # 600 games per line
    .venv/bin/python benchmarks/bench_table.py --games 3000

Each line plays the same seeded games of built-in bots twice in this process, taking
turns in short batches so both see the same machine: once through `play_game` (the
tournament's worker function, now on `Table` + `run_sync`), once through a copy of the
dealer loop that tournaments used before (kept here, and only here, as the baseline).
Both must produce the same records; the table prints games per CPU-second of this
process (so other work on the machine does not tilt the comparison) and the ratio.
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
    args = parser.parse_args()
    console = Console()
    table = RichTable(title="Tournament games/s: Table vs the old dealer loop (same games)")
    for column in ("rules", "bots", "games", "dealer loop", "table", "table / dealer"):
        table.add_column(column, justify="left" if column in ("rules", "bots") else "right")
    for rules, bots in CASES:
        jobs = [
            GameJob(index=i, seed=1000 + i, entrants=tuple(range(len(bots))), bots=bots)
            for i in range(args.games)
        ]
        old_time = new_time = 0.0
        timed(dealer_game, jobs[:5], rules)  # warm both up: bot caches, imports
        timed(play_game, jobs[:5], rules)
        for start in range(0, len(jobs), 50):  # alternate batches: same machine load
            batch = jobs[start : start + 50]
            if start % 100:  # alternate which goes first
                t_new, results = timed(lambda job, r: play_game(job, r).steps, batch, rules)
                t_old, old = timed(dealer_game, batch, rules)
            else:
                t_old, old = timed(dealer_game, batch, rules)
                t_new, results = timed(lambda job, r: play_game(job, r).steps, batch, rules)
            if old != results:
                raise SystemExit(f"{rules}: the table played different games than the dealer")
            old_time += t_old
            new_time += t_new
        table.add_row(
            rules,
            ",".join(bots),
            str(len(jobs)),
            f"{len(jobs) / old_time:,.0f}",
            f"{len(jobs) / new_time:,.0f}",
            f"{old_time / new_time:.2f}×",
        )
    console.print(table)


if __name__ == "__main__":
    main()
