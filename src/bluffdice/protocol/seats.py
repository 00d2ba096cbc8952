"""The seat adapter for a bot program: its own process (sandboxed), its seat's messages only."""

from __future__ import annotations

import contextlib

from bluffdice.protocol.bot import ProcessBot
from bluffdice.protocol.process import BotFault
from bluffdice.table.host import Hearing, Policy
from bluffdice.table.wire import Move, Prompt, Refused, Update, Welcome


class ProgramSeat:
    """A bot program speaking the bot protocol: the host's prompts, updates and
    refusals are encoded onto its pipe, exactly as its seat may see them."""

    hears: Hearing = "updates"

    def __init__(self, bot: ProcessBot, seed: int, policy: Policy = Policy.FORFEIT) -> None:
        self.bot = bot
        self.seed = seed
        self.policy = policy
        self.name = bot.name
        self.games = bot.games

    def sit(self, welcome: Welcome) -> None:
        self.bot.start(welcome, self.seed)

    def tell(self, update: Update) -> None:
        self.bot.tell(update)

    def move(self, prompt: Prompt) -> Move:
        if self.bot.broken:
            raise BotFault("crash", "the bot program stopped working")
        return self.bot.move(prompt)

    def refused(self, refusal: Refused) -> None:
        self.bot.broken = True  # it may wait for an answer that will not come
        with contextlib.suppress(BotFault):
            self.bot.tell(refusal)

    def close(self) -> None:
        self.bot.close()


class UnstartedSeat:
    """A seat whose bot program did not start: it fails when it sits down."""

    hears: Hearing = "updates"

    def __init__(self, fault: BotFault, policy: Policy = Policy.FORFEIT) -> None:
        self.fault = fault
        self.policy = policy

    def sit(self, welcome: Welcome) -> None:
        raise self.fault

    def tell(self, update: Update) -> None:
        return None

    def move(self, prompt: Prompt) -> Move:
        raise self.fault

    def refused(self, refusal: Refused) -> None:
        return None
