"""`bluffdice tournament`: bots against bots, many games, a table of results and ratings."""

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
    open_store,
    out,
    plot_target,
    workers_option,
)
from bluffdice.errors import BluffdiceError
from bluffdice.protocol import DEFAULT_MOVE_TIME
from bluffdice.sandbox.flags import (
    SEED_BITS,
    SHORT_SEED_WARNING,
    UNSANDBOXED_HELP,
    guessable,
    isolation_of,
)
from bluffdice.store.location import sqlite_path

if TYPE_CHECKING:  # the tournament machinery (openskill, SQLAlchemy) loads when it runs
    from rich.table import Table

    from bluffdice.stats import BotLine, Standings
    from bluffdice.store import Store
    from bluffdice.tournament.play import GameResult
    from bluffdice.tournament.runner import TournamentConfig

AUTO_WORKERS_FROM = 400
"""Below this many games one process is faster than starting a pool."""


TOURNAMENT_HELP = (
    "Play bots against each other, store every game, and rank the bots.\n\n"
    "Seats rotate fairly (every bot sits in every seat equally often). The same seed, bots "
    "and rules give the same results with any number of workers. The table shows each "
    "bot's games, wins (or losses, when the game ends at the first player out), mean lives "
    "left, the rate with a 95 % Wilson interval and an openskill rating (Plackett-Luce).\n\n"
    "Choose the game as every command does: a GAME word first (tournament liars-dice), "
    "or --rules alone, which names its game (tournament --rules dudo).\n\n"
    "Example: bluffdice tournament mia --rules classic --bots odds,adaptive,liar,honest "
    "--games 10000 --seed 7"
)


