"""Bot programs kept running between games, one pool per process.

Starting a program costs far more than a game (a Python host needs about half a
second to import bluffdice), so a tournament worker starts each bot program once and
reuses it for every game it plays; a bot that failed is ended and replaced. Every
process left here dies with this process (see `limits`), and `close_all` ends them
earlier.
"""

from __future__ import annotations

import atexit
from collections.abc import Sequence

from bluffdice.protocol.bot import ProcessBot
from bluffdice.protocol.limits import Limits

_IDLE: dict[tuple[tuple[str, ...], Limits], list[ProcessBot]] = {}


def acquire(command: Sequence[str], limits: Limits) -> ProcessBot:
    """A running bot program for one game: an idle one, or a new one."""
    idle = _IDLE.get((tuple(command), limits))
    while idle:
        bot = idle.pop()
        if bot.process.alive:
            return bot
        bot.close()
    return ProcessBot(command, limits)


def release(bot: ProcessBot) -> None:
    """Give a bot back after its game; a failed or dead one is ended."""
    if bot.broken or not bot.process.alive:
        bot.close()
        return
    _IDLE.setdefault((bot.command, bot.limits), []).append(bot)


def close_all() -> None:
    for bots in _IDLE.values():
        for bot in bots:
            bot.close()
    _IDLE.clear()


atexit.register(close_all)
