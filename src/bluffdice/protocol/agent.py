"""A bot program as an in-process agent, for front ends that call `act(view)`.

`bluffdice play` asks its bots synchronously. `ProcessAgent` answers that call by
prompting the program with the table's own prompt for its seat and waiting for the
move; between moves it forwards the seat's updates, so the program sees exactly
what a tournament would show it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

from bluffdice.protocol.bot import ProcessBot
from bluffdice.protocol.limits import Limits
from bluffdice.protocol.process import BotFault
from bluffdice.table import Entry, Table


class ProcessAgent:
    """One seat played by a bot program; `attach` it to its table before the game."""

    def __init__(self, command: Sequence[str], limits: Limits, seed: int) -> None:
        self.bot = ProcessBot(command, limits)
        self.name = self.bot.name
        self.games = self.bot.games
        self.seed = seed
        self._table: Table | None = None
        self._seat = -1

    def attach(self, table: Table, seat: int) -> None:
        self._table, self._seat = table, seat
        self.bot.start(table, seat, self.seed)
        table.listeners.append(self._tell)

    def _tell(self, entry: Entry) -> None:
        assert self._table is not None
        update = self._table.update_for(entry, self._seat)
        if update is not None and not self.bot.broken:
            with contextlib.suppress(BotFault):  # the next act() reports it
                self.bot.tell(update)

    def act(self, view: Any) -> Any:
        """The program's move for the table's current prompt; BotFault if it fails."""
        assert self._table is not None, "attach the agent to its table first"
        if self.bot.broken:
            raise BotFault("crash", "the bot program stopped working")
        prompt = self._table.prompt()
        assert prompt is not None and prompt.seat == self._seat
        move = self.bot.move(prompt)
        if move.state_id != prompt.state_id:
            raise BotFault(
                "illegal", f"the move answers state {move.state_id}, not {prompt.state_id}"
            )
        return move.action

    def close(self) -> None:
        self.bot.close()
