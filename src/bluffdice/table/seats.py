"""Seat adapters for players in this process: a bot object (`BotSeat`)."""

from __future__ import annotations

import traceback
from typing import Any

from bluffdice.bots.base import Bot
from bluffdice.table.host import Hearing, Policy, SeatFault
from bluffdice.table.wire import Move, Prompt, Refused, Update, Welcome


def raised(exc: BaseException) -> SeatFault:
    """An exception from a bot of this process as the fault it is: an `exit()` is not
    the bot's to make, anything else is an error, each said with where it happened."""
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" at {frames[-1].filename}:{frames[-1].lineno}" if frames else ""
    if isinstance(exc, SystemExit):
        return SeatFault("exit", f"the bot called exit({exc.code!r}){where}")
    return SeatFault("error", f"{type(exc).__name__}: {exc}{where}")


def observes(bot: object) -> bool:
    """Whether the bot wants the events (the base class ignores them all)."""
    observe = getattr(bot, "observe", None)
    return observe is not None and getattr(observe, "__func__", None) is not Bot.observe


class BotSeat:
    """A bot object in this process: `act(view)` and, if it has one, `observe(events)`.

    With `guard`, whatever the bot raises is a fault of its seat (tournaments: the bot
    loses the game, the others play on); without, it propagates to the caller (tests,
    `run_sync`), as a bug in the caller's own code should."""

    def __init__(self, bot: Any, policy: Policy = Policy.STOP, guard: bool = False) -> None:
        self.bot = bot
        self.policy = policy
        self.guard = guard
        self.hears: Hearing = "events" if observes(bot) else "nothing"

    def sit(self, welcome: Welcome) -> None:
        for update in welcome.history:
            self.tell(update)

    def tell(self, update: Update) -> None:
        if not self.guard:
            self.bot.observe(list(update.events))
            return
        try:
            self.bot.observe(list(update.events))
        except (Exception, SystemExit) as exc:
            raise raised(exc) from None

    def move(self, prompt: Prompt) -> Move:
        if not self.guard:
            return Move(prompt.state_id, self.bot.act(prompt.view))
        try:
            return Move(prompt.state_id, self.bot.act(prompt.view))
        except (Exception, SystemExit) as exc:
            raise raised(exc) from None

    def refused(self, refusal: Refused) -> None:
        return None
