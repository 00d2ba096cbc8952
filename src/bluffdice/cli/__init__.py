"""Command-line entry point: `bluffdice ...`."""

from __future__ import annotations

import sys

from bluffdice.cli import odds, play, replay, rules, solve, tournament  # noqa: F401  (commands)
from bluffdice.cli.app import app, err
from bluffdice.games.base import BluffdiceError


def main() -> None:
    try:
        app()
    except BluffdiceError as exc:
        err.print(f"[bold red]error:[/] {exc}", highlight=False)
        sys.exit(2)


__all__ = ["app", "main"]
