"""The `bluffdice` command: one Typer app; each subcommand lives in its own module."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape

from bluffdice.games.base import BluffdiceError
from bluffdice.games.registry import parse_rules
from bluffdice.plotting import check_plot_path, save_figure
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
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

out = Console()
"""Standard output: results and --json."""

err = Console(stderr=True)
"""Standard error: progress, prompts' errors and messages."""


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print an error to stderr and return the Exit to raise."""
    say_error(message)
    return typer.Exit(code)


def say_error(message: str) -> None:
    """One `error:` line on stderr, never wrapped: scripts and logs read it whole."""
    err.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)


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


def open_store(db: str, create: bool = True) -> Store:
    """Open --db; a bad URL, a missing file or a database driver that is not installed
    is a clear error (exit 2), never a traceback."""
    try:
        return Store(db, create=create)
    except BluffdiceError as exc:
        raise fail(str(exc)) from None
    except ImportError as exc:
        raise fail(f"cannot use database {db!r}: its driver is not installed ({exc})") from None


def rules_option(text: str, game: str | None = None) -> Any:
    """Parse a --rules value, turning a bad one into a clear error and exit code 2."""
    try:
        return parse_rules(text, game=game)
    except BluffdiceError as exc:
        raise fail(str(exc)) from None
