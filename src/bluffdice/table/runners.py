"""Runners: who asks the seats of a table for their moves, and tells them what happened.

`run_sync` plays an all-local table without an event loop (tournaments, `--watch`,
tests): each agent is asked with its view and told the events it may see, exactly as a
remote seat would be, only without encoding. `run` is the asyncio runner for tables with
remote seats (browsers, programs): it waits for each move with the seat's time limit,
makes the default move when time runs out, and sends refusals back to the seat that
made them. Both only call the table's public API, so a seat cannot do more than
`submit` allows.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from bluffdice.bots.base import Bot
from bluffdice.games.base import Event, Outcome, visible_to
from bluffdice.table.entry import Entry
from bluffdice.table.table import Table
from bluffdice.table.wire import Move, Prompt, Refused, Update


class Agent(Protocol):
    """An in-process player: a bot, or a person at this terminal."""

    def act(self, view: Any) -> Any: ...


class AgentError(Exception):
    """An in-process agent made a move the table refused, or raised while choosing."""

    def __init__(self, seat: int, message: str) -> None:
        super().__init__(message)
        self.seat = seat


def tell_agents(table: Table, agents: Sequence[Any]) -> Callable[[Entry], None]:
    """A table listener that hands each agent with an `observe` method the events of
    each step that it may see (through the same filter as every update)."""
    observers = [
        (seat, observe)
        for seat, agent in enumerate(agents)
        if (observe := getattr(agent, "observe", None)) is not None
        and getattr(observe, "__func__", None) is not Bot.observe  # the base class ignores all
    ]

    def listener(entry: Entry) -> None:
        events = entry.events
        if not events:
            return
        for seat, observe in observers:
            seen = [e for e in events if visible_to(e, seat)]
            if seen:
                observe(seen)

    return listener


def run_sync(table: Table, agents: Sequence[Agent]) -> Outcome | None:
    """Play an all-local table to the end. A refused move raises AgentError (a local
    agent has no one to retry for it); an exception from an agent propagates."""
    listener = tell_agents(table, agents)
    for entry in table.log:  # what happened before they sat down (who starts)
        listener(entry)
    table.listeners.append(listener)
    try:
        while (pending := table.pending()) is not None:
            action = agents[pending.seat].act(pending.view)
            result = table.submit(pending.seat, pending.state_id, action)
            if isinstance(result, Refused) and result.code != "too_late":
                raise AgentError(pending.seat, f"made an illegal move {action}: {result.reason}")
    finally:
        table.listeners.remove(listener)
    return table.outcome()


class Seat(Protocol):
    """A player the asyncio runner talks to: a browser, a program, a bot."""

    def tell(self, message: Update | Refused) -> None:
        """Deliver a message (never blocks: a remote seat queues it)."""
        ...

    async def turn(self, prompt: Prompt) -> Move:
        """The seat's move for `prompt` (the runner enforces the deadline)."""
        ...


async def run(table: Table, seats: Sequence[Seat]) -> Outcome | None:
    """Play a table whose seats answer asynchronously, with their clocks.

    Each seat is told every update it may see. A refused move goes back to its seat,
    which may try again until its deadline; when a deadline passes the table makes the
    default move and says so.
    """

    def listener(entry: Entry) -> None:
        for recipient, seat in enumerate(seats):
            update = table.update_for(entry, recipient)
            if update is not None:
                seat.tell(update)

    for entry in table.log:  # what happened before they sat down (who starts)
        listener(entry)
    table.listeners.append(listener)
    try:
        while (pending := table.pending()) is not None:
            prompt = table.prompt()
            assert prompt is not None
            seat = seats[pending.seat]
            try:
                move = await asyncio.wait_for(seat.turn(prompt), timeout=prompt.time_left)
            except TimeoutError:
                if table.pending() is pending:
                    table.force_default()
                continue
            result = table.submit(pending.seat, move.state_id, move.action)
            if isinstance(result, Refused):
                seat.tell(result)
    finally:
        table.listeners.remove(listener)
    return table.outcome()


def events_of(entries: Sequence[Entry]) -> list[Event]:
    return [e for entry in entries for e in entry.events]
