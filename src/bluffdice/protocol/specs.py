"""Which bots run in this process and which run as programs, from what the user typed.

Built-in bots are part of bluffdice and play in-process, for speed. Anything else is
untrusted: `cmd:...` is any program speaking the protocol; a Python file
(`my_bot.py[:Class]`) or module (`package.module:Class`) holding a `Bot` class is
hosted by `python -m bluffdice.protocol.host` in a child process, unless `trust` asks
for today's in-process loading.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from bluffdice.bots.base import available_bots
from bluffdice.games.base import BluffdiceError

COMMAND_PREFIX = "cmd:"


def bot_command(spec: str, game: str, trust: bool = False) -> tuple[str, ...]:
    """The command that runs `spec` as a bot program; () when it plays in this process."""
    text = spec.strip()
    if text.startswith(COMMAND_PREFIX):
        try:
            words = tuple(shlex.split(text[len(COMMAND_PREFIX) :]))
        except ValueError as exc:
            raise BluffdiceError(f"bot command {text!r}: {exc}") from None
        if not words:
            raise BluffdiceError(f"bot {text!r}: give a command after cmd:")
        return words
    if text.lower() in available_bots(game) or trust:
        return ()
    target, colon, attr = text.partition(":")
    if target.endswith(".py") or "/" in target:
        path = Path(target)
        if not path.is_file():
            raise BluffdiceError(f"bot file {target} does not exist")
        target = str(path.resolve())
    elif not colon:
        return ()  # an unknown name: the in-process loader says which names exist
    hosted = target + (colon + attr if attr else "")
    return (sys.executable, "-m", "bluffdice.protocol.host", hosted)
