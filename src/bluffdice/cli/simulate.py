"""`bluffdice simulate`: heads-up matches between bots, vectorised where the bots allow."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from bluffdice.cli.app import (
    GameArgument,
    app,
    complete_bots,
    complete_rules,
    err,
    fail,
    game_rules,
    out,
    plot_target,
    workers_option,
    write_plot,
)
from bluffdice.errors import BluffdiceError

if TYPE_CHECKING:  # numpy and the simulator load when the command runs
    from rich.table import Table

AUTO_WORKERS_FROM = 5_000_000
"""From this many simulator games (all pairs together; a game the engine plays counts as
ENGINE_WEIGHT) a pool pays: it takes a second or more to start its processes and build
every table in each. Measured on a shared 2-core machine: 4 million games took 6.2 s in
one process and 3.9 s in two, 2 million about as long either way."""

ENGINE_WEIGHT = 1000
"""The engine plays a game about a thousand times slower than the simulator."""

SIMULATE_HELP = (
    "Play every pair of bots against each other, many games, fast.\n\n"
    "Bots with a table form (Mia: random, honest, liar, lucky, chain, and odds and cfr "
    "when the pass is off; single-round Liar's Dice: random, odds) are played by the numpy "
    "batch simulator, millions of rounds a second; any other bot by the rules engine. The "
    "output says which. Each pair plays --games games, half with each bot opening. The "
    "table shows win rates with 95 % Wilson intervals, mean lives (or score) left and mean "
    "rounds, then the heads-up matrix (row's win rate against the column). The same "
    "--seed gives the same output with any number of --workers.\n\n"
    "Example: bluffdice simulate mia --rules classic --bots honest,liar,lucky,chain "
    "--games 100000 --seed 7"
)


DEFAULT_BOTS = {"mia": "honest,liar,lucky,chain,random", "liars-dice": "odds,random"}
"""The bots the simulator plays fast (a table form), by game."""


@app.command(help=SIMULATE_HELP, short_help="Heads-up matches between bots, vectorised.")
def simulate(
    game: GameArgument = None,
    rules: Annotated[
        str | None,
        typer.Option(
            "--rules",
            "-r",
            autocompletion=complete_rules,
            help="A preset (classic, maexchen, openspiel, ...) or rule string; default: "
            "the game's (classic for mia).",
            show_default=False,
        ),
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            autocompletion=complete_bots,
            help="Comma-separated bot names (at least two); default: "
            + "; ".join(f"{g}: {b}" for g, b in DEFAULT_BOTS.items())
            + ".",
            show_default=False,
        ),
    ] = None,
    games: Annotated[int, typer.Option(help="Games per pair of bots.")] = 10_000,
    seed: Annotated[
        int | None,
        typer.Option(help="Seed for dice and bots; default: a fresh one (shown)."),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option(
            help="Local worker processes; default: the CPU count for long runs (from "
            f"{AUTO_WORKERS_FROM:,} simulator or {AUTO_WORKERS_FROM // ENGINE_WEIGHT:,} "
            "engine games, all pairs together), else 1. Results do not depend on it."
        ),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the results as JSON, nothing else.")
    ] = False,
    plot: Annotated[
        Path | None,
        typer.Option(help="Draw the heads-up matrix to this .png or .svg file.", metavar="FILE"),
    ] = None,
) -> None:
    """The `simulate` command; its help text is SIMULATE_HELP."""
    import secrets

    from bluffdice.games.registry import game_of

    parsed = game_rules(game, rules)
    game = game_of(parsed).name
    if game not in ("mia", "liars-dice"):
        raise fail(f"the simulator plays mia and liars-dice, not {game}")
    names = _bot_names(game, bots)
    if not 1 <= games <= 100_000_000:
        raise fail(f"--games must be between 1 and 100000000, not {games}")
    if game == "liars-dice" and not parsed.single_round:
        err.print(
            "note: the simulator plays single rounds of Liar's Dice (single_round=on); "
            "these rules are played by the engine",
            highlight=False,
        )
    if seed is not None and seed < 0:
        raise fail(f"--seed must be 0 or more, not {seed}")
    workers = workers_option(workers)
    plot = plot_target(plot)
    the_seed = seed if seed is not None else secrets.randbits(32)

    started = time.perf_counter()
    pairs = len(names) * (len(names) - 1) // 2
    try:
        count = _workers(workers, game, parsed, names, games)
        report = _with_progress(parsed, names, games, the_seed, count)
    except BluffdiceError as exc:
        raise fail(str(exc)) from None
    seconds = time.perf_counter() - started
    data = report.to_json()
    if plot is not None:
        write_plot(_figure(report), plot)
    if as_json:
        out.print_json(json.dumps(data))
        return
    out.print(_standings_table(report))
    out.print(_matrix_table(report))
    _say_how_played(report, names)
    total = pairs * games
    err.print(
        f"{total} games in {seconds:.1f} s; seed {the_seed}; "
        f"{count} worker{'s' if count > 1 else ''}"
        + (f"; plot: {plot}" if plot is not None else ""),
        highlight=False,
    )


def _bot_names(game: str, bots: str | None) -> list[str]:
    """--bots as a list: two or more different built-in bots of the game."""
    from bluffdice.bots.base import available_bots

    if bots is None:
        bots = DEFAULT_BOTS[game]
    names = [b.strip() for b in bots.split(",") if b.strip()]
    if len(names) < 2 or len(set(names)) != len(names):
        raise fail("--bots needs at least two different bots, comma-separated")
    known = available_bots(game)
    unknown = [b for b in names if b not in known]
    if unknown:
        raise fail(f"unknown {game} bot {unknown[0]!r}; built-in bots: {', '.join(sorted(known))}")
    return names


def _say_how_played(report: Any, names: list[str]) -> None:
    """On stderr: which bots the simulator played, and why the engine played the others."""
    fast = [b for b in names if report.why_not[b] is None]
    slow = {b: w for b, w in report.why_not.items() if w is not None}
    err.print(f"vectorised: {', '.join(fast) or 'none'}", highlight=False)
    for bot, why in slow.items():
        err.print(f"engine: {bot} ({why})", highlight=False)


def _workers(workers: int | None, game: str, rules: Any, names: list[str], games: int) -> int:
    """--workers, else the CPU count for runs long enough to pay for starting a pool."""
    from bluffdice.sim.match import why_not_tabular

    if workers is not None:
        return workers
    slow = {b for b in names if why_not_tabular(game, b, rules) is not None}
    work = sum(
        games * (ENGINE_WEIGHT if a in slow or b in slow else 1)
        for i, a in enumerate(names)
        for b in names[i + 1 :]
    )
    return (os.cpu_count() or 1) if work >= AUTO_WORKERS_FROM else 1


def _with_progress(rules: Any, names: list[str], games: int, seed: int, workers: int) -> Any:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress

    from bluffdice.cli.interrupt import remembered_ctrl_c
    from bluffdice.cli.progress import remaining_column
    from bluffdice.sim.match import run_matches

    with Progress(
        "[bold]simulating",
        BarColumn(),
        MofNCompleteColumn(),
        remaining_column(),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    ) as bar:
        pairs = len(names) * (len(names) - 1) // 2
        task = bar.add_task("games", total=pairs * games)

        def advance(done: int) -> None:
            ctrl_c.check()
            bar.advance(task, done)

        with remembered_ctrl_c() as ctrl_c:
            return run_matches(rules, names, games, seed, advance, workers)


def _standings_table(report: Any) -> Table:
    from rich.table import Table

    left = "dice left"
    if report.game == "mia":
        from bluffdice.games.registry import parse_rules

        mode = parse_rules(report.rules).mode
        left = {"lives": "lives left", "score": "score", "drinking": "sips"}[mode]
    table = Table(title=f"{report.rules}: {report.games_per_pair} games per pair")
    for col in (
        "bot",
        "games",
        "wins",
        "draws",
        "win rate",
        "95 % interval",
        left,
        "rounds",
        "vectorised",
    ):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for row in report.standings():
        table.add_row(
            row["bot"],
            str(row["games"]),
            str(row["wins"]),
            str(row["draws"]),
            f"{row['rate']:.1%}",
            f"{row['ci_low']:.1%} - {row['ci_high']:.1%}",
            f"{row['mean_left']:.2f}",
            f"{row['mean_rounds']:.2f}",
            "yes" if row["vectorised"] else "no",
        )
    return table


def _matrix_table(report: Any) -> Table:
    from rich.table import Table

    table = Table(title="heads-up: the row's win rate against the column")
    table.add_column("")
    for b in report.bots:
        table.add_column(b, justify="right")
    matrix = report.matrix()
    for a in report.bots:
        table.add_row(
            a, *("-" if matrix[a][b] is None else f"{matrix[a][b]:.1%}" for b in report.bots)
        )
    return table


def _figure(report: Any) -> Any:
    import numpy as np
    from matplotlib.figure import Figure

    bots = report.bots
    matrix = report.matrix()
    grid = np.array(
        [[np.nan if matrix[a][b] is None else matrix[a][b] for b in bots] for a in bots]
    )
    fig = Figure(figsize=(1.2 * len(bots) + 2.5, 1.0 * len(bots) + 1.8), layout="constrained")
    ax = fig.add_subplot()
    image = ax.imshow(grid, vmin=0, vmax=1, cmap="RdYlGn")
    ax.set_xticks(range(len(bots)), bots, rotation=30, ha="right")
    ax.set_yticks(range(len(bots)), bots)
    for i in range(len(bots)):
        for j in range(len(bots)):
            if not np.isnan(grid[i, j]):
                ax.text(j, i, f"{grid[i, j]:.0%}", ha="center", va="center", fontsize=8)
    ax.set_title(f"{report.rules}\nrow's win rate against the column", fontsize=9)
    fig.colorbar(image, ax=ax, shrink=0.8)
    return fig
