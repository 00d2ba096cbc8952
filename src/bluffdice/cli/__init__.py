"""Command-line entry point: `bluffdice ...`."""

from __future__ import annotations

import sys

from bluffdice.cli import (  # noqa: F401  (commands)
    bots,
    docs,
    maexchen,
    odds,
    play,
    replay,
    review,
    rules,
    schema,
    serve,
    simulate,
    solve,
    tournament,
    verify,
)
from bluffdice.cli.app import app, say_error
from bluffdice.errors import BluffdiceError, clip_message


def main() -> None:
    """Run the CLI. Usage errors of the option parser are shown as it shows them, but with
    long values cut short (`bluffdice replay 999...` with 5000 digits is not echoed back)."""
    try:
        code = app(standalone_mode=False)
    except BluffdiceError as exc:
        say_error(str(exc))
        sys.exit(2)
    except Exception as exc:
        if type(exc).__name__ == "Abort":  # the parser's Ctrl-D at a prompt
            say_error("aborted")
            sys.exit(1)
        if not (hasattr(exc, "show") and hasattr(exc, "exit_code")):
            raise  # a crash: its traceback is the report
        if isinstance(getattr(exc, "message", None), str):
            exc.message = clip_message(exc.message)  # type: ignore[attr-defined]
        exc.show()  # typer's own copy of click's usage error
        sys.exit(exc.exit_code)
    sys.exit(code if isinstance(code, int) else 0)


__all__ = ["app", "main"]