@app.command(help=TOURNAMENT_HELP, short_help="Play bots against each other and rank them.")
def tournament(
    game: GameArgument = None,
    rules: Annotated[
        str | None,
        typer.Option(
            "--rules",
            "-r",
            autocompletion=complete_rules,
            help="A preset (classic, meyer, ...) or rule string; default: the game's.",
        ),
    ] = None,
    game_option: Annotated[
        str | None,
        typer.Option(
            "--game",
            help="Deprecated, kept so older scripts run: the same as GAME "
            "(tournament --game liars-dice is tournament liars-dice).",
            show_default=False,
        ),
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            autocompletion=complete_bots,
            help="Comma-separated bots: built-in names, files (my_bot.py[:Class]) or modules "
            "(package.module:Class), or programs speaking the bot protocol "
            '("cmd:node examples/bot.js"). Files, modules and programs run in their own '
            "processes (see --trust). Default: every built-in bot of the game.",
        ),
    ] = None,
    games: Annotated[int, typer.Option(help="How many games to play.")] = 1000,
    seed: Annotated[
        int | None,
        typer.Option(help="Seed for seating, dice and bots; default: a fresh one (shown)."),
    ] = None,
    seats: Annotated[
        int | None,
        typer.Option(
            help="Players per game; default: every bot plays every game (if the game allows). "
            "With fewer seats than bots, line-ups rotate fairly."
        ),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option(
            help=f"Local worker processes; default: the CPU count from {AUTO_WORKERS_FROM} "
            "games on, else 1. Results do not depend on it."
        ),
    ] = None,
    executor: Annotated[
        str,
        typer.Option(help="local (a process pool) or ray (RAY_ADDRESS, else a local Ray)."),
    ] = "local",
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the results as JSON, nothing else.")
    ] = False,
    plot: Annotated[
        Path | None,
        typer.Option(help="Draw ratings and rates to this .png or .svg file.", metavar="FILE"),
    ] = None,
    move_time: Annotated[
        float,
        typer.Option(
            help="Seconds a bot in its own process has for each move; a late bot forfeits the game."
        ),
    ] = DEFAULT_MOVE_TIME,
    trust: Annotated[
        bool,
        typer.Option(
            "--trust",
            help="Run Python bot files and modules in this process, as built-in bots are: "
            "faster, but such a bot can read everything, the hidden dice included.",
        ),
    ] = False,
    unsandboxed: Annotated[
        bool,
        typer.Option("--unsandboxed", help=UNSANDBOXED_HELP),
    ] = False,
    on_bot_error: Annotated[
        str,
        typer.Option(
            help="forfeit: a bot that fails (time, crash, exit, garbage, illegal move) loses "
            "that game, the fault is listed and the tournament goes on; stop: the "
            "tournament stops at the first fault (the games played stay stored).",
        ),
    ] = "forfeit",
    db: Annotated[
        str | None,
        typer.Option(
            help="SQLite file or SQLAlchemy URL where every game is stored; default: "
            "$BLUFFDICE_DB, else bluffdice.db in your data folder (replay --list shows it).",
            show_default=False,
        ),
    ] = None,
    store: Annotated[
        bool, typer.Option("--store/--no-store", help="Store the games (for `replay`).")
    ] = True,
    dice: Annotated[
        str,
        typer.Option(
            help="system (as in every command: dice nobody can predict, drawn from the "
            "tournament's seed, which is --seed or 128 bits from the operating system, "
            "stored so every game replays) or fair: every game's dice come from a "
            "commit-reveal stream whose seeds are stored, so `bluffdice verify GAME_ID` can "
            "check them (still reproducible by --seed). seeded is the old name of system.",
        ),
    ] = "system",
) -> None:
    """The `tournament` command; its help text is TOURNAMENT_HELP."""
    import secrets

    from bluffdice.games.registry import rules_string
    from bluffdice.protocol.limits import Limits
    from bluffdice.tournament.executors import EXECUTORS, make_executor
    from bluffdice.tournament.runner import make_config

    parsed = _parsed_rules(game, game_option, rules)
    if executor not in EXECUTORS:
        raise fail(f"unknown executor {executor!r}; executors are: {', '.join(EXECUTORS)}")
    workers = workers_option(workers)
    plot = plot_target(plot)
    names = bots.split(",") if bots is not None else _all_bots(parsed)
    the_seed = seed if seed is not None else secrets.randbits(SEED_BITS)
    try:
        config = make_config(
            rules_string(parsed),
            names,
            games,
            the_seed,
            seats,
            dice,
            limits=Limits(move_time=move_time, isolation=isolation_of(unsandboxed)),
            trust=trust,
            on_error=on_bot_error,
        )
        runner = make_executor(executor, _workers(workers, games))
    except BluffdiceError as exc:
        raise fail(str(exc)) from None
    if seed is not None and config.commands and guessable(seed):
        err.print(SHORT_SEED_WARNING.format(seed=seed), highlight=False, soft_wrap=True)
    if game_option is not None:
        err.print(
            f"note: --game is deprecated; write the game first: bluffdice tournament "
            f"{game_option} ...",
            highlight=False,
            soft_wrap=True,
        )
    for note in _stand_ins(parsed, config.bots, config.seats):
        err.print(note, highlight=False, soft_wrap=True)
    created = _new_sqlite_file(db) if store else None
    database = open_store(db) if store else None
    tid = _start(database, config)
    started = time.perf_counter()
    standings = _play(config, runner, _workers(workers, games), database, tid, created, db)
    seconds = time.perf_counter() - started
    lines = standings.lines()
    where = database.location if database is not None else None
    summary = _summary(config, standings, lines, tid, where)
    if database is not None and tid is not None:
        _finish(database, tid, summary)
    if plot is not None:
        _plot(config, standings, lines, tid, plot)
    if as_json:
        out.print_json(json.dumps(summary))
        return
    out.print(_table(config, standings, lines, tid))
    _show_faults(standings)
    notes = f"{config.games} games in {seconds:.1f} s ({config.games / seconds:.0f} games/s)"
    if where is not None:
        notes += f"; stored in {where} (bluffdice replay --list{_db_flag(db)})"
    if plot is not None:
        notes += f"; plot: {plot}"
    err.print(notes, highlight=False, soft_wrap=True)  # a path must stay whole to be copied


