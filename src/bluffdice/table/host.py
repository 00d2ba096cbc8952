"""The one host above the table: whose turn, asking, answers, refusals, clocks, pacing.

A `Table` applies or refuses one move and projects each step for each recipient; it
never waits. Everything above it that every front end needs (the terminal, tournaments,
the browser hall, the Mäxchen contest) is here, once:

- ask the seat whose turn it is, through the one seat protocol (`Seat`): a seat
  answers at once (`SyncSeat.move`: a bot in this process, a person at a terminal, a
  bot program on a pipe) or later (`AsyncSeat.ask`, then `Host.offer`: a browser
  connection, a UDP client);
- apply the answer, or refuse it and apply the seat's policy (`Policy`): try again,
  forfeit for the rest of the game, let the table move this once, or stop the game;
- keep the clock: when a seat's time runs out the table makes its default move (or the
  policy stops the game), on a timer the front end lends (`Timers`);
- pace seats for people who watch (`pace`: seconds before such a seat moves);
- tell every seat each step as it may see it (`Table.update_for`, the one projection)
  and hand each step to the listeners that keep or narrate it.

A seat never gets the table: only its welcome, its updates, its prompts and its
refusals, so an adapter cannot show a seat more than the table's projection allows.
"""

from __future__ import annotations

import enum
import functools
import time
from collections.abc import Callable, Sequence
from typing import Literal, Protocol, cast

import msgspec

from bluffdice.games.base import Outcome
from bluffdice.table.entry import Entry
from bluffdice.table.table import Pending, Table
from bluffdice.table.wire import Move, Prompt, Refused, Update, Welcome

FaultKind = Literal["timeout", "crash", "exit", "garbage", "illegal", "error", "left"]


class Fault(msgspec.Struct, frozen=True):
    """What went wrong with the player in `seat`: `kind` is timeout, crash, exit,
    garbage, illegal, error (an exception in a bot of this process) or left."""

    seat: int
    kind: str
    message: str


class SeatFault(Exception):
    """A seat cannot answer (its program died, wrote garbage, raised, timed out...);
    `kind` says how. Raised by adapters; the host applies the seat's policy."""

    def __init__(self, kind: FaultKind, message: str) -> None:
        super().__init__(message)
        self.kind: FaultKind = kind


class Policy(enum.Enum):
    """What the host does when a seat's move is refused, it faults or its time runs out."""

    RETRY = "retry"
    """Tell the seat why and let it move again until its time runs out (people)."""
    FORFEIT = "forfeit"
    """Record a fault; the table makes this seat's moves for the rest of the game
    (tournament bots: the fault is theirs, nobody else's)."""
    DEFAULT = "default"
    """The table makes the default move this once; the seat plays on (house bots)."""
    STOP = "stop"
    """Stop the game with the fault (`HostStopped`): the front end rules on it."""


Hearing = Literal["nothing", "events", "updates"]
"""What a seat is told of each step: nothing (a bot that keeps no memory), the events it
may see (a bot's `observe`), or whole updates with its view (a remote seat)."""


class Seat(Protocol):
    """One player as the host drives it. `hears` and `policy` are read once, when the
    host is made."""

    @property
    def hears(self) -> Hearing: ...

    @property
    def policy(self) -> Policy: ...

    def sit(self, welcome: Welcome) -> None:
        """The game as this seat may know it when it sits down (raises SeatFault)."""
        ...

    def tell(self, update: Update) -> None:
        """One step as this seat may see it (raises SeatFault)."""
        ...

    def refused(self, refusal: Refused) -> None:
        """The host refused this seat's move; nothing changed."""
        ...


class SyncSeat(Seat, Protocol):
    """A seat that answers when asked: a bot in this process, a person at a terminal,
    a bot program behind a pipe (which keeps its own time)."""

    def move(self, prompt: Prompt) -> Move:
        """The seat's move (raises SeatFault)."""
        ...


