"""`bluffdice bot check`: for authors of bot programs."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from bluffdice.cli.app import app, err, fail, out
from bluffdice.errors import BluffdiceError
from bluffdice.sandbox.flags import UNSANDBOXED_HELP, isolation_of

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
    unsandboxed: Annotated[bool, typer.Option("--unsandboxed", help=UNSANDBOXED_HELP)] = False,
) -> None:
    from rich.markup import escape
    from rich.table import Table

    from bluffdice.protocol.check import check
    from bluffdice.protocol.limits import Limits
    from bluffdice.sandbox import require

    command = _command(bot)
    isolation = isolation_of(unsandboxed)
    try:
        require(isolation)
    except BluffdiceError as exc:
        raise fail(str(exc)) from None
    name, findings = check(command, Limits(move_time=move_time, isolation=isolation), seed)
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


ISOLATION_HELP = (
    "Say what a bot program can and cannot see or do on this machine: the sandbox "
    "(bubblewrap) it runs in, its identity, files, network and bounds. With BOT, also the "
    "files of that bot that it sees, and a check that it starts in the sandbox. The exit "
    "code is 1 when bot programs cannot be sandboxed here."
)


@bot_app.command("isolation", help=ISOLATION_HELP)
def isolation_command(
    bot: Annotated[
        str | None, typer.Argument(metavar="BOT", help="A bot program or file (optional).")
    ] = None,
    unsandboxed: Annotated[bool, typer.Option("--unsandboxed", help=UNSANDBOXED_HELP)] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the report as JSON, nothing else.")
    ] = False,
) -> None:
    from rich.table import Table

    from bluffdice.sandbox import describe, probe

    isolation = isolation_of(unsandboxed)
    rows = describe(isolation)
    ok = isolation == "process" or probe().ok
    if bot is not None and ok:
        rows += _bot_rows(_command(bot), isolation)
    if as_json:
        out.print_json(json.dumps({"isolation": isolation, "ok": ok, "report": dict(rows)}))
    else:
        table = Table(title="What a bot program gets here", title_style="bold", show_lines=True)
        table.add_column("", style="bold")
        table.add_column("")
        for key, value in rows:
            table.add_row(key, value)
        out.print(table)
    if not ok:
        raise typer.Exit(1)


def _bot_rows(command: tuple[str, ...], isolation: str) -> list[tuple[str, str]]:
    """The bot's own files as the sandbox binds them, and whether it starts there."""
    import os

    from bluffdice.protocol.bot import ProcessBot
    from bluffdice.protocol.limits import Limits
    from bluffdice.protocol.process import BotFault
    from bluffdice.sandbox.bubblewrap import named_paths

    rows = [("command", " ".join(command))]
    if isolation == "sandbox":
        own = named_paths(command, os.getcwd())
        rows.append(("its files", ", ".join(own) or "none named on its command line"))
    try:
        program = ProcessBot(command, Limits(isolation=isolation))
    except BotFault as fault:
        rows.append(("start", f"failed ({fault.kind}): {fault}"))
        return rows
    rows.append(("start", f"ok: {program.name} says hello, plays {', '.join(program.games)}"))
    program.close()
    return rows


def _command(bot: str) -> tuple[str, ...]:
    import shlex

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