def _parsed_rules(game: str | None, game_option: str | None, rules: str | None) -> Any:
    """The rules from GAME (or the deprecated --game) and --rules."""
    if game is not None and game_option is not None and game != game_option:
        raise fail(f"GAME {game!r} and --game {game_option!r} disagree: give only GAME")
    return game_rules(game if game is not None else game_option, rules)


def _stand_ins(parsed: Any, bots: tuple[str, ...], seats: int) -> list[str]:
    """A note for each built-in bot that another bot plays for at these tables (`cfr`
    at a Liar's Dice table of three: no solved policy there), so that a bot's name in
    the results never promises more than it played."""
    from bluffdice.bots.base import available_bots
    from bluffdice.games.registry import game_of, rules_string

    known = available_bots(game_of(parsed).name)
    notes = []
    for name in dict.fromkeys(bots):
        cls = known.get(name)
        other = cls.stand_in(parsed, seats) if cls is not None else None
        if other:
            notes.append(
                f"note: {name} plays as {other} at these tables ({seats} seats, "
                f"{rules_string(parsed)}): no policy of its own covers them"
            )
    return notes


def _all_bots(parsed: Any) -> list[str]:
    """Every built-in bot of the rules' game but those that leave the default mix
    (`in_default_mix = False`: `best`, which plays the others' methods): the default
    --bots."""
    from bluffdice.bots.base import available_bots
    from bluffdice.games.registry import game_of

    bots = available_bots(game_of(parsed).name)
    return [name for name, cls in bots.items() if getattr(cls, "in_default_mix", True)]


def _start(database: Store | None, config: TournamentConfig) -> int | None:
    """The tournament's row in the store (None with --no-store)."""
    if database is None:
        return None
    try:
        return database.start_tournament(
            game=config.game,
            rules=config.rules,
            bots=config.bots,
            names=config.names,
            seats=config.seats,
            games=config.games,
            seed=config.seed,
        )
    except BluffdiceError as exc:
        database.close()
        raise fail(str(exc)) from None


def _play(
    config: TournamentConfig,
    runner: Any,
    workers: int,
    database: Store | None,
    tid: int | None,
    created: Path | None,
    db: str | None,
) -> Standings:
    """Run the games; a failure or Ctrl-C says what stays stored."""
    from bluffdice.tournament.runner import BotStopped

    try:
        return _run(config, runner, workers, database, tid)
    except BotStopped as exc:
        # The games played stay stored (and replayable); the tournament is unfinished.
        kept = f"; the games played so far are stored as tournament {tid}" if tid else ""
        if database is not None:
            database.close()
        raise fail(f"{exc}{kept}") from None
    except BluffdiceError as exc:
        if database is not None and tid is not None:
            _discard(database, tid, created)
        raise fail(str(exc)) from None
    except KeyboardInterrupt:
        err.print(_interrupted(database, tid, db), highlight=False, soft_wrap=True)
        raise typer.Exit(130) from None


def _finish(database: Store, tid: int, summary: dict[str, Any]) -> None:
    try:
        database.finish_tournament(tid, summary)
    except BluffdiceError as exc:
        raise fail(str(exc)) from None
    finally:
        database.close()


def _plot(
    config: TournamentConfig,
    standings: Standings,
    lines: dict[str, BotLine],
    tid: int | None,
    plot: Path,
) -> None:
    from bluffdice.tournament.plot import plot_standings

    rate_label = "loss rate" if standings.count_losses else "win rate"
    plot_standings(
        dict(ranked(lines, standings.count_losses)), plot, _title(config, tid), rate_label
    )


def _db_flag(db: str | None) -> str:
    """` --db X` when the user gave --db (the default needs no flag to be found again)."""
    import shlex

    return f" --db {shlex.quote(db)}" if db is not None else ""


