"""`bluffdice bot check`: for authors of bot programs."""

from __future__ import annotations

import json
import shlex
from typing import Annotated

import typer

from bluffdice.cli.app import app, err, fail, out
from bluffdice.errors import BluffdiceError

bot_app = typer.Typer(
    help="Bot programs that speak the bluffdice protocol (bluffdice docs protocol).",
    short_help="Check a bot program that speaks the bot protocol.",
    no_args_is_help=True,
)
app.add_typer(bot_app, name="bot")

CHECK_HELP = (
    "Put a bot program through scripted situations of every game it says it plays (the "
    "first move, an answer to Mia, a bid only a challenge can answer, a last die, the "
    "move after a timeout) and say what it did wrong.\n\n"
    'BOT is a command ("node examples/bot.js", also written cmd:node examples/bot.js) '
    "or a Python bot file (my_bot.py[:Class]), which runs in its own process. The exit "
    "code is 1 when a check failed."
)


@bot_app.command("check", help=CHECK_HELP)
def check_command(
    bot: Annotated[str, typer.Argument(metavar="BOT", help="The bot program to check.")],
    move_time: Annotated[
        float, typer.Option(min=0.01, max=3600.0, help="Seconds the bot has for each move.")
    ] = 2.0,
    seed: Annotated[int, typer.Option(help="Seed for the dice of the situations.")] = 1,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the findings as JSON, nothing else.")
    ] = False,
) -> None:
    from rich.markup import escape
    from rich.table import Table

    from bluffdice.protocol.check import check
    from bluffdice.protocol.limits import Limits

    command = _command(bot)
    name, findings = check(command, Limits(move_time=move_time), seed)
    failed = [f for f in findings if not f.ok]
    if as_json:
        out.print_json(
            json.dumps(
                {
                    "bot": name,
                    "ok": not failed,
                    "findings": [
                        {"game": f.game, "situation": f.situation, "ok": f.ok, "detail": f.detail}
                        for f in findings
                    ],
                }
            )
        )
    else:
        table = Table(title=f"bot check: {name}", title_style="bold")
        for column in ("game", "situation", "result"):
            table.add_column(column)
        for f in findings:
            mark = "[green]ok[/]" if f.ok else "[bold red]FAIL[/]"
            detail = "" if f.detail == "ok" else f" {escape(f.detail)}"
            table.add_row(f.game, f.situation, mark + detail)
        out.print(table)
        summary = f"{len(findings) - len(failed)} of {len(findings)} checks passed"
        err.print(summary, highlight=False)
    if failed:
        raise typer.Exit(1)


def _command(bot: str) -> tuple[str, ...]:
    from bluffdice.protocol.specs import COMMAND_PREFIX, bot_command

    text = bot.strip()
    if not text:
        raise fail("name a bot program to check")
    target = text.partition(":")[0]
    try:
        if text.startswith(COMMAND_PREFIX) or target.endswith(".py"):
            command = bot_command(text, "mia")
            if command:
                return command
        return tuple(shlex.split(text))
    except (BluffdiceError, ValueError) as exc:
        raise fail(str(exc)) from None
