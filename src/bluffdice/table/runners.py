"""`run_sync`: play an all-local table to its end, for tests, examples and replays.

It is the host (`table.host`) with each agent in a `BotSeat`: the agents are asked with
their views and told the events they may see, exactly as in a tournament, and a move the
table refuses stops the game with `AgentError` (a local agent has nobody to try again
for it). An exception from an agent propagates, as a bug in the caller's code should.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from bluffdice.games.base import Outcome
from bluffdice.table.host import Host, HostStopped, Policy
from bluffdice.table.seats import BotSeat
from bluffdice.table.table import Table


class Agent(Protocol):
    """An in-process player: a bot, or a person at this terminal."""

    def act(self, view: Any) -> Any: ...


class AgentError(Exception):
    """An in-process agent made a move the table refused."""

    def __init__(self, seat: int, message: str) -> None:
        super().__init__(message)
        self.seat = seat


def run_sync(table: Table, agents: Sequence[Agent]) -> Outcome | None:
    """Play an all-local table to the end. A refused move raises AgentError."""
    host = Host(table, [BotSeat(agent, Policy.STOP) for agent in agents])
    try:
        return host.run()
    except HostStopped as stop:
        reason = stop.refusal.reason if stop.refusal is not None else str(stop)
        raise AgentError(stop.fault.seat, f"made an illegal move {stop.action}: {reason}") from None