def _interrupted(database: Store | None, tid: int | None, db: str | None) -> str:
    """What Ctrl-C leaves: the games counted so far stay stored and replayable."""
    if database is None or tid is None:
        return "\nInterrupted: the tournament stopped; nothing was stored (--no-store)."
    try:
        played = next((t.played for t in database.tournaments() if t.id == tid), 0)
    except BluffdiceError:
        played = 0
    finally:
        database.close()
    return (
        f"\nInterrupted: tournament {tid} stopped after {played} games, stored in "
        f"{database.location} (bluffdice replay --list --tournament {tid}{_db_flag(db)})."
    )


def _new_sqlite_file(db: str | None) -> Path | None:
    """The SQLite file this run would create, if it does not exist yet."""
    from bluffdice.store import default_database

    path = sqlite_path(db if db is not None else default_database())
    return None if path is None or path.exists() else path


def _discard(database: Store, tid: int, created: Path | None) -> None:
    """A tournament that failed leaves nothing behind: not its games, not its row, not
    the database file it created. A database that cannot be written any more (a full
    disk) keeps what it had; the error already says why."""
    from sqlalchemy import delete
    from sqlalchemy.exc import SQLAlchemyError
    from sqlalchemy.orm import Session

    from bluffdice.store.models import GameRow, TournamentRow

    try:
        with Session(database.engine) as session:
            session.execute(delete(GameRow).where(GameRow.tournament_id == tid))
            session.execute(delete(TournamentRow).where(TournamentRow.id == tid))
            session.commit()
    except SQLAlchemyError:
        pass
    finally:
        database.close()
    if created is not None:
        for leftover in (created, Path(f"{created}-wal"), Path(f"{created}-shm")):
            leftover.unlink(missing_ok=True)


SHOWN_FAULTS = 10


def _show_faults(standings: Standings) -> None:
    """The bots that failed, on stderr: which, how, and the game and seed to replay."""
    from rich.markup import escape

    if not standings.faults:
        return
    err.print(
        f"{standings.faults} bot faults (the bot forfeited the game; --on-bot-error stop "
        "ends the tournament instead):",
        highlight=False,
    )
    for line in standings.fault_log[:SHOWN_FAULTS]:
        err.print(f"  {escape(line.describe())}", highlight=False, soft_wrap=True)
    hidden = standings.faults - min(SHOWN_FAULTS, len(standings.fault_log))
    if hidden > 0:
        err.print(f"  ... and {hidden} more (--json lists up to 1000)", highlight=False)


def _workers(workers: int | None, games: int) -> int:
    if workers is not None:
        return workers
    return (os.cpu_count() or 1) if games >= AUTO_WORKERS_FROM else 1


def progress_columns() -> tuple[Any, ...]:
    """The progress bar's columns: games done, speed, time, the time left at the run's
    average speed (results come in batches: see bluffdice.cli.progress), the leader."""
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

    from bluffdice.cli.progress import remaining_column

    return (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[speed]}"),
        TimeElapsedColumn(),
        remaining_column(),
        TextColumn("{task.fields[leader]}"),
    )


def _run(
    config: TournamentConfig, runner: Any, workers: int, database: Store | None, tid: int | None
) -> Standings:
    from rich.progress import Progress

    from bluffdice.cli.interrupt import remembered_ctrl_c
    from bluffdice.tournament.runner import run_tournament

    started = time.perf_counter()
    with (
        remembered_ctrl_c() as ctrl_c,
        Progress(*progress_columns(), console=err, transient=False) as progress,
    ):
        task = progress.add_task("games", total=config.games, speed="", leader="")

        def counted(results: list[GameResult], standings: Standings) -> None:
            ctrl_c.check()
            if database is not None:
                database.add_games(tid, [_stored(config, r) for r in results])
            elapsed = max(time.perf_counter() - started, 1e-9)
            leader = standings.leader()
            word = "least losses" if standings.count_losses else "leader"
            progress.update(
                task,
                advance=len(results),
                speed=f"{standings.games / elapsed:,.0f} games/s",
                leader=f"{word}: {leader} {100 * standings.rate_of(leader):.1f} %",
            )

        return run_tournament(config, runner, workers, counted)


