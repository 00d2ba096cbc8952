"""The `bluffdice` command: one Typer app; each subcommand lives in its own module."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, cast

import typer

from bluffdice.errors import BluffdiceError, clip_message
from bluffdice.plotting import check_plot_path, save_figure

if TYPE_CHECKING:
    from rich.console import Console

    from bluffdice.store import Store

app = typer.Typer(
    name="bluffdice",
    help=(
        "Mia (Meyer, Maexchen) and Liar's Dice: play in the terminal, look up exact odds, "
        "run bots and tournaments, solve for equilibrium play.\n\n"
        "Every command takes --rules as a preset name (classic, meyer, maexchen, ...) or a "
        "rule string such as 'mia(lives=3,little_mia=on,pass=off)'; see `bluffdice rules`."
    ),
    no_args_is_help=True,
    # Plain help: it wraps instead of cutting long option names, and it does not import
    # typer's Rich help module, which alone costs about as much as typer itself.
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def escape(text: str) -> str:
    """Rich's markup escape, imported when first needed (see _LazyConsole)."""
    from rich.markup import escape as rich_escape

    return rich_escape(text)


class _LazyConsole:
    """A Rich console made on first use: importing `rich.console` costs about as much as
    typer itself, and `bluffdice --help` prints without it."""

    def __init__(self, stderr: bool) -> None:
        self._stderr = stderr
        self._console: Console | None = None

    def _real(self) -> Console:
        if self._console is None:
            from rich.console import Console

            self._console = Console(stderr=self._stderr)
        return self._console

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real(), name)

    def __enter__(self) -> Console:  # `with console:` (Rich's Live and Progress do it)
        return self._real().__enter__()

    def __exit__(self, *exc: object) -> None:
        self._real().__exit__(*exc)  # type: ignore[arg-type]


out = cast("Console", _LazyConsole(stderr=False))
"""Standard output: results and --json."""

err = cast("Console", _LazyConsole(stderr=True))
"""Standard error: progress, prompts' errors and messages."""


def _show_version(value: bool) -> None:
    if value:
        from bluffdice import __version__

        typer.echo(f"bluffdice {__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            "-V",
            callback=_show_version,
            is_eager=True,
            help="Print the version of bluffdice and exit.",
        ),
    ] = False,
) -> None:
    """Options of `bluffdice` itself (the app's help text is the Typer's)."""


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print an error to stderr and return the Exit to raise."""
    say_error(message)
    return typer.Exit(code)


def say_error(message: str) -> None:
    """One `error:` line on stderr, never wrapped: scripts and logs read it whole."""
    text = escape(clip_message(message))
    err.print(f"[bold red]error:[/] {text}", highlight=False, soft_wrap=True)


def plot_target(plot: Path | None) -> Path | None:
    """Check a --plot path before the work starts; a bad one is a clear error, exit 2."""
    if plot is None:
        return None
    try:
        return check_plot_path(plot)
    except BluffdiceError as exc:
        raise fail(str(exc)) from None


def write_plot(fig: Any, path: Path) -> None:
    """Save a figure for --plot, turning a write failure into a clear error."""
    try:
        save_figure(fig, path)
    except BluffdiceError as exc:
        raise fail(str(exc)) from None


def open_store(db: str | None, create: bool = True) -> Store:
    """Open --db (None: $BLUFFDICE_DB, else the per-user data file); a bad URL, a missing
    file, a newer store or a database driver that is not installed is a clear error
    (exit 2), never a traceback. SQLAlchemy is imported here, not at start."""
    from bluffdice.store import Store

    try:
        return Store(db, create=create)
    except BluffdiceError as exc:
        raise fail(str(exc)) from None
    except ImportError as exc:
        raise fail(f"cannot use database {db!r}: its driver is not installed ({exc})") from None


MAX_WORKERS = 1024


def workers_option(workers: int | None) -> int | None:
    """Check a --workers value (None: the command's default): outside 1 to MAX_WORKERS is
    a clear error (exit 2); more than the CPUs is cut to the CPU count, with a note, since
    the extra processes would only wait (results never depend on the count)."""
    import os

    if workers is None:
        return None
    if not 1 <= workers <= MAX_WORKERS:
        raise fail(f"--workers must be between 1 and {MAX_WORKERS}, not {workers}")
    cpus = os.cpu_count() or 1
    if workers > cpus:
        err.print(
            f"--workers {workers}: this machine has {cpus} CPUs; using {cpus} workers.",
            highlight=False,
        )
        return cpus
    return workers


def rules_option(text: str, game: str | None = None) -> Any:
    """Parse a --rules value, turning a bad one into a clear error and exit code 2."""
    from bluffdice.games.registry import parse_rules

    try:
        return parse_rules(text, game=game)
    except BluffdiceError as exc:
        raise fail(str(exc)) from None


GAME_HELP = (
    "The game: mia, liars-dice or common-hand (or a preset of one, such as dudo); "
    "default: the game --rules names, else mia."
)


def game_rules(game: str | None, rules: str | None) -> Any:
    """The rule set a command plays, chosen the one way every command takes: an optional
    GAME word first (a game's name or a preset of it) and --rules (a preset or rule
    string, which names its own game when GAME is left out)."""
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


def complete_rules(incomplete: str) -> list[str]:
    """Shell completion of --rules: every game and preset name that starts so."""
    from bluffdice.games.registry import known_names

    return [name for name in known_names() if name.startswith(incomplete.lower())]


def complete_game(incomplete: str) -> list[str]:
    """Shell completion of GAME: the games and their presets (the same names)."""
    return complete_rules(incomplete)


GameArgument = Annotated[
    str | None,
    typer.Argument(
        metavar="GAME", help=GAME_HELP, show_default=False, autocompletion=complete_game
    ),
]
"""The GAME word that play, simulate and tournament take first."""


def complete_bots(ctx: typer.Context, incomplete: str) -> list[str]:
    """Shell completion of a comma-separated bot list (--bots, --opponents): the bot
    names of the command's game (its GAME or --rules, else every game) after the last
    comma, each offered with what is typed before it."""
    from bluffdice.bots.base import available_bots
    from bluffdice.games.registry import game_of, games, parse_rules

    params = ctx.params
    wanted: str | None = None
    try:
        named = params.get("game") or params.get("game_option") or params.get("rules")
        wanted = game_of(parse_rules(named)).name if named else None
    except BluffdiceError:
        pass
    names: set[str] = set()
    for spec in games():
        if wanted is None or spec.name == wanted:
            names.update(available_bots(spec.name))
    done, _, last = incomplete.rpartition(",")
    prefix = f"{done}," if done else ""
    return [prefix + name for name in sorted(names) if name.startswith(last.lower())]
