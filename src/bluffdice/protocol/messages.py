"""The two messages the bot protocol adds to the table's wire format.

Everything else a bot reads (`update`, `prompt`, `refused`) and writes (`move`) is the
wire format of `bluffdice.table.wire`, unchanged. A bot program starts by saying
`hello` (its name and the games it plays); each game starts with `start`, which
carries the seat's `welcome` and a seed for the bot's own random choices, so seeded
tournaments stay reproducible with bots in other processes.
"""

from __future__ import annotations

from typing import Any, Final

import msgspec

from bluffdice.table.wire import VERSION, Welcome, WireError, schema

PROTOCOL: Final = "bluffdice-bot"


class Hello(msgspec.Struct, frozen=True, tag="hello"):
    """A bot program's first line: who it is and which games (`mia`, `liars-dice`,
    `common-hand`) it plays."""

    name: str
    games: tuple[str, ...]
    v: int = VERSION


class Start(msgspec.Struct, frozen=True, tag="start"):
    """A new game for the bot: its seat's welcome (names, rules, history, view) and a
    seed for its random choices."""

    seed: int
    welcome: Welcome
    v: int = VERSION


MAX_NAME = 40


def decode_hello(line: bytes) -> Hello:
    """The bot's hello; WireError says what is wrong with it."""
    try:
        hello = msgspec.json.decode(line, type=Hello)
    except msgspec.DecodeError as exc:
        raise WireError(f"expected a hello message first: {exc}") from None
    if hello.v != VERSION:
        raise WireError(f"the bot speaks protocol version {hello.v}; this table speaks {VERSION}")
    name = hello.name.strip()
    if not name or len(name) > MAX_NAME or not name.isprintable():
        raise WireError(f"a bot name is 1 to {MAX_NAME} printable characters, not {hello.name!r}")
    return Hello(name=name, games=hello.games)


def start_message(seed: int, welcome: Welcome) -> bytes:
    return msgspec.json.encode(Start(seed=seed, welcome=welcome))


def protocol_schema(game: str | None = None) -> dict[str, Any]:
    """The wire format's JSON Schema (`wire.schema`), with the bot protocol's own two
    messages added under `$defs`: Hello (the bot's first line) and Start."""
    result = schema(game)
    (_, start_defs) = msgspec.json.schema_components([Hello, _StartShape])
    defs = result.setdefault("$defs", {})
    defs["Hello"] = start_defs["Hello"]
    start = dict(start_defs["_StartShape"])
    start["title"] = "Start"
    start["properties"] = {**start["properties"], "welcome": {"$ref": "#/$defs/Welcome"}}
    defs["Start"] = start
    return result


class _StartShape(msgspec.Struct, frozen=True, tag="start"):
    """A new game for the bot: its seat's welcome (see Welcome) and a seed for its
    random choices."""

    seed: int
    welcome: dict[str, Any]
    v: int = VERSION
