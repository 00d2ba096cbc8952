"""`Table`: the one authority that runs one game.

A table owns the game state, the dice, the seats' clocks and the log. Moves come *in*
from seats (a bot in this process, a person at a terminal, a browser, a program on the
network) through `submit(seat, state_id, action)`, and are applied or refused with a
reason; a refused move changes nothing. Chance steps are drawn by the table's dice
source right after the move that calls for them. What each recipient may know leaves
the table through one function, `update_for`, which every outbound path uses: live
updates, reconnects (`welcome`), spectators and replays.

The table never blocks and never sleeps: the host (`table.host`) asks the seats for
their moves, keeps their clocks and tells them what happened.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, Final, NamedTuple

from bluffdice.games.base import (
    CHANCE,
    Event,
    GameState,
    IllegalAction,
    Outcome,
    PrivateEvent,
    visible_to,
)
from bluffdice.games.record import Record
from bluffdice.games.registry import GameSpec, game_of, parse_rules, rules_string
from bluffdice.table.dice import DiceSource, system
from bluffdice.table.entry import Entry
from bluffdice.table.wire import Prompt, RefusalCode, Refused, TimedOut, Update, Welcome

TABLE: Final = -3
"""`Entry.actor` of a move the table made for a seat whose time ran out."""


class Pending(NamedTuple):
    """Whose move the table waits for, and until when (a `clock()` time, or None)."""

    seat: int
    state_id: int
    view: Any
    deadline: float | None


class Accepted(NamedTuple):
    """A move the table applied; `events` is everything it caused, chance steps
    included, as the whole truth (filter with `visible_to` before showing anyone)."""

    state_id: int
    events: tuple[Event, ...]


Listener = Callable[[Entry], None]


class Table:
    """One game: state, dice, seats' clocks, log. See the module docstring."""

    def __init__(
        self,
        rules: Any,
        players: int,
        dice: DiceSource | None = None,
        limits: float | Sequence[float | None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        names: Sequence[str] | None = None,
    ) -> None:
        if isinstance(rules, str):
            rules = parse_rules(rules)
        self.spec: GameSpec = game_of(rules)
        self.rules = rules
        self.players = players
        self.initial: GameState = self.spec.new_game(rules, players)
        self.state: GameState = self.initial
        self.dice: DiceSource = dice if dice is not None else system()
        if limits is None or isinstance(limits, int | float):
            self.limits: tuple[float | None, ...] = (limits,) * players
        else:
            self.limits = tuple(limits)
            if len(self.limits) != players:
                raise ValueError(f"{len(self.limits)} time limits for {players} seats")
        self.clock = clock
        self.names: tuple[str, ...] = tuple(names or (f"player {i}" for i in range(players)))
        self.log: list[Entry] = []
        self.listeners: list[Listener] = []
        self.deadline: float | None = None
        self._pending: Pending | None = None
        self._turn = self.state.current_player  # cached: asked several times per move
        self._views_of: GameState | None = None
        self._views: dict[int | None, Any] = {}
        self._advance()

    # --- what is pending -------------------------------------------------------------

    @property
    def state_id(self) -> int:
        return self.state.state_id

    @property
    def over(self) -> bool:
        return self.state.is_terminal

    def pending(self) -> Pending | None:
        """Whose move it is (None when the game is over)."""
        if self._pending is None:
            state = self.state
            seat = self._turn
            if seat < 0:  # over (chance never waits: the table draws at once)
                return None
            self._pending = Pending(seat, state.state_id, self._view(state, seat), self.deadline)
        return self._pending

    def _view(self, state: GameState, recipient: int | None) -> Any:
        """`state.view(recipient)`, worked out once per recipient for the current state:
        the update of a move and the prompt that follows show the mover the same view."""
        if state is not self.state:
            return state.view(recipient)
        if self._views_of is not state:
            self._views_of, self._views = state, {}
        view = self._views.get(recipient)
        if view is None:
            view = self._views[recipient] = state.view(recipient)
        return view

    def time_left(self) -> float | None:
        return None if self.deadline is None else max(0.0, self.deadline - self.clock())

    def prompt(self) -> Prompt | None:
        """The message that asks the seat to move."""
        pending = self.pending()
        if pending is None:
            return None
        return Prompt(pending.seat, pending.state_id, self.time_left(), pending.view)

    # --- moves from outside --------------------------------------------------------------

    def submit(self, seat: int, state_id: int, action: Any) -> Accepted | Refused:
        """Apply `action` from `seat`, made against `state_id`; or refuse it and change
        nothing. A move after the deadline is refused and the default move made."""
        refusal = self._check(seat, state_id)
        if refusal is not None:
            return refusal
        try:
            step = self.state.apply(action)
        except IllegalAction as exc:
            return self._refuse("illegal", exc.reason)
        return self._accept(seat, action, step.state, step.events)

    def expire(self) -> Accepted | None:
        """If the pending seat's time has run out, make the default move for it."""
        if self.deadline is None or self.state.is_terminal or self.clock() < self.deadline:
            return None
        return self.force_default()

    def force_default(self) -> Accepted:
        """Make the game's default move for the pending seat now, and say so in an event."""
        seat = self._turn
        action = self.state.default_action()
        state, events = self.state.apply(action)
        told = TimedOut(player=seat, action=str(action))
        return self._accept(TABLE, action, state, (told, *events))

    def _check(self, seat: int, state_id: int) -> Refused | None:
        turn = self._turn
        if turn < 0:
            return self._refuse("game_over", "the game is over")
        if type(seat) is not int or not 0 <= seat < self.players:
            return self._refuse("not_your_seat", f"there is no seat {seat!r} at this table")
        if seat != turn:
            return self._refuse("not_your_turn", f"it is {self.names[turn]}'s turn, not yours")
        if type(state_id) is not int or state_id != self.state.state_id:
            return self._refuse(
                "stale",
                f"the move answers state {state_id!r}, but the table is at state "
                f"{self.state.state_id}: look at the new state and move again",
            )
        if self.deadline is not None and self.clock() > self.deadline:
            self.force_default()
            return self._refuse("too_late", "your time ran out; the table moved for you")
        return None

    def _refuse(self, code: RefusalCode, reason: str) -> Refused:
        return Refused(code=code, reason=reason, state_id=self.state.state_id)

    def _accept(
        self, actor: int, action: Any, state: GameState, events: tuple[Event, ...]
    ) -> Accepted:
        start = len(self.log)
        self._record(actor, action, state, events)
        self._advance()
        if len(self.log) > start + 1:  # chance steps followed: report their events too
            events = tuple(e for entry in self.log[start:] for e in entry.events)
        return Accepted(self.state.state_id, events)

    def _record(self, actor: int, action: Any, state: GameState, events: tuple[Event, ...]) -> None:
        if state.state_id != self.state.state_id:
            self.deadline = None  # a new turn; its clock starts in _advance
        self.state = state
        self._turn = state.current_player
        self._pending = None
        private = any(isinstance(e, PrivateEvent) for e in events)
        entry = Entry(actor, action, str(action), events, state, private)
        self.log.append(entry)
        for listener in self.listeners:
            listener(entry)

    def _advance(self) -> None:
        """Draw every chance step now due, then start the clock of the seat to move."""
        state = self.state
        player = self._turn
        while player == CHANCE:
            outcome = self.dice.draw(state)
            state, events = state.apply(outcome)
            self._record(CHANCE, outcome, state, events)
            player = self._turn
        if self.deadline is None and player >= 0:
            limit = self.limits[player]
            if limit is not None:
                self.deadline = self.clock() + limit

    # --- what leaves the table -------------------------------------------------------------

    def update_for(
        self, entry: Entry, recipient: int | None, reveal: bool = False, views: bool = True
    ) -> Update | None:
        """The one projection: `entry` as `recipient` may see it, or None if it shows
        them nothing. `reveal` (replays of finished games) shows everything. Without
        `views` the update carries the events only (a bot in this process keeps its own
        picture of the game; working out every seat's view each step would cost more)."""
        if reveal:
            if not self.state.is_terminal:
                raise ValueError("a game is revealed only when it is over")
            return Update(
                recipient=recipient,
                state_id=entry.state.state_id,
                events=entry.events,
                view=entry.state.view(recipient),
                chance=entry.action if entry.actor == CHANCE else None,
            )
        events = entry.events
        if entry.private:
            events = tuple(e for e in events if visible_to(e, recipient))
        if not events:
            return None
        return Update(
            recipient=recipient,
            state_id=entry.state.state_id,
            events=events,
            view=self._view(entry.state, recipient) if views else None,
        )

    def history(
        self, recipient: int | None, reveal: bool = False, views: bool = True
    ) -> list[Update]:
        """Every update `recipient` has received so far, in order."""
        updates = (self.update_for(entry, recipient, reveal, views) for entry in self.log)
        return [u for u in updates if u is not None]

    def welcome(self, recipient: int | None, views: bool = True) -> Welcome:
        """For a seat that joins late or reconnects: its history and its view now."""
        return Welcome(
            recipient=recipient,
            game=self.spec.name,
            rules=rules_string(self.rules),
            names=self.names,
            history=tuple(self.history(recipient, views=views)),
            view=self._view(self.state, recipient) if views else None,
        )

    # --- results ---------------------------------------------------------------------------

    @property
    def record(self) -> Record:
        """Rules, players and every step: replays to the current state."""
        return Record(
            game=self.spec.name,
            rules=rules_string(self.rules),
            players=self.players,
            steps=tuple(entry.text for entry in self.log),
        )

    def outcome(self) -> Outcome | None:
        return self.state.outcome()
