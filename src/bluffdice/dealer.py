"""A game stepped by hand, with its record: for drivers that choose every step themselves.

Games are played at a `bluffdice.table.Table`, which draws the dice and takes moves from
seats. The conformance check (`bluffdice.testing`) and tests that script exact dice need
less: apply the steps they pick and keep the record, which `Game` does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bluffdice.games.base import Event, GameState, visible_to
from bluffdice.games.record import Record, new_record


@dataclass
class Game:
    """A game in progress with its record and the full event log."""

    state: GameState
    start: Record
    steps: list[str] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)

    @classmethod
    def new(cls, rules: Any, players: int) -> Game:
        from bluffdice.games.registry import game_of

        state = game_of(rules).new_game(rules, players)
        return cls(state=state, start=new_record(rules, players))

    @property
    def record(self) -> Record:
        """Rules, players and every step so far: replays to the current state."""
        return Record(
            game=self.start.game,
            rules=self.start.rules,
            players=self.start.players,
            steps=tuple(self.steps),
        )

    def step(self, action: Any) -> tuple[Event, ...]:
        """Apply one action or outcome; on IllegalAction nothing changes."""
        state, events = self.state.apply(action)
        self.state = state
        self.steps.append(str(action))
        self.events.extend(events)
        return events

    def events_for(self, player: int | None) -> list[Event]:
        return [e for e in self.events if visible_to(e, player)]
