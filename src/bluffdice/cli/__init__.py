"""Command-line entry point: `bluffdice ...`."""

from __future__ import annotations

import sys

from bluffdice.cli import (  # noqa: F401  (commands)
    docs,
    maexchen,
    odds,
    play,
    replay,
    review,
    rules,
    schema,
    simulate,
    solve,
    tournament,
    verify,
)
from bluffdice.cli.app import app, say_error
from bluffdice.errors import BluffdiceError


def main() -> None:
    try:
        app()
    except BluffdiceError as exc:
        say_error(str(exc))
        sys.exit(2)


__all__ = ["app", "main"]
