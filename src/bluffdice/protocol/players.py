"""Playing one game whose players may fail: bots in this process or in child processes.

The rules of fault: a bot that raises, answers late, writes garbage, exits, crashes or
makes a move the table refuses has a `Fault`. From then on the table makes its default
moves (the same the clock makes), the game is played to its end so that its record is
whole and replays, and the bot is ranked last (`forfeit`). Every other bot plays on as
if nothing happened, and is never blamed for another's fault.
"""

from __future__ import annotations

import contextlib
import traceback
from collections.abc import Sequence
from typing import Any, Protocol

import msgspec

from bluffdice.games.base import Outcome, visible_to
from bluffdice.protocol.bot import ProcessBot
from bluffdice.protocol.process import BotFault, FaultKind
from bluffdice.table import Entry, Pending, Refused, Table


class Fault(msgspec.Struct, frozen=True):
    """What went wrong with the bot in `seat`: `kind` is timeout, crash, exit, garbage,
    illegal or error (an exception in a bot of this process)."""

    seat: int
    kind: str
    message: str


class Player(Protocol):
    """A seat's player as the fault-aware runner drives it."""

    def begin(self, table: Table, seat: int, seed: int) -> None: ...

    def see(self, table: Table, entry: Entry, seat: int) -> None: ...

    def choose(self, table: Table, pending: Pending) -> tuple[int, Any]:
        """The state id the move answers, and the action."""
        ...

    def refused(self, refusal: Refused) -> None: ...


def _raised(exc: Exception | SystemExit) -> BotFault:
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" at {frames[-1].filename}:{frames[-1].lineno}" if frames else ""
    if isinstance(exc, SystemExit):  # a bot in this process may not end the process
        return BotFault("exit", f"the bot called exit({exc.code!r}){where}")
    return BotFault("error", f"{type(exc).__name__}: {exc}{where}")


class LocalPlayer:
    """A bot object in this process (`act(view)`, optional `observe(events)`)."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self._observe = getattr(agent, "observe", None)

    def begin(self, table: Table, seat: int, seed: int) -> None:
        for entry in table.log:  # what happened before it sat down (who starts)
            self.see(table, entry, seat)

    def see(self, table: Table, entry: Entry, seat: int) -> None:
        if self._observe is None:
            return
        seen = [e for e in entry.events if visible_to(e, seat)]
        if seen:
            try:
                self._observe(seen)
            except (Exception, SystemExit) as exc:
                raise _raised(exc) from None

    def choose(self, table: Table, pending: Pending) -> tuple[int, Any]:
        try:
            return pending.state_id, self.agent.act(pending.view)
        except (Exception, SystemExit) as exc:
            raise _raised(exc) from None

    def refused(self, refusal: Refused) -> None:
        return None


class ProcessPlayer:
    """A bot program in a child process: it gets its seat's encoded messages only."""

    def __init__(self, bot: ProcessBot) -> None:
        self.bot = bot

    def begin(self, table: Table, seat: int, seed: int) -> None:
        self.bot.start(table, seat, seed)

    def see(self, table: Table, entry: Entry, seat: int) -> None:
        update = table.update_for(entry, seat)
        if update is not None:
            self.bot.tell(update)

    def choose(self, table: Table, pending: Pending) -> tuple[int, Any]:
        prompt = table.prompt()
        assert prompt is not None
        move = self.bot.move(prompt)
        return move.state_id, move.action

    def refused(self, refusal: Refused) -> None:
        self.bot.broken = True  # it may wait for an answer that will not come
        with contextlib.suppress(BotFault):
            self.bot.tell(refusal)


def play(table: Table, players: Sequence[Player], seeds: Sequence[int]) -> list[Fault]:
    """Play `table` to its end; the faults, in the order they happened."""
    faults: list[Fault] = []
    failed: set[int] = set()

    def fail(seat: int, fault: BotFault) -> None:
        if seat not in failed:
            failed.add(seat)
            faults.append(Fault(seat, fault.kind, str(fault)))

    def listener(entry: Entry) -> None:
        for seat, player in enumerate(players):
            if seat not in failed:
                try:
                    player.see(table, entry, seat)
                except BotFault as fault:
                    fail(seat, fault)

    for seat, player in enumerate(players):
        try:
            player.begin(table, seat, seeds[seat])
        except BotFault as fault:
            fail(seat, fault)
    table.listeners.append(listener)
    try:
        while (pending := table.pending()) is not None:
            seat = pending.seat
            if seat in failed:
                table.force_default()
                continue
            try:
                state_id, action = players[seat].choose(table, pending)
            except BotFault as fault:
                fail(seat, fault)
                continue
            result = table.submit(seat, state_id, action)
            if isinstance(result, Refused):
                players[seat].refused(result)
                kind: FaultKind = "timeout" if result.code == "too_late" else "illegal"
                reason = f"move {action} refused ({result.code}): {result.reason}"
                fail(seat, BotFault(kind, reason))
    finally:
        table.listeners.remove(listener)
    return faults


def forfeit(outcome: Outcome, failed: Sequence[int], count_losses: bool) -> Outcome:
    """The outcome with the failed seats ranked last (tied), behind everyone who played
    on; the others keep their order. Lives and scores stay what they were."""
    if not failed:
        return outcome
    down = set(failed)
    kept = sorted({p for s, p in enumerate(outcome.places) if s not in down})
    rank = {place: index for index, place in enumerate(kept)}
    last = len(kept)
    places = tuple(last if s in down else rank[p] for s, p in enumerate(outcome.places))
    winners = tuple(s for s, p in enumerate(places) if p == 0 and s not in down)
    losers = tuple(sorted(down if count_losses else set(outcome.losers) | down))
    before = {seat: index for index, seat in enumerate(outcome.standings)}
    standings = tuple(sorted(range(len(places)), key=lambda s: (places[s], before.get(s, s))))
    return msgspec.structs.replace(
        outcome, winners=winners, losers=losers, places=places, standings=standings
    )
