"""`bluffdice play`: a game in the terminal against bots, or bots alone with --watch."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from bluffdice.cli.app import (
    GameArgument,
    app,
    complete_bots,
    complete_rules,
    err,
    escape,
    fail,
    game_rules,
    out,
)
from bluffdice.errors import BluffdiceError
from bluffdice.sandbox.flags import SHORT_SEED_WARNING, UNSANDBOXED_HELP, guessable, isolation_of

if TYPE_CHECKING:  # the games and the table load when the command runs
    from bluffdice.games.registry import GameSpec
    from bluffdice.table import Table
    from bluffdice.table.fair import FairDice

DEFAULT_BOTS = 3
INTERACTIVE_PAUSE = 0.8


PLAY_HELP = (
    "Play Mia, Liar's Dice or the common hand against bots in the terminal, or watch bots "
    "play (--watch).\n\n"
    "Mia: type a value (54, 5 4, 4,5, mia), roll, look, challenge (liar), pass 65, "
    "give-up, beat or cheers. Liar's Dice: bid 3x5 (3 fives), liar, calza. Common hand: "
    "claim a hand (pair A, full house K 10), reroll, liar. On every turn hint says what you "
    "can do now, help lists every command of the game, table shows the table, quit leaves. "
    "The game ends with the winner and the standings."
)

MAX_NAME = 40
"""The longest --name: it is printed in every line of the table."""

MAX_PAUSE = 60.0


@app.command(help=PLAY_HELP, short_help="Play Mia or Liar's Dice against bots, or watch them.")
def play(
    game: GameArgument = None,
    rules: Annotated[
        str | None,
        typer.Option(
            "--rules",
            "-r",
            autocompletion=complete_rules,
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
            autocompletion=complete_bots,
            help="Comma-separated bot names, repeated to fill the seats, e.g. "
            "honest,bluffer; a bot of your own as my_bot.py:MyBot or a bot program as "
            '"cmd:node examples/bot.js", each run in its own process (default: a mix of '
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
            help=f"Seconds to wait after each bot move, 0 to {MAX_PAUSE:.0f} (default "
            f"{INTERACTIVE_PAUSE} when you play in a terminal, 0 otherwise).",
        ),
    ] = None,
    dice: Annotated[
        str,
        typer.Option(
            help="system (the operating system's generator; seeded with --seed) or fair: "
            "provably fair dice, committed to before the first roll and checkable after the "
            "game with `bluffdice verify`.",
        ),
    ] = "system",
    client_seed: Annotated[
        str | None,
        typer.Option(
            help="With --dice fair: your own seed, mixed into every die (default: a random "
            "one, or the --seed).",
        ),
    ] = None,
    fair_record: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE",
            help="With --dice fair: where to write the game's fair record (default: a file "
            "in your data folder, named after the commitment).",
        ),
    ] = None,
    unsandboxed: Annotated[bool, typer.Option("--unsandboxed", help=UNSANDBOXED_HELP)] = False,
) -> None:
    """The `play` command; its help text is PLAY_HELP."""
    import random

    from bluffdice.games.registry import game_of
    from bluffdice.table import Table, seeded, system
    from bluffdice.terminal import presenter_for
    from bluffdice.terminal.session import Session, console_reader, make_seats, pick_opponents

    chosen = game_rules(game, rules)
    spec = game_of(chosen)
    humans = 0 if watch else 1
    wanted = [w.strip() for w in (opponents or "").split(",") if w.strip()]
    check_name_and_pause(name, watch, pause)
    check_opponents(spec.name, wanted)
    count = bot_count(spec, bots, opponents, humans)
    picker = random.Random(f"{seed}:opponents") if seed is not None else random.Random()
    try:
        presenter = presenter_for(chosen)
        lineup = pick_opponents(spec.name, count, wanted, picker)
        seats = make_seats(
            spec.name,
            lineup,
            None if watch else name.strip() or "You",
            seed,
            isolation=isolation_of(unsandboxed),
            rules=chosen,
        )
    except (BluffdiceError, ValueError) as exc:
        raise fail(str(exc)) from None
    if seed is not None and guessable(seed) and any(s.program for s in seats):
        err.print(SHORT_SEED_WARNING.format(seed=seed), highlight=False, soft_wrap=True)
    if dice not in ("system", "fair"):
        raise fail(f"--dice must be system or fair, not {dice!r}")
    fair = fair_dice(seed, client_seed) if dice == "fair" else None
    source = seeded(random.Random(f"{seed}:dice")) if seed is not None else system()
    interactive = not watch and sys.stdin.isatty() and out.is_terminal
    names = [seat.name for seat in seats]
    session = Session(
        table=Table(chosen, len(seats), dice=fair or source, names=names),
        presenter=presenter,
        seats=seats,
        console=out,
        errors=err,
        read=console_reader(out),
        pause=pause if pause is not None else (INTERACTIVE_PAUSE if interactive else 0.0),
    )
    out.print(heading(spec, chosen, session.names, watch), soft_wrap=True)
    if fair is not None:
        announce_fair(fair)
    status = session.run()
    if fair is not None:
        write_fair_record(fair, session.table, fair_record)
    if not no_store and session.human is not None:
        keep(session.table, session.human, seed, db)
    raise typer.Exit(status)


def check_name_and_pause(name: str, watch: bool, pause: float | None) -> None:
    if not watch and len(name.strip()) > MAX_NAME:
        raise fail(f"--name is at most {MAX_NAME} characters, not {len(name.strip())}")
    if pause is not None and not 0 <= pause <= MAX_PAUSE:  # inf and nan included
        raise fail(f"--pause takes 0 to {MAX_PAUSE:.0f} seconds, not {pause}")


def announce_fair(fair: FairDice) -> None:
    """The commitment, before the first roll: what the fair record is checked against."""
    out.print(
        f"Fair dice: commitment {fair.commitment} (seeds mixed in: "
        f"{', '.join(fair.client_seeds)}); the server seed is shown after the game.",
        soft_wrap=True,
        highlight=False,
    )


def fair_dice(seed: int | None, client_seed: str | None) -> FairDice:
    """Fair dice for one game: the server seed from --seed (reproducible) or fresh."""
    import secrets

    from bluffdice.table.fair import FairDice, FairnessError, server_seed_from

    mine = (
        client_seed
        if client_seed is not None
        else (str(seed) if seed is not None else secrets.token_hex(8))
    )
    try:
        return FairDice(server_seed_from(seed) if seed is not None else None, [mine])
    except FairnessError as exc:
        raise fail(str(exc)) from None


def write_fair_record(fair: FairDice, table: Table, target: Path | None) -> None:
    """Reveal the server seed in a record file that `bluffdice verify` checks."""
    import msgspec

    from bluffdice.store.location import user_data_file

    record = fair.fair_record(table.record, unfinished=not table.over)
    path = target or user_data_file().parent / "fair" / f"{fair.commitment[:16]}.json"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(msgspec.json.encode(record))
    except OSError as exc:
        raise fail(f"cannot write the fair record to {path}: {exc.strerror}") from None
    out.print(
        f"Fair record: {path} (digest {record.digest}); check it: bluffdice verify {path}",
        soft_wrap=True,
        highlight=False,
    )


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


def check_opponents(game: str, wanted: list[str]) -> None:
    """An unknown bot name is named as such, before any count of seats is checked."""
    from bluffdice.bots.base import available_bots, load_bot

    for spec in wanted:
        if spec.lower() in available_bots(game) or ":" in spec or spec.endswith(".py"):
            continue  # a file or module is loaded (and checked) when the seats are made
        try:
            load_bot(spec, game)
        except BluffdiceError as exc:
            raise fail(str(exc)) from None


def bot_count(spec: GameSpec, bots: int | None, opponents: str | None, humans: int) -> int:
    """--bots, or the number of --opponents, or the default; checked against the game's
    player limits (the person takes one seat)."""
    low, high = max(spec.min_players - humans, 1), spec.max_players - humans
    given = bots
    if bots is None:
        named = len([w for w in (opponents or "").split(",") if w.strip()])
        bots = named or min(max(DEFAULT_BOTS, low), high)
    if not low <= bots <= high:
        seats = " besides you" if humans else " (with --watch only bots play)"
        allowed = f"{low}" if low == high else f"from {low} to {high}"
        told = f"--bots must be {allowed}{seats}, not {bots}"
        if given is None:  # the count came from --opponents: name that flag, not --bots
            count = f"{bots} bot" + ("s" if bots != 1 else "")
            told = f"--opponents names {count}; name {allowed.removeprefix('from ')}{seats}"
        raise fail(f"{spec.title} is played by {players_text(spec)}: {told}")
    return bots


def players_text(spec: GameSpec) -> str:
    """`2 players`, `2 to 10 players`."""
    if spec.min_players == spec.max_players:
        return f"{spec.min_players} players"
    return f"{spec.min_players} to {spec.max_players} players"


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