def _stored(config: TournamentConfig, result: GameResult) -> dict[str, Any]:
    import msgspec

    from bluffdice.games.record import Record

    record = Record(
        game=config.game, rules=config.rules, players=len(result.bots), steps=result.steps
    )
    return {
        "index": result.index,
        "seed": result.seed,
        "record": record,
        "bots": [config.names[b] for b in result.entrants],
        "result": {
            "winners": list(result.winners),
            "losers": list(result.losers),
            "standings": list(result.standings),
            "places": list(result.places),
            "lives": list(result.lives),
            "score": list(result.score),
            "rounds": result.rounds,
            **({"fair": msgspec.to_builtins(result.fair)} if result.fair is not None else {}),
        },
    }


def _summary(
    config: TournamentConfig,
    standings: Standings,
    lines: dict[str, BotLine],
    tid: int | None,
    db: str | None,
) -> dict[str, Any]:
    import msgspec

    return {
        "tournament": {
            "id": tid,
            "db": db,
            "game": config.game,
            "rules": config.rules,
            "seed": config.seed,
            "games": config.games,
            "seats": config.seats,
            "counted": "losses" if standings.count_losses else "wins",
        },
        "bots": {name: msgspec.to_builtins(line) for name, line in lines.items()},
        "faults": [msgspec.to_builtins(line) for line in standings.fault_log],
    }


def _title(config: TournamentConfig, tid: int | None) -> str:
    from bluffdice.games.registry import parse_rules, preset_name

    number = f" {tid}" if tid is not None else ""
    rules = preset_name(parse_rules(config.rules)) or config.rules
    return (
        f"{config.spec.title} tournament{number}: {config.games} games, rules {rules}, "
        f"seed {config.seed}"
    )


def _table(
    config: TournamentConfig, standings: Standings, lines: dict[str, BotLine], tid: int | None
) -> Table:
    from rich.table import Table

    losses = standings.count_losses
    table = Table(title=_title(config, tid), title_style="bold")
    table.add_column("bot", style="bold", no_wrap=True)
    table.add_column("games", justify="right")
    table.add_column("losses" if losses else "wins", justify="right")
    table.add_column(standings.left if standings.lives_mode else "score", justify="right")
    table.add_column(("loss" if losses else "win") + " %", justify="right")
    table.add_column("95 % CI", justify="right", no_wrap=True)
    table.add_column("mu", justify="right")
    table.add_column("sigma", justify="right")
    if standings.faults:
        table.add_column("faults", justify="right", min_width=6)
    for name, line in ranked(lines, losses):
        mean = line.mean_lives if line.mean_lives is not None else line.mean_score
        table.add_row(
            name,
            str(line.games),
            str(line.losses if losses else line.wins),
            f"{mean:.2f}",
            f"{100 * line.rate:.1f}",
            f"{100 * line.ci_low:.1f}-{100 * line.ci_high:.1f}",
            f"{line.mu:.1f}",
            f"{line.sigma:.2f}",
            *([str(line.faults)] if standings.faults else []),
        )
    counted = sum(line.losses if losses else line.wins for line in lines.values())
    shared = (
        " A game won jointly (a tie for first place) counts as a win for each bot in the tie, "
        f"so the wins add up to {100 * counted / max(config.games, 1):.0f} % of the games."
        if not losses and counted > config.games
        else ""
    )
    table.caption = (
        f"Sorted by {'loss' if losses else 'win'} % ("
        + ("fewest losses first; a loss is being the first one out" if losses else "most first")
        + f"). {standings.left if standings.lives_mode else 'score'}: mean per game; "
        "95 % CI: Wilson interval of the rate; mu, sigma: openskill Plackett-Luce rating of "
        "the places." + shared
    )
    return table


def ranked(lines: dict[str, BotLine], losses: bool) -> list[tuple[str, BotLine]]:
    """The rows in the order of the rate the table shows (ties: the better rating first)."""
    sign = 1 if losses else -1
    return sorted(lines.items(), key=lambda item: (sign * item[1].rate, -item[1].ordinal))
