"""`bluffdice play`: a game in the terminal against bots, or bots alone with --watch."""

from __future__ import annotations

import random
import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from bluffdice.cli.app import app, err, escape, fail, out, rules_option
from bluffdice.errors import BluffdiceError

if TYPE_CHECKING:  # the games and the table load when the command runs
    from bluffdice.games.registry import GameSpec

DEFAULT_BOTS = 3
INTERACTIVE_PAUSE = 0.8


PLAY_HELP = (
    "Play a game of Mia against bots in the terminal, or watch bots play (--watch).\n\n"
    "On your turn type a value (54, 5 4, 4,5, mia), roll, look, challenge (liar), "
    "pass 65, give-up, beat or cheers; hint says what you can do now, help lists every "
    "command, quit leaves. The game ends with the winner and the standings."
)


@app.command(help=PLAY_HELP, short_help="Play Mia or Liar's Dice against bots, or watch them.")
def play(
    game: Annotated[
        str | None,
        typer.Argument(
            metavar="GAME", help="The game: mia (default) or another game of `bluffdice rules`."
        ),
    ] = None,
    rules: Annotated[
        str | None,
        typer.Option(
            "--rules",
            "-r",
            help="Preset (classic, meyer, maexchen, drinking, ...) or rule string such as "
            "'mia(lives=3,little_mia=on)'; see `bluffdice rules`.",
        ),
    ] = None,
    bots: Annotated[
        int | None,
        typer.Option(
            "--bots", "-b", help="Number of bot opponents (default 3, or the count of --opponents)."
        ),
    ] = None,
    opponents: Annotated[
        str | None,
        typer.Option(
            "--opponents",
            "-o",
            help="Comma-separated bot names, repeated to fill the seats, e.g. "
            "honest,bluffer; a bot of your own as my_bot.py:MyBot (default: a mix of "
            "every bot character of the game).",
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(help="Make the game reproducible: same dice, bots and transcript."),
    ] = None,
    name: Annotated[str, typer.Option(help="Your name at the table.")] = "You",
    watch: Annotated[
        bool,
        typer.Option(
            "--watch",
            help="Bots only: print every move and, after each round, the hidden dice; "
            "ends by naming the winner.",
        ),
    ] = False,
    no_store: Annotated[
        bool,
        typer.Option(
            "--no-store",
            help="Do not keep the game: by default every game you play (finished or left) "
            "is stored, for `bluffdice review last`.",
        ),
    ] = False,
    db: Annotated[
        str | None,
        typer.Option(
            help="Where your games are kept: a SQLite file or SQLAlchemy URL (default "
            "$BLUFFDICE_DB, else bluffdice.db in your data folder)."
        ),
    ] = None,
    pause: Annotated[
        float | None,
        typer.Option(
            min=0.0,
            help=f"Seconds to wait after each bot move (default {INTERACTIVE_PAUSE} when "
            "you play in a terminal, 0 otherwise).",
        ),
    ] = None,
) -> None:
    """The `play` command; its help text is PLAY_HELP."""
    from bluffdice.games.registry import game_of
    from bluffdice.table import Table, seeded, system
    from bluffdice.terminal import presenter_for
    from bluffdice.terminal.session import Session, console_reader, make_seats, pick_opponents

    chosen = resolve_rules(game, rules)
    spec = game_of(chosen)
    humans = 0 if watch else 1
    count = bot_count(spec, bots, opponents, humans)
    wanted = [w.strip() for w in (opponents or "").split(",") if w.strip()]
    picker = random.Random(f"{seed}:opponents") if seed is not None else random.Random()
    try:
        presenter = presenter_for(chosen)
        lineup = pick_opponents(spec.name, count, wanted, picker)
        seats = make_seats(spec.name, lineup, None if watch else name.strip() or "You", seed)
    except (BluffdiceError, ValueError) as exc:
        raise fail(str(exc)) from None
    dice = seeded(random.Random(f"{seed}:dice")) if seed is not None else system()
    interactive = not watch and sys.stdin.isatty() and out.is_terminal
    names = [seat.name for seat in seats]
    session = Session(
        table=Table(chosen, len(seats), dice=dice, names=names),
        presenter=presenter,
        seats=seats,
        console=out,
        errors=err,
        read=console_reader(out),
        pause=pause if pause is not None else (INTERACTIVE_PAUSE if interactive else 0.0),
    )
    out.print(heading(spec, chosen, session.names, watch), soft_wrap=True)
    code = session.run()
    if not no_store and session.human is not None:
        keep(session.table, session.human, seed, db)
    raise typer.Exit(code)


def keep(table: Any, seat: int, seed: int | None, db: str | None) -> None:
    """Store the game the person played, finished or left, once they made a move; a
    store that cannot be written is a warning, never a lost game's crash."""
    import msgspec

    from bluffdice.store import Store, StoreError

    if not any(entry.actor == seat for entry in table.log):
        return
    outcome = table.outcome()
    result: dict[str, Any] = {"abandoned": outcome is None}
    if outcome is not None:
        result.update(msgspec.to_builtins(outcome))
    try:
        store = Store(db)
        try:
            store.add_played_game(table.record, table.names, seat, seed, result)
        finally:
            store.close()
    except StoreError as exc:
        err.print(f"[yellow]warning:[/] the game was not kept: {escape(str(exc))}", soft_wrap=True)
        return
    out.print(
        "[dim]The game is kept: [bold]bluffdice review last[/] rates your decisions.[/]",
        soft_wrap=True,
        highlight=False,
    )


def resolve_rules(game: str | None, rules: str | None) -> Any:
    """The rule set to play: --rules names its own game when GAME is left out."""
    from bluffdice.games.registry import get_game

    if game is None:
        return rules_option(rules) if rules is not None else get_game("mia").default_rules()
    if rules is None:
        return rules_option(game)  # a game name, or a preset such as dudo or meyer
    try:
        spec = get_game(game)
    except BluffdiceError as exc:
        raise fail(str(exc)) from None
    return rules_option(rules, spec.name)


def bot_count(spec: GameSpec, bots: int | None, opponents: str | None, humans: int) -> int:
    """--bots, or the number of --opponents, or the default; checked against the game's
    player limits (the person takes one seat)."""
    low, high = max(spec.min_players - humans, 1), spec.max_players - humans
    if bots is None:
        named = len([w for w in (opponents or "").split(",") if w.strip()])
        bots = named or min(max(DEFAULT_BOTS, low), high)
    if not low <= bots <= high:
        seats = " besides you" if humans else ""
        raise fail(
            f"{spec.title} is played by {spec.min_players} to {spec.max_players} players: "
            f"--bots must be from {low} to {high}{seats}, not {bots}"
        )
    return bots


def heading(spec: GameSpec, rules: Any, names: list[str], watch: bool) -> str:
    from bluffdice.games.registry import preset_name, rules_string

    text = rules_string(rules)
    preset = preset_name(rules)
    shown = text
    if preset:
        shown = preset if text == spec.name else f"{preset}: {text}"
    who = ", ".join(escape(n) for n in names)
    intro = f"[bold]{spec.title}[/] ({escape(shown)}) · {who}"
    if watch:
        return intro
    return intro + "\nType [bold]help[/] for the commands, [bold]quit[/] to leave."