class AsyncSeat(Seat, Protocol):
    """A seat that answers later, through `Host.offer`: a browser, a UDP client."""

    def ask(self, prompt: Prompt) -> None:
        """Ask for a move; never blocks (a remote seat queues the prompt)."""
        ...


class Timer(Protocol):
    def cancel(self) -> None: ...


Timers = Callable[[float, Callable[[], None]], Timer]
"""`call_later(delay, callback)`: an asyncio loop's, for front ends that wait."""


class HostStopped(Exception):
    """A seat under `Policy.STOP` faulted or was refused; the game stops there. For a
    refused move, `action` and `refusal` say which and why."""

    def __init__(self, fault: Fault, action: object = None, refusal: Refused | None = None) -> None:
        super().__init__(fault.message)
        self.fault = fault
        self.action = action
        self.refusal = refusal


Listener = Callable[[Entry], None]


class Host:
    """Plays one table with its seats: `run()` when every seat answers at once, else
    `start()` with `timers` and feed `offer()`; `ended` callbacks hear the end."""

    def __init__(
        self,
        table: Table,
        seats: Sequence[Seat | None],
        *,
        pace: float | Sequence[float] = 0.0,
        timers: Timers | None = None,
        listeners: Sequence[Listener] = (),
    ) -> None:
        if len(seats) != table.players:
            raise ValueError(f"{len(seats)} seats for a table of {table.players}")
        self.table = table
        self.seats: list[Seat | None] = list(seats)
        self.pace: list[float] = (
            [pace] * table.players if isinstance(pace, int | float) else list(pace)
        )
        self.timers = timers
        self.listeners: list[Listener] = list(listeners)
        self.ended: list[Callable[[Host], None]] = []
        self.turns: list[Callable[[Prompt], None]] = []
        """Told each time a seat's turn begins, with its prompt, before that seat is asked
        (a front end shows everyone whose turn it is); one may `close()` the host there."""
        self.faults: list[Fault] = []
        self.failed: set[int] = set()
        self.stopped: HostStopped | None = None
        self._hears: list[Hearing] = ["nothing"] * table.players
        self._hearing: list[int] = []
        """The seats told each step (`hears` is not "nothing"), in seat order."""
        self._policy: list[Policy] = [Policy.STOP] * table.players
        self._sync: list[bool] = [False] * table.players
        self._asked: Pending | None = None
        self._timers: list[Timer] = []
        self._started = False
        self._over = False
        self._closed = False
        for index, seat in enumerate(self.seats):
            self._learn(index, seat)

    def _learn(self, index: int, seat: Seat | None) -> None:
        self._hears[index] = "nothing" if seat is None else seat.hears
        if (self._hears[index] != "nothing") != (index in self._hearing):
            self._hearing = [i for i, hears in enumerate(self._hears) if hears != "nothing"]
        self._policy[index] = Policy.DEFAULT if seat is None else seat.policy
        self._sync[index] = callable(getattr(seat, "move", None))
        if seat is not None and not self._sync[index] and not callable(getattr(seat, "ask", None)):
            raise TypeError(f"seat {index} ({seat!r}) has neither move() nor ask()")

    # --- driving -----------------------------------------------------------------------

    def run(self) -> Outcome | None:
        """Play to the end with seats that answer at once (no timers: a seat keeps its
        own time). Raises HostStopped when a STOP seat faults; exceptions that are not
        faults (the person typed quit, Ctrl-C) propagate, the game left where it was."""
        try:
            self.start()
        finally:
            self.close()
        if self.stopped is not None:
            raise self.stopped
        return self.table.outcome()

    def start(self) -> None:
        """Sit every seat down and play as far as the game goes without waiting."""
        if self._started:
            raise RuntimeError("the host has started already")
        self._started = True
        self.table.listeners.append(self._step)
        for index in range(self.table.players):
            self._sit(index)
        self._advance()

    def close(self) -> None:
        """Stop listening to the table, cancel every timer and ask no seat again (the game
        stays as it is)."""
        self._closed = True
        self._cancel()
        if self._step in self.table.listeners:
            self.table.listeners.remove(self._step)

    def replace(self, index: int, seat: Seat | None) -> None:
        """Hand seat `index` to another player mid-game (a bot for a person who left):
        it sits down with its welcome and plays on; a fault of the old one is forgiven."""
        self.seats[index] = seat
        self._learn(index, seat)
        self.failed.discard(index)
        if self._started and not self._over:
            self._sit(index)
            if self._asked is not None and self._asked.seat == index:
                self._asked = None
                self._cancel()
            self._advance()

    # --- the one loop ---------------------------------------------------------------------

    def _advance(self) -> None:
        """Ask seats for moves until one must be waited for, or the game ends."""
        table = self.table
        while self.stopped is None:
            if self._closed:
                return
            pending = table.pending()
            if pending is None:
                self._end()
                return
            if self._asked is not None and self._asked.state_id == pending.state_id:
                return  # that seat was asked already; its answer comes through offer()
            seat = self.seats[pending.seat]
            if seat is None or pending.seat in self.failed:
                table.force_default()
                continue
            prompt = None
            if self.turns:
                prompt = table.prompt()
                assert prompt is not None
                for turn in self.turns:
                    turn(prompt)
                if self._closed:
                    return
            pause = self.pace[pending.seat]
            if self._sync[pending.seat]:
                seat = cast(SyncSeat, seat)  # checked once, in _learn
                if self.timers is not None:  # one move per turn of the loop: others run between
                    self._wait(pending, pause, functools.partial(self._answer_now, pending))
                    return
                self._answer(pending, seat)
                if pause > 0 and table.pending() is not None:
                    time.sleep(pause)
                continue
            seat = cast(AsyncSeat, seat)
            self._wait(pending, None, None)
            if prompt is None:
                prompt = table.prompt()
            assert prompt is not None
            try:
                seat.ask(prompt)
            except SeatFault as fault:
                self._fault(pending.seat, fault.kind, str(fault))
            return
        self._end()

    def _wait(self, pending: Pending, pause: float | None, then: Callable[[], None] | None) -> None:
        """Remember whom we wait for; start the clock's timer and the pacing timer."""
        self._asked = pending
        if self._timers:
            self._cancel()
        timers = self.timers
        if timers is None:
            return
        left = self.table.time_left()
        if left is not None:
            self._timers.append(timers(left + 0.01, self._on_clock))
        if pause is not None and then is not None:
            self._timers.append(timers(pause, then))

    def _answer_now(self, pending: Pending) -> None:
        """A paced seat's turn has come (its timer fired)."""
        if self.table.pending() is not pending or self.stopped is not None or self._closed:
            return
        seat = self.seats[pending.seat]
        if seat is not None and self._sync[pending.seat]:
            self._asked = None
            self._cancel()
            self._answer(pending, cast(SyncSeat, seat))
        self._advance()

    def _answer(self, pending: Pending, seat: SyncSeat) -> None:
        prompt = self.table.prompt()
        assert prompt is not None
        try:
            move = seat.move(prompt)
        except SeatFault as fault:
            self._fault(pending.seat, fault.kind, str(fault))
            return
        self._take(pending.seat, move)

    def offer(self, seat: int, move: Move) -> Refused | None:
        """A move from `seat` that arrived on its own (a browser, a UDP client): applied,
        or refused with the reason, which also goes back to the seat. Then the game
        goes on as far as it can. A closed host takes no move."""
        if self._closed:
            return Refused("game_over", "the table is closed", self.table.state_id)
        before = len(self.table.log)
        refusal = self._take(seat, move)
        if len(self.table.log) != before:
            self._asked = None
            if self._timers:
                self._cancel()
            self._advance()
        return refusal

    def _take(self, seat: int, move: Move) -> Refused | None:
        """Submit one move and apply the seat's policy if the table refuses it."""
        result = self.table.submit(seat, move.state_id, move.action)
        if not isinstance(result, Refused):
            return None
        policy = self._policy[seat] if 0 <= seat < len(self._policy) else Policy.RETRY
        player = self.seats[seat] if 0 <= seat < len(self.seats) else None
        if player is not None and policy in (Policy.RETRY, Policy.FORFEIT, Policy.STOP):
            self._guard(seat, lambda: player.refused(result))
        if policy is Policy.RETRY or result.code in ("not_your_turn", "not_your_seat", "game_over"):
            return result  # asked again by the loop (sync seats) or by the seat itself
        kind: FaultKind = "timeout" if result.code == "too_late" else "illegal"
        message = f"move {move.action} refused ({result.code}): {result.reason}"
        self._fault(seat, kind, message, move.action, result)
        return result

    def _fault(
        self,
        seat: int,
        kind: FaultKind,
        message: str,
        action: object = None,
        refusal: Refused | None = None,
    ) -> None:
        """A seat faulted: its policy says what happens next."""
        policy = self._policy[seat]
        fault = Fault(seat, kind, message)
        if policy is Policy.STOP:
            if self.stopped is None:
                self.stopped = HostStopped(fault, action, refusal)
                self._end()
            return
        if policy is Policy.FORFEIT:
            if seat not in self.failed:
                self.failed.add(seat)
                self.faults.append(fault)
            return
        pending = self.table.pending()
        if pending is not None and pending.seat == seat and self.stopped is None:
            self.table.force_default()  # DEFAULT, or RETRY out of time

    def fault(self, seat: int, kind: FaultKind, message: str) -> None:
        """An adapter reports from outside that its seat failed (a dropped client)."""
        self._fault(seat, kind, message)
        if self.stopped is None and not self._over:
            self._advance()

    def _on_clock(self) -> None:
        """The waited-for seat's time ran out: the table moves for it, or its policy stops."""
        pending = self.table.pending()
        if pending is None or self.stopped is not None or self._closed:
            return
        left = self.table.time_left()
        if left is not None and left > 0 and self.timers is not None:  # fired early: wait on
            self._timers.append(self.timers(left, self._on_clock))
            return
        self._asked = None
        self._cancel()
        if self._policy[pending.seat] is Policy.STOP:
            self._fault(pending.seat, "timeout", "the time to move ran out")
            return
        self.table.expire()
        self._advance()

    def _guard(self, seat: int, call: Callable[[], None]) -> None:
        try:
            call()
        except SeatFault as fault:
            self._fault(seat, fault.kind, str(fault))

    def _cancel(self) -> None:
        for timer in self._timers:
            timer.cancel()
        self._timers.clear()

    def _end(self) -> None:
        if self._over:
            return
        self._over = True
        self._asked = None
        self._cancel()
        for callback in self.ended:
            callback(self)

    @property
    def over(self) -> bool:
        return self._over

    # --- what each seat is told -------------------------------------------------------------

    def _sit(self, index: int) -> None:
        seat = self.seats[index]
        if seat is None or index in self.failed:
            return
        hears = self._hears[index]
        if hears == "nothing":
            welcome = Welcome(index, self.table.spec.name, "", self.table.names, (), None)
        else:
            welcome = self.table.welcome(index, views=hears == "updates")
        self._guard(index, lambda: seat.sit(welcome))

    def _step(self, entry: Entry) -> None:
        """Table listener: the step to every listener (the store first), then to each seat
        as it may see it."""
        for listener in self.listeners:
            listener(entry)
        table = self.table
        for index in self._hearing:
            seat = self.seats[index]
            if seat is None or index in self.failed:
                continue
            hears = self._hears[index]
            update = table.update_for(entry, index, views=hears == "updates")
            if update is not None:
                self._guard(index, functools.partial(seat.tell, update))
