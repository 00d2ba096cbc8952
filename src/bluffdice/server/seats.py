"""The hall's seats as the host (`bluffdice.table.host`) drives them.

A person's seat (`BrowserSeat`) is asked by sending the prompt to the connections that
hold the seat; the answer comes later, as a message from one of them (`Host.offer`).
Whoever is connected to the seat gets the prompt: nobody, while the seat's player is
away or has left (the clock, if there is one, moves for them). Updates reach every
connection through the table's own listener, not through the seat, so the seat hears
nothing itself. A house bot (`HouseBot`) is a bot of this process whose failures are
logged and answered by the table's default move: a guest should never see a bot's bug
end the game.
"""

from __future__ import annotations

import logging
from collections.abc import Set
from typing import Any

from bluffdice.server.connections import Connection
from bluffdice.table.host import Hearing, Policy, SeatFault
from bluffdice.table.seats import BotSeat
from bluffdice.table.wire import Move, Prompt, Refused, Update, Welcome, encode

log = logging.getLogger("bluffdice.server")


class BrowserSeat:
    """A person's seat at a hall table: prompts go to the connections at `seat`."""

    hears: Hearing = "nothing"
    policy = Policy.RETRY

    def __init__(self, seat: int, connections: Set[Connection]) -> None:
        self.seat = seat
        self.connections = connections
        """The table's connections (the same set, as people come and go)."""

    def sit(self, welcome: Welcome) -> None:
        return None  # each connection is greeted by the table when it connects

    def tell(self, update: Update) -> None:
        return None  # updates go to every connection through the table's listener

    def ask(self, prompt: Prompt) -> None:
        data = encode(prompt)
        for connection in self.connections:
            if connection.seat == self.seat:
                connection.send(data)

    def refused(self, refusal: Refused) -> None:
        return None  # the refusal goes back to the one connection that sent the move


class HouseBot(BotSeat):
    """A bot the hall seats: whatever it raises is logged, and the table makes its
    default move this once (`Policy.DEFAULT`)."""

    def __init__(self, bot: Any, table_id: str, seat: int) -> None:
        super().__init__(bot, Policy.DEFAULT, guard=True)
        self.table_id = table_id
        self.seat = seat

    def move(self, prompt: Prompt) -> Move:
        try:
            return super().move(prompt)
        except SeatFault as fault:
            log.warning("table %s: bot %s failed: %s", self.table_id, self.seat, fault)
            raise

    def tell(self, update: Update) -> None:
        """A bot that fails to take in a step plays on without it (logged)."""
        try:
            super().tell(update)
        except SeatFault as fault:
            log.warning("table %s: bot %s failed: %s", self.table_id, self.seat, fault)
