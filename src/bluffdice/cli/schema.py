"""`bluffdice schema`: the JSON Schema of the wire format, for authors of clients and bots."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from bluffdice.cli.app import app, fail, out
from bluffdice.errors import BluffdiceError

SCHEMA_HELP = (
    "Print the JSON Schema of every message a table sends and takes (prompts, updates, "
    "refusals, welcomes, moves), generated from the message types themselves.\n\n"
    "Without GAME the schema covers every game; messages are told apart by their `type` "
    "field (`mia.announce`, `liars-dice.view`, `update`), so a client decodes them without "
    "knowing the game in advance. See `bluffdice docs architecture`. The bot protocol's "
    "own two messages (a bot's hello, a game's start) are in $defs as Hello and Start; "
    "see `bluffdice docs protocol`.\n\n"
    "Example: bluffdice schema mia > mia-schema.json"
)


@app.command(help=SCHEMA_HELP, short_help="The JSON Schema of the messages tables send and take.")
def schema(
    game: Annotated[
        str | None,
        typer.Argument(
            metavar="GAME",
            help="Only this game's messages (mia, liars-dice, common-hand).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """The `schema` command; its help text is SCHEMA_HELP."""
    from bluffdice.protocol.messages import protocol_schema

    try:
        document = protocol_schema(game)
    except BluffdiceError as exc:
        raise fail(str(exc)) from None
    out.print_json(json.dumps(document))
