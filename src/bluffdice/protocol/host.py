"""Run a Python bot class (`bluffdice.bots.Bot`) as a bot program in its own process.

    python -m bluffdice.protocol.host my_bot.py[:Class]      (or a built-in name)

This is how tournaments and `play` seat a bot given as a file: the class is loaded
here, in the child, and sees only the messages of its seat, decoded back into the
same views and events an in-process bot gets. Whatever the bot prints goes to
standard error; standard output carries the protocol alone.
"""

from __future__ import annotations

import random
import sys
import traceback
from pathlib import Path
from typing import IO

import msgspec

from bluffdice.bots.base import Bot, load_bot
from bluffdice.games.base import BluffdiceError
from bluffdice.games.registry import games
from bluffdice.protocol.messages import Hello
from bluffdice.table import Move, Prompt, Refused, Update, decode, encode


class _Head(msgspec.Struct):
    type: str


class _Game(msgspec.Struct):
    game: str


class _Start(msgspec.Struct):
    seed: int
    welcome: msgspec.Raw


def _classes(spec: str) -> dict[str, type[Bot]]:
    """The bot's class for each registered game it plays (a built-in name such as
    `odds` is a different class in each game)."""
    found: dict[str, type[Bot]] = {}
    why = "it names no bot class of any game"
    for game in (g.name for g in games()):
        try:
            cls = type(load_bot(spec, game))
        except BluffdiceError as exc:
            why = str(exc)
            continue
        if game in cls.games:
            found[game] = cls
    if not found:
        raise SystemExit(why)
    return found


def serve(spec: str, stdin: IO[bytes], stdout: IO[bytes]) -> int:
    classes = _classes(spec)
    name = next(iter(classes.values())).name
    if name == Bot.name:  # a class without a name of its own: call it after its file
        name = Path(spec.partition(":")[0]).stem
    stdout.write(encode(Hello(name=name, games=tuple(classes))) + b"\n")
    stdout.flush()
    bot: Bot | None = None
    listens = False
    for line in stdin:
        if line.startswith(b'{"type":"update"') and not listens:
            continue  # a bot without `observe` needs no decoded events
        kind = msgspec.json.decode(line, type=_Head).type
        if kind == "start":
            start = msgspec.json.decode(line, type=_Start)
            game = msgspec.json.decode(start.welcome, type=_Game).game
            bot = classes[game](random.Random(start.seed))
            listens = type(bot).observe is not Bot.observe
            if listens:  # what happened before it sat down, as an in-process bot hears it
                for update in decode(start.welcome).history:
                    if update.events:
                        bot.observe(list(update.events))
            continue
        message = decode(line)
        if bot is None:
            continue
        if isinstance(message, Update) and message.events:
            bot.observe(list(message.events))
        elif isinstance(message, Prompt):
            action = bot.act(message.view)
            stdout.write(encode(Move(state_id=message.state_id, action=action)) + b"\n")
            stdout.flush()
        elif isinstance(message, Refused):
            print(f"refused: {message.reason}", file=sys.stderr)
    return 0


def main() -> None:
    if len(sys.argv) != 2:
        raise SystemExit("usage: python -m bluffdice.protocol.host BOT_FILE[:Class]")
    protocol_out = sys.stdout.buffer
    sys.stdout = sys.stderr  # anything the bot prints must not reach the protocol
    try:
        code = serve(sys.argv[1], sys.stdin.buffer, protocol_out)
    except Exception as exc:  # the bot's own error: one line for the table to quote
        frames = traceback.extract_tb(exc.__traceback__)
        where = f" at {frames[-1].filename}:{frames[-1].lineno}" if frames else ""
        print(f"{type(exc).__name__}: {exc}{where}", file=sys.stderr)
        code = 1
    raise SystemExit(code)


if __name__ == "__main__":
    main()
