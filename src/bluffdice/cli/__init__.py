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
from bluffdice.errors import BluffdiceError
from bluffdice.sandbox import hide_host


def main() -> None:
    """Run the CLI. A usage error of the option parser (an unknown option, a value that is
    not a number) is one `error:` line on stderr and exit 2, like every other bad input,
    with long values cut short (`bluffdice replay 999...` with 5000 digits is not echoed
    back)."""
    hide_host()  # bot programs (and anyone else of this user) may not read this process
    try:
        code = app(standalone_mode=False)
    except BluffdiceError as exc:
        say_error(str(exc))
        sys.exit(2)
    except Exception as exc:
        if type(exc).__name__ == "Abort":  # the parser's Ctrl-D at a prompt
            say_error("aborted")
            sys.exit(1)
        if not (hasattr(exc, "format_message") and hasattr(exc, "exit_code")):
            raise  # a crash: its traceback is the report
        if type(exc).__name__ == "NoArgsIsHelpError":  # a group called bare: its help
            exc.show()  # type: ignore[attr-defined]
            sys.exit(exc.exit_code)  # type: ignore[attr-defined]
        say_error(usage_error(exc))
        sys.exit(2)
    sys.exit(code if isinstance(code, int) else 0)


def usage_error(exc: Exception) -> str:
    """The parser's message on one line, with where to find the command's help."""
    message = " ".join(str(exc.format_message()).split())  # type: ignore[attr-defined]
    ctx = getattr(exc, "ctx", None)
    where = getattr(ctx, "command_path", None)
    return f"{message} (see {where} --help)" if where else message


__all__ = ["app", "main"]
